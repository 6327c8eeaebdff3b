package dev.notibase.core.image;

import dev.notibase.core.Clock;
import dev.notibase.core.payload.Links;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;

/**
 * Downloads an image within {@link ImageLimits}: https only, HTTP 200, an image type, at most
 * {@link ImageLimits#MAX_BYTES} (refused up front when the server says it is larger, and the
 * download stopped as soon as it passes the limit when it does not), within the deadline. Every
 * failure is a sentence for the delivery log; nothing throws.
 */
public final class ImageFetcher {
    private final ImageSource source;
    private final Clock clock;
    private final long maxBytes;
    private final long deadlineMillis;

    public ImageFetcher(ImageSource source, Clock clock) {
        this(source, clock, ImageLimits.MAX_BYTES, ImageLimits.DEADLINE_MILLIS);
    }

    public ImageFetcher(ImageSource source, Clock clock, long maxBytes, long deadlineMillis) {
        this.source = source;
        this.clock = clock;
        this.maxBytes = maxBytes;
        this.deadlineMillis = deadlineMillis;
    }

    public ImageDownload fetch(String url) {
        if (!Links.isHTTPSWithHost(url)) return ImageDownload.failed("the image URL is not https with a host");
        long start = clock.nowMillis();
        try (ImageSource.Response response = source.open(url)) {
            if (response.status() != 200) return ImageDownload.failed("the image server answered HTTP " + response.status());
            if (response.contentLength() > maxBytes) {
                return ImageDownload.failed("the image is " + response.contentLength() + " bytes; Android notifications take images up to "
                        + maxBytes + " bytes");
            }
            String type = response.contentType();
            if (type != null && !type.trim().toLowerCase(java.util.Locale.ROOT).startsWith("image/")) {
                return ImageDownload.failed("the image is " + type.trim() + ", not an image");
            }
            return read(response.body(), start);
        } catch (SocketTimeoutException timeout) {
            return ImageDownload.failed("the image server did not answer in time");
        } catch (IOException | RuntimeException error) {
            return ImageDownload.failed("the image download failed: " + error.getClass().getSimpleName());
        }
    }

    private ImageDownload read(InputStream body, long start) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[16 * 1024];
        while (true) {
            int count = body.read(buffer);
            if (count < 0) break;
            if (bytes.size() + (long) count > maxBytes) {
                return ImageDownload.failed("the image is larger than " + maxBytes + " bytes, the most Android notifications take; the download was stopped");
            }
            bytes.write(buffer, 0, count);
            if (clock.nowMillis() - start > deadlineMillis) {
                return ImageDownload.failed("the image did not arrive within " + deadlineMillis / 1000 + " s");
            }
        }
        if (bytes.size() == 0) return ImageDownload.failed("the image server sent an empty body");
        return ImageDownload.of(bytes.toByteArray());
    }
}
