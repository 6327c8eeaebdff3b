package dev.notibase.android;

import android.graphics.Bitmap;
import android.graphics.BitmapFactory;
import dev.notibase.core.image.ImageDownload;
import dev.notibase.core.image.ImageFetcher;
import dev.notibase.core.image.ImageLimits;
import dev.notibase.core.render.ImageLoader;
import dev.notibase.core.render.ImageResult;

/**
 * Downloads with the core's {@link ImageFetcher} (size-limited, deadline) and decodes in two
 * passes: the bounds first, then the pixels with {@code inSampleSize}, so that a 10 MB photo
 * becomes a bitmap of a few megabytes, never hundreds.
 */
final class AndroidImageLoader implements ImageLoader<Bitmap> {
    private final ImageFetcher fetcher;

    AndroidImageLoader(ImageFetcher fetcher) {
        this.fetcher = fetcher;
    }

    @Override
    public ImageResult<Bitmap> load(String url) {
        ImageDownload download = fetcher.fetch(url);
        if (!download.succeeded()) return ImageResult.failed(download.failure);
        BitmapFactory.Options bounds = new BitmapFactory.Options();
        bounds.inJustDecodeBounds = true;
        BitmapFactory.decodeByteArray(download.bytes, 0, download.bytes.length, bounds);
        if (bounds.outWidth <= 0 || bounds.outHeight <= 0) {
            return ImageResult.failed("the image could not be decoded (not a JPEG, PNG, GIF or WebP?)");
        }
        BitmapFactory.Options options = new BitmapFactory.Options();
        options.inSampleSize = ImageLimits.sampleSize(bounds.outWidth, bounds.outHeight);
        Bitmap bitmap;
        try {
            bitmap = BitmapFactory.decodeByteArray(download.bytes, 0, download.bytes.length, options);
        } catch (OutOfMemoryError tooBig) {
            // Sampling bounds the bitmap to a few MB; this is for an app already short of memory.
            return ImageResult.failed("the app had no memory left to decode the image");
        }
        return bitmap == null ? ImageResult.failed("the image could not be decoded") : ImageResult.of(bitmap);
    }
}
