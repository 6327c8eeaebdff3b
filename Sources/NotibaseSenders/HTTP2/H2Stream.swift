import NotibaseCore

/// One request on an HTTP/2 connection: the job, its deadline, the body still to send, and the
/// answer as it arrives.
final class H2Stream {
    let job: HTTP2Job
    let path: String
    let deadline: ContinuousClock.Instant
    let requestBody: [UInt8]
    var bodySent = 0
    var status = 0
    var headerBlock: [UInt8] = []
    var body: [UInt8] = []

    init(job: HTTP2Job, path: String, deadline: ContinuousClock.Instant) {
        self.job = job
        self.path = path
        self.deadline = deadline
        requestBody = job.request.body
    }

    var response: HTTP2Response {
        HTTP2Response(status: status, headerBlock: headerBlock, body: body)
    }
}
