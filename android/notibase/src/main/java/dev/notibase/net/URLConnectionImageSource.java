package dev.notibase.net;

import dev.notibase.core.image.ImageSource;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;

/**
 * Opens image URLs over {@link HttpURLConnection}. It follows redirects only within https (the
 * class never follows a redirect from https to http), and each connect and read waits at most
 * {@code timeoutMillis}.
 */
public final class URLConnectionImageSource implements ImageSource {
    private final int timeoutMillis;

    public URLConnectionImageSource(int timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public Response open(String url) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
        connection.setConnectTimeout(timeoutMillis);
        connection.setReadTimeout(timeoutMillis);
        connection.setInstanceFollowRedirects(true);
        int status = connection.getResponseCode();
        return new Response() {
            @Override
            public int status() {
                return status;
            }

            @Override
            public long contentLength() {
                return connection.getContentLengthLong();
            }

            @Override
            public String contentType() {
                return connection.getContentType();
            }

            @Override
            public InputStream body() throws IOException {
                return connection.getInputStream();
            }

            @Override
            public void close() {
                connection.disconnect();
            }
        };
    }
}
