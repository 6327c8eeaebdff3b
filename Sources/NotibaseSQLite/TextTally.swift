/// Counts the values of a text column from their bytes as rows stream by, making a `String` once
/// per distinct value rather than once per row.
package struct TextTally {
    private var entries: [(bytes: [UInt8], count: Int)] = []
    /// Indexes into ``entries`` by the hash of their bytes (equal hashes compared byte for byte).
    private var byHash: [Int: [Int]] = [:]
    private var nulls = 0

    package mutating func add(_ value: UnsafeBufferPointer<UInt8>?) {
        guard let value else {
            nulls += 1
            return
        }
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(value))
        let hash = hasher.finalize()
        if let candidates = byHash[hash], let index = candidates.first(where: { entries[$0].bytes.elementsEqual(value) }) {
            entries[index].count += 1
        } else {
            byHash[hash, default: []].append(entries.count)
            entries.append((Array(value), 1))
        }
    }

    /// Each value's count; NULLs under nil.
    package var counts: [String?: Int] {
        var counts: [String?: Int] = [:]
        for entry in entries { counts[String(decoding: entry.bytes, as: UTF8.self), default: 0] += entry.count }
        if nulls > 0 { counts[nil] = nulls }
        return counts
    }
}
