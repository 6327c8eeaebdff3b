import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseExtension

/// The ledger that orders evictions lives in a file the extension (a new process for each
/// notification, at times) and the app share: what one instance records, another reads.
@Suite("The category ledger on disk")
struct CategoryLedgerTests {
    let files = TemporaryDirectory("notibase-ledger")
    let owned = (0..<300).map { String(format: "nb_%016x", $0) }

    func time(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + seconds) }
    var ledgerFile: URL { files.url.appendingPathComponent("notibase-categories.txt") }

    @Test func usesAndRemovalsSurviveANewProcess() {
        let first = FileCategoryLedger(directory: files.url)
        let registered = Set(owned.prefix(3))
        first.record(use: owned[0], at: time(0), removing: [], registered: registered)
        first.record(use: owned[1], at: time(10), removing: [], registered: registered)
        first.record(use: owned[2], at: time(20), removing: [owned[0]], registered: registered)

        let second = FileCategoryLedger(directory: files.url)
        #expect(second.lastUsed() == [owned[1]: time(10), owned[2]: time(20)])
    }

    @Test func aWriteByAnotherInstanceIsSeen() {
        let extensionLedger = FileCategoryLedger(directory: files.url)
        let appLedger = FileCategoryLedger(directory: files.url)
        let registered = Set(owned.prefix(2))
        extensionLedger.record(use: owned[0], at: time(0), removing: [], registered: registered)
        #expect(appLedger.lastUsed() == [owned[0]: time(0)])
        appLedger.record(use: owned[1], at: time(30), removing: [owned[0]], registered: registered)
        #expect(extensionLedger.lastUsed() == [owned[1]: time(30)])
    }

    @Test func aUseWithinTheResolutionWritesNothing() throws {
        let ledger = FileCategoryLedger(directory: files.url)
        ledger.record(use: owned[0], at: time(0), removing: [], registered: [owned[0]])
        let size = try #require(FileManager.default.attributesOfItem(atPath: ledgerFile.path)[.size] as? Int)
        ledger.record(use: owned[0], at: time(FileCategoryLedger.touchResolution / 2), removing: [], registered: [owned[0]])
        #expect(try FileManager.default.attributesOfItem(atPath: ledgerFile.path)[.size] as? Int == size)
        #expect(ledger.lastUsed() == [owned[0]: time(0)])
    }

    /// The file grows by a line a use, and is compacted before it holds many more lines than
    /// entries: it stays small however many notifications come.
    @Test func theFileStaysBounded() throws {
        let ledger = FileCategoryLedger(directory: files.url)
        let registered = Set(owned.prefix(10))
        for round in 0..<200 {
            for (index, identifier) in registered.sorted().enumerated() {
                ledger.record(use: identifier, at: time(Double(round * 100 + index * 6)), removing: [], registered: registered)
            }
        }
        let lines = try String(contentsOf: ledgerFile, encoding: .utf8).split(separator: "\n").count
        #expect(lines <= 256 + 1, "\(lines) lines for 10 entries")
        #expect(FileCategoryLedger(directory: files.url).lastUsed() == ledger.lastUsed())
        #expect(ledger.lastUsed().count == 10)
    }

    /// Entries for categories no longer registered are dropped, on disk too.
    @Test func unregisteredEntriesAreDropped() {
        let ledger = FileCategoryLedger(directory: files.url)
        for (index, identifier) in owned.prefix(5).enumerated() {
            ledger.record(use: identifier, at: time(Double(index * 10)), removing: [], registered: Set(owned.prefix(5)))
        }
        ledger.record(use: owned[5], at: time(100), removing: [], registered: [owned[4], owned[5]])
        #expect(ledger.lastUsed() == [owned[4]: time(40), owned[5]: time(100)])
        #expect(FileCategoryLedger(directory: files.url).lastUsed() == [owned[4]: time(40), owned[5]: time(100)])
    }

    /// A crash in the middle of a write leaves a torn line: it is read as nothing the set holds,
    /// and the lines written after it are read whole.
    @Test func aTornLineCostsNothingButItsEntry() throws {
        let ledger = FileCategoryLedger(directory: files.url)
        let registered = Set(owned.prefix(4))
        ledger.record(use: owned[0], at: time(0), removing: [], registered: registered)
        let handle = try FileHandle(forWritingTo: ledgerFile)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("1800000010000 nb_00000000".utf8))  // torn: no end of line
        try handle.close()

        let reader = FileCategoryLedger(directory: files.url)
        #expect(reader.lastUsed()[owned[0]] == time(0))
        reader.record(use: owned[1], at: time(20), removing: [], registered: registered)
        let entries = FileCategoryLedger(directory: files.url).lastUsed()
        #expect(entries[owned[0]] == time(0))
        #expect(entries[owned[1]] == time(20), "the line after the torn one was swallowed: \(entries)")
    }
}

extension CategoryLedgerTests {
    /// The app's storage cleanup removed the file: the next use goes to a new file at the path,
    /// not to the removed one still open.
    @Test func aRemovedFileIsWrittenAgain() throws {
        let ledger = FileCategoryLedger(directory: files.url)
        let registered = Set(owned.prefix(2))
        ledger.record(use: owned[0], at: time(0), removing: [], registered: registered)
        try FileManager.default.removeItem(at: ledgerFile)
        ledger.record(use: owned[1], at: time(10), removing: [], registered: registered)
        #expect(FileCategoryLedger(directory: files.url).lastUsed() == [owned[1]: time(10)])
    }
}

/// The lock around the read-modify-write of the category set: one holder at a time, within a lock,
/// across locks on the same directory, and across processes.
@Suite("The category lock", .tags(.processes))
struct FileCategoryLockTests {
    let files = TemporaryDirectory("notibase-lock")

    /// Runs `holders` bodies at once, each holding `lock(index)` for a moment; returns the most
    /// that were ever inside at the same time.
    func mostAtOnce(_ holders: Int, lock: @escaping @Sendable (Int) -> FileCategoryLock) async throws -> Int {
        struct Inside {
            var now = 0
            var most = 0
        }
        let inside = Locked(Inside())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<holders {
                group.addTask {
                    _ = try await lock(index).withLock(timeout: .seconds(20)) { () async throws(CategoryStoreError) -> Int in
                        inside.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        try? await Task.sleep(for: .milliseconds(5))
                        inside.withLock { $0.now -= 1 }
                        return index
                    }
                }
            }
            try await group.waitForAll()
        }
        return inside.withLock { $0.most }
    }

    @Test func oneHolderAtATimeWithinALock() async throws {
        let lock = FileCategoryLock(directory: files.url)
        #expect(try await mostAtOnce(20) { _ in lock } == 1)
    }

    @Test func oneHolderAtATimeAcrossLocks() async throws {
        let directory = files.url
        let locks = (0..<20).map { _ in FileCategoryLock(directory: directory) }
        #expect(try await mostAtOnce(20) { locks[$0] } == 1)
    }

    /// Another process holds the lock file: taking it waits, and gives up with `lockTimedOut` at
    /// the timeout, running nothing; once that process is gone, the lock is free.
    @Test func anotherProcessHoldingItTimesUsOut() async throws {
        let lock = FileCategoryLock(directory: files.url)
        _ = try await lock.withLock(timeout: .seconds(1)) { () async throws(CategoryStoreError) -> Int in 0 }  // creates the file
        let script = "import fcntl, signal, sys, time; signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM]); f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)"
        let holder = try ChildProcess(TestProducts.python, (TestProducts.python == "/usr/bin/env" ? ["python3"] : []) + ["-c", script, lock.file.path])
        defer { holder.stop() }
        #expect(try holder.readLine(timeout: .seconds(30)) == "held")
        let ran = Locked(false)
        await #expect(throws: CategoryStoreError.lockTimedOut) {
            try await lock.withLock(timeout: .milliseconds(300)) { () async throws(CategoryStoreError) -> Int in
                ran.withLock { $0 = true }
                return 0
            }
        }
        #expect(ran.withLock { $0 } == false)

        holder.stop()
        #expect(try await lock.withLock(timeout: .seconds(10)) { () async throws(CategoryStoreError) -> Int in 1 } == 1)
    }

    /// A lock file that cannot be opened (data protection while the phone is locked, here a
    /// directory in its place) is a lock failure, never "no lock needed": nothing runs.
    @Test func aLockFileThatCannotBeOpenedIsALockFailure() async throws {
        let lock = FileCategoryLock(directory: files.url)
        try FileManager.default.createDirectory(at: lock.file, withIntermediateDirectories: true)
        let ran = Locked(false)
        await #expect(throws: CategoryStoreError.lockUnavailable) {
            try await lock.withLock(timeout: .milliseconds(300)) { () async throws(CategoryStoreError) -> Int in
                ran.withLock { $0 = true }
                return 0
            }
        }
        #expect(ran.withLock { $0 } == false)
    }
}
