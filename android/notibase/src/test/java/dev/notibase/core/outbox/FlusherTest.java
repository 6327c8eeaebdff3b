package dev.notibase.core.outbox;

import static org.junit.Assert.assertEquals;

import dev.notibase.core.Clock;
import dev.notibase.core.Logger;
import dev.notibase.testing.MemoryStore;
import dev.notibase.testing.RecordingTransport;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.Test;

/** The shell retries on its own, on a real thread and clock, until the outbox is empty. */
public final class FlusherTest {
    @Test(timeout = 10_000)
    public void retriesInTheBackgroundUntilSent() throws Exception {
        Outbox outbox = new Outbox(new MemoryStore());
        RecordingTransport transport = new RecordingTransport().answering(500);
        Sender sender = new Sender(outbox, transport, Clock.SYSTEM, new Backoff(() -> 0.0), Logger.NONE, entry -> {});
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        try {
            outbox.add(new Entry("r", "receipt", "/v1/receipts", "{}", 0, Clock.SYSTEM.nowMillis()));
            Flusher flusher = new Flusher(sender, executor, Clock.SYSTEM);
            flusher.kick();
            flusher.kick();
            while (!outbox.entries().isEmpty()) Thread.sleep(20);
            assertEquals("one failure, then one success 1 s later", 2, transport.requests.size());
        } finally {
            executor.shutdownNow();
        }
    }
}
