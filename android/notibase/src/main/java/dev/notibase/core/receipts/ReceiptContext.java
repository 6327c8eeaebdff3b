package dev.notibase.core.receipts;

import dev.notibase.core.payload.NotificationContent;

/**
 * The ids a receipt carries back, from the payload: kept with the drawn notification (in its
 * intents) so that a tap hours later can still report it.
 */
public final class ReceiptContext {
    public final String deliveryID;
    public final String messageID;
    /** {@code nb_sig}: secret-like, never logged. Null when the payload had none. */
    public final String signature;

    public ReceiptContext(String deliveryID, String messageID, String signature) {
        this.deliveryID = deliveryID;
        this.messageID = messageID;
        this.signature = signature;
    }

    public static ReceiptContext of(NotificationContent content) {
        return new ReceiptContext(content.deliveryID, content.messageID, content.signature);
    }
}
