public import Foundation

/// Finds what the build produced and what the tests need from the machine.
public enum TestProducts {
    /// The package's root directory.
    public static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) { return directory }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// The directory holding the built executables: the one the running tests were built into
    /// (`.build/<triple>/<configuration>/`, beside the test bundle), so `swift test -c release`
    /// runs the release `notibase`; `NOTIBASE_PRODUCTS_DIR` overrides it.
    public static let productsDirectory: URL = {
        if let configured = ProcessInfo.processInfo.environment["NOTIBASE_PRODUCTS_DIR"], !configured.isEmpty {
            return URL(fileURLWithPath: configured)
        }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        var directory = bundle
        for _ in 0..<4 {
            if FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("notibase").path) { return directory }
            directory = directory.deletingLastPathComponent()
        }
        return bundle
    }()

    /// A built executable, such as `notibase`.
    public static func executable(_ name: String) -> URL {
        productsDirectory.appendingPathComponent(name)
    }

    /// The Python interpreter for test peers: `NOTIBASE_PYTHON`, else the project's venv, else
    /// `python3` on the PATH.
    public static let python: String = {
        if let configured = ProcessInfo.processInfo.environment["NOTIBASE_PYTHON"], !configured.isEmpty { return configured }
        let venv = packageRoot.appendingPathComponent(".build/venv/bin/python").path
        if FileManager.default.isExecutableFile(atPath: venv) { return venv }
        return "/usr/bin/env"
    }()

    /// Arguments that run `script` with ``python``.
    public static func pythonArguments(_ script: String, _ arguments: [String]) -> [String] {
        (python == "/usr/bin/env" ? ["python3"] : []) + [script] + arguments
    }
}
