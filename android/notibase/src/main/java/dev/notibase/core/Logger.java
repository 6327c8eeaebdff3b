package dev.notibase.core;

/**
 * Where the SDK says what it did. Messages never hold a token, a key, a signature or a payload
 * body: callers pass only ids and reasons.
 */
public interface Logger {
    void info(String message);

    void warn(String message);

    /** Says nothing. */
    Logger NONE = new Logger() {
        @Override
        public void info(String message) {}

        @Override
        public void warn(String message) {}
    };
}
