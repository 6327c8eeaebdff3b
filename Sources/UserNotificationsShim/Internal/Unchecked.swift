/// Carries a value across a `@Sendable` boundary that the compiler cannot prove safe.
///
/// Every Apple-named class in this module is safe to use from any thread (immutable, or guarded by
/// a lock it owns), yet none conforms to `Sendable`, because Apple's don't. The simulated system
/// still hands them between threads, as iOS does (it calls the extension on a background thread and
/// answers the center on another). It does so through this box, only with such objects, or with
/// closures that the system calls once and that the caller gave it for that purpose.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
