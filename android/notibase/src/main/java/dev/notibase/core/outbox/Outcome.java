package dev.notibase.core.outbox;

/** What an attempt's answer means for the entry. */
public enum Outcome {
    /** 2xx: done. */
    DELIVERED,
    /** 4xx other than 408 and 429: sending it again cannot help (a bad signature is 403), so it is dropped. */
    REJECTED,
    /** 5xx, 408, 429 or no answer: tried again later, with backoff. */
    RETRY;

    /** The outcome of an HTTP status. */
    public static Outcome of(int status) {
        if (status >= 200 && status < 300) return DELIVERED;
        if (status == 408 || status == 429 || status >= 500) return RETRY;
        return REJECTED;
    }
}
