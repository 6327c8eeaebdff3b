package dev.notibase.core.payload;

/** What a tap on a button requires; the names are the server's ({@code ButtonOption} in the core). */
public enum ButtonOption {
    /** The device must be unlocked first ({@code Notification.Action.Builder.setAuthenticationRequired}, API 31). */
    AUTHENTICATION_REQUIRED("authenticationRequired"),
    /** Deletes or cancels something. Android draws no red buttons, so this changes nothing on screen. */
    DESTRUCTIVE("destructive"),
    /** Brings the app forward (opening the button's link); without it the action runs in the background. */
    FOREGROUND("foreground");

    /** The name in {@code nb_buttons}. */
    public final String wireName;

    ButtonOption(String wireName) {
        this.wireName = wireName;
    }

    /** The option named {@code name}, or null when it is not one. */
    public static ButtonOption fromWireName(String name) {
        for (ButtonOption option : values()) {
            if (option.wireName.equals(name)) return option;
        }
        return null;
    }
}
