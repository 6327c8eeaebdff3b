import Testing
import UserNotificationsShim

@Suite("UNError codes")
struct UNErrorTests {
    static let codes: [(UNError.Code, Int)] = [
        (.notificationsNotAllowed, 1), (.attachmentInvalidURL, 100), (.attachmentUnrecognizedType, 101),
        (.attachmentInvalidFileSize, 102), (.attachmentNotInDataStore, 103), (.attachmentMoveIntoDataStoreFailed, 104),
        (.attachmentCorrupt, 105), (.notificationInvalidNoDate, 1400), (.notificationInvalidNoContent, 1401),
        (.contentProvidingObjectNotAllowed, 1500), (.contentProvidingInvalid, 1501), (.badgeInputInvalid, 1600),
    ]

    @Test(arguments: codes)
    func rawValuesAreApples(code: UNError.Code, rawValue: Int) {
        #expect(code.rawValue == rawValue)
        #expect(UNError(code).errorCode == rawValue)
        #expect(UNError.errorDomain == "UNErrorDomain")
    }

    @Test func staticMembersNameTheCodes() {
        #expect(UNError.attachmentInvalidURL == .attachmentInvalidURL)
        #expect(UNError(.attachmentCorrupt).code == UNError.attachmentCorrupt)
        #expect(UNError.attachmentCorrupt ~= UNError(.attachmentCorrupt))
        #expect(!(UNError.attachmentCorrupt ~= UNError(.attachmentInvalidURL)))
    }
}
