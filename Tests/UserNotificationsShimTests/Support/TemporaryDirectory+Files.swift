import Foundation
import NotibaseTestSupport

extension TemporaryDirectory {
    /// Creates a file of exactly `size` bytes, starting with the signature of the image type its
    /// extension names (iOS checks an image's bytes), else with "notibase". Big files are sparse
    /// (a truncate past the end), so they cost no disk space.
    @discardableResult
    func file(named name: String, size: Int64 = 16, contents: [UInt8]? = nil) throws -> URL {
        let file = url.appendingPathComponent(name)
        let signature: [UInt8] = contents ?? {
            switch (name as NSString).pathExtension.lowercased() {
            case "jpg", "jpeg", "jpe": return [0xFF, 0xD8, 0xFF, 0xE0]
            case "png": return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            case "gif": return Array("GIF89a".utf8)
            default: return Array("notibase".utf8)
            }
        }()
        guard FileManager.default.createFile(atPath: file.path, contents: Data(signature.prefix(Int(size)))) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
        return file
    }
}
