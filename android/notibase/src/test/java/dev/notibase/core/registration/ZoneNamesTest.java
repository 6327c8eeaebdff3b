package dev.notibase.core.registration;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import org.junit.Test;

public class ZoneNamesTest {
    @Test
    public void regionNamesAreRegistered() {
        for (String id : new String[] {"Europe/Paris", "America/Argentina/Buenos_Aires", "Asia/Kolkata", "America/Port-au-Prince", "Etc/GMT-14", "UTC"}) {
            assertEquals(id, ZoneNames.registrable(id));
        }
    }

    @Test
    public void customOffsetsAndOddIDsAreLeftOut() {
        for (String id : new String[] {"GMT+05:30", "GMT", "SystemV/EST5", "", "Europe/", "/Paris", "Europe/Par is"}) {
            assertNull(id, ZoneNames.registrable(id));
        }
        assertNull(ZoneNames.registrable(null));
    }
}
