public import Testing

/// The tags that choose which pass of `script/test` runs a suite (decision 0035). A suite without
/// any of them runs in the main pass, beside every other, and again on PostgreSQL if it is a
/// server suite. A tag on a suite holds for the suites and tests inside it.
/// `script/check-test-tags` fails when a suite that starts a process has none of them.
extension Tag {
    /// Asserts what happens when a time budget runs out (the extension on a simulated device, the
    /// preview, the delivery loops' priorities): run beside each other only, on an idle machine.
    @Tag public static var timed: Self
    /// The extension's process and instance as iOS treats them (kills, expiry, the memory budget):
    /// one test at a time.
    @Tag public static var lifecycle: Self
    /// Loads the machine on purpose (fuzzing, a thousand deliveries at once, crash and schema
    /// runs, the console in a browser).
    @Tag public static var load: Self
    /// A tenant at its limits beside a bystander: bounds latencies, so alone.
    @Tag public static var noisy: Self
    /// Floods of connections and bodies: bound memory and connections, so alone.
    @Tag public static var floods: Self
    /// Drives local HTTP/2 peers (Python processes) with the senders.
    @Tag public static var peers: Self
    /// Nodes on a PostgreSQL cluster that the test stops and kills: alone, with the cluster.
    @Tag public static var postgresNodes: Self
    /// A server suite that says nothing about the PostgreSQL backend (it runs on SQLite or
    /// without a store): not run again in the PostgreSQL pass.
    @Tag public static var sqliteOnly: Self
    /// Starts a process (a `notibase serve`, a small peer, a command) and is light enough for
    /// the main pass: the tag says the choice was made, and keeps no suite out of any pass.
    @Tag public static var processes: Self
}
