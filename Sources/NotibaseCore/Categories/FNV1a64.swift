/// 64-bit FNV-1a, the hash behind `notibase-category/1`.
///
/// Unlike `Hashable.hashValue`, which Swift seeds per process, FNV-1a gives the same value for the
/// same bytes in every process, on every machine, in every language: the server and the device
/// derive the same category identifier independently.
struct FNV1a64: Sendable, Equatable {
    /// The FNV-1a 64-bit offset basis.
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// The FNV-1a 64-bit prime.
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash of everything fed so far.
    private(set) var value: UInt64 = FNV1a64.offsetBasis


    /// A hasher that has seen no bytes yet.
    init() {}

    /// Feeds one byte.

    mutating func combine(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* FNV1a64.prime
    }

    /// Feeds a sequence of bytes, in order.

    mutating func combine<Bytes: Sequence>(contentsOf bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { combine(byte) }
    }

    /// The hash as 16 lowercase hexadecimal digits, zero-padded.
    var hexDigits: String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 16)
        var v = value
        for index in stride(from: 15, through: 0, by: -1) {
            out[index] = digits[Int(v & 0xf)]
            v >>= 4
        }
        return String(decoding: out, as: UTF8.self)
    }
}
