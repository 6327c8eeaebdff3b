import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseCore

/// Random and mutated payloads: the reader never crashes, and what it returns is always usable.
@Suite("Payload reader fuzzing")
struct PayloadFuzzTests {
    static var iterations: Int {
        Int(ProcessInfo.processInfo.environment["NOTIBASE_FUZZ_ITERATIONS"] ?? "") ?? 100_000
    }

    @Test func randomAndMutatedPayloadsAreReadSafely() {
        var generator = PayloadFuzzer(seed: 0x6e6f_7469_6261_7365)
        for _ in 0..<Self.iterations {
            let userInfo = generator.next()
            let payload = NotificationPayload(userInfo: userInfo)
            #expect(payload.buttons.count <= 10)
            #expect(Set(payload.buttons.map(\.id)).count == payload.buttons.count)
            #expect(payload.buttons.allSatisfy { !$0.id.isEmpty && !$0.text.isEmpty && !$0.id.hasPrefix("com.apple.") })
            if let derived = payload.derivedCategoryID { #expect(CategoryIdentifier.isDerived(derived)) }
            if payload.buttons.isEmpty, userInfo["nb_buttons"] != nil, !(userInfo["nb_buttons"] is [Any]) || !((userInfo["nb_buttons"] as? [Any])?.isEmpty ?? true) {
                #expect(!payload.diagnostics.isEmpty, "buttons were dropped without a word")
            }
        }
    }
}
