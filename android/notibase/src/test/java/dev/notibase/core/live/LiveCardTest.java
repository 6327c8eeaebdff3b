package dev.notibase.core.live;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** What each message draws: ongoing while the activity runs, then removed, timed out or left dismissable. */
public final class LiveCardTest {
    private static final long NOW = 1_700_000_000_000L;

    private static LiveUpdate read(java.util.Map<String, String> data) {
        return LiveUpdateReader.read(data).update;
    }

    @Test
    public void oneNotificationPerActivityWhateverTheProcess() {
        // Pinned: a derived ID that changed between SDK versions would leave the old notification behind.
        assertEquals(1234255197, LiveCard.notificationID("order-42"));
        assertEquals(LiveCard.notificationID("order-42"), LiveCard.of(read(LiveMessages.update("order-42", 3, "Close")), null, NOW).notificationID);
        assertEquals("notibase-live:order-42", LiveCard.tag("order-42"));
        assertFalse(LiveCard.tag("order-42").equals(LiveCard.tag("order-43")));
    }

    @Test
    public void aStartIsOngoingWithItsProgressInThousandths() {
        LiveCard card = LiveCard.of(read(LiveMessages.start("order-42", 1)), null, NOW);
        assertFalse(card.remove);
        assertTrue(card.ongoing);
        assertEquals(Integer.valueOf(250), card.progress);
        assertEquals("Your order", card.title);
        assertNull(card.dismissAfterMillis);
    }

    @Test
    public void anEndWithDismissalZeroOrPastRemovesItAtOnce() {
        assertTrue(LiveCard.of(read(LiveMessages.end("order-42", 5, "0")), null, NOW).remove);
        assertTrue(LiveCard.of(read(LiveMessages.end("order-42", 5, Long.toString(NOW / 1000 - 1))), null, NOW).remove);
        assertTrue("the core's at once: 2001-01-01", LiveCard.of(read(LiveMessages.end("order-42", 5, "978307200")), null, NOW).remove);
    }

    @Test
    public void anEndWithAFutureDismissalStaysUntilThen() {
        LiveRecord last = new LiveRecord("order-42", 4, false, "Your order", "Arriving now");
        LiveCard card = LiveCard.of(read(LiveMessages.end("order-42", 5, Long.toString(NOW / 1000 + 600))), last, NOW);
        assertFalse(card.remove);
        assertFalse("an ended activity is no longer ongoing", card.ongoing);
        assertEquals(Long.valueOf(600_000), card.dismissAfterMillis);
        assertEquals(Long.valueOf(NOW + 600_000), card.dismissAtMillis);
        assertEquals("an end without text keeps the last drawn", "Arriving now", card.body);
    }

    @Test
    public void anEndWithoutDismissalIsLeftDismissable() {
        LiveCard card = LiveCard.of(read(LiveMessages.end("order-42", 5, null)), null, NOW);
        assertFalse(card.remove);
        assertFalse(card.ongoing);
        assertNull(card.dismissAtMillis);
    }
}
