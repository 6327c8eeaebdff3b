package dev.notibase.core.render;

import dev.notibase.core.Logger;
import dev.notibase.core.payload.PayloadKeys;
import dev.notibase.core.receipts.ReceiptContext;
import dev.notibase.core.receipts.ReceiptEvent;
import dev.notibase.core.receipts.Receipts;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A silent background push, start to end: hand its custom data to the app's listener and queue the
 * {@code received} receipt. Nothing is drawn, so it is never {@code rendered}. A listener that
 * throws is logged, not thrown into the app's messaging service.
 */
public final class BackgroundPushHandler {
    private final Receipts receipts;
    private final Logger logger;
    private volatile BackgroundPushListener listener;

    public BackgroundPushHandler(Receipts receipts, Logger logger) {
        this.receipts = receipts;
        this.logger = logger;
    }

    /** Whether a data message is a silent background push ({@code nb_background} is {@code "1"}). */
    public static boolean isBackground(Map<String, String> data) {
        return data != null && "1".equals(data.get(PayloadKeys.BACKGROUND));
    }

    /** The app's listener; null drops background pushes (still reported as received). */
    public void setListener(BackgroundPushListener listener) {
        this.listener = listener;
    }

    /** Hands one background push to the listener and queues its receipt. */
    public void handle(Map<String, String> data) {
        Map<String, String> custom = new LinkedHashMap<>();
        for (Map.Entry<String, String> entry : data.entrySet()) {
            if (!PayloadKeys.isReserved(entry.getKey())) custom.put(entry.getKey(), entry.getValue());
        }
        BackgroundPushListener current = listener;
        if (current == null) {
            logger.warn("a background push arrived and no listener is set (Notibase.setBackgroundPushListener)");
        } else {
            try {
                current.onBackgroundPush(Collections.unmodifiableMap(custom));
            } catch (RuntimeException error) {
                logger.warn("the background push listener failed: " + error.getClass().getSimpleName());
            }
        }
        ReceiptContext context = new ReceiptContext(data.get(PayloadKeys.DELIVERY), data.get(PayloadKeys.MESSAGE), data.get(PayloadKeys.SIGNATURE));
        receipts.queue(context, ReceiptEvent.RECEIVED, null, null, null);
    }
}
