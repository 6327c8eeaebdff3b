package dev.notibase.core.render;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import dev.notibase.core.payload.NotificationContent;
import dev.notibase.core.payload.PayloadKeys;
import dev.notibase.core.payload.PayloadReader;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.Test;

/** The decisions the Android layer draws from: where each tap goes, and which notification a new one replaces. */
public final class TapTest {
    private static NotificationContent read(Map<String, String> data) {
        return PayloadReader.read(data, null);
    }

    @Test
    public void foregroundButtonsOpenBackgroundButtonsDoNotRepliesAreReplies() {
        NotificationContent content = read(Map.of(PayloadKeys.TITLE, "t", PayloadKeys.BUTTONS,
                "[{\"id\":\"track\",\"text\":\"Track\",\"url\":\"shop://track\"},{\"id\":\"ack\",\"text\":\"OK\",\"options\":[]},"
                        + "{\"id\":\"reply\",\"text\":\"Reply\",\"options\":[],\"input\":{\"placeholder\":\"Message\"}}]"));
        List<Tap> taps = content.buttons.stream().map(Tap::of).collect(Collectors.toList());
        assertEquals(List.of(Tap.OPEN, Tap.BACKGROUND, Tap.REPLY), taps);
    }

    @Test
    public void aCollapseKeyReplacesADeliveryDrawsOnce() {
        String collapsed = NotificationTag.of(PayloadReader.read(Map.of(PayloadKeys.DELIVERY, "d1"), "order-42"));
        assertEquals(collapsed, NotificationTag.of(PayloadReader.read(Map.of(PayloadKeys.DELIVERY, "d2"), "order-42")));
        assertEquals(NotificationTag.of(read(Map.of(PayloadKeys.DELIVERY, "d1"))), NotificationTag.of(read(Map.of(PayloadKeys.DELIVERY, "d1"))));
        assertNotEquals(NotificationTag.of(read(Map.of(PayloadKeys.DELIVERY, "d1"))), NotificationTag.of(read(Map.of(PayloadKeys.DELIVERY, "d2"))));
        assertNotEquals(NotificationTag.of(read(Map.of())), NotificationTag.of(read(Map.of())));
        assertTrue(collapsed.contains("order-42"));
    }
}
