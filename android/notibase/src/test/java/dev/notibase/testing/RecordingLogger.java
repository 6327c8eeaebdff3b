package dev.notibase.testing;

import dev.notibase.core.Logger;
import java.util.ArrayList;
import java.util.List;

/** Keeps every log line, to check what the SDK says and that no secret is among it. */
public final class RecordingLogger implements Logger {
    public final List<String> lines = new ArrayList<>();

    @Override
    public synchronized void info(String message) {
        lines.add("info: " + message);
    }

    @Override
    public synchronized void warn(String message) {
        lines.add("warn: " + message);
    }

    public synchronized String all() {
        return String.join("\n", lines);
    }
}
