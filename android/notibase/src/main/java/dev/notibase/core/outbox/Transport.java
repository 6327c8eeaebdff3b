package dev.notibase.core.outbox;

import java.io.IOException;

/** Posts JSON to the Notibase server with the app's client key. */
public interface Transport {
    /**
     * Posts {@code body} to {@code path} ({@code /v1/receipts}); returns the HTTP status, with the
     * body when it is a 4xx (see {@link Answer}). Throws on a network failure.
     */
    Answer post(String path, String body) throws IOException;
}
