package dev.notibase.core.live;

/** Posts and removes Live Update notifications: {@code Notification.Builder} in the app, a recorder in tests. */
public interface LiveNotifier {
    /** Posts {@code card}, replacing the activity's notification if it is showing. May throw: the caller reports it. */
    void show(LiveCard card);

    /** Removes the activity's notification, if it is showing. May throw: the caller reports it. */
    void remove(LiveCard card);
}
