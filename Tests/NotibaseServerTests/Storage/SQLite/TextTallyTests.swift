import Testing

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
@testable import NotibaseServerTestSupport

@Suite struct TextTallyTests {
    private func tally(_ values: [String?]) -> [String?: Int] {
        var tally = TextTally()
        for value in values {
            guard var bytes = value.map({ Array($0.utf8) }) else {
                tally.add(nil)
                continue
            }
            bytes.withUnsafeMutableBufferPointer { tally.add(UnsafeBufferPointer($0)) }
        }
        return tally.counts
    }

    @Test func countsEachValueAsAGroupByWould() {
        let zones = ["Europe/Paris", "America/Argentina/Buenos_Aires", "Asia/Kathmandu", "UTC", "", "Pacific/Chatham"]
        var values: [String?] = []
        var expected: [String?: Int] = [:]
        for index in 0..<5_000 {
            let value: String? = index % 7 == 0 ? nil : zones[index * 31 % zones.count]
            values.append(value)
            expected[value, default: 0] += 1
        }
        #expect(tally(values) == expected)
    }

    @Test func anEmptyValueIsNotANull() {
        #expect(tally(["", nil, nil]) == ["": 1, nil: 2])
    }

    @Test func noRowsCountNothing() {
        #expect(tally([]).isEmpty)
    }
}
