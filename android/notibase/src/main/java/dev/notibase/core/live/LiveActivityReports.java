package dev.notibase.core.live;

import dev.notibase.core.Clock;
import dev.notibase.core.Logger;
import dev.notibase.core.json.JsonWriter;
import dev.notibase.core.outbox.Entry;
import dev.notibase.core.outbox.Outbox;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Tells the server, through the outbox, that an activity's notification ended or that the user
 * dismissed it: {@code POST /v1/live-activity-reports} with the client key, the body the iOS SDK
 * sends ({@code LiveActivityReport}). Android has no activity tokens: the device is named by its FCM
 * token, the one it registered.
 */
public final class LiveActivityReports {
    public static final String PATH = "/v1/live-activity-reports";

    /** The kinds Android reports; iOS also reports its push-to-start and update tokens. */
    public enum Kind {
        /** An {@code end} was applied. */
        ENDED("ended"),
        /** The user swiped the notification away. */
        DISMISSED("dismissed");

        public final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }
    }

    private final Outbox outbox;
    private final Supplier<String> deviceToken;
    private final Clock clock;
    private final Logger logger;

    /** {@code deviceToken} is the FCM token the device registered, or null before it has one. */
    public LiveActivityReports(Outbox outbox, Supplier<String> deviceToken, Clock clock, Logger logger) {
        this.outbox = outbox;
        this.deviceToken = deviceToken;
        this.clock = clock;
        this.logger = logger;
    }

    /** Queues the report; false when the device has no token yet (it has not registered, so the server does not know it). */
    public boolean queue(String activityID, Kind kind) {
        String token = deviceToken.get();
        if (token == null) {
            logger.warn("no device token yet; activity " + activityID + " " + kind.wireName + " not reported");
            return false;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("deviceToken", token);
        body.put("kind", kind.wireName);
        body.put("activityId", activityID);
        // One report of each kind per activity waits at a time: the same id replaces a pending one.
        outbox.add(new Entry("live " + kind.wireName + " " + activityID, "live activity " + activityID + " " + kind.wireName, PATH,
                JsonWriter.write(body), 0, clock.nowMillis()));
        return true;
    }

    /**
     * Whether the removal of an ended notification at {@code nowMillis} was the user's: Android
     * also tells of the removal it made itself at {@code dismissAtMillis} (the message's dismissal
     * date), which is not the user's doing.
     */
    public static boolean isUserDismissal(long nowMillis, Long dismissAtMillis) {
        return dismissAtMillis == null || nowMillis < dismissAtMillis;
    }
}
