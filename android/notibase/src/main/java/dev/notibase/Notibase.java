package dev.notibase;

import android.Manifest;
import android.app.Activity;
import android.content.Context;
import android.content.pm.PackageManager;
import android.os.Build;
import dev.notibase.android.NotibaseRuntime;
import dev.notibase.android.NotibaseSettings;
import dev.notibase.core.live.LiveKeys;
import dev.notibase.core.payload.PayloadKeys;
import dev.notibase.core.render.BackgroundPushListener;
import java.util.Map;
import java.util.Set;

/**
 * The Notibase Android SDK. The app's {@code FirebaseMessagingService} forwards two calls, and
 * Notibase draws what the server defined (title, body, buttons, reply fields, image, deep links, and
 * Live Updates: an ongoing notification per activity, updated in place),
 * registers the device, and reports {@code rendered}, {@code opened}, {@code action} and
 * {@code dismissed} to the delivery log. A silent background push ({@code "background": true}) is
 * not drawn: its data goes to the app's {@link BackgroundPushListener} and it is reported
 * {@code received}:
 *
 * <pre>{@code
 * public void onMessageReceived(RemoteMessage message) { Notibase.handle(this, message.getData(), message.getCollapseKey()); }
 * public void onNewToken(String token) { Notibase.onNewToken(this, token); }
 * // Application.onCreate, for background pushes:
 * Notibase.setBackgroundPushListener(this, data -> syncInbox(data.get("sync")));
 * }</pre>
 *
 * <p>No call throws into the app: a bad payload is drawn as far as it can be, and what was dropped
 * goes to the delivery log and to logcat (tag {@code Notibase}).
 */
public final class Notibase {
    private Notibase() {}

    /** Settings in code instead of the manifest's {@code <meta-data>}; call it in {@code Application.onCreate}. */
    public static void configure(NotibaseSettings settings) {
        NotibaseRuntime.configure(settings);
    }

    /** Whether a data message came from Notibase (the app may handle other messages itself). */
    public static boolean isNotibaseMessage(Map<String, String> data) {
        return data != null && (data.containsKey(PayloadKeys.DELIVERY) || data.containsKey(PayloadKeys.TITLE) || data.containsKey(PayloadKeys.BODY)
                || data.containsKey(PayloadKeys.BACKGROUND) || LiveKeys.isLiveUpdate(data));
    }

    /**
     * The app's code for silent background pushes, called by {@link #handle(Context, Map, String)}
     * with the message's custom data (set it in {@code Application.onCreate}, before a push can
     * arrive). Android delivers such a data message at normal priority, when the device is not
     * dozing, and not to an app the user force-stopped.
     */
    public static void setBackgroundPushListener(Context context, BackgroundPushListener listener) {
        NotibaseRuntime.get(context).setBackgroundPushListener(listener);
    }

    /**
     * Draws a Notibase data message and reports it; returns false (and does nothing) for a message
     * that is not Notibase's. Call it from {@code onMessageReceived}, which runs off the main thread:
     * it downloads the image (at most 8 s).
     */
    public static boolean handle(Context context, Map<String, String> data) {
        return handle(context, data, null);
    }

    /** As {@link #handle(Context, Map)}, with {@code RemoteMessage.getCollapseKey()}, so a newer notification replaces an older one. */
    public static boolean handle(Context context, Map<String, String> data, String collapseKey) {
        if (!isNotibaseMessage(data)) return false;
        try {
            NotibaseRuntime.get(context).handle(data, collapseKey);
        } catch (RuntimeException error) {
            NotibaseRuntime.warn("the message could not be handled: " + error);
        }
        return true;
    }

    /** FCM's new registration token; the previous one is retired on the server. */
    public static void onNewToken(Context context, String token) {
        guarded(context, runtime -> runtime.setToken(token));
    }

    /**
     * The app's ID for the signed-in user, for apps that do not require identity verification. Null
     * signs the user out: the server clears the device's user at once (retried until it lands), and
     * messages addressed to that user stop reaching this device; no identity token is needed.
     */
    public static void setExternalUserId(Context context, String userID) {
        setExternalUserId(context, userID, null);
    }

    /**
     * The app's ID for the signed-in user, with the identity token the app's backend obtained from
     * Notibase for it (when the app requires identity verification). The token is sent with the
     * registration and never logged.
     */
    public static void setExternalUserId(Context context, String userID, String identityToken) {
        guarded(context, runtime -> runtime.setExternalUserID(userID, identityToken));
    }

    /** The device's tags (replacing the previous set), to choose audiences by. */
    public static void setTags(Context context, Set<String> tags) {
        guarded(context, runtime -> runtime.setTags(tags));
    }

    /** Whether the app must still ask for {@code POST_NOTIFICATIONS} (Android 13+) before anything is shown. */
    public static boolean needsPermission(Context context) {
        return Build.VERSION.SDK_INT >= 33
                && context.checkSelfPermission(Manifest.permission.POST_NOTIFICATIONS) != PackageManager.PERMISSION_GRANTED;
    }

    /** Shows the system's permission prompt when it is needed; the answer arrives in {@code onRequestPermissionsResult}. */
    public static void requestPermission(Activity activity, int requestCode) {
        if (needsPermission(activity)) activity.requestPermissions(new String[] {Manifest.permission.POST_NOTIFICATIONS}, requestCode);
    }

    private static void guarded(Context context, java.util.function.Consumer<NotibaseRuntime> change) {
        try {
            change.accept(NotibaseRuntime.get(context));
        } catch (RuntimeException error) {
            NotibaseRuntime.warn("the registration could not be updated: " + error);
        }
    }
}
