package dev.notibase.android;

import android.util.Log;
import dev.notibase.core.Logger;

/** The SDK's log lines in logcat, under the tag {@code Notibase} ({@code adb logcat -s Notibase}). */
final class AndroidLogger implements Logger {
    static final String TAG = "Notibase";

    @Override
    public void info(String message) {
        Log.i(TAG, message);
    }

    @Override
    public void warn(String message) {
        Log.w(TAG, message);
    }
}
