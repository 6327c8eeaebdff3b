package dev.notibase.core.live;

import dev.notibase.core.Clock;
import dev.notibase.core.Logger;
import dev.notibase.core.receipts.ReceiptEvent;
import dev.notibase.core.receipts.Receipts;
import dev.notibase.core.receipts.RenderReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One Live Update message, start to end: read it, check its order against the activity's last
 * message, post or remove the activity's notification, remember what was applied, report
 * {@code ended}, and queue the {@code rendered} receipt. A malformed message, or one out of order,
 * is not drawn, and its receipt says why ({@code completion: failed} with the diagnostics), the way
 * every payload problem reaches the delivery log. It never throws into the app.
 */
public final class LiveUpdateHandler {
    private final LiveNotifier notifier;
    private final Supplier<String> blockedReason;
    private final LiveTimeline timeline;
    private final LiveActivityReports reports;
    private final Receipts receipts;
    private final Clock clock;
    private final Logger logger;

    /** {@code blockedReason} says why notifications cannot be shown now (the permission, the settings), or null. */
    public LiveUpdateHandler(LiveNotifier notifier, Supplier<String> blockedReason, LiveTimeline timeline, LiveActivityReports reports,
            Receipts receipts, Clock clock, Logger logger) {
        this.notifier = notifier;
        this.blockedReason = blockedReason;
        this.timeline = timeline;
        this.reports = reports;
        this.receipts = receipts;
        this.clock = clock;
        this.logger = logger;
    }

    public RenderReport handle(Map<String, String> data) {
        long start = clock.nowMillis();
        LiveUpdateReader.Result read = LiveUpdateReader.read(data);
        List<String> diagnostics = new ArrayList<>(read.diagnostics);
        for (String diagnostic : diagnostics) logger.warn("live update: " + diagnostic);
        RenderReport report;
        if (read.update == null) {
            logger.warn("live update dropped: malformed");
            report = failed(diagnostics, start);
        } else {
            report = apply(read.update, diagnostics, start);
        }
        receipts.queue(read.receipt, ReceiptEvent.RENDERED, report, null, null);
        return report;
    }

    /** Applies one update; one handled at a time, so two messages for an activity cannot both pass the order check. */
    private synchronized RenderReport apply(LiveUpdate update, List<String> diagnostics, long start) {
        String refusal = timeline.refusal(update);
        if (refusal != null) {
            logger.info("live update " + refusal);
            diagnostics.add(refusal);
            return failed(diagnostics, start);
        }
        LiveRecord last = timeline.last(update.activityID);
        LiveCard card = LiveCard.of(update, last, clock.nowMillis());
        if (!card.remove && card.title == null && card.body == null) {
            diagnostics.add(LiveKeys.TITLE + ": neither " + LiveKeys.TITLE + " nor " + LiveKeys.BODY
                    + ", and no text drawn before for activity " + update.activityID + ": drawn with the app's name only");
        }
        // Removing needs no permission; drawing does.
        String blocked = card.remove ? null : blocked(diagnostics);
        if (blocked != null) {
            logger.warn("live update not drawn: " + blocked);
            diagnostics.add(blocked);
        } else {
            try {
                if (card.remove) {
                    notifier.remove(card);
                } else {
                    notifier.show(card);
                }
            } catch (RuntimeException error) {
                String failure = "drawing failed: " + error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
                logger.warn(failure);
                diagnostics.add(failure);
                return failed(diagnostics, start);
            }
        }
        // Applied even when notifications are blocked, as iOS applies an activity's state it does not
        // show: once they are allowed, the next message draws the activity as it is then.
        boolean ended = update.event == LiveEvent.END;
        timeline.applied(new LiveRecord(update.activityID, update.timestamp, ended, card.title, card.body));
        if (ended) reports.queue(update.activityID, LiveActivityReports.Kind.ENDED);
        if (blocked != null) return failed(diagnostics, start);
        return new RenderReport(List.of(), false, null, RenderReport.Completion.COMPLETE, clock.nowMillis() - start, diagnostics);
    }

    private String blocked(List<String> diagnostics) {
        try {
            return blockedReason.get();
        } catch (RuntimeException error) {
            diagnostics.add("could not check whether notifications are allowed: " + error.getClass().getSimpleName());
            return null;
        }
    }

    private RenderReport failed(List<String> diagnostics, long start) {
        return new RenderReport(List.of(), false, null, RenderReport.Completion.FAILED, clock.nowMillis() - start, diagnostics);
    }
}
