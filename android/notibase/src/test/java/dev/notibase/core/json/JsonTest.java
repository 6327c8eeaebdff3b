package dev.notibase.core.json;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import java.util.List;
import java.util.Map;
import org.junit.Test;

public final class JsonTest {
    @Test
    public void readsEveryKindOfValue() throws JsonException {
        Object value = Json.parse(" {\"s\": \"a\\\"\\u00e9\\ud83d\\udc4d\\n\", \"i\": -12, \"d\": 19.99, \"e\": 1e3, \"b\": [true, false, null], \"o\": {}} ");
        Map<?, ?> object = (Map<?, ?>) value;
        assertEquals("a\"é👍\n", object.get("s"));
        assertEquals(-12L, object.get("i"));
        assertEquals(19.99, object.get("d"));
        assertEquals(1000.0, object.get("e"));
        assertEquals(List.of(true, false, Json.NULL), object.get("b"));
        assertEquals(Map.of(), object.get("o"));
        assertEquals(List.of("s", "i", "d", "e", "b", "o"), List.copyOf(object.keySet()));
    }

    @Test
    public void refusesWhatIsNotStrictJSON() {
        String[] bad = {"", "[1,]", "{\"a\":1,}", "01", "1.", "+1", "'a'", "[1 2]", "{\"a\" 1}", "{a:1}", "\"tab\there\"", "\"\\x\"",
            "\"\\u12\"", "nul", "[1]x", "{\"a\":1,\"a\":2}", "\"unterminated", "NaN", "-"};
        for (String text : bad) {
            try {
                Json.parse(text);
                fail("accepted " + text);
            } catch (JsonException expected) {
                // The point of the test.
            }
        }
    }

    @Test
    public void writesWhatItReads() throws JsonException {
        String text = "{\"a\":\"x\\\"\\\\\\n\\u0007é\",\"n\":[1,2.5,true,null],\"o\":{\"z\":-3}}";
        assertEquals(text, JsonWriter.write(Json.parse(text)));
    }
}
