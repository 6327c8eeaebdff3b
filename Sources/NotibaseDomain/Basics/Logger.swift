import Foundation
import NotibaseCore

/// Structured JSON log lines, one per event, written whole to standard error.
///
/// Device tokens go through `TokenRedaction.shorten` and keys are never passed in; a field is a
/// string, a number or a boolean.
package struct Logger: Sendable {
    /// How much to log.
    package enum Level: Int, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error
        package static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        package var name: String { String(describing: self) }
    }

    /// A field value.
    package enum Value: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case string(String)
        case int(Int)
        case double(Double)
        case bool(Bool)
        package init(stringLiteral value: String) { self = .string(value) }
        package init(integerLiteral value: Int) { self = .int(value) }
    }

    package let minimumLevel: Level
    private let sink: @Sendable (String) -> Void

    /// A logger writing lines at `minimumLevel` and above to `sink` (standard error by default).
    package init(minimumLevel: Level = .info, sink: (@Sendable (String) -> Void)? = nil) {
        self.minimumLevel = minimumLevel
        self.sink = sink ?? { line in
            var line = line
            line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
        }
    }

    /// A logger that drops everything.
    package static let silent = Logger(minimumLevel: .error, sink: { _ in })

    package func debug(_ message: String, _ fields: [String: Value] = [:]) { log(.debug, message, fields) }
    package func info(_ message: String, _ fields: [String: Value] = [:]) { log(.info, message, fields) }
    package func warning(_ message: String, _ fields: [String: Value] = [:]) { log(.warning, message, fields) }
    package func error(_ message: String, _ fields: [String: Value] = [:]) { log(.error, message, fields) }

    package func log(_ level: Level, _ message: String, _ fields: [String: Value]) {
        guard level >= minimumLevel else { return }
        var line = "{\"time\":\"\(Self.timestamp())\",\"level\":\"\(level.name)\",\"msg\":" + Self.quote(message)
        for key in fields.keys.sorted() {
            line += "," + Self.quote(key) + ":"
            switch fields[key]! {
            case .string(let text): line += Self.quote(text)
            case .int(let number): line += String(number)
            case .double(let number): line += number.isFinite ? String(number) : "null"
            case .bool(let flag): line += flag ? "true" : "false"
            }
        }
        sink(line + "}\n")
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Timestamp.format(milliseconds: now.tv_sec * 1000 + now.tv_nsec / 1_000_000, alwaysMilliseconds: true)
    }

    /// A JSON string literal.
    package static func quote(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        JSONWriter.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
