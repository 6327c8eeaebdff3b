package dev.notibase.core.registration;

/**
 * Which device time zones are worth registering. The server refuses a zone its time-zone database
 * does not know, and the registration with it, so a device sends only region names
 * ({@code Europe/Paris}, {@code UTC}): Android's ID for a zone the user set by hand is a custom
 * offset ({@code GMT+05:30}), which no server knows, and such a device registers without a zone
 * (messages in local time then use their fallback zone for it) rather than not at all.
 */
public final class ZoneNames {
    private ZoneNames() {}

    /** {@code id} when it is a region name, otherwise null. */
    public static String registrable(String id) {
        if (id == null || id.isEmpty() || id.length() > 64) return null;
        if (id.equals("UTC")) return id;
        int slash = id.indexOf('/');
        if (slash <= 0 || slash == id.length() - 1) return null;
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean allowed = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' || c == '_' || c == '-' || c == '+';
            if (!allowed) return null;
        }
        return id.startsWith("SystemV/") ? null : id;  // SystemV/ names left the tz database in 2020
    }
}
