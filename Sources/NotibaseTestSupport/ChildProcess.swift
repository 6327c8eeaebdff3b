public import Foundation
import Synchronization

/// A process started by a test, stopped when the test lets go of it.
///
/// Not Foundation's `Process`: on Linux it learns of a child's exit from a socket the child
/// inherits, so a child whose own children outlive it (`pg_ctl`, `runuser`) is never seen to exit
/// and `waitUntilExit` hangs. Here the child is spawned with `posix_spawn` and reaped by `waitpid`
/// on a thread of its own, and its output is read by another: ``exit()`` suspends the awaiting
/// task instead of holding one of the cooperative pool's few threads.
public final class ChildProcess: Sendable {
    /// The child's process ID.
    public let processIdentifier: pid_t
    private let name: String
    fileprivate let termination = Termination()
    fileprivate let output: OutputReader
    private let errors: OutputReader?
    /// The write end of the child's standard input, held open while the test process lives
    /// (until ``closeInput()``): a peer that watches its standard input exits when the test
    /// process does, even when the test process is killed, so no orphan keeps the test runner's
    /// output open.
    private let input: Mutex<Int32>

    /// Starts `executable` (an absolute path) with `arguments` and the test's environment plus
    /// `environment`. Standard output is kept (``readLine(timeout:)``, ``printed``); standard error
    /// goes to the test's own, or is kept for ``standardErrorText`` with `capturesStandardError`,
    /// or joins standard output with `mergesStandardError`.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        capturesStandardError: Bool = false, mergesStandardError: Bool = false
    ) throws {
        name = URL(fileURLWithPath: executable).lastPathComponent
        if !MainPass.runningToEnd { MainPass.check(starting: name) }
        let stdin = try Self.pipe()
        let stdout = try Self.pipe()
        let stderr = capturesStandardError ? try Self.pipe() : nil
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copy, so the child keeps exactly these three.
        posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
        if let stderr { posix_spawn_file_actions_adddup2(&actions, stderr.write, 2) }
        if mergesStandardError { posix_spawn_file_actions_adddup2(&actions, stdout.write, 2) }
        // Nothing else: not another test's pipe that a concurrent spawn has not yet marked
        // close-on-exec (a copy of a write end in here would keep that test from seeing its end).
        // (The child closing one that is not open is no error.)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
        for descriptor in open where descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        // The child starts with no signal blocked and every signal at its default action, whatever
        // the spawning thread had (a Dispatch thread blocks some, and SIGTERM would never arrive).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var ignorable = sigset_t()
        sigemptyset(&ignorable)
        for number in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2] { sigaddset(&ignorable, number) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &ignorable)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        for descriptor in [stdin.read, stdout.write, stderr?.write].compactMap({ $0 }) { close(descriptor) }
        guard spawned == 0 else {
            for descriptor in [stdin.write, stdout.read, stderr?.read].compactMap({ $0 }) { close(descriptor) }
            throw ChildProcessError(message: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        processIdentifier = pid
        let child = pid
        input = Mutex(stdin.write)
        output = OutputReader(descriptor: stdout.read)
        errors = stderr.map { OutputReader(descriptor: $0.read) }
        let termination = termination
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            // The status word: the low 7 bits are the signal that ended the child, 0 for an exit.
            let signal = status & 0x7f
            termination.finish(signal == 0 ? (status >> 8) & 0xff : 128 + signal)
        }
    }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard Foundation.pipe(&descriptors) == 0 else {
            throw ChildProcessError(message: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    /// Waits for the child to end, suspending (no thread is held), and returns its exit status, or
    /// 128 plus the signal that ended it, as a shell reports it.
    public func exit() async -> Int32 {
        await termination.wait()
    }

    /// Whether the child is still running (it has not been reaped).
    public var isRunning: Bool { termination.status == nil }

    /// Sends `signal` to the child (SIGTERM by default); nothing once it has been reaped.
    public func signal(_ signal: Int32 = SIGTERM) {
        guard isRunning else { return }
        kill(processIdentifier, signal)
    }

    /// Writes `text` to the child's standard input.
    public func write(_ text: String) {
        input.withLock { descriptor in
            guard descriptor >= 0 else { return }
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                bytes = bytes.dropFirst(written)
            }
        }
    }

    /// Closes the child's standard input: it reads end of file.
    public func closeInput() {
        input.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    /// Everything the child wrote to standard output so far.
    public var printed: String { output.text }

    /// What it wrote to standard error so far, when started with `capturesStandardError`.
    public var standardErrorText: String { errors?.text ?? "" }

    /// Waits until the child closes its standard output (usually: it ended) and returns all of it.
    public func allOutput() async -> String {
        await output.closed()
        return output.text
    }

    /// The next line of standard output (waiting up to `timeout` for it), without the newline.
    /// It blocks its caller: for a test's setup, not for a task that awaits other work.
    public func readLine(timeout: Duration = .seconds(10)) throws -> String {
        if let line = output.nextLine(waitingUntil: Date().addingTimeInterval(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)) { return line }
        throw ChildProcessError(message: "no line from \(name) within \(timeout)")
    }

    /// Stops the child: SIGTERM, then SIGKILL after `grace`, and waits (suspending) until it ended.
    public func terminate(grace: Duration = .seconds(5)) async {
        signal(SIGTERM)
        let killer = Task { [self] in
            try await Task.sleep(for: grace)
            signal(SIGKILL)
        }
        _ = await exit()
        killer.cancel()
    }

    /// Stops the child, blocking the caller (for `deinit` and `defer`): `signal`, then SIGKILL
    /// after 5 seconds, and waits until it ended.
    public func stop(signal first: Int32 = SIGTERM) {
        signal(first)
        if !termination.wait(until: Date().addingTimeInterval(5)) {
            signal(SIGKILL)
            termination.wait()
        }
    }

    deinit {
        stop()
        closeInput()
    }
}

/// How a child ended, told to every waiter exactly once.
private final class Termination: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }
    private let state = Mutex(State())
    private let ended = NSCondition()

    var status: Int32? { state.withLock { $0.status } }

    func finish(_ status: Int32) {
        let waiters = state.withLock { state in
            state.status = status
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: status) }
        ended.lock()
        ended.broadcast()
        ended.unlock()
    }

    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status = state.withLock { state in
                if state.status == nil { state.waiters.append(continuation) }
                return state.status
            }
            if let status { continuation.resume(returning: status) }
        }
    }

    /// Blocks until the child ended or `deadline` (if any) passed; whether it ended.
    @discardableResult
    func wait(until deadline: Date? = nil) -> Bool {
        ended.lock()
        defer { ended.unlock() }
        while status == nil {
            guard let deadline else {
                ended.wait()
                continue
            }
            if !ended.wait(until: deadline) { return status != nil }
        }
        return true
    }
}

/// Reads one of a child's outputs on a thread of its own, until end of file.
private final class OutputReader: @unchecked Sendable {
    // @unchecked Sendable: `buffered`, `consumed` and `isClosed` are reached only under `changed`'s lock.
    private let changed = NSCondition()
    private var buffered: [UInt8] = []
    private var consumed = 0
    private var isClosed = false
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []

    init(descriptor: Int32) {
        Thread.detachNewThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                changed.lock()
                if count > 0 { buffered += chunk[..<count] } else { isClosed = true }
                let waiters = isClosed ? closeWaiters : []
                if isClosed { closeWaiters = [] }
                changed.broadcast()
                changed.unlock()
                for waiter in waiters { waiter.resume() }
                if count <= 0 { break }
            }
            close(descriptor)
        }
    }

    var text: String {
        changed.lock()
        defer { changed.unlock() }
        return String(decoding: buffered, as: UTF8.self)
    }

    /// Blocks until end of file.
    func waitUntilClosed() {
        changed.lock()
        defer { changed.unlock() }
        while !isClosed { changed.wait() }
    }

    func closed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            changed.lock()
            let done = isClosed
            if !done { closeWaiters.append(continuation) }
            changed.unlock()
            if done { continuation.resume() }
        }
    }

    /// The next line not yet taken, waiting for it until `deadline`; nil at end of file or after it.
    func nextLine(waitingUntil deadline: Date) -> String? {
        changed.lock()
        defer { changed.unlock() }
        while true {
            if let newline = buffered[consumed...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[consumed..<newline], as: UTF8.self)
                consumed = newline + 1
                return line
            }
            if isClosed || !changed.wait(until: deadline) { return nil }
        }
    }
}

/// A child process that did not do what the test expected.
public struct ChildProcessError: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// Runs a command to completion (blocking its caller) and returns its exit status and standard
/// output.
public func runToCompletion(_ executable: String, _ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
    // A command run to its end (openssl, a shell) is not a process beside the test (MainPass).
    let child = try MainPass.$runningToEnd.withValue(true) { try ChildProcess(executable, arguments) }
    child.write(input)
    child.closeInput()
    child.output.waitUntilClosed()
    child.termination.wait()
    return (child.termination.status ?? -1, child.printed)
}

/// Runs a command to its end, suspending rather than blocking, and returns its exit status and
/// what it wrote to standard output and standard error together.
public func runToEnd(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
    let child = try MainPass.$runningToEnd.withValue(true) {
        try ChildProcess(executable, arguments, environment: environment, mergesStandardError: true)
    }
    child.closeInput()
    let output = await child.allOutput()
    return (await child.exit(), output)
}
