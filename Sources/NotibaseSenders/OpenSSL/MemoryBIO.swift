import COpenSSL

/// What `read` makes of a read-only memory BIO over `text`'s UTF-8 bytes (OpenSSL's PEM readers
/// take a BIO); nil when the BIO cannot be made or `read` returns nil.
func readMemoryBIO<Result>(_ text: String, _ read: (OpaquePointer) -> Result?) -> Result? {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBytes { buffer in
        guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
        defer { BIO_free(bio) }
        return read(bio)
    }
}
