import Foundation

/// Reads numbers and strings out of a payload dictionary, whether they came from Swift literals or
/// from `JSONSerialization` (`NSNumber`, `NSString`).
enum PayloadValue {
    static func string(_ value: Any?) -> String? {
        switch value {
        case let string as String: string
        case let string as NSString: String(describing: string)
        default: nil
        }
    }

    static func number(_ value: Any?) -> Double? {
        switch value {
        case let number as Int: Double(number)
        case let number as Double: number
        case let number as NSNumber: number.doubleValue
        case let bool as Bool: bool ? 1 : 0
        default: nil
        }
    }

    static func integer(_ value: Any?) -> Int? {
        guard let number = number(value), number == number.rounded(.towardZero), abs(number) < 1e15 else { return nil }
        return Int(number)
    }

    static func dictionary(_ value: Any?) -> [AnyHashable: Any]? {
        switch value {
        case let dictionary as [AnyHashable: Any]: dictionary
        case let dictionary as [String: Any]: dictionary
        case let dictionary as NSDictionary: dictionary as? [AnyHashable: Any]
        default: nil
        }
    }
}
