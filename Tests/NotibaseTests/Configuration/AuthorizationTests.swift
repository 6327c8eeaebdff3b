import Foundation
import Testing
@preconcurrency import UserNotificationsShim
@testable import Notibase

/// `requestAuthorization` can be refused, and can fail: the app hears both.
@Suite("Asking for permission")
struct AuthorizationTests {
    @Test func refusedIsFalseAndFailedThrows() async throws {
        let refusing = SimulatedDevice(name: "refusing")
        refusing.authorizationAnswer = false
        #expect(try await refusing.withCurrent { try await Notibase.requestAuthorization() } == false)
        #expect(refusing.authorizationPromptCount == 1)

        let failing = SimulatedDevice(name: "restricted")
        failing.authorizationFailure = .notificationsNotAllowed
        await #expect(throws: UNError.self) { try await failing.withCurrent { try await Notibase.requestAuthorization() } }
    }
}
