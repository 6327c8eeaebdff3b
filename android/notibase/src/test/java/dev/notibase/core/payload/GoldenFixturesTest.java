package dev.notibase.core.payload;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import dev.notibase.core.json.Json;
import dev.notibase.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Every {@code *.fcm.golden} of the Swift core's render tests, read as the phone receives it, must
 * give back what its {@code *.message.json} defined: the same title, body, buttons, image, links,
 * ids and data, with no diagnostic. A golden that is an error (the server refuses the message)
 * must stay one the server refuses.
 */
@RunWith(Parameterized.class)
public final class GoldenFixturesTest {
    private static final String DELIVERY = "3f2a8c1e-6b4d-4e8f-9a7b-1c2d3e4f5a6b";
    private static final String MESSAGE = "msg_01JDX7Q";

    @Parameters(name = "{0}")
    public static Collection<Object[]> fixtures() {
        List<Object[]> names = new ArrayList<>();
        // live-*: Live Update data messages, defined by a *.live.json: LiveGoldenFixturesTest reads them.
        for (String name : Fixtures.fcmNames()) if (!name.startsWith("live-")) names.add(new Object[] {name});
        assertTrue("expected the core's render fixtures, found " + names.size(), names.size() >= 8);
        return names;
    }

    private final String name;

    public GoldenFixturesTest(String name) {
        this.name = name;
    }

    @Test
    public void readsWhatTheMessageDefined() throws Exception {
        String golden = Fixtures.read(name + ".fcm.golden");
        Map<?, ?> message = (Map<?, ?>) Json.parse(Fixtures.read(name + ".message.json"));
        if (golden.startsWith("error:")) {
            assertTrue(name + ": an error golden names its code", golden.matches("(?s)error: [a-z_]+\n.+"));
            return;
        }
        assertTrue(name + ": a request golden", golden.startsWith("POST /v1/projects/PROJECT_ID/messages:send\n\n"));
        Map<?, ?> envelope = (Map<?, ?>) ((Map<?, ?>) Json.parse(golden.substring(golden.indexOf("\n\n") + 2))).get("message");
        Map<String, String> data = strings((Map<?, ?>) envelope.get("data"));
        String collapseKey = (String) ((Map<?, ?>) envelope.get("android")).get("collapse_key");
        assertTrue(name + ": within FCM's limit as FCMRenderer counts it", fcmDataSize(data) <= 4096);

        if (Boolean.TRUE.equals(message.get("background"))) {
            // A silent push draws nothing: the SDK hands it to the app's listener.
            assertTrue(name + ": read as a background push", dev.notibase.core.render.BackgroundPushHandler.isBackground(data));
            return;
        }
        NotificationContent content = PayloadReader.read(data, collapseKey);

        assertEquals(name + ": no diagnostics for a payload the server sent", List.of(), content.diagnostics);
        assertEquals(message.get("title"), content.title);
        assertEquals(message.get("subtitle"), content.subtitle);
        assertBody((String) message.get("body"), content.body);
        assertButtons(message.get("buttons"), content.buttons);
        assertEquals(message.get("image"), content.imageURL);
        assertEquals(message.get("url"), content.url);
        assertEquals(message.get("sound"), content.sound);
        assertEquals(message.get("badge") == null ? null : ((Long) message.get("badge")).intValue(), content.badge);
        assertEquals(message.get("threadId"), content.thread);
        assertEquals(message.get("collapseId"), content.collapseKey);
        assertEquals(DELIVERY, content.deliveryID);
        assertEquals(MESSAGE, content.messageID);
        assertEquals("nb_sig when the server signs deliveries, else none", data.get(PayloadKeys.SIGNATURE), content.signature);
        assertData((Map<?, ?>) message.get("data"), content.data);
    }

    /** The body as defined, or, when the server shortened it, a prefix of it with the ellipsis. */
    private void assertBody(String defined, String received) {
        if (defined == null || defined.equals(received)) {
            assertEquals(defined, received);
            return;
        }
        assertNotNull(name + ": body", received);
        assertTrue(name + ": a shortened body ends with …", received.endsWith(TextLimit.ELLIPSIS));
        String kept = received.substring(0, received.length() - TextLimit.ELLIPSIS.length());
        assertTrue(name + ": a shortened body is a prefix of the message's", defined.startsWith(kept) && kept.length() < defined.length());
    }

    private void assertButtons(Object defined, List<Button> received) {
        List<?> buttons = defined == null ? List.of() : (List<?>) defined;
        assertTrue(name + ": Android draws at most 3", received.size() <= PayloadReader.MAX_BUTTONS);
        assertEquals(name + ": button count", buttons.size(), received.size());
        for (int i = 0; i < buttons.size(); i++) {
            Map<?, ?> button = (Map<?, ?>) buttons.get(i);
            Button read = received.get(i);
            assertEquals(button.get("id"), read.id);
            assertEquals(button.get("text"), read.text);
            Set<ButtonOption> options = EnumSet.noneOf(ButtonOption.class);
            if (button.containsKey("options")) {
                for (Object option : (List<?>) button.get("options")) options.add(ButtonOption.fromWireName((String) option));
            } else {
                options.add(ButtonOption.FOREGROUND);
            }
            assertEquals(name + ": options of " + read.id, options, read.options);
            assertEquals(button.get("icon"), read.icon);
            assertEquals(button.get("url"), read.url);
            Map<?, ?> input = (Map<?, ?>) button.get("input");
            assertEquals(input == null ? null : new TextInput((String) input.get("button"), (String) input.get("placeholder")), read.input);
        }
    }

    /** Custom data: strings as they are, other values as JSON text that reads back to the same value. */
    private void assertData(Map<?, ?> defined, Map<String, String> received) throws Exception {
        Map<?, ?> data = defined == null ? Map.of() : defined;
        assertEquals(name + ": data keys", data.keySet(), received.keySet());
        for (Map.Entry<?, ?> entry : data.entrySet()) {
            String text = received.get(entry.getKey());
            if (entry.getValue() instanceof String) {
                assertEquals(entry.getValue(), text);
            } else {
                assertEquals(name + ": data." + entry.getKey(), entry.getValue(), Json.parse(text));
            }
        }
    }

    private static Map<String, String> strings(Map<?, ?> data) {
        Map<String, String> strings = new java.util.LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : data.entrySet()) strings.put((String) entry.getKey(), (String) entry.getValue());
        return strings;
    }

    /** {@code FCMRenderer.dataSize}: each key and value in UTF-8, 6 bytes an entry, 39 for the message. */
    private static int fcmDataSize(Map<String, String> data) {
        int size = 39;
        for (Map.Entry<String, String> entry : data.entrySet()) {
            size += entry.getKey().getBytes(StandardCharsets.UTF_8).length + entry.getValue().getBytes(StandardCharsets.UTF_8).length + 6;
        }
        return size;
    }
}
