package dev.notibase.android;

import android.app.Notification;
import android.app.NotificationManager;
import android.content.Context;
import android.content.Intent;
import android.os.Build;
import android.os.Bundle;
import dev.notibase.core.live.LiveCard;
import dev.notibase.core.live.LiveNotifier;

/**
 * Draws Live Updates. On Android 16 (API 36) a {@code Notification.ProgressStyle} notification
 * that requests promotion, so the system can show it as a Live Update (a chip in the status bar,
 * first on the lock screen) when the app holds {@code POST_PROMOTED_NOTIFICATIONS} and the user
 * allows it; before, a plain ongoing notification with a progress bar. Updates replace it in place
 * without sounding again; an ended one is no longer ongoing, and goes at its dismissal date.
 */
final class AndroidLiveNotifier implements LiveNotifier {
    /**
     * {@code Notification.EXTRA_REQUEST_PROMOTED_ONGOING}, the extra {@code setRequestPromotedOngoing(true)}
     * sets. Both are public only from API 36.1, absent from API 36's android.jar the SDK is compiled
     * against; Android 16 reads the extra from API 36 on.
     */
    static final String EXTRA_REQUEST_PROMOTED_ONGOING = "android.requestPromotedOngoing";

    private final AndroidNotifier notifier;
    private final NotibaseSettings settings;
    private final NotificationManager manager;
    private final NotificationIntents intents;

    AndroidLiveNotifier(Context context, NotibaseSettings settings, AndroidNotifier notifier) {
        this.notifier = notifier;
        this.settings = settings;
        this.manager = context.getSystemService(NotificationManager.class);
        this.intents = new NotificationIntents(context);
    }

    @Override
    public void show(LiveCard card) {
        Notification.Builder builder = notifier.builder();
        builder.setSmallIcon(settings.smallIcon);
        builder.setOngoing(card.ongoing);
        builder.setAutoCancel(!card.ongoing);
        builder.setOnlyAlertOnce(true);
        if (card.title != null) builder.setContentTitle(card.title);
        if (card.body != null) builder.setContentText(card.body);
        if (Build.VERSION.SDK_INT >= 36) {
            if (card.progress != null) {
                builder.setStyle(new Notification.ProgressStyle()
                        .addProgressSegment(new Notification.ProgressStyle.Segment(LiveCard.PROGRESS_MAX))
                        .setProgress(card.progress));
            } else if (card.body != null) {
                builder.setStyle(new Notification.BigTextStyle().bigText(card.body));
            }
            if (card.ongoing) {
                Bundle promotion = new Bundle();
                promotion.putBoolean(EXTRA_REQUEST_PROMOTED_ONGOING, true);
                builder.addExtras(promotion);
            }
        } else if (card.progress != null) {
            builder.setProgress(LiveCard.PROGRESS_MAX, card.progress, false);
        }
        // setTimeoutAfter exists from API 26; below, an ended notification stays until dismissed.
        if (card.dismissAfterMillis != null && Build.VERSION.SDK_INT >= 26) builder.setTimeoutAfter(card.dismissAfterMillis);
        builder.setContentIntent(intents.open(card.tag, card.receipt, null, null));
        Intent dismissal = intents.toReceiver(Extras.ACTION_DISMISS, card.tag, card.receipt, null);
        dismissal.putExtra(Extras.LIVE_ACTIVITY, card.activityID);
        if (card.dismissAtMillis != null) dismissal.putExtra(Extras.DISMISS_AT, (long) card.dismissAtMillis);
        builder.setDeleteIntent(intents.broadcast(dismissal, false));
        manager.notify(card.tag, card.notificationID, builder.build());
    }

    @Override
    public void remove(LiveCard card) {
        manager.cancel(card.tag, card.notificationID);
    }
}
