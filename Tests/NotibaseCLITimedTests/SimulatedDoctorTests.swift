#if canImport(NotibaseSimulator)
import Foundation
import NotibaseCore
import Testing
import NotibaseServer
import NotibaseDomain
import NotibaseStore
import NotibaseSQLite
import NotibasePostgres
import NotibaseHTTP
import NotibaseOutbound
import NotibaseWebhooks
import NotibaseServices
import NotibaseAPI
import NotibaseDelivery
@testable import NotibaseCLI
import NotibaseTestSupport

/// The doctor `notibase serve` gives the server's preview endpoint: `notibase preview`'s logic on
/// an APNs payload, without downloading the image.
@Suite("The server's doctor")
struct SimulatedDoctorTests {
    func payload(_ message: Message) throws -> (JSONValue, Int) {
        let request = try APNsRenderer(message: message, topic: nil).render(DeliveryContext(deviceToken: "t", messageID: "m", deliveryID: "d", receiptSignature: "s"))
        return (try JSONDecoder().decode(JSONValue.self, from: Data(request.body)), request.body.count)
    }

    @Test func drawsTheButtonsAndNamesTheImageWithoutFetchingIt() async throws {
        let doctor = try #require(standardDoctor)
        let (json, bytes) = try payload(Message(title: "Shipped", buttons: [Button(id: "track", text: "Track")], imageURL: "https://images.invalid/box.jpg"))
        let verdict = await doctor.examine(apnsPayload: json, bytes: bytes)
        #expect(verdict["buttons"].array.compactMap { $0["title"].string } == ["Track"])
        #expect(verdict["payloadBytes"].int == bytes)
        // The image host does not exist: had the doctor fetched it, it would report a failure.
        #expect(verdict["image"]["requested"].string == "https://images.invalid/box.jpg")
        #expect(verdict["image"]["reason"].string?.contains("the phone downloads the image") == true)
        #expect(verdict["problems"].array.isEmpty, "\(verdict["problems"])")
    }

    @Test func saysWhyThereAreNoButtons() async throws {
        let doctor = try #require(standardDoctor)
        let (json, bytes) = try payload(Message(title: "Invite", category: "INVITATION"))
        let verdict = await doctor.examine(apnsPayload: json, bytes: bytes)
        #expect(verdict["buttons"].array.isEmpty)
        #expect(verdict["problems"].array.compactMap(\.string).contains { $0.contains("iOS draws no buttons") })
    }
}
#endif
