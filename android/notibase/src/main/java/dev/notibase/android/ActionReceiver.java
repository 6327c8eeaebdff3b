package dev.notibase.android;

import android.app.NotificationManager;
import android.app.RemoteInput;
import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.os.Bundle;
import dev.notibase.core.live.LiveActivityReports;
import dev.notibase.core.receipts.ReceiptEvent;

/**
 * Dismissals, background buttons and replies: posts {@code dismissed} or {@code action} (with the
 * typed text; a Live Update the user dismissed is also reported to the activity's report endpoint), removes the notification after an action, and sends the receipt before the
 * broadcast ends ({@code goAsync}), since the process may be killed right after.
 */
public final class ActionReceiver extends BroadcastReceiver {
    @Override
    public void onReceive(Context context, Intent intent) {
        NotibaseRuntime runtime;
        try {
            runtime = NotibaseRuntime.get(context);
            boolean dismissed = Extras.ACTION_DISMISS.equals(intent.getAction());
            String buttonID = intent.getStringExtra(Extras.BUTTON);
            if (!dismissed && buttonID == null) return;
            String activityID = intent.getStringExtra(Extras.LIVE_ACTIVITY);
            if (dismissed && activityID != null) {
                Long dismissAt = intent.hasExtra(Extras.DISMISS_AT) ? intent.getLongExtra(Extras.DISMISS_AT, 0) : null;
                // Android also tells of the removal it made at the dismissal date: not the user's.
                if (!LiveActivityReports.isUserDismissal(System.currentTimeMillis(), dismissAt)) return;
                runtime.liveReports.queue(activityID, LiveActivityReports.Kind.DISMISSED);
            }
            String text = null;
            Bundle results = RemoteInput.getResultsFromIntent(intent);
            if (results != null && results.getCharSequence(Extras.REPLY) != null) text = results.getCharSequence(Extras.REPLY).toString();
            runtime.receipts.queue(Extras.context(intent), dismissed ? ReceiptEvent.DISMISSED : ReceiptEvent.ACTION, null, buttonID, text);
            if (!dismissed) {
                context.getSystemService(NotificationManager.class).cancel(intent.getStringExtra(Extras.TAG), Extras.NOTIFICATION_ID);
            }
        } catch (RuntimeException error) {
            new AndroidLogger().warn("the action could not be reported: " + error);
            return;
        }
        BroadcastReceiver.PendingResult pending = goAsync();
        runtime.executor.execute(() -> {
            try {
                runtime.sender.drain();
            } finally {
                pending.finish();
            }
        });
    }
}
