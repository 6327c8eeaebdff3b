package dev.notibase.core.registration;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;

import dev.notibase.core.json.Json;
import dev.notibase.core.outbox.Backoff;
import dev.notibase.core.outbox.Outbox;
import dev.notibase.core.outbox.Sender;
import dev.notibase.testing.ManualClock;
import dev.notibase.testing.MemoryStore;
import dev.notibase.testing.RecordingLogger;
import dev.notibase.testing.RecordingTransport;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

/** The registration reaches {@code POST /v1/devices} across restarts and failures, with every field the app set. */
public final class RegistrarTest {
    private static final String TOKEN = "fcm-token-aaaaaaaaaaaaaaaaaaaa";
    private static final String IDENTITY = "eyJ1c2VyIjoiNDIifQ.c2lnbmF0dXJl";

    private final MemoryStore store = new MemoryStore();
    private final ManualClock clock = new ManualClock(0);
    private final RecordingLogger logger = new RecordingLogger();
    private final RecordingTransport transport = new RecordingTransport();

    /** One app launch: a fresh SDK on the same store. */
    private final class Launch {
        final Outbox outbox = new Outbox(store);
        final Registrar registrar = new Registrar(store, outbox, clock, logger);
        final Sender sender = new Sender(outbox, transport, clock, new Backoff(() -> 1.0), logger, registrar::delivered);
    }

    private Map<?, ?> lastBody() throws Exception {
        return (Map<?, ?>) Json.parse(transport.requests.get(transport.requests.size() - 1).body);
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
}
