package dev.notibase.android;

import android.content.Intent;
import android.net.Uri;
import dev.notibase.core.receipts.ReceiptContext;

/**
 * What the notification's intents carry, so that a tap or a dismissal hours later (in another
 * process, after a restart) can post its receipt and open its link.
 */
final class Extras {
    private Extras() {}

    static final String ACTION_BUTTON = "dev.notibase.action.BUTTON";
    static final String ACTION_DISMISS = "dev.notibase.action.DISMISS";
    static final String ACTION_OPEN = "dev.notibase.action.OPEN";

    static final String TAG = "dev.notibase.extra.TAG";
    static final String DELIVERY = "dev.notibase.extra.DELIVERY";
    static final String MESSAGE = "dev.notibase.extra.MESSAGE";
    static final String SIGNATURE = "dev.notibase.extra.SIGNATURE";
    static final String BUTTON = "dev.notibase.extra.BUTTON";
    static final String URL = "dev.notibase.extra.URL";
    /** A Live Update's activity ID, on its notification's dismissal intent. */
    static final String LIVE_ACTIVITY = "dev.notibase.extra.LIVE_ACTIVITY";
    /** When an ended Live Update is to go (epoch milliseconds), on its dismissal intent; absent when it stays. */
    static final String DISMISS_AT = "dev.notibase.extra.DISMISS_AT";
    /** The key of the {@code RemoteInput} result. */
    static final String REPLY = "dev.notibase.extra.REPLY";

    /** The notification id used with every tag: the tag alone tells notifications apart. */
    static final int NOTIFICATION_ID = 0x6e62;

    static void put(Intent intent, String tag, ReceiptContext context, String buttonID, String url) {
        intent.putExtra(TAG, tag);
        intent.putExtra(DELIVERY, context.deliveryID);
        intent.putExtra(MESSAGE, context.messageID);
        intent.putExtra(SIGNATURE, context.signature);
        intent.putExtra(BUTTON, buttonID);
        intent.putExtra(URL, url);
        // PendingIntents that differ only in extras are the same PendingIntent; the data URI keeps
        // each notification's and each button's apart.
        intent.setData(new Uri.Builder().scheme("notibase").authority("notification").appendPath(tag)
                .appendPath(buttonID == null ? "" : buttonID).appendPath(intent.getAction()).build());
    }

    static ReceiptContext context(Intent intent) {
        return new ReceiptContext(intent.getStringExtra(DELIVERY), intent.getStringExtra(MESSAGE), intent.getStringExtra(SIGNATURE));
    }
}
