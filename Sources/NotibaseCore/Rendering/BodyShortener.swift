/// Shortens a notification body to fit a byte budget: cut at a character (grapheme cluster)
/// boundary, trailing white space dropped, an ellipsis added. A character is never split, so an
/// emoji or an accented letter is either whole or gone.
enum BodyShortener {
    static let ellipsis = "…"

    /// The longest shortened body whose cost is at most `budget`, or nil when not even one
    /// character and the ellipsis fit. `cost` is what one UTF-8 byte costs in the payload (1 for
    /// raw bytes, more for characters JSON escapes).
    static func shorten(_ body: String, toFit budget: Int, cost: (UInt8) -> Int) -> String? {
        let ellipsisCost = ellipsis.utf8.reduce(0) { $0 + cost($1) }
        var spent = ellipsisCost
        var end = body.startIndex
        for index in body.indices {
            let character = body[index]
            let characterCost = character.utf8.reduce(0) { $0 + cost($1) }
            if spent + characterCost > budget { break }
            spent += characterCost
            end = body.index(after: index)
        }
        let kept = body[..<end]
        guard !kept.isEmpty else { return nil }
        // Drop the white space before the ellipsis, unless that leaves nothing.
        let trimmed = kept.prefix(through: kept.lastIndex(where: { !$0.isWhitespace }) ?? kept.startIndex)
        return (kept.contains(where: { !$0.isWhitespace }) ? trimmed : kept) + ellipsis
    }
}
