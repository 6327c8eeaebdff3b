import COpenSSL

/// A failed OpenSSL call: the one place a status or a null handle from OpenSSL becomes an error
/// (the server's `Crypto` and `SecretBox`, the senders' signing keys and TLS set-up all go through
/// it). It drains the calling thread's error queue, so what one call left there is never read as
/// the next call's failure. It carries OpenSSL's own error strings (library and reason, such as
/// `error:1E08010C:DECODER routines::unsupported`), which never hold key material.
package struct OpenSSLFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done ("AES-256-GCM decryption", "reading the CA file").
    package let operation: String
    /// OpenSSL's error queue at the failure, oldest first; empty when it queued nothing.
    package let errors: [String]

    /// The failure of `operation`, taking (and so emptying) this thread's error queue.
    package init(_ operation: String) {
        self.operation = operation
        errors = Self.drainQueue()
    }

    /// Throws unless `status` is 1, OpenSSL's success.
    package static func check(_ status: Int32, _ operation: @autoclosure () -> String) throws(OpenSSLFailure) {
        guard status == 1 else { throw OpenSSLFailure(operation()) }
    }

    /// `handle`, or the failure of `operation` when OpenSSL returned none.
    package static func check<Handle>(_ handle: Handle?, _ operation: @autoclosure () -> String) throws(OpenSSLFailure) -> Handle {
        guard let handle else { throw OpenSSLFailure(operation()) }
        return handle
    }

    /// Empties this thread's error queue, before a call whose failure is read from it
    /// (`SSL_get_error` requires it).
    package static func clearQueue() { ERR_clear_error() }

    /// Whether this thread's error queue is empty (what every failure leaves behind).
    package static var queueIsEmpty: Bool { ERR_peek_error() == 0 }

    /// OpenSSL's text, "a; b", or nil when it queued nothing.
    package var queueText: String? { errors.isEmpty ? nil : errors.joined(separator: "; ") }

    package var description: String {
        "OpenSSL failed at \(operation)" + (queueText.map { ": " + $0 } ?? "")
    }

    private static func drainQueue() -> [String] {
        var errors: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while true {
            let code = ERR_get_error()
            guard code != 0 else { break }
            let text = buffer.withUnsafeMutableBufferPointer { buffer in
                ERR_error_string_n(code, buffer.baseAddress, buffer.count)
                return String(cString: buffer.baseAddress!)
            }
            errors.append(text)
        }
        return errors
    }
}
