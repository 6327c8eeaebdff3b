package dev.notibase.core.live;

import dev.notibase.core.json.Json;
import dev.notibase.core.json.JsonException;
import dev.notibase.core.payload.PayloadKeys;
import dev.notibase.core.payload.TextLimit;
import dev.notibase.core.receipts.ReceiptContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Turns a Live Update data message into a {@link LiveUpdate}, or says why it cannot be applied. It
 * never throws. A message without a valid activity ID, event, timestamp or content state is
 * malformed: it is dropped, and the problems go to the render receipt. A bad optional field
 * (progress, dates, attributes, a date on the wrong event) is left out with a diagnostic, and the
 * rest is applied. The title and body are optional on every event, as the server sends them: a
 * message without either keeps the text last drawn for its activity ({@link LiveCard#of}).
 */
public final class LiveUpdateReader {
    /** The activity ID's form, the same on both platforms: 1 to 64 of {@code [A-Za-z0-9._:-]}. */
    public static final Pattern ACTIVITY_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    /** What reading found: the update, or null when the message is malformed; and what was wrong. */
    public static final class Result {
        /** Null when the message is malformed and must be dropped. */
        public final LiveUpdate update;
        /** Each problem as {@code key: what is wrong}; the reasons for dropping it when {@link #update} is null. */
        public final List<String> diagnostics;
        /** The receipt's ids, from the delivery keys, even for a malformed message. */
        public final ReceiptContext receipt;

        Result(LiveUpdate update, List<String> diagnostics, ReceiptContext receipt) {
            this.update = update;
            this.diagnostics = Collections.unmodifiableList(new ArrayList<>(diagnostics));
            this.receipt = receipt;
        }
    }

    private final Map<String, String> data;
    private final List<String> problems = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    private LiveUpdateReader(Map<String, String> data) {
        this.data = data;
    }

    public static Result read(Map<String, String> data) {
        return new LiveUpdateReader(data == null ? Map.of() : data).readAll();
    }

    private Result readAll() {
        ReceiptContext receipt = new ReceiptContext(value(PayloadKeys.DELIVERY), value(PayloadKeys.MESSAGE), value(PayloadKeys.SIGNATURE));
        String activityID = value(LiveKeys.ACTIVITY_ID);
        if (activityID == null) {
            problem(LiveKeys.ACTIVITY_ID, "missing");
        } else if (!ACTIVITY_ID.matcher(activityID).matches()) {
            problem(LiveKeys.ACTIVITY_ID, "not 1 to 64 letters, digits or . _ : -");
        }
        String eventName = value(LiveKeys.EVENT);
        LiveEvent event = LiveEvent.fromWireName(eventName);
        if (event == null) problem(LiveKeys.EVENT, eventName == null ? "missing" : "\"" + eventName + "\" is not start, update or end");
        Long timestamp = seconds(LiveKeys.TIMESTAMP);
        if (timestamp == null) problem(LiveKeys.TIMESTAMP, value(LiveKeys.TIMESTAMP) == null ? "missing" : "not whole seconds (0 or more)");
        String contentState = object(LiveKeys.CONTENT_STATE, true);
        String title = text(LiveKeys.TITLE);
        String body = text(LiveKeys.BODY);
        Double progress = progress();
        Long staleDate = optionalSeconds(LiveKeys.STALE_DATE);
        Long dismissalDate = optionalSeconds(LiveKeys.DISMISSAL_DATE);
        if (dismissalDate != null && event != null && event != LiveEvent.END) {
            note(LiveKeys.DISMISSAL_DATE, "only an end has one; ignored");
            dismissalDate = null;
        }
        String attributesType = value(LiveKeys.ATTRIBUTES_TYPE);
        String attributes = object(LiveKeys.ATTRIBUTES, false);
        if (event != null && event != LiveEvent.START && (attributesType != null || attributes != null)) {
            note(LiveKeys.ATTRIBUTES, "only a start has attributes; ignored");
            attributesType = null;
            attributes = null;
        }
        List<String> diagnostics = new ArrayList<>(problems);
        diagnostics.addAll(notes);
        if (!problems.isEmpty()) return new Result(null, diagnostics, receipt);
        return new Result(new LiveUpdate(activityID, event, timestamp, contentState, title, body, progress, staleDate, dismissalDate,
                attributesType, attributes, receipt), diagnostics, receipt);
    }

    private String value(String key) {
        String value = data.get(key);
        return value == null || value.isEmpty() ? null : value;
    }

    /** A text to draw, within FCM's size as the other texts are. */
    private String text(String key) {
        String value = value(key);
        if (value == null) return null;
        String fitted = TextLimit.shorten(value, TextLimit.MAX_BYTES);
        if (!fitted.equals(value)) note(key, "longer than " + TextLimit.MAX_BYTES + " bytes; shortened");
        return fitted;
    }

    private Long seconds(String key) {
        String value = value(key);
        if (value == null) return null;
        try {
            long seconds = Long.parseLong(value);
            return seconds >= 0 ? seconds : null;
        } catch (NumberFormatException notANumber) {
            return null;
        }
    }

    private Long optionalSeconds(String key) {
        Long seconds = seconds(key);
        if (seconds == null && value(key) != null) note(key, "not whole seconds (0 or more); ignored");
        return seconds;
    }

    private Double progress() {
        String value = value(LiveKeys.PROGRESS);
        if (value == null) return null;
        try {
            double progress = Double.parseDouble(value);
            if (progress >= 0 && progress <= 1) return progress;
        } catch (NumberFormatException notANumber) {
            // Noted below, as a number out of range is.
        }
        note(LiveKeys.PROGRESS, "not a number from 0 to 1; drawn without a progress bar");
        return null;
    }

    /** JSON object text, or null; a missing or bad required one is a problem, a bad optional one a note. */
    private String object(String key, boolean required) {
        String value = value(key);
        if (value == null) {
            if (required) problem(key, "missing");
            return null;
        }
        String wrong;
        try {
            if (Json.parse(value) instanceof Map) return value;
            wrong = "not a JSON object";
        } catch (JsonException error) {
            wrong = "not JSON (" + error.getMessage() + ")";
        }
        if (required) {
            problem(key, wrong);
        } else {
            note(key, wrong + "; ignored");
        }
        return null;
    }

    private void problem(String key, String message) {
        problems.add(key + ": " + message);
    }

    private void note(String key, String message) {
        notes.add(key + ": " + message);
    }
}
