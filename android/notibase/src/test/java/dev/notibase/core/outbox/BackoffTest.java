package dev.notibase.core.outbox;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public final class BackoffTest {
    @Test
    public void doublesFromTwoSecondsUpToFifteenMinutes() {
        assertEquals(2_000, Backoff.step(1));
        assertEquals(4_000, Backoff.step(2));
        assertEquals(8_000, Backoff.step(3));
        assertEquals(15 * 60_000, Backoff.step(10));
        assertEquals(15 * 60_000, Backoff.step(1_000));
    }

    @Test
    public void jitterKeepsEachDelayBetweenHalfAndTheWholeStep() {
        assertEquals(1_000, new Backoff(() -> 0.0).delayMillis(1));
        assertEquals(2_000, new Backoff(() -> 1.0).delayMillis(1));
        long middle = new Backoff(() -> 0.5).delayMillis(3);
        assertTrue(middle > 4_000 && middle < 8_000);
    }

    @Test
    public void statusesMapToWhatRetryingCanDo() {
        assertEquals(Outcome.DELIVERED, Outcome.of(201));
        assertEquals(Outcome.DELIVERED, Outcome.of(200));
        assertEquals(Outcome.REJECTED, Outcome.of(400));
        assertEquals(Outcome.REJECTED, Outcome.of(401));
        assertEquals(Outcome.REJECTED, Outcome.of(403));
        assertEquals(Outcome.REJECTED, Outcome.of(404));
        assertEquals(Outcome.RETRY, Outcome.of(408));
        assertEquals(Outcome.RETRY, Outcome.of(429));
        assertEquals(Outcome.RETRY, Outcome.of(500));
        assertEquals(Outcome.RETRY, Outcome.of(503));
    }
}
