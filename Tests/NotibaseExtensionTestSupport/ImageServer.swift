import Foundation
import NotibaseTestSupport

/// The Python image server in `Peers/`, started for a suite.
final class ImageServer: Sendable {
    let child: ChildProcess
    let port: Int

    init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Peers/image_server.py").path
        child = try ChildProcess(TestProducts.python, TestProducts.pythonArguments(script, []))
        guard let port = Int(try child.readLine()) else { throw ChildProcessError(message: "the image server printed no port") }
        self.port = port
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// One server for the whole test process.
    static let shared: ImageServer = try! ImageServer()
}
