package dev.notibase.core.receipts;

import dev.notibase.core.Clock;
import dev.notibase.core.Logger;
import dev.notibase.core.json.Json;
import dev.notibase.core.json.JsonException;
import dev.notibase.core.json.JsonWriter;
import dev.notibase.core.outbox.Entry;
import dev.notibase.core.outbox.Outbox;
import dev.notibase.core.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Queues receipts in the outbox, at most one of each event per delivery: FCM may deliver a message
 * twice, and a notification's intent can fire twice (a double tap), but the delivery log should
 * say "rendered" once. The server is idempotent only per receipt id, so the device keeps the
 * recent (delivery, event) pairs it has queued.
 */
public final class Receipts {
    public static final String PATH = "/v1/receipts";
    /** How many recent (delivery, event) pairs are remembered. */
    public static final int MEMORY = 500;
    static final String STORE_KEY = "notibase.receipts.queued";

    private final Outbox outbox;
    private final Store store;
    private final Clock clock;
    private final Supplier<String> ids;
    private final Logger logger;

    public Receipts(Outbox outbox, Store store, Clock clock, Supplier<String> ids, Logger logger) {
        this.outbox = outbox;
        this.store = store;
        this.clock = clock;
        this.ids = ids;
        this.logger = logger;
    }

    /** Queues a receipt; false when it was already queued once, or the payload named no delivery. */
    public synchronized boolean queue(ReceiptContext context, ReceiptEvent event, RenderReport render, String actionID, String text) {
        if (context.deliveryID == null) {
            logger.warn("no nb_delivery in the payload (not sent by Notibase?); no " + event.wireName + " receipt");
            return false;
        }
        String key = context.deliveryID + " " + event.wireName;
        List<String> queued = remembered();
        if (queued.contains(key)) {
            logger.info(event.wireName + " receipt for delivery " + context.deliveryID + " already queued; not sent again");
            return false;
        }
        queued.add(key);
        while (queued.size() > MEMORY) queued.remove(0);
        store.put(STORE_KEY, JsonWriter.write(queued));
        long now = clock.nowMillis();
        Receipt receipt = new Receipt(ids.get(), context, event, now, render, actionID, text);
        outbox.add(new Entry("receipt " + receipt.id, "receipt " + event.wireName + " for delivery " + context.deliveryID,
                PATH, receipt.toJSON(), 0, now));
        return true;
    }

    private List<String> remembered() {
        List<String> keys = new ArrayList<>();
        String saved = store.get(STORE_KEY);
        if (saved == null) return keys;
        try {
            Object parsed = Json.parse(saved);
            if (parsed instanceof List) {
                for (Object key : (List<?>) parsed) {
                    if (key instanceof String) keys.add((String) key);
                }
            }
        } catch (JsonException unreadable) {
            logger.warn("the list of queued receipts was unreadable; starting a new one");
        }
        return keys;
    }
}
