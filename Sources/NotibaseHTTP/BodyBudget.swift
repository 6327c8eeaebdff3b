import CMicroHTTPD
import Synchronization
import NotibaseDomain

/// The bytes of request bodies the server may hold at once, across every connection. A request
/// reserves its declared length (chunked ones, the body limit) once its key is known, before its
/// body is read, and frees it when answered; what does not fit is answered 503 at once.
package final class BodyBudget: Sendable {
    package let limit: Int
    private let state = Mutex(State())

    private struct State {
        package var used = 0
        /// The most used since memory was last handed back.
        package var peakSinceTrim = 0
    }

    package init(limit: Int) {
        self.limit = limit
    }

    package var used: Int { state.withLock { $0.used } }

    /// Reserves `bytes`; false when they do not fit.
    package func reserve(_ bytes: Int) -> Bool {
        state.withLock { state in
            guard bytes <= limit - state.used else { return false }
            state.used += bytes
            state.peakSinceTrim = max(state.peakSinceTrim, state.used)
            return true
        }
    }

    package func release(_ bytes: Int) {
        state.withLock { $0.used -= bytes }
    }

    /// After a flood, once no body is held, hands the freed heap back to the system: bodies are
    /// large allocations that the allocator would otherwise keep for reuse.
    package func trimIfIdle() {
        let trim = state.withLock { state in
            guard state.used == 0, state.peakSinceTrim >= 8 << 20 else { return false }
            state.peakSinceTrim = 0
            return true
        }
        if trim { notibase_release_free_memory() }
    }
}
