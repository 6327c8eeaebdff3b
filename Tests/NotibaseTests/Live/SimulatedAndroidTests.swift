import Foundation
import NotibaseCore
import NotibaseSimulator
import NotibaseTestSupport
import Testing

/// Issue 29: the demo's simulated Android phone reports the image as the Android SDK would: drawn
/// with it only when it could be fetched, else without it and why, as the simulated iPhones do.
@Suite("Simulated Android: the image as the SDK draws it")
struct SimulatedAndroidTests {
    /// A JPEG's signature and a body: what the downloader checks.
    static let jpeg: [UInt8] = [0xff, 0xd8, 0xff, 0xe0] + [UInt8](repeating: 0x42, count: 512)

    private func draw(_ image: String) async throws -> AndroidNotification {
        let host = try LocalImageHost(files: ["/parcel.jpg": ("image/jpeg", Self.jpeg)])
        defer { host.stop() }
        let files = TemporaryDirectory("notibase-android")
        let fleet = SimulatedFleet(directory: files.url, images: ImageRoutes(["images.test.notibase": host.baseURL]))
        let phone = fleet.addAndroid(name: "Pixel", token: "fcm-simulated-android-0001")
        let body = try JSONEncoder().encode(["message": ["data": ["nb_title": "Shipped", PayloadKey.image: image]]])
        return try #require(await phone.receive(fcmBody: Array(body)))
    }

    @Test func anImageThatIsFetchedIsDrawn() async throws {
        let drawn = try await draw("https://images.test.notibase/parcel.jpg")
        #expect(drawn.image == "https://images.test.notibase/parcel.jpg")
        #expect(drawn.imageFailure == nil)
    }

    @Test func anImageThatCannotBeFetchedIsNotDrawnAndTheReasonIsReported() async throws {
        let drawn = try await draw("https://images.test.notibase/missing.jpg")
        #expect(drawn.image == nil)
        #expect(drawn.imageFailure?.contains("404") == true)
    }

    @Test func anImageTheSDKRefusesIsNotFetched() async throws {
        let drawn = try await draw("http://images.test.notibase/parcel.jpg")
        #expect(drawn.image == nil)
        #expect(drawn.imageFailure == "the image URL is not https with a host")
    }
}
