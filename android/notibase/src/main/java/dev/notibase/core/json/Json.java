package dev.notibase.core.json;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader (RFC 8259), because {@code org.json} exists only on Android and the core
 * must run on any JVM. Values come back as {@link Map} (keys in document order), {@link List},
 * {@link String}, {@link Long} (integers that fit), {@link Double} (other numbers), {@link Boolean}
 * or {@link #NULL}.
 *
 * <p>Nesting is capped at {@link #MAX_DEPTH}, so a hostile payload ({@code [[[[…}) fails with a
 * {@link JsonException} instead of overflowing the stack of the app's messaging thread.
 */
public final class Json {
    /** JSON {@code null}, distinct from Java's {@code null} (a missing key). */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    /** The deepest nesting accepted. */
    public static final int MAX_DEPTH = 64;

    private final String text;
    private int position;

    private Json(String text) {
        this.text = text;
    }

    /** Parses a whole document; anything but white space after the value is an error. */
    public static Object parse(String text) throws JsonException {
        Json reader = new Json(text);
        reader.skipSpace();
        Object value = reader.value(0);
        reader.skipSpace();
        if (reader.position != text.length()) throw reader.error("unexpected text after the value");
        return value;
    }

    private Object value(int depth) throws JsonException {
        if (position >= text.length()) throw error("unexpected end of text");
        char c = text.charAt(position);
        switch (c) {
            case '{': return object(depth + 1);
            case '[': return array(depth + 1);
            case '"': return string();
            case 't': return literal("true", Boolean.TRUE);
            case 'f': return literal("false", Boolean.FALSE);
            case 'n': return literal("null", NULL);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) return number();
                throw error("unexpected character '" + c + "'");
        }
    }

    private Map<String, Object> object(int depth) throws JsonException {
        if (depth > MAX_DEPTH) throw error("nesting deeper than " + MAX_DEPTH);
        position++;
        Map<String, Object> members = new LinkedHashMap<>();
        skipSpace();
        if (peek() == '}') {
            position++;
            return Collections.unmodifiableMap(members);
        }
        while (true) {
            skipSpace();
            if (peek() != '"') throw error("expected a string key");
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            if (members.containsKey(key)) throw error("duplicate key \"" + key + "\"");
            members.put(key, value(depth));
            skipSpace();
            char next = peek();
            position++;
            if (next == '}') return Collections.unmodifiableMap(members);
            if (next != ',') throw error("expected ',' or '}'", position - 1);
        }
    }

    private List<Object> array(int depth) throws JsonException {
        if (depth > MAX_DEPTH) throw error("nesting deeper than " + MAX_DEPTH);
        position++;
        List<Object> elements = new ArrayList<>();
        skipSpace();
        if (peek() == ']') {
            position++;
            return Collections.unmodifiableList(elements);
        }
        while (true) {
            skipSpace();
            elements.add(value(depth));
            skipSpace();
            char next = peek();
            position++;
            if (next == ']') return Collections.unmodifiableList(elements);
            if (next != ',') throw error("expected ',' or ']'", position - 1);
        }
    }

    private String string() throws JsonException {
        position++;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (position >= text.length()) throw error("unterminated string");
            char c = text.charAt(position++);
            if (c == '"') return out.toString();
            if (c < 0x20) throw error("control character in a string", position - 1);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (position >= text.length()) throw error("unterminated escape");
            char escape = text.charAt(position++);
            switch (escape) {
                case '"': out.append('"'); break;
                case '\\': out.append('\\'); break;
                case '/': out.append('/'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'u': out.append(hexUnit()); break;
                default: throw error("unknown escape \\" + escape, position - 1);
            }
        }
    }

    private char hexUnit() throws JsonException {
        if (position + 4 > text.length()) throw error("short \\u escape");
        int unit = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(position++), 16);
            if (digit < 0) throw error("bad hex digit in \\u escape", position - 1);
            unit = unit * 16 + digit;
        }
        return (char) unit;
    }

    private Object number() throws JsonException {
        int start = position;
        if (peek() == '-') position++;
        if (peek() == '0') {
            position++;
        } else if (isDigit(peek())) {
            digits();
        } else {
            throw error("expected a digit");
        }
        boolean integer = true;
        if (peek() == '.') {
            integer = false;
            position++;
            if (!isDigit(peek())) throw error("expected a digit after '.'");
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            integer = false;
            position++;
            if (peek() == '+' || peek() == '-') position++;
            if (!isDigit(peek())) throw error("expected a digit in the exponent");
            digits();
        }
        String literal = text.substring(start, position);
        if (integer) {
            try {
                return Long.parseLong(literal);
            } catch (NumberFormatException tooLong) {
                // Falls through to a double, as JavaScript would read it.
            }
        }
        return Double.parseDouble(literal);
    }

    private void digits() {
        while (isDigit(peek())) position++;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private Object literal(String word, Object value) throws JsonException {
        if (!text.startsWith(word, position)) throw error("unexpected word");
        position += word.length();
        return value;
    }

    private void expect(char c) throws JsonException {
        if (peek() != c) throw error("expected '" + c + "'");
        position++;
    }

    /** The next char, or NUL at the end (NUL cannot appear unescaped in valid JSON). */
    private char peek() {
        return position < text.length() ? text.charAt(position) : '\0';
    }

    private void skipSpace() {
        while (position < text.length()) {
            char c = text.charAt(position);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
            position++;
        }
    }

    private JsonException error(String message) {
        return error(message, position);
    }

    private JsonException error(String message, int at) {
        return new JsonException(message, at);
    }
}
