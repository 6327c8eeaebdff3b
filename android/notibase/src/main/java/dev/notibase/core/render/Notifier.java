package dev.notibase.core.render;

import dev.notibase.core.payload.NotificationContent;
import java.util.List;

/** Draws a notification: {@code Notification.Builder} and {@code NotificationManager} in the app, a recorder in tests. */
public interface Notifier<P> {
    /**
     * Why notifications cannot be shown now (the permission denied on Android 13+, notifications
     * turned off for the app or its channel), or null when they can.
     */
    String blockedReason();

    /**
     * Draws {@code content}, with {@code picture} as its big picture when not null, and returns the
     * ids of the buttons drawn. May throw: the caller reports the failure.
     */
    List<String> draw(NotificationContent content, P picture);
}
