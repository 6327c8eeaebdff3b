package dev.notibase.core.live;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import dev.notibase.core.json.Json;
import dev.notibase.core.payload.PayloadKeys;
import dev.notibase.testing.Fixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Every {@code live-*.fcm.golden} of the Swift core's Live Activity render tests, read as the phone
 * receives it, must give back what its {@code live-*.live.json} defined, with no diagnostic: the
 * event, activity ID and timestamp, the title and text (the definition's {@code display}, else its
 * {@code alert}), the progress, the stale and dismissal dates, the content state, and on a start the
 * attributes with the activity ID in them. And it must draw what the definition means.
 */
@RunWith(Parameterized.class)
public final class LiveGoldenFixturesTest {
    /** What {@code LiveActivityGoldenTests} renders every fixture for. */
    private static final String ACTIVITY_ID = "order-A-1042";
    private static final long TIMESTAMP = 1_796_083_260L;
    private static final String DELIVERY = "3f2a8c1e-6b4d-4e8f-9a7b-1c2d3e4f5a6b";
    private static final String MESSAGE = "msg_01JDX7Q";

    @Parameters(name = "{0}")
    public static Collection<Object[]> fixtures() {
        List<Object[]> names = new ArrayList<>();
        for (String name : Fixtures.fcmNames()) if (name.startsWith("live-")) names.add(new Object[] {name});
        assertTrue("expected start, update and end, each with and without alert; found " + names.size(), names.size() >= 6);
        return names;
    }

    private final String name;

    public LiveGoldenFixturesTest(String name) {
        this.name = name;
    }

    @Test
    public void readsWhatTheDefinitionDefined() throws Exception {
        Map<?, ?> defined = definition();
        Map<String, String> data = data();
        assertTrue(name + ": a Live Update", LiveKeys.isLiveUpdate(data));
        LiveUpdateReader.Result read = LiveUpdateReader.read(data);

        assertEquals(name + ": no diagnostics for a message the server sent", List.of(), read.diagnostics);
        LiveUpdate update = read.update;
        assertNotNull(name, update);
        assertEquals(LiveEvent.fromWireName((String) defined.get("event")), update.event);
        assertEquals(ACTIVITY_ID, update.activityID);
        assertEquals(TIMESTAMP, update.timestamp);
        assertEquals(name + ": title", shown(defined, "title"), update.title);
        assertEquals(name + ": body", shown(defined, "body"), update.body);
        assertEquals(name + ": progress", progress(defined), update.progress);
        assertEquals(name + ": stale date", seconds(defined.get("staleDate")), update.staleDate);
        assertEquals(name + ": dismissal date", seconds(defined.get("dismissalDate")), update.dismissalDate);
        assertEquals(name + ": content state", defined.get("contentState"), Json.parse(update.contentState));
        if (update.event == LiveEvent.START) {
            assertEquals(defined.get("attributesType"), update.attributesType);
            Map<Object, Object> attributes = new LinkedHashMap<>((Map<?, ?>) defined.get("attributes"));
            attributes.put("notibaseActivityID", ACTIVITY_ID);
            assertEquals(name + ": attributes, with the activity ID", attributes, Json.parse(update.attributes));
        } else {
            assertNull(update.attributesType);
            assertNull(update.attributes);
        }
        assertEquals(DELIVERY, update.receipt.deliveryID);
        assertEquals(MESSAGE, update.receipt.messageID);
        assertEquals(data.get(PayloadKeys.SIGNATURE), update.receipt.signature);
    }

    /** Drawn when the server sent it: ongoing until the end, which removes it, times it out or leaves it. */
    @Test
    public void drawsWhatTheDefinitionMeans() throws Exception {
        Map<?, ?> defined = definition();
        long sentMillis = TIMESTAMP * 1000;
        LiveCard card = LiveCard.of(LiveUpdateReader.read(data()).update, null, sentMillis);
        Long dismissal = seconds(defined.get("dismissalDate"));
        if (!"end".equals(defined.get("event"))) {
            assertFalse(card.remove);
            assertTrue(name + ": ongoing while the activity runs", card.ongoing);
        } else if (dismissal == null) {
            assertFalse(card.remove);
            assertNull(name + ": left until dismissed", card.dismissAtMillis);
        } else if (dismissal * 1000 <= sentMillis) {
            // The core renders "remove at once" as a time already past (2001-01-01).
            assertTrue(name + ": a dismissal date already past removes it at once", card.remove);
            return;
        } else {
            assertFalse(card.remove);
            assertEquals(Long.valueOf(dismissal * 1000), card.dismissAtMillis);
        }
        assertEquals(shown(defined, "title"), card.title);
        Double progress = progress(defined);
        assertEquals(progress == null ? null : Integer.valueOf((int) Math.round(progress * LiveCard.PROGRESS_MAX)), card.progress);
    }

    private Map<?, ?> definition() throws Exception {
        return (Map<?, ?>) Json.parse(Fixtures.read(name + ".live.json"));
    }

    /** The golden's data, checked to be the request the contract describes. */
    private Map<String, String> data() throws Exception {
        String golden = Fixtures.read(name + ".fcm.golden");
        assertTrue(name + ": a request golden", golden.startsWith("POST /v1/projects/PROJECT_ID/messages:send\n\n"));
        Map<?, ?> envelope = (Map<?, ?>) ((Map<?, ?>) Json.parse(golden.substring(golden.indexOf("\n\n") + 2))).get("message");
        assertEquals(name + ": collapse key", ACTIVITY_ID, ((Map<?, ?>) envelope.get("android")).get("collapse_key"));
        Map<String, String> data = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) envelope.get("data")).entrySet()) data.put((String) entry.getKey(), (String) entry.getValue());
        return data;
    }

    /** What Android draws, as the contract says: the display's text, falling back to the alert's. */
    private static String shown(Map<?, ?> defined, String key) {
        for (String source : new String[] {"display", "alert"}) {
            Map<?, ?> part = (Map<?, ?>) defined.get(source);
            if (part != null && part.get(key) != null) return (String) part.get(key);
        }
        return null;
    }

    private static Double progress(Map<?, ?> defined) {
        Map<?, ?> display = (Map<?, ?>) defined.get("display");
        Object progress = display == null ? null : display.get("progress");
        return progress == null ? null : ((Number) progress).doubleValue();
    }

    /** An RFC 3339 date of the definition as the wire's whole seconds. */
    private static Long seconds(Object date) {
        return date == null ? null : Instant.parse((String) date).getEpochSecond();
    }
}
