/// What forgetting a user removed.
package struct ForgottenUser: Sendable, Equatable {
    package var devicesDeleted = 0
    package var repliesRemoved = 0
    package var messagesRewritten = 0

    package init() {}
}
