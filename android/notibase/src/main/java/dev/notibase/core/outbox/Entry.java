package dev.notibase.core.outbox;

import java.util.LinkedHashMap;
import java.util.Map;

/** One request waiting in the {@link Outbox}. */
public final class Entry {
    /** Unique in the outbox; a new entry with the same id replaces the old one. */
    public final String id;
    /** For logs: {@code receipt rendered}, {@code registration}. Never a secret. */
    public final String label;
    public final String path;
    /** The JSON body, sent as it is. */
    public final String body;
    /** Attempts that failed so far. */
    public final int failures;
    /** Not sent before this time (epoch milliseconds). */
    public final long notBefore;

    public Entry(String id, String label, String path, String body, int failures, long notBefore) {
        this.id = id;
        this.label = label;
        this.path = path;
        this.body = body;
        this.failures = failures;
        this.notBefore = notBefore;
    }

    Entry failed(long nextAttempt) {
        return new Entry(id, label, path, body, failures + 1, nextAttempt);
    }

    Map<String, Object> toJSON() {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("id", id);
        object.put("label", label);
        object.put("path", path);
        object.put("body", body);
        object.put("failures", (long) failures);
        object.put("notBefore", notBefore);
        return object;
    }

    static Entry fromJSON(Object value) {
        if (!(value instanceof Map)) return null;
        Map<?, ?> object = (Map<?, ?>) value;
        Object id = object.get("id");
        Object label = object.get("label");
        Object path = object.get("path");
        Object body = object.get("body");
        Object failures = object.get("failures");
        Object notBefore = object.get("notBefore");
        if (!(id instanceof String && label instanceof String && path instanceof String && body instanceof String
                && failures instanceof Long && notBefore instanceof Long)) {
            return null;
        }
        return new Entry((String) id, (String) label, (String) path, (String) body,
                (int) (long) (Long) failures, (Long) notBefore);
    }
}
