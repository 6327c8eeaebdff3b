package dev.notibase.core.outbox;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import dev.notibase.testing.MemoryStore;
import java.util.ArrayList;
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

    @Test
    public void aCorrectedEntryTakesTheRefusedOnesPlaceOnlyWhenItIsStillThere() {
        MemoryStore store = new MemoryStore();
        Outbox outbox = new Outbox(store);
        outbox.add(new Entry("registration", "registration", "/v1/devices", "{\"timeZone\":\"X/Y\"}", 0, 0));
        outbox.add(new Entry("r1", "receipt", "/v1/receipts", "{}", 0, 0));
        Entry refused = outbox.nextDue(0);
        assertTrue(outbox.replace(refused, new Entry("registration", "registration", "/v1/devices", "{}", 0, 5)));
        assertEquals("in its place, and kept across a restart", List.of("registration {}", "r1 {}"), summaries(new Outbox(store)));

        Entry corrected = outbox.nextDue(5);
        outbox.add(new Entry("registration", "registration", "/v1/devices", "{\"tags\":[\"b\"]}", 0, 5));
        assertFalse(outbox.replace(corrected, new Entry("registration", "registration", "/v1/devices", "{\"x\":1}", 0, 5)));
        assertEquals("a newer registration is not overwritten", List.of("r1 {}", "registration {\"tags\":[\"b\"]}"), summaries(outbox));
    }

    private static List<String> summaries(Outbox outbox) {
        List<String> summaries = new ArrayList<>();
        for (Entry entry : outbox.entries()) summaries.add(entry.id + " " + entry.body);
        return summaries;
    }
}
