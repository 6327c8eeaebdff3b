package dev.notibase.core.live;

import dev.notibase.core.receipts.ReceiptContext;

/** One Live Update message, read and checked ({@link LiveUpdateReader}). Optional fields are null when absent. */
public final class LiveUpdate {
    public final String activityID;
    public final LiveEvent event;
    /** Seconds; a message not newer than the last applied for its activity is ignored. */
    public final long timestamp;
    /** The content state, JSON object text (the app's; the SDK draws the title, body and progress). */
    public final String contentState;
    public final String title;
    public final String body;
    /** 0 to 1. */
    public final Double progress;
    /** Seconds; Android has no stale state to show, so it is read but not drawn. */
    public final Long staleDate;
    /** {@code end} only: seconds, 0 or any time passed for at once; null leaves the ended notification dismissable. */
    public final Long dismissalDate;
    public final String attributesType;
    public final String attributes;
    public final ReceiptContext receipt;

    LiveUpdate(String activityID, LiveEvent event, long timestamp, String contentState, String title, String body, Double progress,
            Long staleDate, Long dismissalDate, String attributesType, String attributes, ReceiptContext receipt) {
        this.activityID = activityID;
        this.event = event;
        this.timestamp = timestamp;
        this.contentState = contentState;
        this.title = title;
        this.body = body;
        this.progress = progress;
        this.staleDate = staleDate;
        this.dismissalDate = dismissalDate;
        this.attributesType = attributesType;
        this.attributes = attributes;
        this.receipt = receipt;
    }
}
