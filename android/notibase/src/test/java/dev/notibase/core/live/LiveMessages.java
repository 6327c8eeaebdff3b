package dev.notibase.core.live;

import dev.notibase.core.payload.PayloadKeys;
import java.util.HashMap;
import java.util.Map;

/** Live Update data messages as the server's FCM renderer sends them (the contract's keys). */
final class LiveMessages {
    private LiveMessages() {}

    static Map<String, String> start(String activityID, long timestamp) {
        Map<String, String> data = message(activityID, "start", timestamp);
        data.put(LiveKeys.ATTRIBUTES_TYPE, "DeliveryAttributes");
        data.put(LiveKeys.ATTRIBUTES, "{\"notibaseActivityID\":\"" + activityID + "\",\"orderNumber\":\"42\"}");
        data.put(LiveKeys.PROGRESS, "0.25");
        return data;
    }

    static Map<String, String> update(String activityID, long timestamp, String body) {
        Map<String, String> data = message(activityID, "update", timestamp);
        data.put(LiveKeys.BODY, body);
        return data;
    }

    static Map<String, String> end(String activityID, long timestamp, String dismissalDate) {
        Map<String, String> data = message(activityID, "end", timestamp);
        data.remove(LiveKeys.TITLE);
        data.remove(LiveKeys.BODY);
        if (dismissalDate != null) data.put(LiveKeys.DISMISSAL_DATE, dismissalDate);
        return data;
    }

    private static Map<String, String> message(String activityID, String event, long timestamp) {
        Map<String, String> data = new HashMap<>();
        data.put(LiveKeys.LIVE, "1");
        data.put(LiveKeys.ACTIVITY_ID, activityID);
        data.put(LiveKeys.EVENT, event);
        data.put(LiveKeys.TIMESTAMP, Long.toString(timestamp));
        data.put(LiveKeys.CONTENT_STATE, "{\"status\":\"onTheWay\",\"minutes\":12}");
        data.put(LiveKeys.TITLE, "Your order");
        data.put(LiveKeys.BODY, "Arriving in 12 minutes");
        data.put(PayloadKeys.DELIVERY, "d-" + event + "-" + timestamp);
        data.put(PayloadKeys.MESSAGE, "m-" + event + "-" + timestamp);
        data.put(PayloadKeys.SIGNATURE, "sig-" + timestamp);
        return data;
    }
}
