package dev.notibase.net;

import dev.notibase.core.outbox.Transport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/**
 * Posts to the Notibase server over {@link HttpURLConnection}, which Android and every JVM have,
 * so the SDK needs no HTTP library. The client key goes in {@code Authorization: Bearer}.
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
    public int post(String path, String body) throws IOException {
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
            try (OutputStream out = connection.getOutputStream()) {
                out.write(bytes);
            }
            int status = connection.getResponseCode();
            drain(status >= 400 ? connection.getErrorStream() : connection.getInputStream());
            return status;
        } finally {
            connection.disconnect();
        }
    }

    /** Reads the answer to its end, so the connection can be reused for the next request. */
    private static void drain(InputStream stream) throws IOException {
        if (stream == null) return;
        try (InputStream in = stream) {
            byte[] buffer = new byte[4096];
            while (in.read(buffer) >= 0) {
                // The body is not needed: the status says what to do.
            }
        }
    }
}
