import Foundation
import NotibaseCore
import NotibaseExtension
import NotibaseHTTP

/// A stand-in for the Notibase server's device and Live Activity endpoints (the real
/// `POST /v1/live-activity-reports` comes later): it takes registrations and records reports, and
/// can answer 503 to the next reports.
final class ReportServer: Sendable {
    struct Recorded {
        var reports: [LiveActivityReport] = []
        var registrations: [DeviceRegistrationRequest] = []
        var unavailableFor = 0
        var refusedReports = 0
    }

    let recorded = Locked(Recorded())
    private let server: HTTPServer
    let url: URL

    init() throws {
        server = try HTTPServer(options: .init(host: "127.0.0.1", port: 0, maxBodyBytes: 1 << 20), responder: Responder(recorded: recorded))
        url = URL(string: "http://127.0.0.1:\(server.port)")!
    }

    var reports: [LiveActivityReport] { recorded.withLock { $0.reports } }

    /// Answers 503 to the next `count` reports.
    func beUnavailable(for count: Int) {
        recorded.withLock { $0.unavailableFor = count }
    }

    func stop() async {
        await server.shutdown(grace: .zero)
    }

    private struct Responder: HTTPResponder {
        let recorded: Locked<Recorded>

        func answer(_ request: HTTPRequest) -> HTTPAnswer {
            let body = Data(request.body)
            switch (request.method, request.path) {
            case ("POST", "/v1/devices"):
                guard let registration = try? JSONDecoder().decode(DeviceRegistrationRequest.self, from: body) else { return .now(json(400)) }
                recorded.withLock { $0.registrations.append(registration) }
                return .now(json(200))
            case ("POST", "/v1/live-activity-reports"):
                let unavailable = recorded.withLock { state -> Bool in
                    guard state.unavailableFor > 0 else { return false }
                    state.unavailableFor -= 1
                    state.refusedReports += 1
                    return true
                }
                if unavailable { return .now(json(503)) }
                guard let report = try? JSONDecoder().decode(LiveActivityReport.self, from: body) else { return .now(json(400)) }
                recorded.withLock { $0.reports.append(report) }
                return .now(json(202))
            default:
                return .now(json(404))
            }
        }

        func bodyTooLarge(_ request: HTTPRequest, limit: Int) -> HTTPResponse { json(413) }
        func badRequest(_ request: HTTPRequest, _ problem: HTTPRequestProblem) -> HTTPResponse { json(400) }

        private func json(_ status: Int) -> HTTPResponse {
            HTTPResponse(status: status, contentType: "application/json", body: Array("{}".utf8))
        }
    }
}
