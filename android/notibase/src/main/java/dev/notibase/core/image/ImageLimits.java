package dev.notibase.core.image;

/**
 * How big an image may be: the server's limit for {@code image} (10 MB), and the size it is
 * decoded at. A 10 MB JPEG can hold a 12000 × 9000 photo, 432 MB as an ARGB bitmap; the big
 * picture style shows about 1,500 pixels across, so the decoder samples down to that.
 */
public final class ImageLimits {
    private ImageLimits() {}

    /** The largest download accepted, in bytes. */
    public static final long MAX_BYTES = 10L * 1024 * 1024;
    /** The longest edge of a decoded bitmap. */
    public static final int MAX_EDGE = 2048;
    /** The most pixels a decoded bitmap may have (8 MB as ARGB). */
    public static final long MAX_PIXELS = 2L * 1024 * 1024;
    /** How long a download may take in all, so the notification is not held back for long. */
    public static final long DEADLINE_MILLIS = 8_000;

    /**
     * The {@code BitmapFactory.Options.inSampleSize} for an image of this size: the smallest power
     * of two that brings it within {@link #MAX_EDGE} and {@link #MAX_PIXELS} (the decoder divides
     * each side by it). 1 for an image already small enough, or of an unknown size.
     */
    public static int sampleSize(int width, int height) {
        if (width <= 0 || height <= 0) return 1;
        int sample = 1;
        while (sample < (1 << 14)) {
            long sampledWidth = ceilDiv(width, sample);
            long sampledHeight = ceilDiv(height, sample);
            if (Math.max(sampledWidth, sampledHeight) <= MAX_EDGE && sampledWidth * sampledHeight <= MAX_PIXELS) break;
            sample *= 2;
        }
        return sample;
    }

    private static long ceilDiv(int value, int divisor) {
        return (value + (long) divisor - 1) / divisor;
    }
}
