package dev.notibase.core;

/**
 * The SDK's version: Notibase's, written in Sources/NotibaseCore/Version.swift (the one place it is
 * written). script/build-android-aar refuses to build an AAR when the two differ, and SDKVersionTest
 * checks them.
 */
public final class SDKVersion {
    /** The version, sent with the registration. */
    public static final String CURRENT = "0.1.0";
    /** The {@code User-Agent} of every request to the Notibase server. */
    public static final String USER_AGENT = "Notibase-Android/" + CURRENT;

    private SDKVersion() {}
}
