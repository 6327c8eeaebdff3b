package dev.notibase.core.registration;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import dev.notibase.core.json.Json;
import dev.notibase.core.outbox.Backoff;
import dev.notibase.core.outbox.Outbox;
import dev.notibase.core.outbox.Sender;
import dev.notibase.testing.ManualClock;
import dev.notibase.testing.MemoryStore;
import dev.notibase.testing.RecordingLogger;
import dev.notibase.testing.RecordingTransport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

/** The registration reaches {@code POST /v1/devices} across restarts and failures, with every field the app set. */
public final class RegistrarTest {
    private static final String TOKEN = "fcm-token-aaaaaaaaaaaaaaaaaaaa";
    private static final String IDENTITY = "eyJ1c2VyIjoiNDIifQ.c2lnbmF0dXJl";
    private static final String BOB_IDENTITY = "eyJ1c2VyIjoiYm9iIn0.c2lnbmF0dXJl";
    /** A zone of tzdata 2022g, which an older server's database does not know. */
    private static final String NEW_ZONE = "America/Ciudad_Juarez";

    private final MemoryStore store = new MemoryStore();
    private final ManualClock clock = new ManualClock(0);
    private final RecordingLogger logger = new RecordingLogger();
    private final RecordingTransport transport = new RecordingTransport();

    /** One app launch: a fresh SDK on the same store. */
    private final class Launch {
        final Outbox outbox = new Outbox(store);
        final Registrar registrar = new Registrar(store, outbox, clock, logger);
        final Sender sender = new Sender(outbox, transport, clock, new Backoff(() -> 1.0), logger, registrar::delivered,
                registrar::refused);
    }

    private Map<?, ?> lastBody() throws Exception {
        return body(transport.requests.size() - 1);
    }

    private Map<?, ?> body(int request) throws Exception {
        return (Map<?, ?>) Json.parse(transport.requests.get(request).body);
    }

    /** One app launch on a device in {@code zone} that has its FCM token. */
    private Launch launchIn(String zone) {
        Launch launch = new Launch();
        launch.registrar.setDevice("es-MX", zone, "3.1", "0.1.0");
        launch.registrar.setToken(TOKEN);
        return launch;
    }

    /** The server's 400 for a registration field it refuses (APIError). */
    private static String refusing(String field) {
        return "{\"error\":{\"code\":\"invalid_field\",\"message\":\"not accepted\",\"field\":\"" + field + "\"}}";
    }

    @Test
    public void sendsEveryFieldWithTheIdentityTokenAndNeverLogsTheSecrets() throws Exception {
        Launch launch = new Launch();
        launch.registrar.setDevice("fr-FR", "Europe/Paris", "3.1", "0.1.0");
        launch.registrar.setExternalUserID("user-42", IDENTITY);
        launch.registrar.setTags(Set.of("vip", "news"));
        assertEquals("nothing before FCM gave a token", List.of(), launch.outbox.entries());
        launch.registrar.setToken(TOKEN);
        launch.sender.drain();

        assertEquals(1, transport.requests.size());
        assertEquals("/v1/devices", transport.requests.get(0).path);
        assertEquals(Map.of("platform", "android", "token", TOKEN, "externalUserId", "user-42", "externalUserIdToken", IDENTITY,
                "tags", List.of("news", "vip"), "locale", "fr-FR", "timeZone", "Europe/Paris", "appVersion", "3.1", "sdkVersion", "0.1.0"),
                lastBody());
        assertFalse(logger.all(), logger.all().contains(IDENTITY));
        assertFalse(logger.all(), logger.all().contains(TOKEN));
    }

    @Test
    public void survivesARestartAndBacksOff() {
        Launch first = new Launch();
        first.registrar.setToken(TOKEN);
        transport.answering(-1, 502);
        first.sender.drain();
        assertEquals(1, transport.requests.size());

        Launch second = new Launch();
        second.sender.drain();
        assertEquals("the failed attempt's backoff is kept across the restart", 1, transport.requests.size());
        clock.advance(2_000);
        second.sender.drain();
        assertEquals(2, transport.requests.size());
        clock.advance(3_999);
        second.sender.drain();
        assertEquals(2, transport.requests.size());
        clock.advance(1);
        second.sender.drain();
        assertEquals(3, transport.requests.size());
        assertEquals(List.of(), second.outbox.entries());

        Launch third = new Launch();
        third.registrar.setToken(TOKEN);
        third.registrar.setDevice(null, null, null, null);
        assertEquals("nothing changed: nothing sent again", List.of(), third.outbox.entries());
    }

    @Test
    public void aNewTokenRetiresThePreviousOneOnce() throws Exception {
        Launch launch = new Launch();
        launch.registrar.setToken("token-one-xxxxxxxx");
        launch.sender.drain();
        launch.registrar.setToken("token-two-xxxxxxxx");
        launch.sender.drain();
        assertEquals("token-one-xxxxxxxx", lastBody().get("previousToken"));
        assertNull(launch.registrar.wanted().previousToken);
        launch.registrar.setTags(Set.of("a"));
        launch.sender.drain();
        assertNull(lastBody().get("previousToken"));
        assertEquals("token-two-xxxxxxxx", lastBody().get("token"));
    }

    @Test
    public void aNewerChangeReplacesAPendingOne() throws Exception {
        Launch launch = new Launch();
        launch.registrar.setToken(TOKEN);
        launch.registrar.setTags(Set.of("a"));
        launch.registrar.setTags(Set.of("b"));
        assertEquals(1, launch.outbox.entries().size());
        launch.sender.drain();
        assertEquals(1, transport.requests.size());
        assertEquals(List.of("b"), lastBody().get("tags"));
    }

    @Test
    public void signingOutDropsTheIdentityToken() throws Exception {
        Launch launch = new Launch();
        launch.registrar.setToken(TOKEN);
        launch.registrar.setExternalUserID("user-42", IDENTITY);
        launch.registrar.setExternalUserID(null, IDENTITY);
        launch.sender.drain();
        assertNull(lastBody().get("externalUserIdToken"));
    }

    @Test
    public void aRefusedRegistrationIsDropped() {
        Launch launch = new Launch();
        launch.registrar.setToken(TOKEN);
        transport.answering(400);
        launch.sender.drain();
        clock.advance(Backoff.MAXIMUM_MILLIS);
        launch.sender.drain();
        assertEquals(1, transport.requests.size());
    }

    @Test
    public void aZoneTheServerDoesNotKnowCostsTheZoneNotTheRegistration() throws Exception {
        Launch launch = new Launch();
        launch.registrar.setDevice("es-MX", NEW_ZONE, "3.1", "0.1.0");
        launch.registrar.setExternalUserID("user-42", IDENTITY);
        launch.registrar.setTags(Set.of("vip"));
        launch.registrar.setToken(TOKEN);
        transport.answering(400, refusing("timeZone"));
        launch.sender.drain();

        assertEquals("sent again at once", 2, transport.requests.size());
        assertEquals("/v1/devices", transport.requests.get(1).path);
        Map<Object, Object> withoutZone = new HashMap<>(body(0));
        assertEquals(NEW_ZONE, withoutZone.remove("timeZone"));
        assertEquals("everything else as it was", withoutZone, body(1));
        assertEquals(List.of(), launch.outbox.entries());
        assertTrue(logger.all(), logger.all().contains("registration sent (HTTP 201)"));
        assertFalse(logger.all(), logger.all().contains(IDENTITY));
        assertFalse(logger.all(), logger.all().contains(TOKEN));

        Launch next = new Launch();
        next.registrar.setDevice("es-MX", null, "3.1", "0.1.0");
        assertEquals("the server has it without a zone: nothing to send for a device without one", List.of(), next.outbox.entries());
    }

    @Test
    public void theNextStartOffersTheZoneAgain() throws Exception {
        transport.answering(400, refusing("timeZone"));
        launchIn(NEW_ZONE).sender.drain();
        assertEquals(2, transport.requests.size());

        launchIn(NEW_ZONE).sender.drain();  // the server's time-zone database learned the zone meanwhile
        assertEquals(3, transport.requests.size());
        assertEquals(NEW_ZONE, lastBody().get("timeZone"));
        assertEquals("registered with its zone: nothing sent again", List.of(), launchIn(NEW_ZONE).outbox.entries());
    }

    @Test
    public void aRefusalNamingAnotherFieldIsDroppedAsBefore() {
        Launch launch = launchIn(NEW_ZONE);
        transport.answering(400, refusing("externalUserIdToken"));
        launch.sender.drain();
        clock.advance(Backoff.MAXIMUM_MILLIS);
        launch.sender.drain();
        assertEquals(1, transport.requests.size());
        assertEquals(List.of(), launch.outbox.entries());
    }

    @Test
    public void aRegistrationWithoutAZoneRefusedForItsZoneIsDropped() throws Exception {
        Launch launch = launchIn(NEW_ZONE);
        transport.answering(400, refusing("timeZone"));
        transport.answering(400, refusing("timeZone"));
        launch.sender.drain();
        clock.advance(Backoff.MAXIMUM_MILLIS);
        launch.sender.drain();
        assertEquals("the zone-less one is not sent a third time", 2, transport.requests.size());
        assertNull(lastBody().get("timeZone"));
        assertEquals(List.of(), launch.outbox.entries());
    }

    // Issue 29: setExternalUserId(context, null) signs the user out on the server too, at once,
    // retried through the outbox until it lands; a sign-in after it ends signed in.

    /**
     * The user the server holds for the device after the requests that reached it, in order, as
     * the server applies them: a registration with a user sets it (without one it keeps the stored
     * one), a sign-out clears it. A test removes the requests that failed on the network first.
     */
    private String userOnTheServer() throws Exception {
        Map<String, String> users = new HashMap<>();
        for (RecordingTransport.Request request : transport.requests) {
            Map<?, ?> body = (Map<?, ?>) Json.parse(request.body);
            String token = (String) body.get("token");
            if (request.path.equals(Registration.SIGN_OUT_PATH)) {
                users.put(token, null);
            } else if (body.get("externalUserId") != null) {
                users.put(token, (String) body.get("externalUserId"));
            }
        }
        return users.get(TOKEN);
    }

    /** A launch whose registration as alice reached the server. */
    private Launch signedInAsAlice() {
        Launch launch = new Launch();
        launch.registrar.setToken(TOKEN);
        launch.registrar.setExternalUserID("alice", IDENTITY);
        launch.sender.drain();
        return launch;
    }

    private List<String> paths() {
        List<String> paths = new ArrayList<>();
        for (RecordingTransport.Request request : transport.requests) paths.add(request.path);
        return paths;
    }

    @Test
    public void signingOutClearsTheUserOnTheServerWithoutAnIdentityToken() throws Exception {
        Launch launch = signedInAsAlice();
        assertEquals("alice", userOnTheServer());

        launch.registrar.setExternalUserID(null, null);
        launch.sender.drain();
        assertEquals(List.of("/v1/devices", "/v1/devices/sign-out", "/v1/devices"), paths());
        assertEquals(Map.of("platform", "android", "token", TOKEN), Json.parse(transport.requests.get(1).body));
        assertNull(userOnTheServer());
        assertEquals(List.of(), launch.outbox.entries());
    }

    @Test
    public void aSignOutIsRetriedUntilItLandsAndASignInAfterItWaitsForIt() throws Exception {
        Launch first = signedInAsAlice();

        // Offline: alice signs out, bob signs in.
        transport.answering(-1);
        first.registrar.setExternalUserID(null, null);
        first.registrar.setExternalUserID("bob", BOB_IDENTITY);
        first.sender.drain();
        assertEquals("the registration waits behind the sign-out being retried", List.of("/v1/devices", "/v1/devices/sign-out"), paths());
        assertEquals(2, first.outbox.entries().size());

        // The next launch, once the sign-out's retry is due: it lands first, then bob's registration.
        clock.advance(Backoff.MAXIMUM_MILLIS);
        Launch second = new Launch();
        second.sender.drain();
        assertEquals(List.of("/v1/devices", "/v1/devices/sign-out", "/v1/devices/sign-out", "/v1/devices"), paths());
        // The second request failed on the network: it never reached the server.
        transport.requests.remove(1);
        assertEquals("bob", userOnTheServer());
        assertEquals(List.of(), second.outbox.entries());
    }

    @Test
    public void withoutATokenThereIsNothingToSignOut() {
        Launch launch = new Launch();
        launch.registrar.setExternalUserID("alice", IDENTITY);
        launch.registrar.setExternalUserID(null, null);
        launch.sender.drain();
        assertEquals(List.of(), transport.requests.stream().map(request -> request.path).toList());
    }
}
