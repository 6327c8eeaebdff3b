package dev.notibase.core.image;

/** The bytes of a downloaded image, or why there are none (the text goes to the render receipt's {@code imageFailure}). */
public final class ImageDownload {
    public final byte[] bytes;
    public final String failure;

    private ImageDownload(byte[] bytes, String failure) {
        this.bytes = bytes;
        this.failure = failure;
    }

    public static ImageDownload of(byte[] bytes) {
        return new ImageDownload(bytes, null);
    }

    public static ImageDownload failed(String failure) {
        return new ImageDownload(null, failure);
    }

    public boolean succeeded() {
        return bytes != null;
    }
}
