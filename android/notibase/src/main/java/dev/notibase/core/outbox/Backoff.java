package dev.notibase.core.outbox;

import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter, as the server retries deliveries: from 2 s, doubling, at most
 * 15 min, each delay between half and the whole of its step so that a fleet of phones coming back
 * online does not retry in lockstep.
 */
public final class Backoff {
    public static final long INITIAL_MILLIS = 2_000;
    public static final long MAXIMUM_MILLIS = 15 * 60_000;

    private final DoubleSupplier random;

    /** {@code random} returns values in [0, 1]. */
    public Backoff(DoubleSupplier random) {
        this.random = random;
    }

    /** The step before attempt {@code failures + 1}, without jitter. */
    public static long step(int failures) {
        long step = INITIAL_MILLIS;
        for (int i = 1; i < failures && step < MAXIMUM_MILLIS; i++) step *= 2;
        return Math.min(step, MAXIMUM_MILLIS);
    }

    /** How long to wait after {@code failures} failed attempts (1 or more). */
    public long delayMillis(int failures) {
        long step = step(failures);
        double jitter = Math.max(0, Math.min(1, random.getAsDouble()));
        return step / 2 + (long) (step / 2 * jitter);
    }
}
