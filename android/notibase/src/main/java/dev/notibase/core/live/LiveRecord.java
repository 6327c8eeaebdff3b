package dev.notibase.core.live;

import java.util.LinkedHashMap;
import java.util.Map;

/** What was last applied to one activity: kept across process restarts by {@link LiveTimeline}. */
public final class LiveRecord {
    public final String activityID;
    /** The timestamp of the last message applied, in seconds. */
    public final long timestamp;
    /** Whether that message was an {@code end}: an {@code update} after it is ignored. */
    public final boolean ended;
    /** The text last drawn, for a message that carries none (an {@code end}). */
    public final String title;
    public final String body;

    public LiveRecord(String activityID, long timestamp, boolean ended, String title, String body) {
        this.activityID = activityID;
        this.timestamp = timestamp;
        this.ended = ended;
        this.title = title;
        this.body = body;
    }

    Map<String, Object> toJSON() {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("id", activityID);
        object.put("timestamp", timestamp);
        object.put("ended", ended);
        object.put("title", title);
        object.put("body", body);
        return object;
    }

    static LiveRecord fromJSON(Object value) {
        if (!(value instanceof Map)) return null;
        Map<?, ?> object = (Map<?, ?>) value;
        Object id = object.get("id");
        Object timestamp = object.get("timestamp");
        Object ended = object.get("ended");
        if (!(id instanceof String && timestamp instanceof Long && ended instanceof Boolean)) return null;
        Object title = object.get("title");
        Object body = object.get("body");
        return new LiveRecord((String) id, (Long) timestamp, (Boolean) ended, title instanceof String ? (String) title : null,
                body instanceof String ? (String) body : null);
    }
}
