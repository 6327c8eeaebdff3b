package dev.notibase.core.receipts;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;

/** Receipts reach {@code POST /v1/receipts} once each, with the payload's signature, and are retried only when retrying can help. */
public final class ReceiptsTest {
    private final MemoryStore store = new MemoryStore();
    private final ManualClock clock = new ManualClock(1_780_000_000_000L);
    private final RecordingLogger logger = new RecordingLogger();
    private final RecordingTransport transport = new RecordingTransport();
    private final AtomicInteger ids = new AtomicInteger();
    private final ReceiptContext signed = new ReceiptContext("d1", "m1", "c2lnLWQx");

    private Receipts receipts(Outbox outbox) {
        return new Receipts(outbox, store, clock, () -> "r" + ids.incrementAndGet(), logger);
    }

    private Sender sender(Outbox outbox) {
        return new Sender(outbox, transport, clock, new Backoff(() -> 1.0), logger, entry -> {});
    }

    private static Map<?, ?> body(RecordingTransport.Request request) throws Exception {
        return (Map<?, ?>) Json.parse(request.body);
    }

    @Test
    public void eachEventIsPostedOnceWithTheSignature() throws Exception {
        Outbox outbox = new Outbox(store);
        Receipts receipts = receipts(outbox);
        RenderReport render = new RenderReport(List.of("track"), true, null, RenderReport.Completion.COMPLETE, 12, List.of());
        assertTrue(receipts.queue(signed, ReceiptEvent.RENDERED, render, null, null));
        assertFalse("FCM delivering the message twice", receipts.queue(signed, ReceiptEvent.RENDERED, render, null, null));
        assertTrue(receipts.queue(signed, ReceiptEvent.ACTION, null, "reply", "Gate 4"));
        assertFalse("a double tap", receipts(new Outbox(store)).queue(signed, ReceiptEvent.ACTION, null, "reply", "Gate 4"));
        sender(outbox).drain();

        assertEquals(2, transport.requests.size());
        Map<?, ?> rendered = body(transport.requests.get(0));
        assertEquals("/v1/receipts", transport.requests.get(0).path);
        assertEquals("r1", rendered.get("id"));
        assertEquals("d1", rendered.get("deliveryId"));
        assertEquals("m1", rendered.get("messageId"));
        assertEquals("rendered", rendered.get("event"));
        assertEquals("2026-05-28T20:26:40Z", rendered.get("occurredAt"));
        assertEquals("c2lnLWQx", rendered.get("signature"));
        assertEquals(Map.of("buttons", List.of("track"), "imageAttached", true, "completion", "complete", "elapsedMilliseconds", 12L),
                rendered.get("render"));
        Map<?, ?> action = body(transport.requests.get(1));
        assertEquals("action", action.get("event"));
        assertEquals("reply", action.get("actionId"));
        assertEquals("Gate 4", action.get("text"));
        assertEquals("c2lnLWQx", action.get("signature"));
        assertFalse("no signature in the log", logger.all().contains("c2lnLWQx"));
        assertEquals(List.of(), outbox.entries());
    }

    @Test
    public void aPayloadWithoutSignatureSendsNone() throws Exception {
        Outbox outbox = new Outbox(store);
        receipts(outbox).queue(new ReceiptContext("d2", null, null), ReceiptEvent.OPENED, null, null, null);
        sender(outbox).drain();
        Map<?, ?> opened = body(transport.requests.get(0));
        assertEquals(List.of("id", "deliveryId", "event", "occurredAt"), List.copyOf(opened.keySet()));
    }

    @Test
    public void aPayloadWithoutDeliveryQueuesNothing() {
        Outbox outbox = new Outbox(store);
        assertFalse(receipts(outbox).queue(new ReceiptContext(null, "m", "s"), ReceiptEvent.OPENED, null, null, null));
        assertEquals(List.of(), outbox.entries());
    }

    @Test
    public void aRefusedReceiptIsDroppedNotRetried() {
        Outbox outbox = new Outbox(store);
        receipts(outbox).queue(signed, ReceiptEvent.DISMISSED, null, null, null);
        transport.answering(403);
        sender(outbox).drain();
        clock.advance(Backoff.MAXIMUM_MILLIS * 2);
        sender(outbox).drain();
        assertEquals(1, transport.requests.size());
        assertEquals(List.of(), outbox.entries());
        assertTrue(logger.all(), logger.all().contains("receipt dismissed for delivery d1 refused by the server (HTTP 403); dropped"));
    }

    @Test
    public void serverErrorsAndNetworkFailuresAreRetriedWithBackoff() {
        Outbox outbox = new Outbox(store);
        Sender sender = sender(outbox);
        receipts(outbox).queue(signed, ReceiptEvent.OPENED, null, null, null);
        transport.answering(503, -1, 429);
        sender.drain();
        assertEquals(1, transport.requests.size());
        clock.advance(1_999);
        sender.drain();
        assertEquals("not before the first backoff step", 1, transport.requests.size());
        clock.advance(1);
        sender.drain();
        assertEquals(2, transport.requests.size());
        clock.advance(4_000);
        sender.drain();
        clock.advance(8_000);
        sender.drain();
        assertEquals(4, transport.requests.size());
        assertEquals(List.of(), outbox.entries());
        assertEquals("the same receipt each time", transport.requests.get(0).body, transport.requests.get(3).body);
    }
}
