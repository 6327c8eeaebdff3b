package dev.notibase.testing;

import dev.notibase.core.Clock;

/** A clock that moves only when told. */
public final class ManualClock implements Clock {
    private long now;

    public ManualClock(long start) {
        now = start;
    }

    @Override
    public synchronized long nowMillis() {
        return now;
    }

    public synchronized void advance(long millis) {
        now += millis;
    }
}
