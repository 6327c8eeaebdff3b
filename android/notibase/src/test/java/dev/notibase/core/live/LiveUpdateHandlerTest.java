package dev.notibase.core.live;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.notibase.core.json.Json;
import dev.notibase.core.outbox.Entry;
import dev.notibase.core.outbox.Outbox;
import dev.notibase.core.receipts.Receipts;
import dev.notibase.core.receipts.RenderReport;
import dev.notibase.testing.ManualClock;
import dev.notibase.testing.MemoryStore;
import dev.notibase.testing.RecordingLogger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;

/** Messages for an activity end to end with a fake screen: what is shown, in what order, and what is reported. */
public final class LiveUpdateHandlerTest {
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    /** The app's preferences: a second handler on the same store is the app after a restart. */
    private final MemoryStore store = new MemoryStore();
    private final Outbox outbox = new Outbox(store);
    private final RecordingLogger logger = new RecordingLogger();
    private final FakeScreen screen = new FakeScreen();
    private String blocked;
    private String token = "fcm-token-1";
    private final AtomicInteger receiptIDs = new AtomicInteger();

    /** The notifications showing, by tag, as NotificationManager keeps them. */
    private static final class FakeScreen implements LiveNotifier {
        final Map<String, LiveCard> showing = new java.util.LinkedHashMap<>();
        final List<LiveCard> posted = new ArrayList<>();
        RuntimeException failure;

        @Override
        public void show(LiveCard card) {
            if (failure != null) throw failure;
            showing.put(card.tag + "/" + card.notificationID, card);
            posted.add(card);
        }

        @Override
        public void remove(LiveCard card) {
            showing.remove(card.tag + "/" + card.notificationID);
        }
    }

    private LiveUpdateHandler handler() {
        Receipts receipts = new Receipts(outbox, store, clock, () -> "r" + receiptIDs.incrementAndGet(), logger);
        return new LiveUpdateHandler(screen, () -> blocked, new LiveTimeline(store), new LiveActivityReports(outbox, () -> token, clock, logger),
                receipts, clock, logger);
    }

    @Test
    public void startThenUpdatesReplaceOneNotificationInPlace() {
        LiveUpdateHandler handler = handler();
        assertEquals(RenderReport.Completion.COMPLETE, handler.handle(LiveMessages.start("order-42", 100)).completion);
        handler.handle(LiveMessages.update("order-42", 101, "Arriving in 5 minutes"));
        handler.handle(LiveMessages.update("order-42", 102, "Arriving now"));
        assertEquals(1, screen.showing.size());
        LiveCard shown = screen.showing.values().iterator().next();
        assertEquals("Arriving now", shown.body);
        assertTrue(shown.ongoing);
        assertEquals(3, screen.posted.size());
    }

    @Test
    public void ignoresAMessageNotNewerThanTheLastAppliedEvenAfterARestart() throws Exception {
        handler().handle(LiveMessages.update("order-42", 200, "Arriving in 5 minutes"));
        RenderReport report = handler().handle(LiveMessages.update("order-42", 199, "Arriving in 12 minutes"));
        RenderReport same = handler().handle(LiveMessages.update("order-42", 200, "Arriving in 12 minutes"));
        assertEquals("Arriving in 5 minutes", screen.showing.values().iterator().next().body);
        assertEquals(1, screen.posted.size());
        assertEquals(RenderReport.Completion.FAILED, report.completion);
        assertEquals(List.of("nb_live_timestamp: 199 is not newer than 200, the last applied to activity order-42; ignored"), report.diagnostics);
        assertEquals(RenderReport.Completion.FAILED, same.completion);
        Map<?, ?> receipt = receipt("d-update-199");
        assertEquals("failed", ((Map<?, ?>) receipt.get("render")).get("completion"));
    }

    @Test
    public void activitiesAreOrderedEachOnItsOwn() {
        LiveUpdateHandler handler = handler();
        handler.handle(LiveMessages.update("order-42", 300, "A"));
        handler.handle(LiveMessages.update("order-43", 5, "B"));
        assertEquals(2, screen.showing.size());
    }

    @Test
    public void anEndRemovesItAtOnceAndReportsEnded() throws Exception {
        LiveUpdateHandler handler = handler();
        handler.handle(LiveMessages.start("order-42", 100));
        handler.handle(LiveMessages.end("order-42", 101, "0"));
        assertTrue(screen.showing.isEmpty());
        Map<?, ?> report = report("live ended order-42");
        assertEquals(Map.of("deviceToken", "fcm-token-1", "kind", "ended", "activityId", "order-42"), report);
        assertEquals("complete", ((Map<?, ?>) receipt("d-end-101").get("render")).get("completion"));
    }

    @Test
    public void anEndDismissedAtATimePassedRemovesItAtOnce() {
        LiveUpdateHandler handler = handler();
        handler.handle(LiveMessages.start("order-42", 100));
        // The core renders "remove at once" as 2001-01-01T00:00:00Z, the earliest date it accepts.
        RenderReport report = handler.handle(LiveMessages.end("order-42", 101, "978307200"));
        assertTrue(screen.showing.isEmpty());
        assertEquals(RenderReport.Completion.COMPLETE, report.completion);
        assertEquals(List.of(), report.diagnostics);
    }

    @Test
    public void anUpdateOfTheProgressAloneKeepsTheTextLastDrawn() {
        LiveUpdateHandler handler = handler();
        handler.handle(LiveMessages.start("order-42", 100));
        Map<String, String> progress = LiveMessages.update("order-42", 101, null);
        progress.remove(LiveKeys.TITLE);
        progress.put(LiveKeys.PROGRESS, "0.6");
        RenderReport report = handler().handle(progress);
        assertEquals(RenderReport.Completion.COMPLETE, report.completion);
        assertEquals(List.of(), report.diagnostics);
        LiveCard shown = screen.showing.values().iterator().next();
        assertEquals("Your order", shown.title);
        assertEquals("Arriving in 12 minutes", shown.body);
        assertEquals(Integer.valueOf(600), shown.progress);
        assertTrue(shown.ongoing);
    }

    @Test
    public void aStartWithoutTextIsDrawnAndItsReceiptSaysSo() throws Exception {
        Map<String, String> start = LiveMessages.start("order-42", 100);
        start.remove(LiveKeys.TITLE);
        start.remove(LiveKeys.BODY);
        RenderReport report = handler().handle(start);
        assertEquals(RenderReport.Completion.COMPLETE, report.completion);
        assertEquals(1, screen.showing.size());
        assertEquals(List.of("nb_live_title: neither nb_live_title nor nb_live_body, and no text drawn before for activity order-42: "
                + "drawn with the app's name only"), report.diagnostics);
        assertEquals(report.diagnostics, ((Map<?, ?>) receipt("d-start-100").get("render")).get("diagnostics"));
    }

    @Test
    public void anEndLeftDismissableIsNoLongerOngoingAndKeepsItsText() {
        LiveUpdateHandler handler = handler();
        handler.handle(LiveMessages.update("order-42", 100, "Delivered"));
        handler().handle(LiveMessages.end("order-42", 101, null));
        LiveCard shown = screen.showing.values().iterator().next();
        assertFalse(shown.ongoing);
        assertEquals("Delivered", shown.body);
    }

    @Test
    public void anUpdateAfterTheEndIsIgnoredButANewerStartBeginsAgain() {
        LiveUpdateHandler handler = handler();
        handler.handle(LiveMessages.start("order-42", 100));
        handler.handle(LiveMessages.end("order-42", 101, "0"));
        RenderReport late = handler.handle(LiveMessages.update("order-42", 102, "Arriving now"));
        assertTrue(screen.showing.isEmpty());
        assertEquals(List.of("nb_live_event: activity order-42 has ended; the update is ignored"), late.diagnostics);
        handler.handle(LiveMessages.start("order-42", 103));
        assertEquals(1, screen.showing.size());
    }

    @Test
    public void aMalformedMessageIsDroppedAndItsReceiptSaysWhy() throws Exception {
        Map<String, String> data = LiveMessages.update("order-42", 100, "Arriving");
        data.put(LiveKeys.CONTENT_STATE, "[]");
        RenderReport report = handler().handle(data);
        assertTrue(screen.posted.isEmpty());
        assertEquals(RenderReport.Completion.FAILED, report.completion);
        Map<?, ?> render = (Map<?, ?>) receipt("d-update-100").get("render");
        assertEquals(List.of("nb_live_content_state: not a JSON object"), render.get("diagnostics"));
        assertTrue(logger.all().contains("live update dropped: malformed"));
        // Dropped, not applied: a correct message with the same timestamp is drawn.
        handler().handle(LiveMessages.update("order-42", 100, "Arriving"));
        assertEquals(1, screen.posted.size());
    }

    @Test
    public void blockedNotificationsAreReportedAndTheStateStillApplied() {
        blocked = "the app may not post notifications: POST_NOTIFICATIONS (Android 13+) was not granted";
        RenderReport report = handler().handle(LiveMessages.update("order-42", 100, "Arriving"));
        assertTrue(screen.posted.isEmpty());
        assertEquals(RenderReport.Completion.FAILED, report.completion);
        assertEquals(List.of(blocked), report.diagnostics);
        blocked = null;
        assertEquals(RenderReport.Completion.FAILED, handler().handle(LiveMessages.update("order-42", 100, "Arriving")).completion);
        assertEquals(RenderReport.Completion.COMPLETE, handler().handle(LiveMessages.update("order-42", 101, "Arriving")).completion);
    }

    @Test
    public void aDrawingFailureIsReportedAndNotApplied() {
        screen.failure = new IllegalStateException("no channel");
        RenderReport report = handler().handle(LiveMessages.update("order-42", 100, "Arriving"));
        assertEquals(List.of("drawing failed: IllegalStateException: no channel"), report.diagnostics);
        screen.failure = null;
        assertEquals(RenderReport.Completion.COMPLETE, handler().handle(LiveMessages.update("order-42", 100, "Arriving")).completion);
    }

    @Test
    public void noEndedReportBeforeTheDeviceHasAToken() {
        token = null;
        handler().handle(LiveMessages.end("order-42", 101, "0"));
        assertTrue(outbox.entries().stream().noneMatch(entry -> entry.path.equals(LiveActivityReports.PATH)));
        assertTrue(logger.all().contains("no device token yet; activity order-42 ended not reported"));
    }

    @Test
    public void aDismissalAtTheDismissalDateIsNotTheUsers() {
        assertTrue(LiveActivityReports.isUserDismissal(1_000, null));
        assertTrue(LiveActivityReports.isUserDismissal(1_000, 2_000L));
        assertFalse(LiveActivityReports.isUserDismissal(2_000, 2_000L));
        assertFalse(LiveActivityReports.isUserDismissal(2_050, 2_000L));
    }

    @Test
    public void aDismissalReportNamesTheDeviceByItsToken() throws Exception {
        new LiveActivityReports(outbox, () -> token, clock, logger).queue("order-42", LiveActivityReports.Kind.DISMISSED);
        assertEquals(Map.of("deviceToken", "fcm-token-1", "kind", "dismissed", "activityId", "order-42"), report("live dismissed order-42"));
        assertFalse("the label is logged: no token in it", outbox.entries().get(0).label.contains("fcm-token"));
    }

    private Map<?, ?> receipt(String deliveryID) throws Exception {
        for (Entry entry : outbox.entries()) {
            if (!entry.path.equals(Receipts.PATH)) continue;
            Map<?, ?> body = (Map<?, ?>) Json.parse(entry.body);
            if (deliveryID.equals(body.get("deliveryId"))) return body;
        }
        throw new AssertionError("no receipt for " + deliveryID + " in " + outbox.entries().size() + " entries");
    }

    private Map<?, ?> report(String id) throws Exception {
        for (Entry entry : outbox.entries()) {
            if (entry.id.equals(id)) {
                assertEquals(LiveActivityReports.PATH, entry.path);
                return (Map<?, ?>) Json.parse(entry.body);
            }
        }
        throw new AssertionError("no report " + id);
    }
}
