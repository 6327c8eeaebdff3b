import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// SIGTERM while requests wait (issue 28): the server stops accepting, lets requests in progress
/// finish for its grace, answers those still waiting 503, closes the store and exits 0, where
/// libmicrohttpd used to abort the process ("MHD_stop_daemon() called while we have suspended
/// connections", signal 6).
@Suite("Shutdown of a real process", .serialized, .tags(.processes))
struct ShutdownTests {
    @Test func sigtermWhileRequestsWaitAnswersThem503AndExitsZero() async throws {
        let directory = TemporaryDirectory()
        let server = try await ServerProcess.start(dataDirectory: directory.path, arguments: ["--sender", "accept", "--shutdown-grace-seconds", "1"])
        // Another process holds the database's write lock until the waiting requests are answered
        // (its input closes): every write waits for it (the store's busy timeout is 5 s), so the
        // requests below are still waiting at SIGTERM, however late a loaded machine lets the test
        // send it. (It held the lock for a fixed 8 s, and on a loaded CI machine the lock was gone
        // before SIGTERM.) Then the server's shutdown can close the store.
        let locker = try ChildProcess("/usr/bin/env", ["python3", "-c", """
            import sqlite3, sys, time
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            sys.stdin.readline()
            """, directory.path + "/notibase.sqlite"])
        #expect(try locker.readLine() == "locked")
        let port = server.port
        let body = #"{"name": "waits"}"#
        let head = "POST /v1/apps HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Harness.adminKey)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        let sockets = await offPool { (0..<3).compactMap { _ in FloodSocket.open(port: port) } }
        for socket in sockets { socket.sendNow(head + body) }
        try await Task.sleep(for: .milliseconds(500))
        let started = ContinuousClock.now
        async let status = server.exitStatus(after: SIGTERM)
        let answers = await offPool { sockets.map { $0.readStatus(timeout: 5).status } }
        locker.closeInput()
        let exit = await status
        for socket in sockets { socket.close() }
        #expect(answers == [503, 503, 503], "the waiting requests were answered \(answers)")
        #expect(exit == 0, "notibase serve ended with \(exit) after SIGTERM (134 is an abort)")
        #expect(ContinuousClock.now - started < .seconds(15))
        await locker.terminate()
    }
}
