import NotibaseCore

/// One HTTP/2 request: what to send and how long the whole exchange may take.
struct HTTP2Request: Sendable {
    /// The absolute `https://` URL.
    var url: String
    /// The method; `POST` unless said otherwise.
    var method: String
    /// The request headers, in order. Without a `content-type`, none is sent.
    var headers: [HTTPHeader]
    /// The body bytes, sent as is.
    var body: [UInt8]
    /// The limit for the whole exchange, from queueing to the last byte of the answer.
    var timeout: Duration

    init(url: String, method: String = "POST", headers: [HTTPHeader] = [], body: [UInt8] = [], timeout: Duration = .seconds(30)) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The answer to an `HTTP2Request`.
struct HTTP2Response: Sendable, Equatable {
    var status: Int
    var body: [UInt8]
    /// The header block as received: each name and value followed by a zero byte. Kept raw, since
    /// senders read one or two headers of many answers.
    private var headerBlock: [UInt8]

    init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.body = body
        headerBlock = []
        for header in headers { Self.append(name: header.name.utf8, value: header.value.utf8, to: &headerBlock) }
    }

    init(status: Int, headerBlock: [UInt8], body: [UInt8]) {
        self.status = status
        self.headerBlock = headerBlock
        self.body = body
    }

    /// The response headers, names lowercased, in the order received.
    var headers: [HTTPHeader] {
        let parts = headerBlock.split(separator: 0, omittingEmptySubsequences: false)
        return stride(from: 0, to: parts.count - 1, by: 2).map {
            HTTPHeader(String(decoding: parts[$0], as: UTF8.self), String(decoding: parts[$0 + 1], as: UTF8.self))
        }
    }

    /// The first value of a header (`name` lowercase).
    func header(_ name: String) -> String? {
        var index = 0
        let name = Array(name.utf8)
        while index < headerBlock.count {
            let nameEnd = headerBlock[index...].firstIndex(of: 0) ?? headerBlock.count
            let valueEnd = headerBlock[min(nameEnd + 1, headerBlock.count)...].firstIndex(of: 0) ?? headerBlock.count
            if headerBlock[index..<nameEnd].elementsEqual(name) {
                return String(decoding: headerBlock[min(nameEnd + 1, valueEnd)..<valueEnd], as: UTF8.self)
            }
            index = valueEnd + 1
        }
        return nil
    }

    /// Appends one header to a header block.
    static func append(name: some Sequence<UInt8>, value: some Sequence<UInt8>, to block: inout [UInt8]) {
        block.append(contentsOf: name)
        block.append(0)
        block.append(contentsOf: value)
        block.append(0)
    }
}
