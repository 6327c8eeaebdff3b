package dev.notibase.core.payload;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/** One action button of a notification, as read from {@code nb_buttons}. */
public final class Button {
    /** What a tap reports back ({@code actionId}). Unique within the notification. */
    public final String id;
    /** The label. */
    public final String text;
    /** The options; {@code [foreground]} when the payload leaves them out. */
    public final Set<ButtonOption> options;
    /** {@code system:NAME} or {@code template:NAME}, or null. */
    public final String icon;
    /** Present for a reply button. */
    public final TextInput input;
    /** The deep link opened by a tap, or null. */
    public final String url;

    public Button(String id, String text, Set<ButtonOption> options, String icon, TextInput input, String url) {
        this.id = id;
        this.text = text;
        this.options = options.isEmpty()
                ? Collections.<ButtonOption>emptySet()
                : Collections.unmodifiableSet(EnumSet.copyOf(options));
        this.icon = icon;
        this.input = input;
        this.url = url;
    }

    /** Whether a tap brings the app forward (else it is handled in the background). */
    public boolean opensApp() {
        return options.contains(ButtonOption.FOREGROUND);
    }
}
