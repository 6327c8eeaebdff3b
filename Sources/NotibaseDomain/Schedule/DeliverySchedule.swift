import NotibaseCore
import Foundation

/// Decides each delivery of one message as fan-out writes it: its moment in the device's time
/// zone, pushed out of quiet hours, spaced at the rate; or that it cannot be sent before its TTL
/// ends. Pure: a fan-out batch runs it inside its transaction and stores ``plan`` back with the
/// cursor.
package struct DeliverySchedule: Sendable {
    package let pacing: Pacing
    /// When the message was due (ms): what `localTime` counts from, and the moment of messages
    /// without one.
    package let sendAt: Int
    /// The message's TTL in seconds (counted from each delivery's moment), or its absolute expiry
    /// (ms).
    package let ttl: Int?
    package let expiresAt: Int?
    /// The rate's progress; nil without a rate.
    package private(set) var plan: RatePlan?
    /// The zones of this batch, each looked up once.
    private var moments: [String: Moment] = [:]

    /// What the schedule decided for one delivery.
    package struct Decision: Sendable, Equatable {
        /// When it is first due (ms).
        package var dueAt: Int
        /// What its TTL counts from (ms): its moment before quiet hours and the rate moved it.
        package var origin: Int
        /// Why it cannot be sent, when it cannot.
        package var failure: String?
        /// Its `scheduled` history entry, as stored (``ScheduleNote``).
        package var note: String
    }

    /// A device's moment in its zone, and whether quiet hours moved it.
    package struct Moment: Sendable {
        package var clock: ZoneClock
        package var fellBack: Bool
        package var origin: Int
        package var due: Int
        package var quietUntil: Int?
        /// The ``ScheduleNote`` of a delivery due at ``due``: the same for every device of the zone
        /// the rate does not move, so made once.
        package var note = ""
    }

    /// The schedule of a message with `pacing`, due at `sendAt`; its rate goes on from the
    /// pacing's stored ``Pacing/plan`` (made when the message was sent, ``plan(for:sendAt:expected:now:)``).
    package init(pacing: Pacing, sendAt: Int, ttl: Int?, expiresAt: Int?) {
        self.pacing = pacing
        self.sendAt = sendAt
        self.ttl = ttl
        self.expiresAt = expiresAt
        if let rate = pacing.ratePerMinute {
            plan = pacing.plan ?? RatePlan(perMinute: rate, moment: sendAt, notBefore: sendAt)
        }
    }

    /// The schedule of a stored message, or nil when it has no pacing (or its content cannot be
    /// read: it is failed instead).
    package init?(message: MessageRecord) {
        guard let pacing = message.pacing, let content = message.content else { return nil }
        self.init(
            pacing: pacing, sendAt: message.sendAt, ttl: content.message.ttl,
            expiresAt: content.message.expiresAt.map { Int(($0.timeIntervalSince1970 * 1000).rounded(.down)) })
    }

    /// The rate plan of a message sent at `now` with `pacing`, due at `sendAt`: one lane from the
    /// send time, or with time zones, a lane for each moment the zones of `expected` (the
    /// audience's devices by time zone) give, sized by their devices. Nil without a rate.
    package static func plan(for pacing: Pacing, sendAt: Int, expected: [String?: Int], now: Int) -> RatePlan? {
        guard let rate = pacing.ratePerMinute else { return nil }
        guard pacing.usesTimeZones else { return RatePlan(perMinute: rate, moment: sendAt, notBefore: now) }
        var schedule = DeliverySchedule(pacing: Pacing(localTime: pacing.localTime, localDate: pacing.localDate, fallbackTimeZone: pacing.fallbackTimeZone, quietHours: pacing.quietHours), sendAt: sendAt, ttl: nil, expiresAt: nil)
        var byMoment: [Int: Int] = [:]
        for (zone, count) in expected { byMoment[schedule.moment(timeZone: zone).due, default: 0] += count }
        return RatePlan(perMinute: rate, expected: byMoment, notBefore: now)
    }

    /// The moment of a device in `timeZone` (nil, or a name the server does not know: the
    /// message's fallback zone).
    package mutating func moment(timeZone: String?) -> Moment {
        let key = timeZone ?? ""
        if let known = moments[key] { return known }
        let own = timeZone.flatMap(ZoneClock.init)
        let clock = own ?? pacing.fallbackClock
        var origin = sendAt
        if let time = pacing.localTime {
            origin = pacing.localDate.map { clock.instant($0, time) } ?? clock.next(time, atOrAfter: sendAt)
        }
        var moment = Moment(clock: clock, fellBack: own == nil, origin: origin, due: max(origin, sendAt))
        if let quiet = pacing.quietHours, let end = quiet.end(ifInside: moment.due, in: clock) {
            moment.due = end
            moment.quietUntil = end
        }
        moment.note = note(moment, due: moment.due)
        moments[key] = moment
        return moment
    }

    /// Decides the next delivery to a device in `timeZone`.
    package mutating func decide(timeZone: String?) -> Decision {
        let moment = moment(timeZone: timeZone)
        let due = plan?.place(moment.due) ?? moment.due
        var decision = Decision(dueAt: due, origin: moment.origin, note: due == moment.due ? moment.note : note(moment, due: due))
        let expiry = ttl.map { moment.origin + $0 * 1000 } ?? expiresAt
        if let expiry, due > expiry {
            let zone = moment.clock.identifier
            if let until = moment.quietUntil, until > expiry {
                decision.failure = "its time to live ended during the app's quiet hours (\(pacing.quietHours!.text) in \(zone)), so it was not sent"
            } else if due > moment.due {
                decision.failure = "at the message's rate of \(pacing.ratePerMinute ?? 0) a minute its turn came after its time to live ended, so it was not sent"
            } else {
                decision.failure = "its time to live ended before it could be sent (its moment was \(Self.local(moment.origin, moment.clock)) in \(zone)), so it was not sent"
            }
        }
        return decision
    }

    /// The stored note of a delivery due at `due` (``ScheduleNote``).
    private func note(_ moment: Moment, due: Int) -> String {
        var decidedBy: [String] = []
        if pacing.localTime != nil { decidedBy.append("localTime") }
        if moment.quietUntil != nil { decidedBy.append("quietHours") }
        if due > moment.due { decidedBy.append("rate") }
        return ScheduleNote(decidedBy: decidedBy, timeZone: moment.clock.identifier, fellBack: moment.fellBack).stored
    }

    /// The wall-clock reading at an instant, as `2026-12-01T09:00:00`.
    package static func local(_ milliseconds: Int, _ clock: ZoneClock) -> String {
        let (date, seconds) = clock.wall(at: milliseconds)
        let time = WallTime(hour: seconds / 3600, minute: seconds / 60 % 60)
        let second = seconds % 60
        return "\(date.text)T\(time.text):" + (second < 10 ? "0" : "") + "\(second)"
    }
}
