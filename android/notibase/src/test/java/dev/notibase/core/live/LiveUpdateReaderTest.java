package dev.notibase.core.live;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.Test;

/** What a Live Update message is read as, and which messages are dropped as malformed. */
public final class LiveUpdateReaderTest {
    @Test
    public void readsAStartAsTheServerSendsIt() {
        LiveUpdateReader.Result read = LiveUpdateReader.read(LiveMessages.start("order-42", 1_700_000_000L));
        LiveUpdate update = read.update;
        assertNotNull(read.diagnostics.toString(), update);
        assertEquals(List.of(), read.diagnostics);
        assertEquals("order-42", update.activityID);
        assertEquals(LiveEvent.START, update.event);
        assertEquals(1_700_000_000L, update.timestamp);
        assertEquals("Your order", update.title);
        assertEquals("Arriving in 12 minutes", update.body);
        assertEquals(0.25, update.progress, 0);
        assertEquals("DeliveryAttributes", update.attributesType);
        assertTrue(update.attributes.contains("notibaseActivityID"));
        assertEquals("{\"status\":\"onTheWay\",\"minutes\":12}", update.contentState);
        assertEquals("d-start-1700000000", update.receipt.deliveryID);
        assertEquals("sig-1700000000", update.receipt.signature);
    }

    @Test
    public void tellsLiveUpdatesFromNotifications() {
        assertTrue(LiveKeys.isLiveUpdate(LiveMessages.start("a", 1)));
        assertFalse(LiveKeys.isLiveUpdate(Map.of("nb_title", "Hello", "nb_delivery", "d1")));
        assertFalse(LiveKeys.isLiveUpdate(Map.of(LiveKeys.LIVE, "0")));
        assertFalse(LiveKeys.isLiveUpdate(null));
    }

    @Test
    public void dropsAMessageWithoutWhatEveryMessageNeeds() {
        assertDropped(with(LiveKeys.ACTIVITY_ID, null), "nb_live_activity_id: missing");
        assertDropped(with(LiveKeys.ACTIVITY_ID, "order 42"), "nb_live_activity_id: not 1 to 64");
        assertDropped(with(LiveKeys.ACTIVITY_ID, "a".repeat(65)), "nb_live_activity_id: not 1 to 64");
        assertDropped(with(LiveKeys.EVENT, "pause"), "nb_live_event: \"pause\" is not start, update or end");
        assertDropped(with(LiveKeys.TIMESTAMP, "1.5"), "nb_live_timestamp: not whole seconds");
        assertDropped(with(LiveKeys.TIMESTAMP, "-3"), "nb_live_timestamp: not whole seconds");
        assertDropped(with(LiveKeys.TIMESTAMP, null), "nb_live_timestamp: missing");
        assertDropped(with(LiveKeys.CONTENT_STATE, "[1,2]"), "nb_live_content_state: not a JSON object");
        assertDropped(with(LiveKeys.CONTENT_STATE, "{\"status\":"), "nb_live_content_state: not JSON");
        assertDropped(with(LiveKeys.CONTENT_STATE, null), "nb_live_content_state: missing");
    }

    @Test
    public void readsAStartOrUpdateWithoutTextAsTheServerSendsOne() {
        // The server sends an update of the progress alone (display: {"progress": 0.6}) without text.
        for (Map<String, String> data : List.of(LiveMessages.start("order-42", 10), LiveMessages.update("order-42", 11, "Close"))) {
            data.remove(LiveKeys.TITLE);
            data.remove(LiveKeys.BODY);
            LiveUpdateReader.Result read = LiveUpdateReader.read(data);
            assertNotNull(read.diagnostics.toString(), read.update);
            assertEquals(List.of(), read.diagnostics);
            assertNull(read.update.title);
            assertNull(read.update.body);
        }
    }

    @Test
    public void keepsTheDeliveryOfAMalformedMessageForItsReceipt() {
        LiveUpdateReader.Result read = LiveUpdateReader.read(with(LiveKeys.EVENT, null));
        assertNull(read.update);
        assertEquals("d-start-10", read.receipt.deliveryID);
    }

    @Test
    public void leavesOutABadOptionalFieldAndAppliesTheRest() {
        Map<String, String> data = LiveMessages.start("order-42", 10);
        data.put(LiveKeys.PROGRESS, "1.5");
        data.put(LiveKeys.STALE_DATE, "tomorrow");
        data.put(LiveKeys.ATTRIBUTES, "not json");
        data.put(LiveKeys.DISMISSAL_DATE, "0");
        LiveUpdateReader.Result read = LiveUpdateReader.read(data);
        assertNotNull(read.update);
        assertNull(read.update.progress);
        assertNull(read.update.staleDate);
        assertNull(read.update.attributes);
        assertNull("a dismissal date belongs to an end only", read.update.dismissalDate);
        assertEquals(List.of(
                "nb_live_progress: not a number from 0 to 1; drawn without a progress bar",
                "nb_live_stale_date: not whole seconds (0 or more); ignored",
                "nb_live_dismissal_date: only an end has one; ignored",
                "nb_live_attributes: not JSON (" + jsonError("not json") + "); ignored"), read.diagnostics);
    }

    @Test
    public void readsAnEndsDismissalDateAndNeedsNoText() {
        LiveUpdate end = LiveUpdateReader.read(LiveMessages.end("order-42", 20, "0")).update;
        assertNotNull(end);
        assertEquals(LiveEvent.END, end.event);
        assertEquals(Long.valueOf(0), end.dismissalDate);
        assertNull(end.title);
        assertNull(LiveUpdateReader.read(LiveMessages.end("order-42", 20, null)).update.dismissalDate);
    }

    private static String jsonError(String text) {
        try {
            dev.notibase.core.json.Json.parse(text);
            return "";
        } catch (dev.notibase.core.json.JsonException error) {
            return error.getMessage();
        }
    }

    private static Map<String, String> with(String key, String value) {
        Map<String, String> data = LiveMessages.start("order-42", 10);
        if (value == null) {
            data.remove(key);
        } else {
            data.put(key, value);
        }
        return data;
    }

    private static void assertDropped(Map<String, String> data, String problem) {
        LiveUpdateReader.Result read = LiveUpdateReader.read(data);
        assertNull("should be dropped: " + data, read.update);
        assertTrue(read.diagnostics + " should say " + problem, read.diagnostics.stream().anyMatch(line -> line.startsWith(problem)));
    }
}
