package dev.notibase.core.render;

import dev.notibase.core.payload.NotificationContent;
import java.util.UUID;

/**
 * The tag a notification is posted under ({@code NotificationManager.notify(tag, id, …)}): posting
 * under an existing tag replaces that notification.
 */
public final class NotificationTag {
    private NotificationTag() {}

    /**
     * The collapse key when there is one (a newer notification replaces the older), else the
     * delivery (FCM delivering a message twice draws it once), else a new one.
     */
    public static String of(NotificationContent content) {
        if (content.collapseKey != null) return "notibase-collapse:" + content.collapseKey;
        if (content.deliveryID != null) return "notibase-delivery:" + content.deliveryID;
        return "notibase:" + UUID.randomUUID();
    }
}
