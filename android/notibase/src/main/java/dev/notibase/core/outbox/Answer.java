package dev.notibase.core.outbox;

import dev.notibase.core.json.Json;
import dev.notibase.core.json.JsonException;
import java.util.Map;

/** The server's answer to one request: its status and, for a 4xx, its body (the server's {@code APIError}). */
public final class Answer {
    /** The most of a 4xx body a transport reads; the server's errors are a few hundred bytes. */
    public static final int MAX_BODY_BYTES = 16 * 1024;

    public final int status;
    /**
     * The body of a 4xx answer, at most {@link #MAX_BODY_BYTES}; empty for any other status. May
     * echo what was sent: never logged.
     */
    public final String body;

    public Answer(int status, String body) {
        this.status = status;
        this.body = body == null ? "" : body;
    }

    /**
     * The field the answer names ({@code {"error": {"field": "timeZone"}}}), or null when its body
     * is not such an error (none, another shape, a proxy's HTML page).
     */
    public String rejectedField() {
        try {
            Object parsed = Json.parse(body);
            Object error = parsed instanceof Map ? ((Map<?, ?>) parsed).get("error") : null;
            Object field = error instanceof Map ? ((Map<?, ?>) error).get("field") : null;
            return field instanceof String ? (String) field : null;
        } catch (JsonException unreadable) {
            return null;
        }
    }
}
