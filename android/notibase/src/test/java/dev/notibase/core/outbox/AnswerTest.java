package dev.notibase.core.outbox;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import org.junit.Test;

/** The refused field is read from the server's error, and from nothing else. */
public final class AnswerTest {
    @Test
    public void namesTheFieldOfTheServersError() {
        assertEquals("timeZone", new Answer(400,
                "{\"error\": {\"code\": \"invalid_field\", \"message\": \"not a time zone\", \"field\": \"timeZone\"}}").rejectedField());
    }

    @Test
    public void anyOtherBodyNamesNoField() {
        for (String body : new String[] {"", "<html>Bad Request</html>", "{\"error\": {\"code\": \"invalid_field\"}}",
                "{\"error\": \"timeZone\"}", "{\"field\": \"timeZone\"}", "{\"error\": {\"field\": 3}}", "[\"timeZone\"]",
                "{\"error\": {\"field\": \"timeZone\"}", "{\"error\": {\"field\": \"timeZone\"}} trailing"}) {
            assertNull(body, new Answer(400, body).rejectedField());
        }
        assertNull(new Answer(400, null).rejectedField());
    }
}
