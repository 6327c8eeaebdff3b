import Foundation
import NotibaseCore
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery

/// The registration bodies as the strict `Codable` decoder read them before the route had one
/// reader of its own (docs/decisions/0038): the reference the reader's answers are held to. The
/// same rules (``RegistrationBody/validate(_:)``) behind `JSONDecoder`, the duplicate-key scan and
/// the unknown-field check, as `JSON.decode` gives every other route.
struct StrictRegistrationBody: Decodable {
    var registration: DeviceUpsert

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownFields(RegistrationBody.Fields.CodingKeys.self)
        do {
            registration = try RegistrationBody.validate(try RegistrationBody.Fields(from: decoder))
        } catch let problem as RegistrationBody.Problem {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath + [AnyKey(stringValue: problem.field)], debugDescription: problem.message))
        }
    }
}

/// `{"devices": [...]}` as the strict decoder read it.
struct StrictBatchBody: Decodable {
    var devices: [StrictRegistrationBody]
    enum CodingKeys: String, CodingKey, CaseIterable { case devices }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownFields(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        devices = try c.decode([StrictRegistrationBody].self, forKey: .devices)
        try check((1...10_000).contains(devices.count), .devices, c, "must hold from 1 to 10000 devices")
    }
}
