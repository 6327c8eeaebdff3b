import CMicroHTTPD
import Foundation
import Synchronization
import NotibaseDomain

// libmicrohttpd's connection callbacks, on its polling thread (outside `main.swift`, as every C
// callback): they keep the ``ConnectionGuard``'s table of who is connected.

/// Takes or refuses a new connection by its address, before libmicrohttpd sets it up.
internal let acceptPolicyCallback: MHD_AcceptPolicyCallback = { contextPointer, address, _ in
    guard let contextPointer, let address, let client = IPAddress(address) else { return MHD_Result.YES }
    let context = Unmanaged<HTTPServerContext>.fromOpaque(contextPointer).takeUnretainedValue()
    return context.connections.admits(client) ? MHD_Result.YES : MHD_Result.NO
}

/// Notes each connection opened and closed (closed: before libmicrohttpd closes its socket).
internal let notifyConnectionCallback: MHD_NotifyConnectionCallback = { contextPointer, connection, _, event in
    guard let contextPointer, let connection else { return }
    let context = Unmanaged<HTTPServerContext>.fromOpaque(contextPointer).takeUnretainedValue()
    let id = UInt(bitPattern: connection)
    switch event {
    case .CONNECTION_NOTIFY_STARTED:
        let socket = notibase_mhd_connection_fd(connection)
        let address = notibase_mhd_client_address(connection).flatMap { IPAddress($0) } ?? IPAddress(high: 0, low: 0)
        context.connections.open(id, socket: socket, address: address)
    default:
        context.connections.close(id)
    }
}

extension HTTPServerContext {
    /// Suspends the connection until ``Settlement`` comes; returns what settles it (from any
    /// thread, once; later calls do nothing), or nil when the server is shutting down (nothing
    /// was suspended: answer at once).
    package func suspend(_ state: RequestState, _ connection: OpaquePointer) -> (@Sendable (Settlement) -> Void)? {
        let handle = ConnectionHandle(pointer: connection)
        let registered = suspensions.withLock { suspensions -> Bool in
            guard !suspensions.closed else { return false }
            state.suspended = true
            inFlight.withLock { $0 += 1 }
            MHD_suspend_connection(connection)
            suspensions.waiting[ObjectIdentifier(state)] = (state, handle)
            return true
        }
        guard registered else { return nil }
        connections.answering(state.connectionID)
        return { [self] settlement in settle(state, handle, settlement) }
    }

    /// Settles a suspended request and resumes its connection, unless it was settled already.
    package func settle(_ state: RequestState, _ handle: ConnectionHandle, _ settlement: Settlement) {
        let first = state.settled.withLock { value -> Bool in
            guard value == nil else { return false }
            value = settlement
            return true
        }
        guard first, suspensions.withLock({ $0.waiting.removeValue(forKey: ObjectIdentifier(state)) }) != nil else { return }
        MHD_resume_connection(handle.pointer)
    }

    /// Stops suspending and answers every suspended request 503 (shutdown): after this no
    /// connection waits, so the daemon may stop.
    package func answerSuspended() {
        let waiting = suspensions.withLock { suspensions in
            suspensions.closed = true
            return Array(suspensions.waiting.values)
        }
        for (state, handle) in waiting {
            settle(state, handle, .answer(shutdownAnswer(state.request)))
        }
    }

    /// The 503 of a shutdown, closing the connection.
    package func shutdownAnswer(_ request: HTTPRequest) -> HTTPResponse {
        var response = responder.refuse(request, .shuttingDown)
        response.headers.append(("Connection", "close"))
        return response
    }
}

/// A connection pointer handed to whatever settles it later; only used to resume it.
package struct ConnectionHandle: @unchecked Sendable {
    // Unchecked: libmicrohttpd allows MHD_resume_connection from any thread, and it is called
    // only while the connection is suspended (so still open).
    package let pointer: OpaquePointer
}

/// The suspended requests, so a shutdown can answer them.
package struct Suspensions {
    package var waiting: [ObjectIdentifier: (RequestState, ConnectionHandle)] = [:]
    /// Set at shutdown: nothing more is suspended.
    package var closed = false
}
