package dev.notibase.core.payload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Android should draw for one Notibase data message, and the ids its receipts need: the
 * model {@link PayloadReader} builds and the Android layer renders. Fields the payload did not
 * carry (or carried in a shape that was dropped, see {@link #diagnostics}) are null.
 */
public final class NotificationContent {
    public final String title;
    /** Drawn as the sub-text. */
    public final String subtitle;
    public final String body;
    /** At most {@link PayloadReader#MAX_BUTTONS}, in payload order, ids unique. */
    public final List<Button> buttons;
    /** An https URL with a host. */
    public final String imageURL;
    /** Why the payload's image was not kept (not https, …), or null. */
    public final String imageRefusal;
    /** The deep link opened by a tap on the notification. */
    public final String url;
    public final String sound;
    /** 0 or more. */
    public final Integer badge;
    /** The group the notification joins. */
    public final String thread;
    /** A newer notification with the same key replaces the older one. */
    public final String collapseKey;
    public final String messageID;
    public final String deliveryID;
    /** The server's receipt signature ({@code nb_sig}), sent back with every receipt. */
    public final String signature;
    /** The message's own data: every key that is not Notibase's or FCM's. */
    public final Map<String, String> data;
    /** What was dropped or changed, one line each ({@code nb_buttons[3]: …}); reported with the render receipt. */
    public final List<String> diagnostics;

    NotificationContent(Draft draft) {
        title = draft.title;
        subtitle = draft.subtitle;
        body = draft.body;
        buttons = Collections.unmodifiableList(draft.buttons);
        imageURL = draft.imageURL;
        imageRefusal = draft.imageRefusal;
        url = draft.url;
        sound = draft.sound;
        badge = draft.badge;
        thread = draft.thread;
        collapseKey = draft.collapseKey;
        messageID = draft.messageID;
        deliveryID = draft.deliveryID;
        signature = draft.signature;
        data = Collections.unmodifiableMap(new LinkedHashMap<>(draft.data));
        diagnostics = Collections.unmodifiableList(draft.diagnostics);
    }

    /** Whether there is any text to show: Android draws an empty notification, which helps nobody. */
    public boolean hasText() {
        return (title != null && !title.isEmpty()) || (body != null && !body.isEmpty());
    }

    /** The mutable form {@link PayloadReader} fills in. */
    static final class Draft {
        String title;
        String subtitle;
        String body;
        List<Button> buttons = new java.util.ArrayList<>();
        String imageURL;
        String imageRefusal;
        String url;
        String sound;
        Integer badge;
        String thread;
        String collapseKey;
        String messageID;
        String deliveryID;
        String signature;
        Map<String, String> data = new LinkedHashMap<>();
        List<String> diagnostics = new java.util.ArrayList<>();
    }
}
