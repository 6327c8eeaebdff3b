package dev.notibase.core.payload;

import java.util.Objects;

/** The text field of a reply button: drawn as a {@code RemoteInput}. */
public final class TextInput {
    /** The send button's title, or null to let the system choose. */
    public final String button;
    /** The placeholder of the empty field, or null. */
    public final String placeholder;

    public TextInput(String button, String placeholder) {
        this.button = button;
        this.placeholder = placeholder;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof TextInput)) return false;
        TextInput that = (TextInput) other;
        return Objects.equals(button, that.button) && Objects.equals(placeholder, that.placeholder);
    }

    @Override
    public int hashCode() {
        return Objects.hash(button, placeholder);
    }
}
