import NotibaseDomain
import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices
extension RegistrationReader {
    /// A UTF-16 or UTF-32 body as UTF-8, as `JSONDecoder` reads them (found by a byte order mark
    /// or by the zero bytes of its first character); nil for a body that is UTF-8 already.
    package static func utf8(_ body: [UInt8]) throws -> [UInt8]? {
        guard body.count >= 2 else { return nil }
        let (first, second) = (body[0], body[1])
        if first != 0, second != 0, first != 0xfe, first != 0xff { return nil }
        var transcoded: [UInt8] = []
        var failed = false
        func transcode<Encoding: Unicode.Encoding>(_ units: [Encoding.CodeUnit], _: Encoding.Type) {
            failed = Swift.transcode(units.makeIterator(), from: Encoding.self, to: UTF8.self, stoppingOnError: true) { transcoded.append($0) }
        }
        func units(from start: Int, width: Int, bigEndian: Bool) -> [UInt32] {
            stride(from: start, to: body.count - width + 1, by: width).map { offset in
                (0..<width).reduce(UInt32(0)) { value, byte in value | UInt32(body[offset + byte]) << (8 * (bigEndian ? width - 1 - byte : byte)) }
            }
        }
        let isUTF32 = body.count >= 4 && (body.starts(with: [0, 0, 0xfe, 0xff]) || (first == 0 && second == 0 && body[2] == 0) || (second == 0 && body[2] == 0 && body[3] == 0))
        if isUTF32 {
            let bigEndian = first == 0
            transcode(units(from: body.starts(with: [0, 0, 0xfe, 0xff]) ? 4 : 0, width: 4, bigEndian: bigEndian), UTF32.self)
        } else if first == 0xfe || first == 0xff {
            guard (first == 0xfe && second == 0xff) || (first == 0xff && second == 0xfe) else { return nil }
            transcode(units(from: 2, width: 2, bigEndian: first == 0xfe).map { UInt16($0) }, UTF16.self)
        } else {
            transcode(units(from: 0, width: 2, bigEndian: first == 0).map { UInt16($0) }, UTF16.self)
        }
        guard !failed else { throw malformed }
        return transcoded
    }
}
