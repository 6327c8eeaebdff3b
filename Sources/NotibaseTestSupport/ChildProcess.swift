public import Foundation

/// A process started by a test, stopped when the test lets go of it.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked Sendable: `process` is only started in init and stopped in `stop`, which is safe
    // to call from any thread; the output buffer is behind `lock`.
    public let process = Process()
    private let stdout = Pipe()
    /// Held open while the test process lives: a peer that watches its standard input exits when
    /// the test process does, even when the test process is killed, so no orphan keeps the test
    /// runner's output open.
    private let stdin = Pipe()
    private let lock = NSLock()
    private var buffered = Data()

    /// Starts `executable` with `arguments`; standard error goes to the test's own.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardOutput = stdout
        process.standardInput = stdin
        try process.run()
    }

    /// Reads standard output until a line arrives (or `timeout` passes); returns it without the
    /// newline.
    public func readLine(timeout: Duration = .seconds(10)) throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = takeLine() { return line }
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty {
                if !process.isRunning { break }
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            lock.lock()
            buffered.append(chunk)
            lock.unlock()
        }
        if let line = takeLine() { return line }
        throw ChildProcessError(message: "no line from \(process.executableURL?.lastPathComponent ?? "process") within \(timeout)")
    }

    private func takeLine() -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
        buffered.removeSubrange(buffered.startIndex...newline)
        return line
    }

    /// Stops the process (SIGTERM, then SIGKILL) and waits for it.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}

/// A child process that did not do what the test expected.
public struct ChildProcessError: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// Runs a command to completion and returns its standard output.
public func runToCompletion(_ executable: String, _ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let inputPipe = Pipe()
    process.standardOutput = output
    process.standardInput = inputPipe
    try process.run()
    inputPipe.fileHandleForWriting.write(Data(input.utf8))
    try inputPipe.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
