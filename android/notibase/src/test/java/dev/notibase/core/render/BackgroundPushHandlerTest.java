package dev.notibase.core.render;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import dev.notibase.core.json.Json;
import dev.notibase.core.outbox.Entry;
import dev.notibase.core.outbox.Outbox;
import dev.notibase.core.payload.PayloadKeys;
import dev.notibase.core.receipts.Receipts;
import dev.notibase.testing.ManualClock;
import dev.notibase.testing.MemoryStore;
import dev.notibase.testing.RecordingLogger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** Issue 46: a silent background push goes to the app's listener, is reported received, and is never drawn. */
public final class BackgroundPushHandlerTest {
    private final ManualClock clock = new ManualClock(1_000);
    private final Outbox outbox = new Outbox(new MemoryStore());
    private final RecordingLogger logger = new RecordingLogger();
    private final BackgroundPushHandler handler = new BackgroundPushHandler(new Receipts(outbox, new MemoryStore(), clock, () -> "r1", logger), logger);

    /** The data message FCMRenderer makes for {"background": true, "data": {"sync": "inbox"}}. */
    private static Map<String, String> payload() {
        Map<String, String> data = new HashMap<>();
        data.put(PayloadKeys.BACKGROUND, "1");
        data.put("sync", "inbox");
        data.put(PayloadKeys.DELIVERY, "d1");
        data.put(PayloadKeys.MESSAGE, "m1");
        data.put(PayloadKeys.SIGNATURE, "sig-d1");
        return data;
    }

    @Test
    public void onlyTheMarkedMessageIsABackgroundPush() {
        assertTrue(BackgroundPushHandler.isBackground(payload()));
        Map<String, String> alert = payload();
        alert.remove(PayloadKeys.BACKGROUND);
        alert.put(PayloadKeys.TITLE, "Hi");
        assertFalse(BackgroundPushHandler.isBackground(alert));
        assertFalse(BackgroundPushHandler.isBackground(null));
    }

    @Test
    public void theListenerGetsTheCustomDataAndAReceivedReceiptIsQueued() throws Exception {
        List<Map<String, String>> heard = new ArrayList<>();
        handler.setListener(heard::add);
        handler.handle(payload());
        assertEquals(1, heard.size());
        assertEquals(Map.of("sync", "inbox"), heard.get(0));

        List<Entry> entries = outbox.entries();
        assertEquals(1, entries.size());
        Map<?, ?> receipt = (Map<?, ?>) Json.parse(entries.get(0).body);
        assertEquals("received", receipt.get("event"));
        assertEquals("d1", receipt.get("deliveryId"));
        assertEquals("m1", receipt.get("messageId"));
        assertEquals("sig-d1", receipt.get("signature"));
        assertNull(receipt.get("render"));
    }

    @Test
    public void aThrowingListenerIsLoggedAndTheReceiptStillGoes() {
        handler.setListener(data -> {
            throw new IllegalStateException("boom");
        });
        handler.handle(payload());
        assertEquals(1, outbox.entries().size());
        assertTrue(logger.all().contains("warn: the background push listener failed: IllegalStateException"));
    }

    @Test
    public void theSamePushTwiceIsReportedOnce() {
        handler.handle(payload());
        handler.handle(payload());
        assertEquals(1, outbox.entries().size());
    }
}
