package dev.notibase.core.render;

/** A loaded picture, or why it could not be loaded. */
public final class ImageResult<P> {
    public final P picture;
    public final String failure;

    private ImageResult(P picture, String failure) {
        this.picture = picture;
        this.failure = failure;
    }

    public static <P> ImageResult<P> of(P picture) {
        return new ImageResult<>(picture, null);
    }

    public static <P> ImageResult<P> failed(String failure) {
        return new ImageResult<>(null, failure);
    }
}
