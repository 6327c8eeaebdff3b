package dev.notibase.android;

import android.app.Activity;
import android.app.NotificationManager;
import android.content.ActivityNotFoundException;
import android.content.Intent;
import android.net.Uri;
import android.os.Bundle;
import dev.notibase.core.receipts.ReceiptEvent;

/**
 * A tap on the notification or on a foreground button: posts {@code opened} or {@code action},
 * then opens the deep link (or the app) and finishes without drawing anything. An activity, not a
 * receiver, because Android 12 forbids a receiver a notification started from starting activities.
 */
public final class OpenActivity extends Activity {
    // Protected in android.jar; the stub jar makes it public, and widening an override is legal against both.
    @Override
    public void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        Intent intent = getIntent();
        try {
            NotibaseRuntime runtime = NotibaseRuntime.get(this);
            String buttonID = intent.getStringExtra(Extras.BUTTON);
            ReceiptEvent event = buttonID == null ? ReceiptEvent.OPENED : ReceiptEvent.ACTION;
            runtime.receipts.queue(Extras.context(intent), event, null, buttonID, null);
            runtime.flusher.kick();
            if (buttonID != null) {
                getSystemService(NotificationManager.class).cancel(intent.getStringExtra(Extras.TAG), Extras.NOTIFICATION_ID);
            }
        } catch (RuntimeException error) {
            new AndroidLogger().warn("the tap could not be reported: " + error);
        }
        open(intent.getStringExtra(Extras.URL));
        finish();
    }

    /** The link in one of the app's own activities when one takes it, else anywhere; without a link, the app. */
    private void open(String url) {
        if (url != null) {
            Intent view = new Intent(Intent.ACTION_VIEW, Uri.parse(url)).addFlags(Intent.FLAG_ACTIVITY_NEW_TASK);
            if (start(new Intent(view).setPackage(getPackageName())) || start(view)) return;
            new AndroidLogger().warn("no activity opens the link of the notification; opening the app");
        }
        Intent launch = getPackageManager().getLaunchIntentForPackage(getPackageName());
        if (launch != null) start(launch.addFlags(Intent.FLAG_ACTIVITY_NEW_TASK));
    }

    private boolean start(Intent intent) {
        try {
            startActivity(intent);
            return true;
        } catch (ActivityNotFoundException none) {
            return false;
        }
    }
}
