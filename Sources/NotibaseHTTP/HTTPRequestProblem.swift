import NotibaseDomain
/// Why the HTTP layer refused a request before any route saw it: a framing it cannot trust
/// (`Content-Length` with `Transfer-Encoding`, a repeated `Content-Length`, a malformed length), a
/// NUL byte in the target or a header, or a repeated security-relevant header. The answer is a
/// 400 and the connection is closed, so nothing else sent on it is read as a request.
package struct HTTPRequestProblem: Sendable, Equatable {
    /// A stable code for the error answer (`invalid_framing`, `duplicate_header`, …).
    package var code: String
    /// What is wrong and what to do.
    package var message: String
    /// The header it is about, if any.
    package var field: String?

    package init(code: String, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    package static let nulInTarget = HTTPRequestProblem(code: "invalid_path", message: "the request target contains a NUL byte (%00); remove it")
    package static let contentLengthWithTransferEncoding = HTTPRequestProblem(
        code: "invalid_framing", message: "the request has both Content-Length and Transfer-Encoding; send one of them", field: "Transfer-Encoding")
    package static let unsupportedTransferEncoding = HTTPRequestProblem(
        code: "invalid_framing", message: "Transfer-Encoding must be chunked (or absent, with Content-Length)", field: "Transfer-Encoding")
    package static let invalidContentLength = HTTPRequestProblem(
        code: "invalid_content_length", message: "Content-Length must be one decimal number of bytes", field: "Content-Length")

    package static let nulInMethod = HTTPRequestProblem(code: "invalid_method", message: "the method contains a NUL byte; remove it")
    package static let malformedHead = HTTPRequestProblem(code: "invalid_header", message: "the request line or headers could not be read as sent; send plain HTTP/1.1")

    package static func nulInHeader(_ name: String) -> HTTPRequestProblem {
        HTTPRequestProblem(code: "invalid_header", message: "the \(name) header contains a NUL byte; remove it", field: name)
    }

    package static func malformedHeader(_ name: String) -> HTTPRequestProblem {
        HTTPRequestProblem(code: "invalid_header", message: "the \(name) header is folded over lines or malformed; send it on one line", field: name)
    }

    package static func duplicateHeader(_ name: String) -> HTTPRequestProblem {
        HTTPRequestProblem(code: "duplicate_header", message: "the \(name) header appears more than once; send it once", field: name)
    }
}
