import Foundation
import NotibaseDomain

/// The request's head as libmicrohttpd received it, checked for bytes its C strings hide.
///
/// libmicrohttpd 0.9.75 hands on the target and every header as C strings, so a NUL byte ends
/// them early: `Authorization: Bearer <key>\0junk` arrives as the key alone, and
/// `GET /v1/apps\0/public` as `/v1/apps`. Its read buffer still holds the whole head, in order,
/// with NULs written over the separators and line ends it parsed. Walking the parts it reports
/// (the target, the version, each header name and value) through that buffer, nothing may lie
/// between them but those NULs, line ends and blanks; anything else was hidden behind a NUL.
package struct RawHead {
    private let start: UInt
    private let end: UInt
    /// The end of the last part checked.
    private var position: UInt
    /// The first problem found.
    package private(set) var problem: HTTPRequestProblem?
    /// The header before the gap being checked (a gap with junk belongs to the value before it),
    /// lowercase; named only in an error (no copy per header).
    private var previousHeader = ""

    /// The head from the method's first byte, `size` bytes long; `targetEnd` is where the target
    /// seen before decoding ended (`uriLogCallback`) and `url` where the decoded one starts.
    package init(method: UnsafePointer<CChar>?, size: Int, target: UInt, targetEnd: UInt, url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?) {
        start = method.map { UInt(bitPattern: $0) } ?? 0
        end = start + UInt(size)
        position = end
        guard let method, let url, let version, size > 0 else {
            problem = .malformedHead
            return
        }
        let versionStart = UInt(bitPattern: version)
        // The target was decoded in place, where it was read: the version follows the target as
        // sent, after one separator. A NUL in the target ended it before that.
        guard UInt(bitPattern: url) == target, target > start, versionStart < end else {
            problem = .malformedHead
            return
        }
        guard versionStart == targetEnd + 1 else {
            problem = .nulInTarget
            return
        }
        // The method ends at the NUL written over the space before the target (more spaces may
        // follow); a NUL inside the method ended it earlier.
        position = start + UInt(strlen(method))
        guard isColon(from: position, to: target) else {
            problem = .nulInMethod
            return
        }
        position = versionStart + UInt(strlen(version))
    }

    /// Checks one header, in the order received.
    package mutating func header(_ name: String, key: UnsafePointer<CChar>, keySize: Int, value: UnsafePointer<CChar>?, valueSize: Int) {
        guard problem == nil else { return }
        let keyStart = UInt(bitPattern: key)
        let keyEnd = keyStart + UInt(keySize)
        let valueStart = value.map { UInt(bitPattern: $0) } ?? keyEnd + 1
        let valueEnd = valueStart + UInt(valueSize)
        // A header folded over lines is rebuilt elsewhere by libmicrohttpd: refused (RFC 9112
        // allows it), as is anything out of order.
        guard keyStart >= position, valueStart > keyEnd, valueEnd <= end else {
            problem = .malformedHeader(Self.displayName(name))
            return
        }
        guard isLineEnd(from: position, to: keyStart, lines: 1...1) else {
            // Junk before this header's name is the end of the line before it.
            problem = .nulInHeader(Self.displayName(previousHeader.isEmpty ? name : previousHeader))
            return
        }
        guard isColon(from: keyEnd, to: valueStart) else {
            problem = .nulInHeader(Self.displayName(name))
            return
        }
        position = valueEnd
        previousHeader = name
    }

    /// Checks what follows the last header (its line end and the empty line); returns the first
    /// problem found.
    package mutating func finish() -> HTTPRequestProblem? {
        if problem == nil, !isLineEnd(from: position, to: end, lines: 2...2) {
            problem = previousHeader.isEmpty ? .malformedHead : .nulInHeader(Self.displayName(previousHeader))
        }
        return problem
    }

    /// A header's name for an error answer: the canonical one for a security header, else the
    /// lowercase name, shortened.
    package static func displayName(_ name: String) -> String {
        SecurityHeader.bit(name)?.1 ?? String(name.prefix(64))
    }

    /// Whether `from..<to` is `lines` line ends as libmicrohttpd leaves them: a NUL over the CR
    /// and one over the LF (one NUL for a bare LF). A value's trailing blanks are part of it, so
    /// anything more is what a NUL hid (even a NUL alone before the line end).
    private func isLineEnd(from: UInt, to: UInt, lines: ClosedRange<Int>) -> Bool {
        guard from <= to, from >= start, to <= end else { return false }
        let count = Int(to - from)
        guard count >= lines.lowerBound, count <= 2 * lines.upperBound, let bytes = UnsafePointer<UInt8>(bitPattern: from) else { return false }
        return (0..<count).allSatisfy { bytes[$0] == 0 }
    }

    /// Whether `from..<to` is the NUL written over a separator (the colon, the space after the
    /// method), then blanks.
    private func isColon(from: UInt, to: UInt) -> Bool {
        guard from < to, from >= start, to <= end, let bytes = UnsafePointer<UInt8>(bitPattern: from), bytes[0] == 0 else { return false }
        return (1..<Int(to - from)).allSatisfy { bytes[$0] == 0x20 || bytes[$0] == 0x09 }
    }
}
