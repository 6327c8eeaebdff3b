import Foundation
import NotibaseCore
import NotibaseSenders

/// Throws a decoding error at `key` unless `condition` holds (turned into a 400 naming the field).
package func check<Key: CodingKey>(_ condition: Bool, _ key: Key, _ c: KeyedDecodingContainer<Key>, _ message: String) throws {
    if !condition { throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: message) }
}
