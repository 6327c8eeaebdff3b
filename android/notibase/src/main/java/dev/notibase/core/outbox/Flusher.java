package dev.notibase.core.outbox;

import dev.notibase.core.Clock;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link Sender#drain()} on a background thread when kicked, and again when the next retry is
 * due, for as long as the process lives. Across restarts the outbox is on disk, and the next
 * kick (the next push, token or app start) resumes it.
 */
public final class Flusher {
    private final Sender sender;
    private final ScheduledExecutorService executor;
    private final Clock clock;
    private ScheduledFuture<?> scheduled;

    public Flusher(Sender sender, ScheduledExecutorService executor, Clock clock) {
        this.sender = sender;
        this.executor = executor;
        this.clock = clock;
    }

    /** Sends what is due now, in the background. */
    public synchronized void kick() {
        schedule(0);
    }

    private synchronized void schedule(long delayMillis) {
        if (scheduled != null) {
            if (scheduled.getDelay(TimeUnit.MILLISECONDS) <= delayMillis && !scheduled.isDone()) return;
            scheduled.cancel(false);
        }
        scheduled = executor.schedule(this::run, delayMillis, TimeUnit.MILLISECONDS);
    }

    private void run() {
        sender.drain();
        synchronized (this) {
            scheduled = null;
            // Asked again here, not taken from drain(): an entry added during the drain, whose kick
            // saw this run still scheduled, is then not left behind.
            long next = sender.nextAttemptAt();
            if (next >= 0) schedule(Math.max(0, next - clock.nowMillis()));
        }
    }
}
