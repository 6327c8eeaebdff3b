package dev.notibase.core.render;

import dev.notibase.core.Clock;
import dev.notibase.core.Logger;
import dev.notibase.core.payload.NotificationContent;
import dev.notibase.core.payload.PayloadReader;
import dev.notibase.core.receipts.ReceiptContext;
import dev.notibase.core.receipts.ReceiptEvent;
import dev.notibase.core.receipts.Receipts;
import dev.notibase.core.receipts.RenderReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One received data message, start to end: read the payload, load the image, draw, and queue the
 * {@code rendered} receipt saying what was drawn and what was not. Whatever the payload or the
 * drawing does, it returns a report instead of throwing into the app's messaging service.
 */
public final class NotificationHandler<P> {
    private final Notifier<P> notifier;
    private final ImageLoader<P> images;
    private final Receipts receipts;
    private final Clock clock;
    private final Logger logger;

    public NotificationHandler(Notifier<P> notifier, ImageLoader<P> images, Receipts receipts, Clock clock, Logger logger) {
        this.notifier = notifier;
        this.images = images;
        this.receipts = receipts;
        this.clock = clock;
        this.logger = logger;
    }

    /** Handles one message; {@code collapseKey} is FCM's, or null. */
    public RenderReport handle(Map<String, String> data, String collapseKey) {
        long start = clock.nowMillis();
        NotificationContent content = PayloadReader.read(data, collapseKey);
        List<String> diagnostics = new ArrayList<>(content.diagnostics);
        for (String diagnostic : diagnostics) logger.warn("payload: " + diagnostic);
        RenderReport report = draw(content, diagnostics, start);
        receipts.queue(ReceiptContext.of(content), ReceiptEvent.RENDERED, report, null, null);
        return report;
    }

    private RenderReport draw(NotificationContent content, List<String> diagnostics, long start) {
        String blocked = safely(notifier::blockedReason, diagnostics);
        if (blocked != null) {
            logger.warn("not drawn: " + blocked);
            diagnostics.add(blocked);
            return new RenderReport(List.of(), false, content.imageURL != null ? "the notification was not drawn" : content.imageRefusal,
                    RenderReport.Completion.FAILED, clock.nowMillis() - start, diagnostics);
        }
        P picture = null;
        String imageFailure = content.imageRefusal;
        if (content.imageURL != null) {
            ImageResult<P> image;
            try {
                image = images.load(content.imageURL);
            } catch (RuntimeException error) {
                image = ImageResult.failed("the image loader failed: " + error.getClass().getSimpleName());
            }
            picture = image.picture;
            imageFailure = picture == null ? (image.failure != null ? image.failure : "the image could not be loaded") : null;
            if (imageFailure != null) logger.warn("image: " + imageFailure);
        }
        List<String> buttons;
        try {
            buttons = notifier.draw(content, picture);
        } catch (RuntimeException error) {
            String failure = "drawing failed: " + error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
            logger.warn(failure);
            diagnostics.add(failure);
            return new RenderReport(List.of(), false, imageFailure, RenderReport.Completion.FAILED, clock.nowMillis() - start, diagnostics);
        }
        return new RenderReport(buttons, picture != null, imageFailure, RenderReport.Completion.COMPLETE, clock.nowMillis() - start, diagnostics);
    }

    private static String safely(java.util.function.Supplier<String> check, List<String> diagnostics) {
        try {
            return check.get();
        } catch (RuntimeException error) {
            diagnostics.add("could not check whether notifications are allowed: " + error.getClass().getSimpleName());
            return null;
        }
    }
}
