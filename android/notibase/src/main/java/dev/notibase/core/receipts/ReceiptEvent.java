package dev.notibase.core.receipts;

/** What happened to a notification; the names are the server's ({@code Receipt.Event}). */
public enum ReceiptEvent {
    /** The notification was drawn. */
    RENDERED("rendered"),
    /** A silent background push reached the app: nothing was drawn ({@code nb_background}). */
    RECEIVED("received"),
    /** The user tapped the notification itself. */
    OPENED("opened"),
    /** The user tapped a button. */
    ACTION("action"),
    /** The user swiped it away, or cleared all. */
    DISMISSED("dismissed");

    public final String wireName;

    ReceiptEvent(String wireName) {
        this.wireName = wireName;
    }
}
