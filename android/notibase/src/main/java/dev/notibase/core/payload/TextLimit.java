package dev.notibase.core.payload;

import java.nio.charset.StandardCharsets;
import java.text.BreakIterator;

/**
 * Shortens text the way the server's {@code BodyShortener} does: cut at a character boundary,
 * trailing white space dropped, {@code …} added. The server already fits every payload in FCM's
 * 4096 bytes, so on the device this only guards against a payload that did not come from it.
 *
 * <p>Boundaries come from {@link BreakIterator}, which on older JVMs may split an emoji sequence
 * joined by ZWJ where Swift would not; it never splits a surrogate pair.
 */
public final class TextLimit {
    private TextLimit() {}

    /** The ellipsis the server appends. */
    public static final String ELLIPSIS = "…";

    /** The most UTF-8 bytes a text field can have in a payload FCM accepted. */
    public static final int MAX_BYTES = 4096;

    static int utf8Length(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** {@code text} when it fits in {@code maxBytes} UTF-8 bytes, else the longest shortened form that does. */
    public static String shorten(String text, int maxBytes) {
        if (utf8Length(text) <= maxBytes) return text;
        int budget = maxBytes - utf8Length(ELLIPSIS);
        BreakIterator characters = BreakIterator.getCharacterInstance();
        characters.setText(text);
        int spent = 0;
        int end = 0;
        for (int next = characters.next(); next != BreakIterator.DONE; next = characters.next()) {
            int cost = utf8Length(text.substring(end, next));
            if (spent + cost > budget) break;
            spent += cost;
            end = next;
        }
        int trimmed = end;
        while (trimmed > 0 && Character.isWhitespace(text.charAt(trimmed - 1))) trimmed--;
        if (trimmed > 0) end = trimmed;
        return text.substring(0, end) + ELLIPSIS;
    }
}
