package dev.notibase.core.outbox;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import dev.notibase.testing.MemoryStore;
import java.util.List;
import org.junit.Test;

public final class OutboxTest {
    @Test
    public void survivesARestartWithItsBackoffState() {
        MemoryStore store = new MemoryStore();
        Outbox before = new Outbox(store);
        before.add(new Entry("a", "receipt", "/v1/receipts", "{\"x\":\"é\\n\"}", 0, 100));
        Entry sent = before.nextDue(100);
        before.finished(sent, Outcome.RETRY, 100, new Backoff(() -> 1.0));

        Outbox after = new Outbox(store);
        List<Entry> entries = after.entries();
        assertEquals(1, entries.size());
        assertEquals("{\"x\":\"é\\n\"}", entries.get(0).body);
        assertEquals(1, entries.get(0).failures);
        assertEquals(2_100, after.nextAttemptAt());
        assertNull(after.nextDue(2_099));
    }

    @Test
    public void anUnreadableSavedFormStartsEmpty() {
        MemoryStore store = new MemoryStore();
        store.put(Outbox.STORE_KEY, "[{\"id\":");
        assertEquals(List.of(), new Outbox(store).entries());
    }

    @Test
    public void keepsTheNewestWithinItsCapacity() {
        Outbox outbox = new Outbox(new MemoryStore());
        for (int i = 0; i < Outbox.CAPACITY + 5; i++) outbox.add(new Entry("e" + i, "receipt", "/v1/receipts", "{}", 0, 0));
        assertEquals(Outbox.CAPACITY, outbox.entries().size());
        assertEquals("e5", outbox.entries().get(0).id);
    }

    @Test
    public void anEntryReplacedWhileInFlightIsNotRemovedByTheOldAnswer() {
        Outbox outbox = new Outbox(new MemoryStore());
        outbox.add(new Entry("registration", "registration", "/v1/devices", "{\"tags\":[\"a\"]}", 0, 0));
        Entry inFlight = outbox.nextDue(0);
        outbox.add(new Entry("registration", "registration", "/v1/devices", "{\"tags\":[\"b\"]}", 0, 0));
        outbox.finished(inFlight, Outcome.DELIVERED, 0, new Backoff(() -> 1.0));
        assertEquals("{\"tags\":[\"b\"]}", outbox.nextDue(0).body);
    }
}
