import Foundation

/// The OpenAPI 3.1 description of the API, served at `/openapi.json`: the resource file
/// `API/openapi.json`, read once. Keep it in step with the routes: a test checks that every route
/// is documented.
enum OpenAPIDocument {
    /// The document exactly as the file holds it.
    static let bytes: [UInt8] = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"), let data = try? Data(contentsOf: url) else {
            fatalError("openapi.json is missing from the NotibaseServer resources: ship the Notibase_NotibaseServer.resources directory beside the binary")
        }
        return Array(data)
    }()

    static var text: String { String(decoding: bytes, as: UTF8.self) }
}
