public import Testing

/// A suite's pass of `script/test` is its test target (decision 0035): `<Module>Tests` runs in the
/// main pass, beside every other suite; `<Module><Pass>Tests` in that pass alone. One tag is left.
extension Tag {
    /// Starts a process (a `notibase serve`, a small peer, a command) and is light enough for
    /// the main pass: the tag says the choice was made. In the main pass a test without it that
    /// starts a ``ChildProcess`` fails (``MainPass``).
    @Tag public static var processes: Self
}
