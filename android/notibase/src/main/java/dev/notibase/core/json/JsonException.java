package dev.notibase.core.json;

/** Text that is not strict JSON (RFC 8259), with the offset of the first problem. */
public final class JsonException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Where in the text the problem is, in chars. */
    public final int offset;

    JsonException(String message, int offset) {
        super(message + " at offset " + offset);
        this.offset = offset;
    }
}
