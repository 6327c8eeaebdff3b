package dev.notibase.core.render;

import java.util.Map;

/**
 * The app's code for a silent background push (a message sent with {@code "background": true}):
 * nothing is drawn, and the app gets the message's custom data to sync or refresh with. It runs on
 * the thread of {@code onMessageReceived}, off the main thread, within the time Android gives a
 * messaging service (20 seconds for the whole of {@code onMessageReceived}: start longer work with WorkManager).
 */
@FunctionalInterface
public interface BackgroundPushListener {
    /** {@code data} is the message's custom data, without Notibase's {@code nb_} keys. */
    void onBackgroundPush(Map<String, String> data);
}
