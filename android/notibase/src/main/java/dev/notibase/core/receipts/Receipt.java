package dev.notibase.core.receipts;

import dev.notibase.core.json.JsonWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/** The body of {@code POST /v1/receipts}, in the server's shape ({@code Receipt.swift}) plus {@code signature}. */
public final class Receipt {
    /** Chosen by the device (a UUID); the server's idempotency key. */
    public final String id;
    public final ReceiptContext context;
    public final ReceiptEvent event;
    public final long occurredAtMillis;
    public final RenderReport render;
    public final String actionID;
    public final String text;

    public Receipt(String id, ReceiptContext context, ReceiptEvent event, long occurredAtMillis, RenderReport render,
            String actionID, String text) {
        this.id = id;
        this.context = context;
        this.event = event;
        this.occurredAtMillis = occurredAtMillis;
        this.render = render;
        this.actionID = actionID;
        this.text = text;
    }

    /** The JSON body; absent fields are left out, {@code signature} too when the payload had no {@code nb_sig}. */
    public String toJSON() {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("id", id);
        object.put("deliveryId", context.deliveryID);
        object.put("messageId", context.messageID);
        object.put("event", event.wireName);
        object.put("occurredAt", Instant.ofEpochMilli(occurredAtMillis).truncatedTo(ChronoUnit.MILLIS).toString());
        object.put("render", render == null ? null : render.toJSON());
        object.put("actionId", actionID);
        object.put("text", text);
        object.put("signature", context.signature);
        return JsonWriter.write(object);
    }
}
