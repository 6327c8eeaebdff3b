import Foundation

/// Values sent to every subscriber's stream, from any thread; finished for good once `finish` is
/// called (a later subscriber gets a stream that ends at once).
final class Broadcast<Element: Sendable>: Sendable {
    private struct State {
        var subscribers: [UUID: AsyncStream<Element>.Continuation] = [:]
        var finished = false
    }

    private let state = Locked(State())

    /// A new subscriber's stream, starting with `first` when given.
    func subscribe(startingWith first: Element? = nil) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        if let first { continuation.yield(first) }
        let id = UUID()
        let finished = state.withLock { state -> Bool in
            if !state.finished { state.subscribers[id] = continuation }
            return state.finished
        }
        if finished { continuation.finish() }
        let state = state
        continuation.onTermination = { _ in _ = state.withLock { $0.subscribers.removeValue(forKey: id) } }
        return stream
    }

    func yield(_ value: Element) {
        for continuation in state.withLock({ Array($0.subscribers.values) }) { continuation.yield(value) }
    }

    func finish() {
        let continuations = state.withLock { state -> [AsyncStream<Element>.Continuation] in
            state.finished = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}

/// An `AsyncStream`'s iterator in a box, so the shim's iterators can have Apple's non-mutating
/// `next()`. Used by one task at a time, as any iterator.
final class StreamCursor<Element> {
    private var iterator: AsyncStream<Element>.Iterator

    init(_ stream: AsyncStream<Element>) {
        iterator = stream.makeAsyncIterator()
    }

    func next() async -> Element? {
        await iterator.next()
    }
}
