package dev.notibase.core.registration;

import dev.notibase.core.Clock;
import dev.notibase.core.Logger;
import dev.notibase.core.outbox.Answer;
import dev.notibase.core.outbox.Entry;
import dev.notibase.core.outbox.Outbox;
import dev.notibase.core.store.Store;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Keeps the device's registration: the wanted state in the {@link Store}, the request in the
 * {@link Outbox} (one at a time: a newer one replaces a pending older one). Nothing is sent before
 * FCM gave a token, nor when the server already has exactly this registration.
 */
public final class Registrar {
    static final String WANTED_KEY = "notibase.registration.wanted";
    static final String SENT_KEY = "notibase.registration.sent";
    static final String ENTRY_ID = "registration";
    static final String SIGN_OUT_ID = "sign-out";

    private final Store store;
    private final Outbox outbox;
    private final Clock clock;
    private final Logger logger;

    public Registrar(Store store, Outbox outbox, Clock clock, Logger logger) {
        this.store = store;
        this.outbox = outbox;
        this.clock = clock;
        this.logger = logger;
    }

    /** The registration the device wants the server to have. */
    public synchronized Registration wanted() {
        String saved = store.get(WANTED_KEY);
        Registration registration = saved == null ? null : Registration.fromJSON(saved);
        return registration == null ? Registration.EMPTY : registration;
    }

    public void setToken(String token) {
        update(registration -> registration.withToken(token));
    }

    /**
     * {@code idToken} is the app backend's identity token for {@code id}, or null when the app does
     * not require one. A null {@code id} signs the user out: a sign-out is queued for the server
     * ({@link Registration#SIGN_OUT_PATH}), which clears the device's user at once; the outbox sends
     * it before any registration queued after it, so a sign-in that follows ends signed in.
     */
    public synchronized void setExternalUserID(String id, String idToken) {
        if (id == null) {
            String token = registeredToken();
            if (token != null) {
                outbox.add(new Entry(SIGN_OUT_ID, "sign-out", Registration.SIGN_OUT_PATH, Registration.signOutJSON(token), 0, clock.nowMillis()));
                logger.info("sign-out queued");
            }
        }
        update(registration -> registration.withExternalUserID(id, idToken));
    }

    /** The FCM token the server knows the device by (the one it accepted, else the one on its way), or null before FCM gave one. */
    public synchronized String deviceToken() {
        return registeredToken();
    }

    /** The token the server knows the device by: the one it accepted, else the one on its way. */
    private String registeredToken() {
        String saved = store.get(SENT_KEY);
        Registration sent = saved == null ? null : Registration.fromJSON(saved);
        return sent != null && sent.token != null ? sent.token : wanted().token;
    }

    public void setTags(Set<String> tags) {
        update(registration -> registration.withTags(tags));
    }

    /** The device's locale, time zone and versions, read at each start. */
    public void setDevice(String locale, String timeZone, String appVersion, String sdkVersion) {
        update(registration -> registration.withDevice(locale, timeZone, appVersion, sdkVersion));
    }

    /** Called when the server accepted an outbox entry: a registration becomes the sent one. */
    public synchronized void delivered(Entry entry) {
        if (!entry.id.equals(ENTRY_ID)) return;
        Registration sent = Registration.fromJSON(entry.body);
        if (sent == null) return;
        store.put(SENT_KEY, sent.withoutPreviousToken().toJSON());
        Registration wanted = wanted();
        if (wanted.previousToken != null && wanted.previousToken.equals(sent.previousToken)) {
            store.put(WANTED_KEY, wanted.withoutPreviousToken().toJSON());
        }
    }

    /**
     * Called when the server refused an outbox entry; returns the entry to send instead, or null to
     * drop it. A registration refused for its time zone (400 naming {@code timeZone}: a zone newer
     * than the server's time-zone database) is sent again without it, so that the device still gets
     * every push; messages sent in local time use their fallback zone for it. Once that one is
     * accepted it is the sent registration, and the next change or start sends the zone once more
     * (the server may have learned it since). Any other refusal is dropped.
     */
    public synchronized Entry refused(Entry entry, Answer answer) {
        if (!entry.id.equals(ENTRY_ID) || !"timeZone".equals(answer.rejectedField())) return null;
        Registration refused = Registration.fromJSON(entry.body);
        if (refused == null || refused.timeZone == null) return null;
        logger.warn("registration refused for its time zone, which the server does not know; registering without it");
        return entry(refused.withoutTimeZone());
    }

    private synchronized void update(UnaryOperator<Registration> change) {
        Registration registration = change.apply(wanted());
        store.put(WANTED_KEY, registration.toJSON());
        if (registration.token == null) return;
        String sent = store.get(SENT_KEY);
        if (registration.previousToken == null && registration.toJSON().equals(sent)) return;
        outbox.add(entry(registration));
        logger.info("registration queued: " + registration);
    }

    /** The outbox entry that sends {@code registration} now. */
    private Entry entry(Registration registration) {
        return new Entry(ENTRY_ID, "registration", Registration.PATH, registration.toJSON(), 0, clock.nowMillis());
    }
}
