/// A new endpoint, its secret already sealed.
package struct NewWebhookEndpoint: Sendable {
    package var id: String
    package var appID: String
    package var url: String
    /// nil: every type.
    package var types: [String]?
    package var description: String?
    package var sealedSecret: [UInt8]
    package var now: Int
    /// The most endpoints the app may have, this one counted.
    package var limit: Int

    /// Whether the app, with `count` endpoints now, may have this one too: the rule both stores
    /// apply, in the insert's transaction, to the count ``WebhookSQL/endpointCount`` reads.
    package func fits(besides count: Int) -> Bool { count < limit }

    package init(id: String, appID: String, url: String, types: [String]? = nil, description: String? = nil, sealedSecret: [UInt8], now: Int, limit: Int) {
        self.id = id
        self.appID = appID
        self.url = url
        self.types = types
        self.description = description
        self.sealedSecret = sealedSecret
        self.now = now
        self.limit = limit
    }
}

/// What `PATCH /v1/webhooks/{id}` changes; nil leaves a field as it is.
package struct WebhookEndpointChange: Sendable {
    package var url: String?
    /// `.some(nil)`: every type.
    package var types: [String]??
    package var description: String??
    package var enabled: Bool?

    package init(url: String? = nil, types: [String]?? = nil, description: String?? = nil, enabled: Bool? = nil) {
        self.url = url
        self.types = types
        self.description = description
        self.enabled = enabled
    }
}

/// Where an endpoint's dispatch stands: its place in the stream, the batch in flight, its failures.
package struct WebhookDispatchState: Sendable, Equatable {
    /// The last event of the stream it has done with (sent, or given up on).
    package var cursor: Int
    /// The batch in flight: its `webhook-id` and its last event (it holds the events after
    /// `cursor` up to this one). Sent again as it was until it is done with.
    package var batchID: String?
    package var batchLast: Int?
    /// How many times the batch in flight was tried.
    package var batchAttempts: Int = 0
    package var nextAttemptAt: Int?
    /// When the endpoint began failing everything (nil once a batch arrives).
    package var failingSince: Int?
    package var enabled: Bool = true
    package var disabledReason: String?

    package init(cursor: Int, batchID: String? = nil, batchLast: Int? = nil, batchAttempts: Int = 0, nextAttemptAt: Int? = nil, failingSince: Int? = nil, enabled: Bool = true, disabledReason: String? = nil) {
        self.cursor = cursor
        self.batchID = batchID
        self.batchLast = batchLast
        self.batchAttempts = batchAttempts
        self.nextAttemptAt = nextAttemptAt
        self.failingSince = failingSince
        self.enabled = enabled
        self.disabledReason = disabledReason
    }
}

/// An endpoint as stored.
package struct WebhookEndpointRecord: Sendable {
    package var seq: Int
    package var id: String
    package var appID: String
    package var url: String
    package var types: [String]?
    package var description: String?
    package var sealedSecret: [UInt8]
    package var sealedPreviousSecret: [UInt8]?
    package var previousSecretUntil: Int?
    package var dispatch: WebhookDispatchState
    /// Changes with every change the API makes, so the dispatcher does not undo one.
    package var revision: Int
    package var createdAt: Int
    package var updatedAt: Int

    /// Whether the endpoint wants events of `type` (a test is sent to the endpoint it is for, whatever its types).
    package func wants(_ type: String) -> Bool { type == WebhookEventType.test || types.map { $0.contains(type) } ?? true }

    package init(seq: Int, id: String, appID: String, url: String, types: [String]? = nil, description: String? = nil, sealedSecret: [UInt8], sealedPreviousSecret: [UInt8]? = nil, previousSecretUntil: Int? = nil, dispatch: WebhookDispatchState, revision: Int, createdAt: Int, updatedAt: Int) {
        self.seq = seq
        self.id = id
        self.appID = appID
        self.url = url
        self.types = types
        self.description = description
        self.sealedSecret = sealedSecret
        self.sealedPreviousSecret = sealedPreviousSecret
        self.previousSecretUntil = previousSecretUntil
        self.dispatch = dispatch
        self.revision = revision
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// One event of an app's stream.
package struct WebhookEventRecord: Sendable, Equatable {
    package var seq: Int
    /// Stable across retries and replays: what a receiver deduplicates by.
    package var id: String
    package var type: String
    package var at: Int
    /// The event's `data`, a JSON object.
    package var data: String {
        get {
            switch body {
            case .text(let text): text
            case .line(let lines, let index): lines.data(index)
            }
        }
        set { body = .text(newValue) }
    }

    /// A send's `data` stays its line in the row read (``WebhookSendLines/Parsed``) until it is
    /// written into a request's body: made into text of its own and then copied into the body,
    /// each event of a large send cost an allocation, a copy and a check of its bytes.
    private var body: Body

    private enum Body: Sendable {
        case text(String)
        case line(WebhookSendLines.Parsed, Int)
    }

    package init(seq: Int, id: String, type: String, at: Int, data: String) {
        (self.seq, self.id, self.type, self.at, body) = (seq, id, type, at, .text(data))
    }

    /// Event `index` of a row of sends' lines, its `data` made when it is written.
    package init(seq: Int, id: String, type: String, at: Int, line index: Int, of lines: WebhookSendLines.Parsed) {
        (self.seq, self.id, self.type, self.at, body) = (seq, id, type, at, .line(lines, index))
    }

    /// The bytes of ``data``, without making it.
    package var dataByteCount: Int {
        switch body {
        case .text(let text): text.utf8.count
        case .line(let lines, let index): lines.dataByteCount(index)
        }
    }

    /// Writes ``data`` at the end of `bytes`.
    package func appendData(to bytes: inout [UInt8]) {
        switch body {
        case .text(let text): bytes.append(contentsOf: text.utf8)
        case .line(let lines, let index): lines.appendData(index, to: &bytes)
        }
    }

    package static func == (lhs: WebhookEventRecord, rhs: WebhookEventRecord) -> Bool {
        (lhs.seq, lhs.id, lhs.type, lhs.at) == (rhs.seq, rhs.id, rhs.type, rhs.at) && lhs.data == rhs.data
    }
}

/// One POST to an endpoint, for the attempts log.
package struct WebhookAttemptRecord: Sendable, Equatable {
    package var batchID: String
    package var events: Int
    package var at: Int
    /// `answered`, `timed_out`, `failed` or `refused`.
    package var outcome: String
    package var status: Int?
    package var latencyMilliseconds: Int
    /// The answer's first bytes as text, or why it failed.
    package var answer: String
    /// When the batch is tried again (nil: it arrived, was given up on, or the endpoint was disabled).
    package var nextRetryAt: Int?

    package init(batchID: String, events: Int, at: Int, outcome: String, status: Int? = nil, latencyMilliseconds: Int, answer: String, nextRetryAt: Int? = nil) {
        self.batchID = batchID
        self.events = events
        self.at = at
        self.outcome = outcome
        self.status = status
        self.latencyMilliseconds = latencyMilliseconds
        self.answer = answer
        self.nextRetryAt = nextRetryAt
    }
}
