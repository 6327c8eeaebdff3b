import Foundation
import NotibaseCore

extension DeviceRegistrationRequest {
    /// The hexadecimal form iOS's `Data` token is registered under.
    static func hex(_ token: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(token.count * 2)
        for byte in token {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The device's locale as the server takes it (`fr-FR`).
    static var currentLocale: String {
        Locale.current.identifier.replacingOccurrences(of: "_", with: "-")
    }
}
