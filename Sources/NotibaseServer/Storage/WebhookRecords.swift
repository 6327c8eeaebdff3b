/// A new endpoint, its secret already sealed.
struct NewWebhookEndpoint: Sendable {
    var id: String
    var appID: String
    var url: String
    /// nil: every type.
    var types: [String]?
    var description: String?
    var sealedSecret: [UInt8]
    var now: Int
    /// The most endpoints the app may have, this one counted.
    var limit: Int

    /// Whether the app, with `count` endpoints now, may have this one too: the rule both stores
    /// apply, in the insert's transaction, to the count ``WebhookSQL/endpointCount`` reads.
    func fits(besides count: Int) -> Bool { count < limit }
}

/// What `PATCH /v1/webhooks/{id}` changes; nil leaves a field as it is.
struct WebhookEndpointChange: Sendable {
    var url: String?
    /// `.some(nil)`: every type.
    var types: [String]??
    var description: String??
    var enabled: Bool?
}

/// Where an endpoint's dispatch stands: its place in the stream, the batch in flight, its failures.
struct WebhookDispatchState: Sendable, Equatable {
    /// The last event of the stream it has done with (sent, or given up on).
    var cursor: Int
    /// The batch in flight: its `webhook-id` and its last event (it holds the events after
    /// `cursor` up to this one). Sent again as it was until it is done with.
    var batchID: String?
    var batchLast: Int?
    /// How many times the batch in flight was tried.
    var batchAttempts: Int = 0
    var nextAttemptAt: Int?
    /// When the endpoint began failing everything (nil once a batch arrives).
    var failingSince: Int?
    var enabled: Bool = true
    var disabledReason: String?
}

/// An endpoint as stored.
struct WebhookEndpointRecord: Sendable {
    var seq: Int
    var id: String
    var appID: String
    var url: String
    var types: [String]?
    var description: String?
    var sealedSecret: [UInt8]
    var sealedPreviousSecret: [UInt8]?
    var previousSecretUntil: Int?
    var dispatch: WebhookDispatchState
    /// Changes with every change the API makes, so the dispatcher does not undo one.
    var revision: Int
    var createdAt: Int
    var updatedAt: Int

    /// Whether the endpoint wants events of `type` (a test is sent to the endpoint it is for, whatever its types).
    func wants(_ type: String) -> Bool { type == WebhookEventType.test || types.map { $0.contains(type) } ?? true }
}

/// One event of an app's stream.
struct WebhookEventRecord: Sendable, Equatable {
    var seq: Int
    /// Stable across retries and replays: what a receiver deduplicates by.
    var id: String
    var type: String
    var at: Int
    /// The event's `data`, a JSON object.
    var data: String {
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

    init(seq: Int, id: String, type: String, at: Int, data: String) {
        (self.seq, self.id, self.type, self.at, body) = (seq, id, type, at, .text(data))
    }

    /// Event `index` of a row of sends' lines, its `data` made when it is written.
    init(seq: Int, id: String, type: String, at: Int, line index: Int, of lines: WebhookSendLines.Parsed) {
        (self.seq, self.id, self.type, self.at, body) = (seq, id, type, at, .line(lines, index))
    }

    /// The bytes of ``data``, without making it.
    var dataByteCount: Int {
        switch body {
        case .text(let text): text.utf8.count
        case .line(let lines, let index): lines.dataByteCount(index)
        }
    }

    /// Writes ``data`` at the end of `bytes`.
    func appendData(to bytes: inout [UInt8]) {
        switch body {
        case .text(let text): bytes.append(contentsOf: text.utf8)
        case .line(let lines, let index): lines.appendData(index, to: &bytes)
        }
    }

    static func == (lhs: WebhookEventRecord, rhs: WebhookEventRecord) -> Bool {
        (lhs.seq, lhs.id, lhs.type, lhs.at) == (rhs.seq, rhs.id, rhs.type, rhs.at) && lhs.data == rhs.data
    }
}

/// One POST to an endpoint, for the attempts log.
struct WebhookAttemptRecord: Sendable, Equatable {
    var batchID: String
    var events: Int
    var at: Int
    /// `answered`, `timed_out`, `failed` or `refused`.
    var outcome: String
    var status: Int?
    var latencyMilliseconds: Int
    /// The answer's first bytes as text, or why it failed.
    var answer: String
    /// When the batch is tried again (nil: it arrived, was given up on, or the endpoint was disabled).
    var nextRetryAt: Int?
}
