package dev.notibase.core.image;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.notibase.testing.ManualClock;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import org.junit.Test;

/** Downloads stay within 10 MB and the deadline whatever the server claims or sends. */
public final class ImageFetcherTest {
    private static final String URL = "https://cdn.example.com/a.jpg";
    private final ManualClock clock = new ManualClock(0);

    /** An endless (or {@code size}-byte) body that counts what was read from it. */
    private static final class CountingStream extends InputStream {
        final long size;
        long read;

        CountingStream(long size) {
            this.size = size;
        }

        @Override
        public int read() {
            if (read >= size) return -1;
            read++;
            return 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            if (read >= size) return -1;
            int count = (int) Math.min(length, size - read);
            read += count;
            return count;
        }
    }

    private static final class FakeSource implements ImageSource {
        int status = 200;
        long contentLength = -1;
        String contentType = "image/jpeg";
        InputStream body = new CountingStream(1_000);
        int opened;
        boolean bodyRead;
        IOException failure;

        @Override
        public Response open(String url) throws IOException {
            opened++;
            if (failure != null) throw failure;
            return new Response() {
                @Override
                public int status() {
                    return status;
                }

                @Override
                public long contentLength() {
                    return contentLength;
                }

                @Override
                public String contentType() {
                    return contentType;
                }

                @Override
                public InputStream body() {
                    bodyRead = true;
                    return body;
                }

                @Override
                public void close() {}
            };
        }
    }

    @Test
    public void downloadsAnImage() {
        FakeSource source = new FakeSource();
        source.body = new java.io.ByteArrayInputStream(new byte[] {1, 2, 3});
        ImageDownload download = new ImageFetcher(source, clock).fetch(URL);
        assertTrue(download.succeeded());
        assertArrayEquals(new byte[] {1, 2, 3}, download.bytes);
    }

    @Test
    public void refusesADeclaredOversizeImageWithoutReadingIt() {
        FakeSource source = new FakeSource();
        source.contentLength = ImageLimits.MAX_BYTES + 1;
        ImageDownload download = new ImageFetcher(source, clock).fetch(URL);
        assertEquals("the image is 10485761 bytes; Android notifications take images up to 10485760 bytes", download.failure);
        assertFalse(source.bodyRead);
    }

    @Test
    public void stopsAnUndeclaredOversizeStreamAtTheLimit() {
        FakeSource source = new FakeSource();
        CountingStream endless = new CountingStream(Long.MAX_VALUE);
        source.body = endless;
        ImageDownload download = new ImageFetcher(source, clock).fetch(URL);
        assertTrue(download.failure, download.failure.startsWith("the image is larger than 10485760 bytes"));
        assertTrue("read " + endless.read, endless.read <= ImageLimits.MAX_BYTES + 64 * 1024);
    }

    @Test
    public void acceptsExactlyTheLimit() {
        FakeSource source = new FakeSource();
        source.body = new CountingStream(ImageLimits.MAX_BYTES);
        assertTrue(new ImageFetcher(source, clock).fetch(URL).succeeded());
    }

    @Test
    public void reportsEachFailureInWords() {
        FakeSource source = new FakeSource();
        source.status = 404;
        assertEquals("the image server answered HTTP 404", new ImageFetcher(source, clock).fetch(URL).failure);
        source.status = 200;
        source.contentType = "text/html; charset=utf-8";
        assertEquals("the image is text/html; charset=utf-8, not an image", new ImageFetcher(source, clock).fetch(URL).failure);
        source.contentType = null;
        source.body = new CountingStream(0);
        assertEquals("the image server sent an empty body", new ImageFetcher(source, clock).fetch(URL).failure);
        source.failure = new SocketTimeoutException();
        assertEquals("the image server did not answer in time", new ImageFetcher(source, clock).fetch(URL).failure);
        source.failure = new java.net.UnknownHostException("cdn.example.com");
        assertEquals("the image download failed: UnknownHostException", new ImageFetcher(source, clock).fetch(URL).failure);
    }

    @Test
    public void neverOpensAPlainHTTPURL() {
        FakeSource source = new FakeSource();
        assertEquals("the image URL is not https with a host", new ImageFetcher(source, clock).fetch("http://cdn.example.com/a.jpg").failure);
        assertEquals(0, source.opened);
    }

    @Test
    public void givesUpAtTheDeadline() {
        FakeSource source = new FakeSource();
        source.body = new InputStream() {
            @Override
            public int read() {
                clock.advance(1_000);
                return 1;
            }
        };
        assertEquals("the image did not arrive within 8 s", new ImageFetcher(source, clock).fetch(URL).failure);
    }

    @Test
    public void samplesLargeImagesDownToAFewMegabytes() {
        assertEquals(1, ImageLimits.sampleSize(1_000, 800));
        assertEquals(1, ImageLimits.sampleSize(2_048, 1_024));
        assertEquals(2, ImageLimits.sampleSize(4_000, 1_000));
        assertEquals(4, ImageLimits.sampleSize(4_032, 3_024));
        assertEquals(8, ImageLimits.sampleSize(12_000, 9_000));
        assertEquals("a thin strip: its length bounds it", 32, ImageLimits.sampleSize(100, 60_000));
        assertEquals(1, ImageLimits.sampleSize(0, 0));
        for (int[] size : new int[][] {{12_000, 9_000}, {30_000, 30_000}, {7_000, 3}, {2_049, 2_049}}) {
            int sample = ImageLimits.sampleSize(size[0], size[1]);
            long width = (size[0] + sample - 1) / sample;
            long height = (size[1] + sample - 1) / sample;
            assertTrue(width * height * 4 <= 8L * 1024 * 1024 && Math.max(width, height) <= ImageLimits.MAX_EDGE);
            assertTrue("the smallest such sample", sample == 1 || (size[0] * 2L / sample) * (size[1] * 2L / sample) > ImageLimits.MAX_PIXELS
                    || Math.max(size[0], size[1]) * 2L / sample > ImageLimits.MAX_EDGE);
        }
    }
}
