package dev.notibase.core.payload;

import dev.notibase.core.json.Json;
import dev.notibase.core.json.JsonException;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns an FCM data map into a {@link NotificationContent}. Tolerant by design: whatever the
 * payload holds, it returns what can be drawn and says, in {@code diagnostics}, what it dropped and
 * why, so the render receipt can tell the delivery log. It never throws.
 *
 * <p>The rules are the server's ({@code FCMRenderer}, {@code Message+Validation}, the iOS
 * {@code PayloadReader}): at most 3 buttons on Android, ids non-empty and unique, texts non-empty,
 * https images, links with a scheme, texts within FCM's 4096 bytes.
 */
public final class PayloadReader {
    /** The most action buttons Android draws on one notification. */
    public static final int MAX_BUTTONS = 3;

    private final NotificationContent.Draft draft = new NotificationContent.Draft();

    private PayloadReader() {}

    /** Reads {@code data}; {@code collapseKey} is FCM's {@code RemoteMessage.getCollapseKey()}, or null. */
    public static NotificationContent read(Map<String, String> data, String collapseKey) {
        PayloadReader reader = new PayloadReader();
        reader.readAll(data == null ? Map.of() : data, collapseKey);
        return new NotificationContent(reader.draft);
    }

    private void readAll(Map<String, String> data, String collapseKey) {
        draft.title = text(data, PayloadKeys.TITLE);
        draft.subtitle = text(data, PayloadKeys.SUBTITLE);
        draft.body = text(data, PayloadKeys.BODY);
        readButtons(data.get(PayloadKeys.BUTTONS));
        String image = nonEmpty(data, PayloadKeys.IMAGE);
        if (image != null) {
            if (Links.isHTTPSWithHost(image)) {
                draft.imageURL = image;
            } else {
                draft.imageRefusal = "the image URL is not https with a host";
                note(PayloadKeys.IMAGE, draft.imageRefusal + "; drawn without the picture");
            }
        }
        draft.url = link(nonEmpty(data, PayloadKeys.URL), PayloadKeys.URL);
        draft.sound = nonEmpty(data, PayloadKeys.SOUND);
        draft.badge = badge(nonEmpty(data, PayloadKeys.BADGE));
        draft.thread = nonEmpty(data, PayloadKeys.THREAD);
        draft.collapseKey = collapseKey != null && !collapseKey.isEmpty() ? collapseKey : nonEmpty(data, PayloadKeys.COLLAPSE_KEY);
        draft.messageID = nonEmpty(data, PayloadKeys.MESSAGE);
        draft.deliveryID = nonEmpty(data, PayloadKeys.DELIVERY);
        draft.signature = nonEmpty(data, PayloadKeys.SIGNATURE);
        for (Map.Entry<String, String> entry : nonNullKeys(data).entrySet()) {
            if (!PayloadKeys.isReserved(entry.getKey()) && entry.getValue() != null) {
                draft.data.put(entry.getKey(), entry.getValue());
            }
        }
        if (isEmpty(draft.title) && isEmpty(draft.body)) note("nb_title", "no title and no body; the notification is drawn without text");
    }

    private void readButtons(String text) {
        if (text == null) return;
        Object parsed;
        try {
            parsed = Json.parse(text);
        } catch (JsonException error) {
            note(PayloadKeys.BUTTONS, "not JSON (" + error.getMessage() + "); no buttons");
            return;
        }
        if (!(parsed instanceof List)) {
            note(PayloadKeys.BUTTONS, "expected a JSON array; no buttons");
            return;
        }
        List<?> entries = (List<?>) parsed;
        Set<String> seen = new HashSet<>();
        for (int index = 0; index < entries.size(); index++) {
            Button button = readButton(entries.get(index), index);
            if (button == null) continue;
            if (!seen.add(button.id)) {
                note(buttonField(index, ".id"), "\"" + button.id + "\" repeats an earlier button's id; skipped");
                continue;
            }
            if (draft.buttons.size() == MAX_BUTTONS) {
                note(PayloadKeys.BUTTONS, entries.size() + " buttons; Android draws at most " + MAX_BUTTONS
                        + ", buttons from index " + index + " on are dropped");
                return;
            }
            draft.buttons.add(button);
        }
    }

    private Button readButton(Object entry, int index) {
        if (!(entry instanceof Map)) {
            note(buttonField(index, ""), "expected an object; skipped");
            return null;
        }
        Map<?, ?> object = (Map<?, ?>) entry;
        String id = string(object.get("id"), buttonField(index, ".id"));
        if (id == null || id.isEmpty()) {
            note(buttonField(index, ".id"), "missing or empty; skipped");
            return null;
        }
        if (id.startsWith("com.apple.")) {
            note(buttonField(index, ".id"), "ids starting with com.apple. are reserved; skipped");
            return null;
        }
        String label = string(object.get("text"), buttonField(index, ".text"));
        if (label == null || label.isEmpty()) {
            note(buttonField(index, ".text"), "missing or empty; skipped");
            return null;
        }
        Set<ButtonOption> options = EnumSet.of(ButtonOption.FOREGROUND);
        if (object.containsKey("options")) options = options(object.get("options"), index);
        String icon = string(object.get("icon"), buttonField(index, ".icon"));
        if (icon != null && !Links.isValidIcon(icon)) {
            note(buttonField(index, ".icon"), "\"" + icon + "\" is neither system:NAME nor template:NAME; drawn without an icon");
            icon = null;
        }
        TextInput input = null;
        Object inputValue = object.get("input");
        if (inputValue instanceof Map) {
            Map<?, ?> fields = (Map<?, ?>) inputValue;
            input = new TextInput(
                    string(fields.get("button"), buttonField(index, ".input.button")),
                    string(fields.get("placeholder"), buttonField(index, ".input.placeholder")));
        } else if (inputValue != null && inputValue != Json.NULL) {
            note(buttonField(index, ".input"), "expected an object; drawn as a plain button");
        }
        String url = link(string(object.get("url"), buttonField(index, ".url")), buttonField(index, ".url"));
        return new Button(id, TextLimit.shorten(label, TextLimit.MAX_BYTES), options, icon, input, url);
    }

    private Set<ButtonOption> options(Object value, int buttonIndex) {
        if (!(value instanceof List)) {
            note(buttonField(buttonIndex, ".options"), "expected an array; using the default [foreground]");
            return EnumSet.of(ButtonOption.FOREGROUND);
        }
        List<?> names = (List<?>) value;
        Set<ButtonOption> options = EnumSet.noneOf(ButtonOption.class);
        for (int index = 0; index < names.size(); index++) {
            Object name = names.get(index);
            ButtonOption option = name instanceof String ? ButtonOption.fromWireName((String) name) : null;
            if (option == null) {
                note(buttonField(buttonIndex, ".options[" + index + "]"), "not one of authenticationRequired, destructive, foreground; ignored");
            } else {
                options.add(option);
            }
        }
        return options;
    }

    private String text(Map<String, String> data, String key) {
        String value = data.get(key);
        if (value == null) return null;
        String fitted = TextLimit.shorten(value, TextLimit.MAX_BYTES);
        if (!fitted.equals(value)) note(key, "longer than " + TextLimit.MAX_BYTES + " bytes; shortened");
        return fitted;
    }

    private static String nonEmpty(Map<String, String> data, String key) {
        String value = data.get(key);
        return value == null || value.isEmpty() ? null : value;
    }

    private String link(String value, String field) {
        if (value == null) return null;
        if (Links.isValidLink(value)) return value;
        note(field, "\"" + value + "\" is not a link with a scheme; ignored");
        return null;
    }

    private Integer badge(String value) {
        if (value == null) return null;
        try {
            int badge = Integer.parseInt(value);
            if (badge >= 0) return badge;
        } catch (NumberFormatException notANumber) {
            // Reported below, as a negative number is.
        }
        note(PayloadKeys.BADGE, "\"" + value + "\" is not a count (0 or more); ignored");
        return null;
    }

    /** A JSON string; an integer is converted (with a note), anything else is ignored (with a note). */
    private String string(Object value, String field) {
        if (value == null || value == Json.NULL) return null;
        if (value instanceof String) return (String) value;
        if (value instanceof Long) {
            note(field, "a number where a string belongs; used as \"" + value + "\"");
            return value.toString();
        }
        note(field, "expected a string; ignored");
        return null;
    }

    private static Map<String, String> nonNullKeys(Map<String, String> data) {
        Map<String, String> copy = new TreeMap<>();
        for (Map.Entry<String, String> entry : data.entrySet()) {
            if (entry.getKey() != null) copy.put(entry.getKey(), entry.getValue());
        }
        return copy;
    }

    private static boolean isEmpty(String text) {
        return text == null || text.isEmpty();
    }

    private static String buttonField(int index, String suffix) {
        return PayloadKeys.BUTTONS + "[" + index + "]" + suffix;
    }

    private void note(String field, String message) {
        draft.diagnostics.add(field + ": " + message);
    }
}
