package dev.notibase.core.render;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import dev.notibase.core.json.Json;
import dev.notibase.core.outbox.Entry;
import dev.notibase.core.outbox.Outbox;
import dev.notibase.core.payload.NotificationContent;
import dev.notibase.core.payload.PayloadKeys;
import dev.notibase.core.receipts.Receipts;
import dev.notibase.core.receipts.RenderReport;
import dev.notibase.testing.ManualClock;
import dev.notibase.testing.MemoryStore;
import dev.notibase.testing.RecordingLogger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** One message end to end with a fake screen: what is drawn, and the render receipt that says so. */
public final class NotificationHandlerTest {
    private final ManualClock clock = new ManualClock(0);
    private final Outbox outbox = new Outbox(new MemoryStore());
    private final RecordingLogger logger = new RecordingLogger();

    /** A screen that records what it was asked to draw. */
    private static final class FakeNotifier implements Notifier<String> {
        String blocked;
        RuntimeException failure;
        final List<NotificationContent> drawn = new ArrayList<>();
        final List<String> pictures = new ArrayList<>();

        @Override
        public String blockedReason() {
            return blocked;
        }

        @Override
        public List<String> draw(NotificationContent content, String picture) {
            if (failure != null) throw failure;
            drawn.add(content);
            pictures.add(picture);
            List<String> ids = new ArrayList<>();
            content.buttons.forEach(button -> ids.add(button.id));
            return ids;
        }
    }

    private final FakeNotifier notifier = new FakeNotifier();
    private final List<String> loaded = new ArrayList<>();
    private ImageLoader<String> images = url -> {
        loaded.add(url);
        clock.advance(150);
        return ImageResult.of("picture of " + url);
    };

    private NotificationHandler<String> handler() {
        return new NotificationHandler<>(notifier, images, new Receipts(outbox, new MemoryStore(), clock, () -> "r1", logger), clock, logger);
    }

    private static Map<String, String> payload() {
        Map<String, String> data = new HashMap<>();
        data.put(PayloadKeys.TITLE, "Order shipped");
        data.put(PayloadKeys.BODY, "Arriving Thursday");
        data.put(PayloadKeys.BUTTONS, "[{\"id\":\"track\",\"text\":\"Track\"},{\"id\":\"\",\"text\":\"Bad\"},{\"id\":\"cancel\",\"text\":\"Cancel\",\"options\":[]}]");
        data.put(PayloadKeys.IMAGE, "https://cdn.example.com/42.jpg");
        data.put(PayloadKeys.DELIVERY, "d1");
        data.put(PayloadKeys.MESSAGE, "m1");
        data.put(PayloadKeys.SIGNATURE, "sig-d1");
        return data;
    }

    private Map<?, ?> queuedRender() throws Exception {
        List<Entry> entries = outbox.entries();
        assertEquals(1, entries.size());
        Map<?, ?> receipt = (Map<?, ?>) Json.parse(entries.get(0).body);
        assertEquals("rendered", receipt.get("event"));
        assertEquals("sig-d1", receipt.get("signature"));
        return (Map<?, ?>) receipt.get("render");
    }

    @Test
    public void drawsThePayloadAndReportsWhatWasDrawn() throws Exception {
        RenderReport report = handler().handle(payload(), null);
        assertEquals(1, notifier.drawn.size());
        assertEquals("picture of https://cdn.example.com/42.jpg", notifier.pictures.get(0));
        assertEquals(List.of("track", "cancel"), report.buttons);
        assertTrue(report.imageAttached);
        assertEquals(RenderReport.Completion.COMPLETE, report.completion);
        assertEquals(150, report.elapsedMilliseconds);
        Map<?, ?> render = queuedRender();
        assertEquals(List.of("track", "cancel"), render.get("buttons"));
        assertEquals(true, render.get("imageAttached"));
        assertEquals(List.of("nb_buttons[1].id: missing or empty; skipped"), render.get("diagnostics"));
    }

    @Test
    public void aFailedImageStillDrawsTheNotification() throws Exception {
        images = url -> ImageResult.failed("the image server answered HTTP 404");
        handler().handle(payload(), null);
        assertEquals(1, notifier.drawn.size());
        assertNull(notifier.pictures.get(0));
        Map<?, ?> render = queuedRender();
        assertEquals(false, render.get("imageAttached"));
        assertEquals("the image server answered HTTP 404", render.get("imageFailure"));
        assertEquals("complete", render.get("completion"));
    }

    @Test
    public void aNonHTTPSImageIsNeverLoaded() throws Exception {
        Map<String, String> data = payload();
        data.put(PayloadKeys.IMAGE, "http://cdn.example.com/42.jpg");
        handler().handle(data, null);
        assertEquals(List.of(), loaded);
        assertEquals("the image URL is not https with a host", queuedRender().get("imageFailure"));
    }

    @Test
    public void blockedNotificationsAreReportedAsFailed() throws Exception {
        notifier.blocked = "the app may not post notifications: POST_NOTIFICATIONS (Android 13+) was not granted";
        RenderReport report = handler().handle(payload(), null);
        assertEquals(List.of(), notifier.drawn);
        assertEquals(List.of(), loaded);
        assertEquals(RenderReport.Completion.FAILED, report.completion);
        Map<?, ?> render = queuedRender();
        assertEquals("failed", render.get("completion"));
        assertEquals(List.of(), render.get("buttons"));
        assertTrue(render.get("diagnostics").toString().contains("POST_NOTIFICATIONS"));
    }

    @Test
    public void aDrawingFailureIsReportedNotThrown() throws Exception {
        notifier.failure = new IllegalArgumentException("Invalid notification (no valid small icon)");
        RenderReport report = handler().handle(payload(), null);
        assertEquals(RenderReport.Completion.FAILED, report.completion);
        assertTrue(queuedRender().get("diagnostics").toString()
                .contains("drawing failed: IllegalArgumentException: Invalid notification (no valid small icon)"));
    }

    @Test
    public void aThrowingImageLoaderIsContained() throws Exception {
        images = url -> {
            throw new IllegalStateException("boom");
        };
        handler().handle(payload(), null);
        assertEquals(1, notifier.drawn.size());
        assertEquals("the image loader failed: IllegalStateException", queuedRender().get("imageFailure"));
    }

    @Test
    public void garbageNeverThrows() {
        Map<String, String> data = new HashMap<>();
        data.put(PayloadKeys.BUTTONS, "\u0000{[\"");
        data.put(PayloadKeys.BADGE, "many");
        data.put(PayloadKeys.IMAGE, "javascript:alert(1)");
        RenderReport report = handler().handle(data, null);
        assertEquals(RenderReport.Completion.COMPLETE, report.completion);
        assertFalse(report.diagnostics.isEmpty());
        assertEquals("no nb_delivery: no receipt", List.of(), outbox.entries());
    }
}
