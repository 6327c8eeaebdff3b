package dev.notibase.core.image;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;

/** Opens an image URL: {@code HttpURLConnection} in the app, a fake in tests. */
public interface ImageSource {
    /** An HTTP answer whose body has not been read yet. */
    interface Response extends Closeable {
        int status();

        /** The {@code Content-Length}, or -1 when the server did not say. */
        long contentLength();

        /** The {@code Content-Type}, or null. */
        String contentType();

        InputStream body() throws IOException;
    }

    Response open(String url) throws IOException;
}
