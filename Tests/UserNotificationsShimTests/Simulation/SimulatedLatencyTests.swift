import Testing
import UserNotificationsShim

@Suite("SimulatedLatency")
struct SimulatedLatencyTests {
    @Test func aSeedReproducesItsDelays() throws {
        let range = Duration.milliseconds(10) ... .milliseconds(90)
        let first = try #require(SimulatedLatency.random(in: range, seed: 7).delays(50))
        let again = try #require(SimulatedLatency.random(in: range, seed: 7).delays(50))
        let other = try #require(SimulatedLatency.random(in: range, seed: 8).delays(50))
        #expect(first == again)
        #expect(first != other)
        #expect(first.allSatisfy { range.contains($0) })
        #expect(Set(first).count > 40, "the delays vary")
    }

    @Test func fixedImmediateAndNever() {
        #expect(SimulatedLatency.fixed(.milliseconds(5)).delays(3) == [.milliseconds(5), .milliseconds(5), .milliseconds(5)])
        #expect(SimulatedLatency.immediate.delays(1) == [.zero])
        #expect(SimulatedLatency.never.delays(1) == nil)
    }

    @Test func theCenterWaitsAtLeastTheDrawnDelay() async throws {
        let latency = SimulatedLatency.random(in: .milliseconds(80) ... .milliseconds(120), seed: 1)
        let expected = try #require(latency.delays(1)?.first)
        let device = SimulatedDevice()
        device.readLatency = latency
        let start = ContinuousClock.now
        _ = await device.center.notificationCategories()
        #expect(start.duration(to: .now) >= expected)
    }
}
