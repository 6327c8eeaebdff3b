package dev.notibase.android;

import android.content.Context;
import android.content.SharedPreferences;
import dev.notibase.core.store.Store;

/**
 * The {@link Store} in the SDK's own private SharedPreferences file. Writes use {@code commit()},
 * not {@code apply()}: the outbox must be on disk before a receiver or the messaging service
 * returns, because the process may be killed right after.
 */
final class PreferencesStore implements Store {
    static final String FILE = "dev.notibase";

    private final SharedPreferences preferences;

    PreferencesStore(Context context) {
        preferences = context.getSharedPreferences(FILE, Context.MODE_PRIVATE);
    }

    @Override
    public String get(String key) {
        return preferences.getString(key, null);
    }

    @Override
    public void put(String key, String value) {
        SharedPreferences.Editor editor = preferences.edit();
        if (value == null) {
            editor.remove(key);
        } else {
            editor.putString(key, value);
        }
        editor.commit();
    }
}
