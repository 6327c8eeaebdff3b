package dev.notibase.core.render;

/** Turns an image URL into a picture of type {@code P} (a {@code Bitmap} on Android). */
public interface ImageLoader<P> {
    /** The picture, or a failure sentence for the delivery log. Never throws. */
    ImageResult<P> load(String url);
}
