package dev.notibase.core.outbox;

import dev.notibase.core.Clock;
import dev.notibase.core.Logger;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * Sends what the {@link Outbox} holds, one request at a time, and records each answer: the thin
 * I/O shell around the outbox's state machine.
 */
public final class Sender {
    private final Outbox outbox;
    private final Transport transport;
    private final Clock clock;
    private final Backoff backoff;
    private final Logger logger;
    private final Consumer<Entry> delivered;

    /** {@code delivered} is told of every entry the server accepted. */
    public Sender(Outbox outbox, Transport transport, Clock clock, Backoff backoff, Logger logger, Consumer<Entry> delivered) {
        this.outbox = outbox;
        this.transport = transport;
        this.clock = clock;
        this.backoff = backoff;
        this.logger = logger;
        this.delivered = delivered;
    }

    /** When the next entry is due (epoch milliseconds), or -1 when the outbox is empty. */
    public long nextAttemptAt() {
        return outbox.nextAttemptAt();
    }

    /**
     * Sends every entry that is due. Returns when the next attempt is due (epoch milliseconds), or
     * -1 when nothing is left. One drain at a time, so an entry is never sent twice at once.
     */
    public synchronized long drain() {
        while (true) {
            long now = clock.nowMillis();
            Entry entry = outbox.nextDue(now);
            if (entry == null) return outbox.nextAttemptAt();
            Outcome outcome;
            String summary;  // for the log: the status or the failure's kind, never the body
            try {
                Answer answer = transport.post(entry.path, entry.body);
                outcome = Outcome.of(answer.status);
                summary = "HTTP " + answer.status;
            } catch (IOException | RuntimeException error) {
                outcome = Outcome.RETRY;
                summary = error.getClass().getSimpleName();
            }
            outbox.finished(entry, outcome, clock.nowMillis(), backoff);
            switch (outcome) {
                case DELIVERED:
                    logger.info(entry.label + " sent (" + summary + ")");
                    delivered.accept(entry);
                    break;
                case REJECTED:
                    logger.warn(entry.label + " refused by the server (" + summary + "); dropped, sending it again cannot help");
                    break;
                case RETRY:
                    logger.warn(entry.label + " not sent (" + summary + "); attempt " + (entry.failures + 1) + ", will retry");
                    break;
            }
        }
    }
}
