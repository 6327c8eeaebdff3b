package dev.notibase.testing;

import dev.notibase.core.store.Store;
import java.util.HashMap;
import java.util.Map;

/** A {@link Store} in memory; two SDK instances on one MemoryStore are an app before and after a restart. */
public final class MemoryStore implements Store {
    public final Map<String, String> values = new HashMap<>();

    @Override
    public synchronized String get(String key) {
        return values.get(key);
    }

    @Override
    public synchronized void put(String key, String value) {
        if (value == null) {
            values.remove(key);
        } else {
            values.put(key, value);
        }
    }
}
