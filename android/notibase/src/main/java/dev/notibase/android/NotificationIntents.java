package dev.notibase.android;

import android.app.PendingIntent;
import android.content.Context;
import android.content.Intent;
import android.os.Build;
import dev.notibase.core.receipts.ReceiptContext;

/**
 * The PendingIntents a notification carries: taps go to {@link OpenActivity} (an activity, since
 * Android 12 blocks starting activities from a receiver a notification started); buttons handled in
 * the background, replies and dismissals go to {@link ActionReceiver}.
 */
final class NotificationIntents {
    private final Context context;

    NotificationIntents(Context context) {
        this.context = context;
    }

    /** A tap on the notification ({@code buttonID} null) or on a foreground button: reports it and opens {@code url} or the app. */
    PendingIntent open(String tag, ReceiptContext receipt, String buttonID, String url) {
        Intent intent = new Intent(context, OpenActivity.class).setAction(Extras.ACTION_OPEN);
        Extras.put(intent, tag, receipt, buttonID, url);
        intent.addFlags(Intent.FLAG_ACTIVITY_NEW_TASK | Intent.FLAG_ACTIVITY_NO_HISTORY);
        return PendingIntent.getActivity(context, 0, intent, PendingIntent.FLAG_UPDATE_CURRENT | PendingIntent.FLAG_IMMUTABLE);
    }

    /** An intent for {@link ActionReceiver}, to add extras to before {@link #broadcast} wraps it. */
    Intent toReceiver(String action, String tag, ReceiptContext receipt, String buttonID) {
        Intent intent = new Intent(context, ActionReceiver.class).setAction(action);
        Extras.put(intent, tag, receipt, buttonID, null);
        return intent;
    }

    /** {@code intent} as a PendingIntent; mutable only for a reply, whose {@code RemoteInput} fills in the text. */
    PendingIntent broadcast(Intent intent, boolean mutable) {
        int mutability = mutable && Build.VERSION.SDK_INT >= 31 ? PendingIntent.FLAG_MUTABLE : mutable ? 0 : PendingIntent.FLAG_IMMUTABLE;
        return PendingIntent.getBroadcast(context, 0, intent, PendingIntent.FLAG_UPDATE_CURRENT | mutability);
    }
}
