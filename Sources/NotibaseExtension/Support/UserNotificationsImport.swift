// The extension's source compiles against Apple's UserNotifications on iOS and against the Linux
// stand-in here. `@preconcurrency`: Apple's UN classes are not Sendable; the stand-in matches that,
// and this module never sends a UN object across an isolation boundary except through the boxes
// in `Support/`, whose comments say why each is safe.
#if canImport(UserNotifications)
@preconcurrency @_exported import UserNotifications
#else
@preconcurrency @_exported import UserNotificationsShim
#endif
