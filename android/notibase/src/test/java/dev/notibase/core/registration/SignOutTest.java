package dev.notibase.core.registration;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

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
import org.junit.Test;

/**
 * Issue 29: {@code setExternalUserId(context, null)} signs the user out on the server too, at once,
 * retried through the outbox until it lands; a sign-in after it ends signed in.
 */
public final class SignOutTest {
    private static final String TOKEN = "fcm-token-bbbbbbbbbbbbbbbbbbbb";
    private static final String ALICE = "eyJ1c2VyIjoiYWxpY2UifQ.c2lnbmF0dXJl";
    private static final String BOB = "eyJ1c2VyIjoiYm9iIn0.c2lnbmF0dXJl";

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

    private List<String> paths() {
        List<String> paths = new ArrayList<>();
        for (RecordingTransport.Request request : transport.requests) paths.add(request.path);
        return paths;
    }

    @Test
    public void signingOutClearsTheUserOnTheServerWithoutAnIdentityToken() throws Exception {
        Launch launch = new Launch();
        launch.registrar.setToken(TOKEN);
        launch.registrar.setExternalUserID("alice", ALICE);
        launch.sender.drain();
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
        Launch first = new Launch();
        first.registrar.setToken(TOKEN);
        first.registrar.setExternalUserID("alice", ALICE);
        first.sender.drain();

        // Offline: alice signs out, bob signs in.
        transport.answering(-1);
        first.registrar.setExternalUserID(null, null);
        first.registrar.setExternalUserID("bob", BOB);
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
        launch.registrar.setExternalUserID("alice", ALICE);
        launch.registrar.setExternalUserID(null, null);
        launch.sender.drain();
        assertEquals(List.of(), transport.requests.stream().map(request -> request.path).toList());
    }
}
