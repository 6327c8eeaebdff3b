#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// Standard input, output and error, or in-memory replacements for tests.
struct TerminalIO: Sendable {
    let readInput: @Sendable () -> [UInt8]
    let output: @Sendable (String) -> Void
    let error: @Sendable (String) -> Void
    /// Whether standard output is a terminal (a person reads it) rather than a pipe, a file or a
    /// journal (which keeps what it is given).
    let outputIsTerminal: Bool

    /// Streams that read and write the given closures.
    init(
        readInput: @escaping @Sendable () -> [UInt8],
        output: @escaping @Sendable (String) -> Void,
        error: @escaping @Sendable (String) -> Void,
        outputIsTerminal: Bool = false
    ) {
        self.readInput = readInput
        self.output = output
        self.error = error
        self.outputIsTerminal = outputIsTerminal
    }

    /// The process's standard streams.
    static let standard = TerminalIO(
        readInput: {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                bytes.append(contentsOf: buffer[0..<count])
            }
            return bytes
        },
        output: { writeAll($0, to: 1) },
        error: { writeAll($0, to: 2) },
        outputIsTerminal: isatty(1) == 1
    )

    private static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// All of standard input.
    func readAll() -> [UInt8] { readInput() }
    /// Writes to standard output.
    func writeOutput(_ text: String) { output(text) }
    /// Writes to standard error.
    func writeError(_ text: String) { error(text) }
}
