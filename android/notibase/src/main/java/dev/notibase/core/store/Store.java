package dev.notibase.core.store;

/**
 * A small persistent string map (SharedPreferences on Android). A {@link #put} must be durable
 * when it returns: the outbox relies on it to survive the process being killed.
 */
public interface Store {
    /** The value of {@code key}, or null. */
    String get(String key);

    /** Sets {@code key}; a null value removes it. */
    void put(String key, String value);
}
