package import NotibaseCore
import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// `POST /v1/devices/sign-out`: the device's external user ID is cleared at once (the SDKs call it
/// when the app signs its user out). With the client key it needs no identity token (clearing
/// proves nothing about anyone) but names the device by its push token, a secret only the phone,
/// the provider and this server hold; and it answers 204 whether or not such a device exists, so
/// the public key learns nothing from it (docs/decisions/0022).
extension DevicesAPI {
    /// The device to sign out: its platform and token, under the registration's rules.
    package struct SignOutBody: Decodable {
        package var platform: Platform
        package var token: String

        package typealias Fields = DeviceSignOutRequest

        package init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownFields(Fields.CodingKeys.self)
            let fields = try Fields(from: decoder)
            do {
                let checked = try RegistrationBody.validate(RegistrationBody.Fields(platform: fields.platform, token: fields.token))
                (platform, token) = (checked.platform, checked.token)
            } catch let problem as RegistrationBody.Problem {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath + [AnyKey(stringValue: problem.field)], debugDescription: problem.message))
            }
        }
    }

    package static func addSignOut(to router: inout Router, _ context: APIContext) {
        router.add(.post, "/v1/devices/sign-out") { request, _ in
            let caller = try await context.caller(request, registrationKeys)
            let appID = try APIContext.appID(of: caller)
            let body = try JSON.decode(SignOutBody.self, from: request)
            let found = try await context.devices.signOut(appID: appID, platform: body.platform, token: body.token)
            // The backend may ask whether its device exists; the public key may not.
            if !found && caller.kind == .server {
                throw APIError(status: 404, code: "not_found", message: "no device of this app is registered under this platform and token", field: nil)
            }
            return HTTPResponse(status: 204)
        }
    }
}
