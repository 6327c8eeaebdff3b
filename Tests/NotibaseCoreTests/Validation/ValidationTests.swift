import Foundation
import Testing
@testable import NotibaseCore

@Suite("Message validation")
struct ValidationTests {
    func errors(_ message: Message, for platforms: Set<Platform> = Set(Platform.allCases)) -> [ValidationIssue] {
        message.validate(for: platforms).filter { $0.severity == .error }
    }

    @Test func aValidMessageHasNoIssues() {
        let message = Message(title: "Order shipped", body: "Thursday", buttons: [Button(id: "track", text: "Track")])
        #expect(message.validate().isEmpty)
        #expect(throws: Never.self) { try message.validated() }
    }

    @Test func reportsEveryProblemAtOnce() {
        let message = Message(
            buttons: [Button(id: "", text: "A"), Button(id: "b", text: ""), Button(id: "b", text: "B")],
            imageURL: "http://example.com/a.jpg", relevanceScore: 1.5,
            collapseID: String(repeating: "x", count: 65), data: ["aps": 1, "nb_buttons": 2])
        let fields = Set(errors(message).map(\.field))
        #expect(fields == [
            "body", "buttons[0].id", "buttons[1].text", "buttons[2].id", "image", "relevanceScore", "collapseId",
            "data.aps", "data.nb_buttons",
        ])
        do {
            _ = try message.validated()
            Issue.record("expected a validation error")
        } catch {
            #expect(error.issues.count == 9)
        }
    }

    @Test func duplicateIDNamesTheFirstUse() {
        let issues = errors(Message(title: "T", buttons: [Button(id: "a", text: "A"), Button(id: "a", text: "B")]))
        #expect(issues.map(\.code) == ["duplicate_button_id"])
        #expect(issues.first?.message.contains("buttons[0]") == true)
    }

    @Test func buttonLimitsNameThePlatform() {
        let four = Message(title: "T", buttons: (1...4).map { Button(id: "b\($0)", text: "B\($0)") })
        let androidIssue = errors(four).first { $0.code == "too_many_buttons" }
        #expect(androidIssue?.platform == .android)
        #expect(androidIssue?.message.contains("Android shows at most 3") == true)
        // iOS alone takes four, with the banner warning.
        #expect(errors(four, for: [.ios]).isEmpty)
        #expect(four.validate(for: [.ios]).contains { $0.code == "banner_shows_two" && $0.severity == .warning })

        let eleven = Message(title: "T", buttons: (1...11).map { Button(id: "b\($0)", text: "B\($0)") })
        #expect(errors(eleven, for: [.ios]).map(\.platform) == [.ios])
        #expect(Set(errors(eleven).compactMap(\.platform)) == [.ios, .android])
    }

    @Test(arguments: [
        ("https://cdn.example.com/a.jpg", true), ("HTTPS://cdn.example.com/a.jpg", true), ("http://cdn.example.com/a.jpg", false),
        ("https:///a.jpg", false), ("cdn.example.com/a.jpg", false), ("https://user@host:8443/x", true), ("ftp://x/y", false),
    ])
    func imageMustBeHTTPS(url: String, valid: Bool) {
        let issues = errors(Message(title: "T", imageURL: url))
        #expect(issues.isEmpty == valid, "\(url)")
    }

    @Test func collapseIDLimitIsInBytes() {
        #expect(errors(Message(title: "T", collapseID: String(repeating: "é", count: 32))).isEmpty)  // 64 bytes
        #expect(errors(Message(title: "T", collapseID: String(repeating: "é", count: 33))).map(\.code) == ["too_long"])
    }

    @Test(arguments: [-0.01, 1.01, Double.infinity])
    func relevanceOutsideZeroToOne(score: Double) {
        #expect(errors(Message(title: "T", relevanceScore: score)).map(\.field) == ["relevanceScore"])
    }

    @Test func reservedDataKeys() {
        let message = Message(title: "T", data: ["aps": 1, "nb_x": 2, "from": 3, "google.x": 4, "ok": 5])
        #expect(Set(errors(message).map(\.field)) == ["data.aps", "data.nb_x", "data.from", "data.google.x"])
        // FCM's reserved words are fine on iOS, with a warning.
        #expect(Set(errors(message, for: [.ios]).map(\.field)) == ["data.aps", "data.nb_x"])
    }

    @Test func buttonDetails() {
        let message = Message(title: "T", buttons: [
            Button(id: "com.apple.UNNotificationDefaultActionIdentifier", text: "A"),
            Button(id: "b", text: "B", icon: "shippingbox"),
            Button(id: "c", text: "C", icon: "system:"),
            Button(id: "d", text: "D", url: "not a link"),
        ])
        #expect(errors(message, for: [.ios]).map(\.code) == ["reserved", "invalid_icon", "invalid_icon", "invalid_url"])
    }

    @Test func ttlAndExpiry() {
        #expect(errors(Message(title: "T", ttl: -1)).map(\.field) == ["ttl"])
        #expect(errors(Message(title: "T", ttl: 2_419_201)).map(\.field) == ["ttl"])
        #expect(errors(Message(title: "T", ttl: 60, expiresAt: Date())).map(\.field) == ["expiresAt"])
        #expect(errors(Message(title: "T", ttl: 0)).isEmpty)
    }

    @Test func categoryWithButtonsIsAWarning() {
        let issues = Message(title: "T", buttons: [Button(id: "a", text: "A")], category: "APP").validate()
        #expect(issues.map(\.code) == ["ignored_with_buttons"])
        #expect(issues.first?.severity == .warning)
    }

    @Test func everyIssueSaysWhatToDo() {
        let message = Message(sound: "", badge: -1, threadID: "", collapseID: "", category: "")
        for issue in message.validate() {
            #expect(issue.message.count > 20, "\(issue.field): \(issue.message)")
        }
    }
}
