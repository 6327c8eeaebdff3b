/// # ActivityKitShim
///
/// A Linux stand-in for the part of Apple's ActivityKit that Notibase's iOS SDK uses, in two halves:
///
/// - `API/`: Apple's declarations (from the iPhoneOS 17.5 SDK's `.swiftinterface`), with Apple's
///   names, labels, generic constraints, optionality, `throws`, `async` and default arguments, so
///   code written against `#if os(iOS) import ActivityKit #else import ActivityKitShim #endif`
///   compiles unchanged on both.
/// - `Simulation/`: a simulated device (`SimulatedActivityDevice`) with an iOS version, which
///   delivers APNs `liveactivity` payloads as iOS does, no kinder: push-to-start only from iOS
///   17.2, tokens that rotate when the test says and die when their activity ends, updates not
///   newer than the last applied `timestamp` ignored, a content state that does not decode
///   dropped, the priority-10 budget, and the person dismissing an activity.
///
/// ## Sendable
/// As in Apple's interface: `Activity` is a class that is not `Sendable`, nor are its update
/// sequences, `PushType` or `ActivityUIDismissalPolicy`; `ActivityState` is, and `ActivityContent`
/// is when its state is. The target is built in Swift 5 language mode with complete checking (as
/// UserNotificationsShim, for the same reason): `@preconcurrency import` then has the same effect
/// here as on iOS. Internally every object is safe from any thread.
///
/// docs/activitykit-shim.md says what it declares, what it simulates and what it does not.
enum ActivityKitShimModule {}
