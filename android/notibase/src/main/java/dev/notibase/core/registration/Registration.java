package dev.notibase.core.registration;

import dev.notibase.core.json.Json;
import dev.notibase.core.json.JsonException;
import dev.notibase.core.json.JsonWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the device registers with {@code POST /v1/devices} ({@code DeviceRegistrationRequest.swift},
 * plus {@code externalUserIdToken}, the identity token the app's backend obtained for the user ID).
 * Immutable; each {@code with…} returns a changed copy. {@link #toString()} shows no token.
 */
public final class Registration {
    public static final String PATH = "/v1/devices";
    /** Where a sign-out goes ({@code DeviceSignOutRequest.swift}): the server clears the device's user at once. */
    public static final String SIGN_OUT_PATH = "/v1/devices/sign-out";

    public final String token;
    public final String previousToken;
    public final String externalUserID;
    /** Never logged: it proves the user ID to the server. */
    public final String externalUserIDToken;
    /** Sorted; null when the app never set any. */
    public final Set<String> tags;
    public final String locale;
    public final String timeZone;
    public final String appVersion;
    public final String sdkVersion;

    public Registration(String token, String previousToken, String externalUserID, String externalUserIDToken, Set<String> tags,
            String locale, String timeZone, String appVersion, String sdkVersion) {
        this.token = token;
        this.previousToken = previousToken;
        this.externalUserID = externalUserID;
        this.externalUserIDToken = externalUserIDToken;
        this.tags = tags == null ? null : Collections.unmodifiableSet(new TreeSet<>(tags));
        this.locale = locale;
        this.timeZone = timeZone;
        this.appVersion = appVersion;
        this.sdkVersion = sdkVersion;
    }

    /** Nothing known yet. */
    public static final Registration EMPTY = new Registration(null, null, null, null, null, null, null, null, null);

    /** A new push token; the old one becomes {@code previousToken} so the server retires it. */
    public Registration withToken(String newToken) {
        if (Objects.equals(newToken, token)) return this;
        String replaced = token != null ? token : previousToken;
        return new Registration(newToken, replaced, externalUserID, externalUserIDToken, tags, locale, timeZone, appVersion, sdkVersion);
    }

    public Registration withExternalUserID(String id, String idToken) {
        return new Registration(token, previousToken, id, id == null ? null : idToken, tags, locale, timeZone, appVersion, sdkVersion);
    }

    public Registration withTags(Set<String> newTags) {
        return new Registration(token, previousToken, externalUserID, externalUserIDToken, newTags, locale, timeZone, appVersion, sdkVersion);
    }

    public Registration withDevice(String newLocale, String newTimeZone, String newAppVersion, String newSDKVersion) {
        return new Registration(token, previousToken, externalUserID, externalUserIDToken, tags, newLocale, newTimeZone, newAppVersion,
                newSDKVersion);
    }

    /** The same registration with no time zone: the server did not know this one. */
    public Registration withoutTimeZone() {
        return new Registration(token, previousToken, externalUserID, externalUserIDToken, tags, locale, null, appVersion, sdkVersion);
    }

    /** The server accepted it: the previous token is retired. */
    public Registration withoutPreviousToken() {
        return new Registration(token, null, externalUserID, externalUserIDToken, tags, locale, timeZone, appVersion, sdkVersion);
    }

    /** The request body; absent fields are left out. */
    public String toJSON() {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("platform", "android");
        object.put("token", token);
        object.put("externalUserId", externalUserID);
        object.put("externalUserIdToken", externalUserIDToken);
        object.put("tags", tags == null ? null : new ArrayList<Object>(tags));
        object.put("locale", locale);
        object.put("timeZone", timeZone);
        object.put("appVersion", appVersion);
        object.put("sdkVersion", sdkVersion);
        object.put("previousToken", previousToken);
        return JsonWriter.write(object);
    }

    /** The body of a sign-out of the device registered under {@code token}. */
    public static String signOutJSON(String token) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("platform", "android");
        object.put("token", token);
        return JsonWriter.write(object);
    }

    /** Reads {@link #toJSON()}'s form back (the saved state); null when unreadable. */
    public static Registration fromJSON(String text) {
        try {
            Object parsed = Json.parse(text);
            if (!(parsed instanceof Map)) return null;
            Map<?, ?> object = (Map<?, ?>) parsed;
            Set<String> tags = null;
            if (object.get("tags") instanceof List) {
                tags = new TreeSet<>();
                for (Object tag : (List<?>) object.get("tags")) {
                    if (tag instanceof String) tags.add((String) tag);
                }
            }
            return new Registration(string(object, "token"), string(object, "previousToken"), string(object, "externalUserId"),
                    string(object, "externalUserIdToken"), tags, string(object, "locale"), string(object, "timeZone"),
                    string(object, "appVersion"), string(object, "sdkVersion"));
        } catch (JsonException unreadable) {
            return null;
        }
    }

    private static String string(Map<?, ?> object, String key) {
        Object value = object.get(key);
        return value instanceof String ? (String) value : null;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Registration && ((Registration) other).toJSON().equals(toJSON());
    }

    @Override
    public int hashCode() {
        return toJSON().hashCode();
    }

    @Override
    public String toString() {
        return "Registration(token: " + shortened(token) + ", externalUserId: " + (externalUserID == null ? "none" : "set")
                + ", identity token: " + (externalUserIDToken == null ? "none" : "set") + ", tags: "
                + (tags == null ? "none" : tags.size()) + ")";
    }

    /** The first 6 characters of a token, enough to tell two apart in a log. */
    public static String shortened(String token) {
        if (token == null) return "none";
        return token.length() <= 8 ? "…" : token.substring(0, 6) + "…";
    }
}
