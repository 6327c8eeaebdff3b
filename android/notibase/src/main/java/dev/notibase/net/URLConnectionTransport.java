package dev.notibase.net;

import dev.notibase.core.SDKVersion;
import dev.notibase.core.outbox.Answer;
import dev.notibase.core.outbox.Transport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/**
 * Posts to the Notibase server over {@link HttpURLConnection}, which Android and every JVM have,
 * so the SDK needs no HTTP library. The client key goes in {@code Authorization: Bearer}, the SDK's
 * version in {@code User-Agent: Notibase-Android/<version>}.
 */
public final class URLConnectionTransport implements Transport {
    private final String baseURL;
    private final String clientKey;
    private final int timeoutMillis;

    /** {@code baseURL} is the server's address ({@code https://push.example.com}), without a trailing path. */
    public URLConnectionTransport(String baseURL, String clientKey, int timeoutMillis) {
        this.baseURL = baseURL.endsWith("/") ? baseURL.substring(0, baseURL.length() - 1) : baseURL;
        this.clientKey = clientKey;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public Answer post(String path, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        HttpURLConnection connection = (HttpURLConnection) new URL(baseURL + path).openConnection();
        try {
            connection.setRequestMethod("POST");
            connection.setConnectTimeout(timeoutMillis);
            connection.setReadTimeout(timeoutMillis);
            connection.setInstanceFollowRedirects(false);
            connection.setDoOutput(true);
            connection.setFixedLengthStreamingMode(bytes.length);
            connection.setRequestProperty("Content-Type", "application/json");
            connection.setRequestProperty("Accept", "application/json");
            connection.setRequestProperty("Authorization", "Bearer " + clientKey);
            connection.setRequestProperty("User-Agent", SDKVersion.USER_AGENT);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(bytes);
            }
            int status = connection.getResponseCode();
            if (status >= 400 && status < 500) return new Answer(status, read(connection.getErrorStream(), Answer.MAX_BODY_BYTES));
            drain(status >= 400 ? connection.getErrorStream() : connection.getInputStream());
            return new Answer(status, "");
        } finally {
            connection.disconnect();
        }
    }

    /**
     * The first {@code limit} bytes of a 4xx answer (the server's error, which names the refused
     * field), as UTF-8. A longer body is cut there and not read further: it is no error of ours.
     */
    private static String read(InputStream stream, int limit) throws IOException {
        if (stream == null) return "";
        try (InputStream in = stream) {
            byte[] kept = new byte[limit];
            int length = 0;
            int count;
            while (length < limit && (count = in.read(kept, length, limit - length)) >= 0) length += count;
            return new String(kept, 0, length, StandardCharsets.UTF_8);
        }
    }

    /** Reads the answer to its end, so the connection can be reused for the next request. */
    private static void drain(InputStream stream) throws IOException {
        if (stream == null) return;
        try (InputStream in = stream) {
            byte[] buffer = new byte[4096];
            while (in.read(buffer) >= 0) {
                // The body is not needed: the status says what to do (a 4xx's is read, above).
            }
        }
    }
}
