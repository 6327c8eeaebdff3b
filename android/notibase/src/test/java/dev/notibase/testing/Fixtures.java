package dev.notibase.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The Swift core's render fixtures ({@code Tests/NotibaseCoreTests/Fixtures/render}): the SDK is
 * checked against the very files {@code FCMRenderer} is, so the two cannot drift.
 */
public final class Fixtures {
    private Fixtures() {}

    public static Path directory() {
        String configured = System.getProperty("notibase.fixtures");
        Path path = configured != null ? Paths.get(configured) : Paths.get("Tests/NotibaseCoreTests/Fixtures/render");
        if (!Files.isDirectory(path)) throw new IllegalStateException("no fixtures at " + path.toAbsolutePath() + "; set -Dnotibase.fixtures");
        return path;
    }

    /** The names (without {@code .fcm.golden}) of every FCM golden file. */
    public static List<String> fcmNames() {
        try (Stream<Path> files = Files.list(directory())) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".fcm.golden"))
                    .map(name -> name.substring(0, name.length() - ".fcm.golden".length())).sorted().collect(Collectors.toList());
        } catch (IOException error) {
            throw new UncheckedIOException(error);
        }
    }

    public static String read(String fileName) {
        try {
            return new String(Files.readAllBytes(directory().resolve(fileName)), StandardCharsets.UTF_8);
        } catch (IOException error) {
            throw new UncheckedIOException(error);
        }
    }
}
