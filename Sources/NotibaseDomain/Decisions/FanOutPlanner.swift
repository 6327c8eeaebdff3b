import NotibaseCore

/// Decides a fan-out batch, without I/O: for the message, the next devices of its audience and
/// the time, each delivery's variant (chosen once per locale), what its message's pacing decides
/// (its moment, or a failure when it cannot be sent before its TTL), which are written claimed for
/// the node (as many as its claim has room for, of those due now), the time they are stamped, the
/// rate's progress, the new cursor and whether the audience is done. A store reads the inputs and
/// writes what it returns, in the batch's transaction (``FanOutStore/fanOutBatch(messageSeq:audience:limit:now:claim:plan:)``).
package struct FanOutPlanner: Sendable {
    package var chooser: VariantChooser

    package func plan(_ inputs: FanOutInputs) -> FanOutWrites {
        let message = inputs.message
        let written = Lifecycle.deliveriesWritten(now: inputs.now, messageCreated: message.createdAt, devicesCreated: inputs.targets.map(\.createdAt))
        var variants: [String: String?] = [:]  // locales repeat: choose once per locale
        var schedule = DeliverySchedule(message: message)
        var claiming = 0
        let rows = inputs.targets.map { target in
            let variant: String? = target.locale.flatMap { locale in
                if let known = variants[locale] { return known }
                let chosen = chooser.variant(for: locale)
                variants[locale] = .some(chosen)
                return chosen
            }
            var row = FanOutRow(target: target, variant: variant, state: .queued, due: inputs.now, attempts: 0)
            if let decision = schedule?.decide(timeZone: target.timeZone) {
                (row.due, row.moment, row.scheduled, row.schedule) = (decision.dueAt, decision.origin, decision.dueAt, decision.note)
                if let failure = decision.failure {
                    (row.state, row.due, row.failure) = (.failed, nil, DeliveryEventDetail.because(failure).stored)
                }
            } else if let claim = inputs.claim, claiming < claim.limit {
                // Claimed as a claim leaves it: due when the lease ends, one attempt.
                (row.due, row.attempts) = (inputs.now + claim.lease, 1)
                claiming += 1
            }
            return row
        }
        var pacing: Pacing?
        if let plan = schedule?.plan, var paced = message.pacing {
            paced.plan = plan  // the rate's progress commits with the cursor
            pacing = paced
        }
        let done = inputs.targets.count < inputs.limit
        return FanOutWrites(
            written: written, rows: rows, pacing: pacing, cursor: inputs.targets.last?.seq ?? message.fanOutCursor,
            state: done ? .sending : .fanningOut, done: done)
    }

    package init(chooser: VariantChooser) {
        self.chooser = chooser
    }
}

extension PostedMessage {
    /// A post whose deliveries ``FanOutPlanner`` decides with `chooser`.
    package init(message: NewMessage, idempotencyKey: String?, window: Int, chooser: VariantChooser, limit: Int, now: Int) {
        self.init(message: message, idempotencyKey: idempotencyKey, window: window, plan: FanOutPlanner(chooser: chooser).plan, limit: limit, now: now)
    }
}
