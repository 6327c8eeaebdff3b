package dev.notibase.android;

import android.app.NotificationManager;

/**
 * Where the server is, the app's client key, and the channel Notibase notifications go to. Read
 * from the app's manifest {@code <meta-data>} ({@code dev.notibase.SERVER_URL},
 * {@code dev.notibase.CLIENT_KEY}, optional {@code dev.notibase.CHANNEL_ID},
 * {@code dev.notibase.CHANNEL_NAME}, {@code dev.notibase.SMALL_ICON}), or given in code with
 * {@link dev.notibase.Notibase#configure}.
 */
public final class NotibaseSettings {
    public static final String DEFAULT_CHANNEL_ID = "notibase";
    public static final String DEFAULT_CHANNEL_NAME = "Notifications";

    public final String serverURL;
    /** The app's {@code nb_client_…} key: it may register devices and post receipts, nothing else. */
    public final String clientKey;
    public final String channelID;
    /** Shown to the user in the system settings; name it after what the notifications are about. */
    public final String channelName;
    public final int channelImportance;
    /** A drawable resource: white on transparent, as Android's status bar requires. */
    public final int smallIcon;

    public NotibaseSettings(String serverURL, String clientKey, String channelID, String channelName, int channelImportance, int smallIcon) {
        if (serverURL == null || serverURL.isEmpty()) throw new IllegalArgumentException("Notibase needs the server's URL (dev.notibase.SERVER_URL)");
        if (clientKey == null || clientKey.isEmpty()) throw new IllegalArgumentException("Notibase needs the app's client key (dev.notibase.CLIENT_KEY)");
        this.serverURL = serverURL;
        this.clientKey = clientKey;
        this.channelID = channelID == null || channelID.isEmpty() ? DEFAULT_CHANNEL_ID : channelID;
        this.channelName = channelName == null || channelName.isEmpty() ? DEFAULT_CHANNEL_NAME : channelName;
        this.channelImportance = channelImportance;
        this.smallIcon = smallIcon;
    }

    /** The server and key, with the default channel (importance high, so notifications pop up) and icon. */
    public NotibaseSettings(String serverURL, String clientKey, int smallIcon) {
        this(serverURL, clientKey, DEFAULT_CHANNEL_ID, DEFAULT_CHANNEL_NAME, NotificationManager.IMPORTANCE_HIGH, smallIcon);
    }
}
