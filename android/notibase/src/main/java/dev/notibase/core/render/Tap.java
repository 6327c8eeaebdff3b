package dev.notibase.core.render;

import dev.notibase.core.payload.Button;

/**
 * Where a tap on a button goes. Android decides much of it: since Android 12 a broadcast receiver
 * started from a notification may not open an activity, so anything that opens the app must be an
 * activity's {@code PendingIntent}; and a {@code RemoteInput} needs a mutable one, which should
 * reach only our own receiver.
 */
public enum Tap {
    /** Reports the action, then opens the button's link or the app (an activity). */
    OPEN,
    /** Reports the action in the background and removes the notification (a receiver). */
    BACKGROUND,
    /** Reports the action with the typed text (a receiver, through a mutable PendingIntent). */
    REPLY;

    public static Tap of(Button button) {
        if (button.input != null) return REPLY;
        return button.opensApp() ? OPEN : BACKGROUND;
    }
}
