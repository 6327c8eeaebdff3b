package dev.notibase.android;

import android.app.NotificationManager;
import android.content.Context;
import android.content.pm.PackageManager;
import android.graphics.Bitmap;
import android.os.Bundle;
import dev.notibase.core.Clock;
import dev.notibase.core.Logger;
import dev.notibase.core.SDKVersion;
import dev.notibase.core.image.ImageFetcher;
import dev.notibase.core.live.LiveActivityReports;
import dev.notibase.core.live.LiveKeys;
import dev.notibase.core.live.LiveTimeline;
import dev.notibase.core.live.LiveUpdateHandler;
import dev.notibase.core.outbox.Backoff;
import dev.notibase.core.outbox.Flusher;
import dev.notibase.core.outbox.Outbox;
import dev.notibase.core.outbox.Sender;
import dev.notibase.core.receipts.Receipts;
import dev.notibase.core.registration.Registrar;
import dev.notibase.core.registration.ZoneNames;
import dev.notibase.core.render.BackgroundPushHandler;
import dev.notibase.core.render.BackgroundPushListener;
import dev.notibase.core.render.NotificationHandler;
import dev.notibase.core.store.Store;
import dev.notibase.net.URLConnectionImageSource;
import dev.notibase.net.URLConnectionTransport;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The composition root: the core's parts wired to their Android implementations, once per
 * process. Holds no logic of its own.
 */
public final class NotibaseRuntime {
    /** The SDK's version, sent with the registration. */
    public static final String SDK_VERSION = SDKVersion.CURRENT;
    private static final int NETWORK_TIMEOUT_MILLIS = 10_000;
    /** Each connect and read of an image; the whole download has ImageLimits.DEADLINE_MILLIS. */
    private static final int IMAGE_TIMEOUT_MILLIS = 3_000;

    private static NotibaseSettings configured;
    private static NotibaseRuntime shared;

    final Logger logger = new AndroidLogger();
    final ScheduledExecutorService executor;
    final Sender sender;
    final Flusher flusher;
    final Receipts receipts;
    final Registrar registrar;
    final NotificationHandler<Bitmap> handler;
    final BackgroundPushHandler background;
    final LiveActivityReports liveReports;
    final LiveUpdateHandler liveHandler;

    private NotibaseRuntime(Context context, NotibaseSettings settings) {
        Clock clock = Clock.SYSTEM;
        Store store = new PreferencesStore(context);
        Outbox outbox = new Outbox(store);
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "notibase-outbox");
            thread.setDaemon(true);
            return thread;
        });
        registrar = new Registrar(store, outbox, clock, logger);
        sender = new Sender(outbox, new URLConnectionTransport(settings.serverURL, settings.clientKey, NETWORK_TIMEOUT_MILLIS), clock,
                new Backoff(() -> ThreadLocalRandom.current().nextDouble()), logger, registrar::delivered, registrar::refused);
        flusher = new Flusher(sender, executor, clock);
        receipts = new Receipts(outbox, store, clock, () -> UUID.randomUUID().toString(), logger);
        AndroidNotifier notifier = new AndroidNotifier(context, settings);
        handler = new NotificationHandler<>(notifier,
                new AndroidImageLoader(new ImageFetcher(new URLConnectionImageSource(IMAGE_TIMEOUT_MILLIS), clock)), receipts, clock,
                logger);
        background = new BackgroundPushHandler(receipts, logger);
        liveReports = new LiveActivityReports(outbox, registrar::deviceToken, clock, logger);
        liveHandler = new LiveUpdateHandler(new AndroidLiveNotifier(context, settings, notifier), notifier::blockedReason,
                new LiveTimeline(store), liveReports, receipts, clock, logger);
        registrar.setDevice(Locale.getDefault().toLanguageTag(), ZoneNames.registrable(TimeZone.getDefault().getID()), appVersion(context), SDK_VERSION);
        flusher.kick();
    }

    /** Draws and reports one data message: a Live Update, a silent background push (to the app's listener), or a notification. */
    public void handle(Map<String, String> data, String collapseKey) {
        if (LiveKeys.isLiveUpdate(data)) {
            liveHandler.handle(data);
        } else if (BackgroundPushHandler.isBackground(data)) {
            background.handle(data);
        } else {
            handler.handle(data, collapseKey);
        }
        flusher.kick();
    }

    public void setBackgroundPushListener(BackgroundPushListener listener) {
        background.setListener(listener);
    }

    public void setToken(String token) {
        registrar.setToken(token);
        flusher.kick();
    }

    public void setExternalUserID(String id, String identityToken) {
        registrar.setExternalUserID(id, identityToken);
        flusher.kick();
    }

    public void setTags(Set<String> tags) {
        registrar.setTags(tags);
        flusher.kick();
    }

    /** Logs a failure of the SDK itself, which it reports instead of throwing into the app. */
    public static void warn(String message) {
        new AndroidLogger().warn(message);
    }

    /** Settings given in code replace the manifest's; call before anything else, in {@code Application.onCreate}. */
    public static synchronized void configure(NotibaseSettings settings) {
        if (shared != null) throw new IllegalStateException("Notibase.configure must be called before Notibase is first used");
        configured = settings;
    }

    /** The process's runtime, created on first use from the configured settings or the manifest. */
    public static synchronized NotibaseRuntime get(Context context) {
        if (shared == null) {
            Context application = context.getApplicationContext() != null ? context.getApplicationContext() : context;
            shared = new NotibaseRuntime(application, configured != null ? configured : fromManifest(application));
        }
        return shared;
    }

    // getApplicationInfo(String, int) and getPackageInfo(String, int) are deprecated from API 33 for
    // overloads taking flag objects, which do not exist below it (minSdk is 24).
    @SuppressWarnings("deprecation")
    private static NotibaseSettings fromManifest(Context context) {
        Bundle meta = null;
        try {
            meta = context.getPackageManager().getApplicationInfo(context.getPackageName(), PackageManager.GET_META_DATA).metaData;
        } catch (Exception notFound) {
            // PackageManager.NameNotFoundException, a checked exception the stub jar does not declare
            // (so it cannot be caught by name here); our own package is always found.
        }
        if (meta == null) meta = new Bundle();
        int icon = meta.getInt("dev.notibase.SMALL_ICON", context.getApplicationInfo().icon);
        return new NotibaseSettings(meta.getString("dev.notibase.SERVER_URL"), meta.getString("dev.notibase.CLIENT_KEY"),
                meta.getString("dev.notibase.CHANNEL_ID"), meta.getString("dev.notibase.CHANNEL_NAME"),
                NotificationManager.IMPORTANCE_HIGH, icon);
    }

    @SuppressWarnings("deprecation")
    private static String appVersion(Context context) {
        try {
            return context.getPackageManager().getPackageInfo(context.getPackageName(), 0).versionName;
        } catch (Exception notFound) {
            // NameNotFoundException, as above.
            return null;
        }
    }
}
