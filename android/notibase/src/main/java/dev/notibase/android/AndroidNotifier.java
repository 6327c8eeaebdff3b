package dev.notibase.android;

import android.Manifest;
import android.app.Notification;
import android.app.NotificationChannel;
import android.app.NotificationManager;
import android.app.PendingIntent;
import android.app.RemoteInput;
import android.content.Context;
import android.content.pm.PackageManager;
import android.graphics.Bitmap;
import android.graphics.drawable.Icon;
import android.os.Build;
import dev.notibase.core.payload.Button;
import dev.notibase.core.payload.ButtonOption;
import dev.notibase.core.payload.NotificationContent;
import dev.notibase.core.receipts.ReceiptContext;
import dev.notibase.core.render.NotificationTag;
import dev.notibase.core.render.Notifier;
import dev.notibase.core.render.Tap;
import java.util.ArrayList;
import java.util.List;

/**
 * Draws Notibase content with {@code Notification.Builder}: the app's channel, the text, up to
 * three actions, a {@code RemoteInput} for reply buttons, the big picture, the deep link on tap,
 * a receipt on dismissal.
 *
 * <p>Taps on the notification and on foreground buttons go to {@link OpenActivity} (an activity,
 * since Android 12 blocks starting activities from a receiver a notification started); background
 * and reply buttons and dismissals go to {@link ActionReceiver}.
 */
final class AndroidNotifier implements Notifier<Bitmap> {
    private final Context context;
    private final NotibaseSettings settings;
    private final NotificationManager manager;
    private final NotificationIntents intents;
    private boolean channelCreated;

    AndroidNotifier(Context context, NotibaseSettings settings) {
        this.context = context;
        this.settings = settings;
        this.manager = context.getSystemService(NotificationManager.class);
        this.intents = new NotificationIntents(context);
    }

    @Override
    public String blockedReason() {
        if (Build.VERSION.SDK_INT >= 33
                && context.checkSelfPermission(Manifest.permission.POST_NOTIFICATIONS) != PackageManager.PERMISSION_GRANTED) {
            return "the app may not post notifications: POST_NOTIFICATIONS (Android 13+) was not granted";
        }
        if (!manager.areNotificationsEnabled()) return "notifications are turned off for the app in the system settings";
        if (Build.VERSION.SDK_INT >= 26) {
            ensureChannel();
            NotificationChannel channel = manager.getNotificationChannel(settings.channelID);
            if (channel != null && channel.getImportance() == NotificationManager.IMPORTANCE_NONE) {
                return "the user turned off the channel \"" + settings.channelName + "\"";
            }
        }
        return null;
    }

    @Override
    public List<String> draw(NotificationContent content, Bitmap picture) {
        String tag = NotificationTag.of(content);
        ReceiptContext receipt = ReceiptContext.of(content);
        Notification.Builder builder = builder();
        builder.setSmallIcon(settings.smallIcon);
        builder.setAutoCancel(true);
        if (content.title != null) builder.setContentTitle(content.title);
        if (content.body != null) builder.setContentText(content.body);
        if (content.subtitle != null) builder.setSubText(content.subtitle);
        if (content.badge != null) builder.setNumber(content.badge);
        if (content.thread != null) builder.setGroup(content.thread);
        if (picture != null) {
            builder.setLargeIcon(picture);
            builder.setStyle(new Notification.BigPictureStyle().bigPicture(picture));
        } else if (content.body != null) {
            builder.setStyle(new Notification.BigTextStyle().bigText(content.body));
        }
        builder.setContentIntent(intents.open(tag, receipt, null, content.url));
        builder.setDeleteIntent(intents.broadcast(intents.toReceiver(Extras.ACTION_DISMISS, tag, receipt, null), false));
        List<String> drawn = new ArrayList<>();
        for (Button button : content.buttons) {
            builder.addAction(action(button, tag, receipt));
            drawn.add(button.id);
        }
        manager.notify(tag, Extras.NOTIFICATION_ID, builder.build());
        return drawn;
    }

    private Notification.Action action(Button button, String tag, ReceiptContext receipt) {
        PendingIntent intent;
        RemoteInput input = null;
        switch (Tap.of(button)) {
            case REPLY:
                // A RemoteInput fills in the typed text, so this PendingIntent must be mutable; it is
                // explicit (our receiver), so nothing else can redirect it.
                intent = intents.broadcast(intents.toReceiver(Extras.ACTION_BUTTON, tag, receipt, button.id), true);
                RemoteInput.Builder remote = new RemoteInput.Builder(Extras.REPLY);
                if (button.input.placeholder != null) remote.setLabel(button.input.placeholder);
                input = remote.build();
                break;
            case OPEN:
                intent = intents.open(tag, receipt, button.id, button.url);
                break;
            default:
                intent = intents.broadcast(intents.toReceiver(Extras.ACTION_BUTTON, tag, receipt, button.id), false);
        }
        // input.button (the send button's title on iOS) has no place on Android, which draws a send arrow.
        Notification.Action.Builder action = new Notification.Action.Builder(icon(button), button.text, intent);
        if (input != null) action.addRemoteInput(input);
        if (Build.VERSION.SDK_INT >= 31 && button.options.contains(ButtonOption.AUTHENTICATION_REQUIRED)) {
            action.setAuthenticationRequired(true);
        }
        return action.build();
    }

    /** {@code template:NAME} is a drawable of the app's; Android has no SF Symbols, so {@code system:} draws none. */
    private Icon icon(Button button) {
        if (button.icon == null || !button.icon.startsWith("template:")) return null;
        int resource = context.getResources().getIdentifier(button.icon.substring("template:".length()), "drawable", context.getPackageName());
        return resource == 0 ? null : Icon.createWithResource(context, resource);
    }

    /** A builder on the app's channel. Channels exist from Android 8 (API 26); below, {@code Notification.Builder(Context)} is the only builder. */
    @SuppressWarnings("deprecation") // Notification.Builder(Context), deprecated in API 26, for API 24 and 25.
    Notification.Builder builder() {
        if (Build.VERSION.SDK_INT < 26) return new Notification.Builder(context);
        ensureChannel();
        return new Notification.Builder(context, settings.channelID);
    }

    private synchronized void ensureChannel() {
        if (channelCreated || Build.VERSION.SDK_INT < 26) return;
        // createNotificationChannel keeps the user's changes to an existing channel; only its name is updated.
        manager.createNotificationChannel(new NotificationChannel(settings.channelID, settings.channelName, settings.channelImportance));
        channelCreated = true;
    }
}
