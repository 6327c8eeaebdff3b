package dev.notibase.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.notibase.testing.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;

/** The SDK's version is Notibase's, as Sources/NotibaseCore/Version.swift writes it. */
public final class SDKVersionTest {
    @Test
    public void theVersionIsTheOneVersionSwiftWrites() throws IOException {
        // The fixtures are Tests/NotibaseCoreTests/Fixtures/render of the repository.
        Path root = Fixtures.directory().toAbsolutePath().normalize().getParent().getParent().getParent().getParent();
        String swift = new String(Files.readAllBytes(root.resolve("Sources/NotibaseCore/Version.swift")), StandardCharsets.UTF_8);
        Matcher current = Pattern.compile("static let current = \"([^\"]+)\"").matcher(swift);
        assertTrue("Version.swift names no version", current.find());
        assertEquals(current.group(1), SDKVersion.CURRENT);
        assertEquals("Notibase-Android/" + current.group(1), SDKVersion.USER_AGENT);
    }
}
