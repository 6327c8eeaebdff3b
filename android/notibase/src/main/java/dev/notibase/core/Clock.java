package dev.notibase.core;

/** Milliseconds since the epoch; injected so that tests drive backoff and deadlines. */
public interface Clock {
    long nowMillis();

    /** The system clock. */
    Clock SYSTEM = System::currentTimeMillis;
}
