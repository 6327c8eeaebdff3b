package dev.notibase.core.live;

import dev.notibase.core.json.Json;
import dev.notibase.core.json.JsonException;
import dev.notibase.core.json.JsonWriter;
import dev.notibase.core.store.Store;
import java.util.ArrayList;
import java.util.List;

/**
 * The last message applied to each activity, in the {@link Store}, so that a message FCM delivers
 * late or twice, even after the process was killed and started again, never takes an activity
 * back: one whose timestamp is not newer than the last applied is ignored, and so is an
 * {@code update} after an {@code end}. The {@link #CAPACITY} most recently applied activities are
 * kept.
 */
public final class LiveTimeline {
    /** How many activities are remembered; the one applied longest ago is forgotten first. */
    public static final int CAPACITY = 100;
    static final String STORE_KEY = "notibase.live.activities";

    private final Store store;

    public LiveTimeline(Store store) {
        this.store = store;
    }

    /** Why {@code update} must not be applied, or null when it may. */
    public synchronized String refusal(LiveUpdate update) {
        LiveRecord last = last(update.activityID);
        if (last == null) return null;
        if (update.timestamp <= last.timestamp) {
            return LiveKeys.TIMESTAMP + ": " + update.timestamp + " is not newer than " + last.timestamp
                    + ", the last applied to activity " + update.activityID + "; ignored";
        }
        if (last.ended && update.event == LiveEvent.UPDATE) {
            return LiveKeys.EVENT + ": activity " + update.activityID + " has ended; the update is ignored";
        }
        return null;
    }

    /** The last message applied to {@code activityID}, or null. */
    public synchronized LiveRecord last(String activityID) {
        for (LiveRecord record : records()) {
            if (record.activityID.equals(activityID)) return record;
        }
        return null;
    }

    /** Records {@code record} as the last applied to its activity. */
    public synchronized void applied(LiveRecord record) {
        List<LiveRecord> records = records();
        records.removeIf(existing -> existing.activityID.equals(record.activityID));
        records.add(record);
        while (records.size() > CAPACITY) records.remove(0);
        List<Object> list = new ArrayList<>();
        for (LiveRecord kept : records) list.add(kept.toJSON());
        store.put(STORE_KEY, JsonWriter.write(list));
    }

    private List<LiveRecord> records() {
        List<LiveRecord> records = new ArrayList<>();
        String saved = store.get(STORE_KEY);
        if (saved == null) return records;
        try {
            Object parsed = Json.parse(saved);
            if (parsed instanceof List) {
                for (Object element : (List<?>) parsed) {
                    LiveRecord record = LiveRecord.fromJSON(element);
                    if (record != null) records.add(record);
                }
            }
        } catch (JsonException unreadable) {
            store.put(STORE_KEY, null);
        }
        return records;
    }
}
