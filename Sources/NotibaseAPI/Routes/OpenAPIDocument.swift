import Foundation
import NotibaseDomain
import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// The OpenAPI 3.1 description of the API, served at `/openapi.json`: the resource file
/// `API/openapi.json` (in the ``ResourceDirectory``), read once. Its `info.version` is
/// ``NotibaseVersion/current`` (a test checks). Keep it in step with the routes: a test checks that every route
/// is documented.
package enum OpenAPIDocument {
    /// The document exactly as the file holds it.
    package static let bytes: [UInt8] = {
        // Server.start stops first when the resources are missing.
        let resources: ResourceDirectory
        switch ResourceDirectory.current {
        case .success(let found): resources = found
        case .failure(let error): fatalError(error.description)
        }
        guard let data = FileManager.default.contents(atPath: resources.url.appendingPathComponent("openapi.json").path) else {
            fatalError("\(resources.url.path)/openapi.json cannot be read")
        }
        return Array(data)
    }()

    package static var text: String { String(decoding: bytes, as: UTF8.self) }
}
