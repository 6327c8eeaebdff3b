package dev.notibase.core.payload;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** Payloads the server would never send: the reader draws what it can and says what it dropped, never throws. */
public final class BadPayloadTest {
    private static NotificationContent read(String buttons) {
        Map<String, String> data = new HashMap<>();
        data.put(PayloadKeys.TITLE, "Title");
        if (buttons != null) data.put(PayloadKeys.BUTTONS, buttons);
        return PayloadReader.read(data, null);
    }

    private static void assertDiagnostic(NotificationContent content, String start) {
        for (String diagnostic : content.diagnostics) {
            if (diagnostic.startsWith(start)) return;
        }
        throw new AssertionError("no diagnostic starting with \"" + start + "\" in " + content.diagnostics);
    }

    private static List<String> ids(NotificationContent content) {
        return content.buttons.stream().map(button -> button.id).collect(java.util.stream.Collectors.toList());
    }

    @Test
    public void buttonsThatAreNotJSONDrawNoButtonsAndSaySo() {
        NotificationContent content = read("[{\"id\": \"a\", \"text\": \"A\"},");
        assertEquals("Title", content.title);
        assertEquals(List.of(), content.buttons);
        assertDiagnostic(content, "nb_buttons: not JSON");
    }

    @Test
    public void buttonsThatAreNotAnArrayDrawNoButtons() {
        NotificationContent content = read("{\"id\": \"a\", \"text\": \"A\"}");
        assertEquals(List.of(), content.buttons);
        assertDiagnostic(content, "nb_buttons: expected a JSON array");
    }

    @Test
    public void aNullEntryIsSkippedAndTheOthersKept() {
        NotificationContent content = read("[null, {\"id\": \"b\", \"text\": \"B\"}, 7]");
        assertEquals(List.of("b"), ids(content));
        assertDiagnostic(content, "nb_buttons[0]: expected an object; skipped");
        assertDiagnostic(content, "nb_buttons[2]: expected an object; skipped");
    }

    @Test
    public void missingIdsTextsAndRepeatsAreSkipped() {
        NotificationContent content = read("[{\"text\": \"No id\"}, {\"id\": \"\", \"text\": \"Empty\"}, {\"id\": \"x\"},"
                + " {\"id\": \"ok\", \"text\": \"OK\"}, {\"id\": \"ok\", \"text\": \"Again\"}]");
        assertEquals(List.of("ok"), ids(content));
        assertDiagnostic(content, "nb_buttons[0].id: missing or empty");
        assertDiagnostic(content, "nb_buttons[1].id: missing or empty");
        assertDiagnostic(content, "nb_buttons[2].text: missing or empty");
        assertDiagnostic(content, "nb_buttons[4].id: \"ok\" repeats");
    }

    @Test
    public void tenButtonsDrawTheFirstThree() {
        StringBuilder buttons = new StringBuilder("[");
        for (int i = 0; i < 10; i++) buttons.append(i == 0 ? "" : ",").append("{\"id\":\"b").append(i).append("\",\"text\":\"B\"}");
        NotificationContent content = read(buttons.append("]").toString());
        assertEquals(List.of("b0", "b1", "b2"), ids(content));
        assertDiagnostic(content, "nb_buttons: 10 buttons; Android draws at most 3");
    }

    @Test
    public void anInvalidButtonDoesNotCostAValidOneItsPlace() {
        NotificationContent content = read("[{\"id\":\"a\",\"text\":\"A\"},{\"id\":\"\",\"text\":\"B\"},{\"id\":\"c\",\"text\":\"C\"},{\"id\":\"d\",\"text\":\"D\"}]");
        assertEquals(List.of("a", "c", "d"), ids(content));
    }

    @Test
    public void badFieldsOfAButtonAreDroppedAndTheButtonKept() {
        NotificationContent content = read("[{\"id\": 12, \"text\": \"T\", \"options\": \"foreground\", \"icon\": \"sparkles\","
                + " \"input\": true, \"url\": \"no scheme\"}, {\"id\": \"o\", \"text\": \"O\", \"options\": [\"destructive\", \"loud\"]}]");
        Button first = content.buttons.get(0);
        assertEquals("12", first.id);
        assertEquals(java.util.Set.of(ButtonOption.FOREGROUND), first.options);
        assertNull(first.icon);
        assertNull(first.input);
        assertNull(first.url);
        assertEquals(java.util.Set.of(ButtonOption.DESTRUCTIVE), content.buttons.get(1).options);
        assertDiagnostic(content, "nb_buttons[0].id: a number where a string belongs");
        assertDiagnostic(content, "nb_buttons[0].options: expected an array");
        assertDiagnostic(content, "nb_buttons[0].icon:");
        assertDiagnostic(content, "nb_buttons[0].input: expected an object");
        assertDiagnostic(content, "nb_buttons[0].url:");
        assertDiagnostic(content, "nb_buttons[1].options[1]:");
    }

    @Test
    public void anEmptyOptionListIsABackgroundButton() {
        assertTrue(!read("[{\"id\":\"ack\",\"text\":\"Ack\",\"options\":[]}]").buttons.get(0).opensApp());
    }

    @Test
    public void aNonHTTPSImageIsDroppedWithItsReason() {
        for (String image : new String[] {"http://cdn.example.com/a.jpg", "https:///a.jpg", "file:///etc/passwd", "ftp://x/y"}) {
            NotificationContent content = PayloadReader.read(Map.of(PayloadKeys.BODY, "b", PayloadKeys.IMAGE, image), null);
            assertNull(image, content.imageURL);
            assertEquals("the image URL is not https with a host", content.imageRefusal);
            assertDiagnostic(content, "nb_image:");
        }
        assertEquals("HTTPS://cdn.example.com/a.jpg",
                PayloadReader.read(Map.of(PayloadKeys.IMAGE, "HTTPS://cdn.example.com/a.jpg"), null).imageURL);
    }

    @Test
    public void aHugeBodyIsShortenedWithinFCMsLimitAtACharacterBoundary() {
        String body = "👍🏽é".repeat(2000);
        NotificationContent content = PayloadReader.read(Map.of(PayloadKeys.BODY, body), null);
        assertTrue(content.body.getBytes(StandardCharsets.UTF_8).length <= TextLimit.MAX_BYTES);
        assertTrue(content.body.endsWith(TextLimit.ELLIPSIS));
        String kept = content.body.substring(0, content.body.length() - 1);
        assertTrue(body.startsWith(kept));
        assertTrue("ends on a whole character", kept.endsWith("é"));
        assertDiagnostic(content, "nb_body: longer than 4096 bytes; shortened");
    }

    @Test
    public void deepNestingIsRefusedNotAStackOverflow() {
        NotificationContent content = read("[".repeat(100_000));
        assertEquals(List.of(), content.buttons);
        assertDiagnostic(content, "nb_buttons: not JSON");
    }

    @Test
    public void badScalarsAreIgnored() {
        Map<String, String> data = new HashMap<>();
        data.put(PayloadKeys.BADGE, "-1");
        data.put(PayloadKeys.URL, "orders/42");
        data.put(PayloadKeys.DELIVERY, "");
        data.put(null, "a null key");
        data.put("custom", null);
        NotificationContent content = PayloadReader.read(data, null);
        assertNull(content.badge);
        assertNull(content.url);
        assertNull(content.deliveryID);
        assertEquals(Map.of(), content.data);
        assertDiagnostic(content, "nb_badge:");
        assertDiagnostic(content, "nb_url:");
        assertDiagnostic(content, "nb_title: no title and no body");
    }

    @Test
    public void noDataAtAllIsAnEmptyNotification() {
        NotificationContent content = PayloadReader.read(null, null);
        assertTrue(!content.hasText());
    }

    @Test
    public void theReceiptFieldsAndTheCollapseKeyAreRead() {
        NotificationContent content = PayloadReader.read(Map.of(PayloadKeys.TITLE, "T", PayloadKeys.DELIVERY, "d1", PayloadKeys.MESSAGE, "m1",
                PayloadKeys.SIGNATURE, "c2lnbmF0dXJl", PayloadKeys.COLLAPSE_KEY, "in-data", "google.sent_time", "1", "mine", "x"), "from-fcm");
        assertEquals("d1", content.deliveryID);
        assertEquals("m1", content.messageID);
        assertEquals("c2lnbmF0dXJl", content.signature);
        assertEquals("from-fcm", content.collapseKey);
        assertEquals(Map.of("mine", "x"), content.data);
        assertEquals("in-data", PayloadReader.read(Map.of(PayloadKeys.COLLAPSE_KEY, "in-data"), null).collapseKey);
    }
}
