import NotibaseCore
import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// `/v1/users/{externalUserId}`: forgetting a user (the right to be forgotten), with the server
/// key. Every device of the user is deleted, the texts they typed into reply fields are removed
/// from the delivery log, and their user ID from the audiences of the messages that listed it; the
/// counts stay (docs/server.md, docs/decisions/0023).
package enum UsersAPI {
    package struct DeletedBody: Encodable {
        package var externalUserId: String
        package var devicesDeleted: Int
        package var repliesRemoved: Int
        package var messagesRewritten: Int
    }

    package static func add(to router: inout Router, _ context: APIContext) {
        router.add(.delete, "/v1/users/{externalUserId}") { request, parameters in
            let appID = try await context.appID(request)
            let user = try parameters["externalUserId"]
            guard (1...256).contains(user.unicodeScalars.count), !user.hasControlCharacters else {
                throw APIError.invalid("externalUserId", "must be 1 to 256 characters, none a control character")
            }
            let forgotten = try await context.users.delete(appID: appID, externalUserID: user)
            return JSON.response(status: 200, DeletedBody(
                externalUserId: user, devicesDeleted: forgotten.devicesDeleted, repliesRemoved: forgotten.repliesRemoved,
                messagesRewritten: forgotten.messagesRewritten))
        }
    }
}
