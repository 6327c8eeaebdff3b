package dev.notibase.core.outbox;

import dev.notibase.core.Clock;
import dev.notibase.core.Logger;
import java.io.IOException;
import java.util.function.BiFunction;
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
    private final BiFunction<Entry, Answer, Entry> refused;

    /** {@code delivered} is told of every entry the server accepted; a refused entry is dropped. */
    public Sender(Outbox outbox, Transport transport, Clock clock, Backoff backoff, Logger logger, Consumer<Entry> delivered) {
        this(outbox, transport, clock, backoff, logger, delivered, (entry, answer) -> null);
    }

    /**
     * {@code delivered} is told of every entry the server accepted. {@code refused} is asked about
     * every entry the server refused (a 4xx): it returns the entry to send instead, which keeps the
     * id and is sent next, or null to drop it. What it returns must not be refused for the same
     * reason (the drain would not end): the corrected entry lacks what was refused.
     */
    public Sender(Outbox outbox, Transport transport, Clock clock, Backoff backoff, Logger logger, Consumer<Entry> delivered,
            BiFunction<Entry, Answer, Entry> refused) {
        this.outbox = outbox;
        this.transport = transport;
        this.clock = clock;
        this.backoff = backoff;
        this.logger = logger;
        this.delivered = delivered;
        this.refused = refused;
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
            Answer answer = null;
            String summary;  // for the log: the status or the failure's kind, never the body
            try {
                answer = transport.post(entry.path, entry.body);
                outcome = Outcome.of(answer.status);
                summary = "HTTP " + answer.status;
            } catch (IOException | RuntimeException error) {
                outcome = Outcome.RETRY;
                summary = error.getClass().getSimpleName();
            }
            Entry instead = outcome == Outcome.REJECTED ? refused.apply(entry, answer) : null;
            if (instead != null) {
                if (outbox.replace(entry, instead)) {
                    logger.warn(entry.label + " refused by the server (" + summary + "); sending a corrected one");
                } else {
                    logger.warn(entry.label + " refused by the server (" + summary + "); a newer one replaced it meanwhile");
                }
                continue;
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
