package dev.notibase.core.outbox;

import dev.notibase.core.json.Json;
import dev.notibase.core.json.JsonException;
import dev.notibase.core.json.JsonWriter;
import dev.notibase.core.store.Store;
import java.util.ArrayList;
import java.util.List;

/**
 * Requests waiting to reach the server, kept in a {@link Store} after every change so that a
 * registration or a receipt survives the app being killed or the phone restarting. A pure state
 * machine: {@link Sender} does the I/O.
 *
 * <p>Bounded to {@link #CAPACITY} entries: when the server is unreachable for days, the oldest are
 * dropped rather than growing the app's preferences without end.
 */
public final class Outbox {
    public static final int CAPACITY = 200;
    static final String STORE_KEY = "notibase.outbox";

    private final Store store;
    private final List<Entry> entries = new ArrayList<>();

    /** The outbox saved in {@code store}; an unreadable saved form starts empty. */
    public Outbox(Store store) {
        this.store = store;
        String saved = store.get(STORE_KEY);
        if (saved == null) return;
        try {
            Object parsed = Json.parse(saved);
            if (parsed instanceof List) {
                for (Object element : (List<?>) parsed) {
                    Entry entry = Entry.fromJSON(element);
                    if (entry != null) entries.add(entry);
                }
            }
        } catch (JsonException unreadable) {
            store.put(STORE_KEY, null);
        }
    }

    /** Adds {@code entry}, replacing one with the same id. */
    public synchronized void add(Entry entry) {
        entries.removeIf(existing -> existing.id.equals(entry.id));
        entries.add(entry);
        while (entries.size() > CAPACITY) entries.remove(0);
        save();
    }

    /**
     * The entry to send now: the oldest whose time has come, or null. Requests about the device
     * ({@link #keepsOrder}) never overtake one another: only the first of them queued may go (a
     * registration after a sign-out lands after it, even while the sign-out waits to be retried).
     */
    public synchronized Entry nextDue(long now) {
        for (Entry entry : sendable()) {
            if (entry.notBefore <= now) return entry;
        }
        return null;
    }

    /** When the next entry is due, or -1 when the outbox is empty. */
    public synchronized long nextAttemptAt() {
        long next = -1;
        for (Entry entry : sendable()) {
            if (next < 0 || entry.notBefore < next) next = entry.notBefore;
        }
        return next;
    }

    /** Whether {@code entry} is about the device ({@code /v1/devices…}: registration, sign-out): sent in the order queued. */
    static boolean keepsOrder(Entry entry) {
        return entry.path.startsWith("/v1/devices");
    }

    /** The entries that may go next, oldest first: all but the requests about the device queued after the first. */
    private List<Entry> sendable() {
        List<Entry> sendable = new ArrayList<>();
        boolean deviceFirst = false;
        for (Entry entry : entries) {
            if (keepsOrder(entry)) {
                if (deviceFirst) continue;
                deviceFirst = true;
            }
            sendable.add(entry);
        }
        return sendable;
    }

    /**
     * Records an attempt of {@code sent}. An entry replaced while it was being sent (a newer
     * registration) is left alone: only the newer one matters.
     */
    public synchronized void finished(Entry sent, Outcome outcome, long now, Backoff backoff) {
        int index = indexOf(sent);
        if (index < 0) return;
        if (outcome == Outcome.RETRY) {
            entries.set(index, sent.failed(now + backoff.delayMillis(sent.failures + 1)));
        } else {
            entries.remove(index);
        }
        save();
    }

    /**
     * Puts {@code replacement} (same id) in the place of the refused {@code sent}, due at once;
     * false, and nothing changed, when {@code sent} was replaced while it was being sent (a newer
     * registration then matters, not a corrected older one).
     */
    public synchronized boolean replace(Entry sent, Entry replacement) {
        if (!replacement.id.equals(sent.id)) throw new IllegalArgumentException("a replacement keeps the entry's id");
        int index = indexOf(sent);
        if (index < 0) return false;
        entries.set(index, replacement);
        save();
        return true;
    }

    /** Everything waiting, oldest first. */
    public synchronized List<Entry> entries() {
        return new ArrayList<>(entries);
    }

    private int indexOf(Entry sent) {
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            if (entry.id.equals(sent.id) && entry.body.equals(sent.body)) return i;
        }
        return -1;
    }

    private void save() {
        List<Object> list = new ArrayList<>();
        for (Entry entry : entries) list.add(entry.toJSON());
        store.put(STORE_KEY, entries.isEmpty() ? null : JsonWriter.write(list));
    }
}
