package dev.notibase.core.receipts;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the device drew, sent with the {@code rendered} receipt ({@code RenderReport.swift}), so the
 * delivery log says "rendered with 2 buttons and the image" or why not. Android has no category, so
 * {@code categoryId} is never sent.
 */
public final class RenderReport {
    /** How drawing ended; the server's {@code RenderReport.Completion} names. */
    public enum Completion {
        COMPLETE("complete"),
        FAILED("failed");

        public final String wireName;

        Completion(String wireName) {
            this.wireName = wireName;
        }
    }

    /** The most diagnostics sent: a hostile payload could otherwise make the receipt huge. */
    public static final int MAX_DIAGNOSTICS = 20;

    public final List<String> buttons;
    public final boolean imageAttached;
    public final String imageFailure;
    public final Completion completion;
    public final long elapsedMilliseconds;
    public final List<String> diagnostics;

    public RenderReport(List<String> buttons, boolean imageAttached, String imageFailure, Completion completion,
            long elapsedMilliseconds, List<String> diagnostics) {
        this.buttons = Collections.unmodifiableList(new ArrayList<>(buttons));
        this.imageAttached = imageAttached;
        this.imageFailure = imageFailure;
        this.completion = completion;
        this.elapsedMilliseconds = elapsedMilliseconds;
        List<String> kept = new ArrayList<>(diagnostics.subList(0, Math.min(diagnostics.size(), MAX_DIAGNOSTICS)));
        if (diagnostics.size() > MAX_DIAGNOSTICS) kept.add((diagnostics.size() - MAX_DIAGNOSTICS) + " more problems not listed");
        this.diagnostics = Collections.unmodifiableList(kept);
    }

    /** The JSON object of the receipt's {@code render} field. */
    public Map<String, Object> toJSON() {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("buttons", new ArrayList<Object>(buttons));
        object.put("imageAttached", imageAttached);
        object.put("imageFailure", imageFailure);
        object.put("completion", completion.wireName);
        object.put("elapsedMilliseconds", elapsedMilliseconds);
        if (!diagnostics.isEmpty()) object.put("diagnostics", new ArrayList<Object>(diagnostics));
        return object;
    }
}
