package dev.notibase.core.live;

/** What a Live Update message does to its activity; the names are the wire's ({@code nb_live_event}). */
public enum LiveEvent {
    /** Posts the ongoing notification. */
    START("start"),
    /** Replaces it in place. */
    UPDATE("update"),
    /** Removes it, at once or at a time, or leaves it dismissable. */
    END("end");

    public final String wireName;

    LiveEvent(String wireName) {
        this.wireName = wireName;
    }

    /** The event named {@code name}, or null for a name that is not one. */
    public static LiveEvent fromWireName(String name) {
        for (LiveEvent event : values()) {
            if (event.wireName.equals(name)) return event;
        }
        return null;
    }
}
