import Synchronization
package import NotibaseDomain
package import NotibaseStore
import NotibaseWebhooks

/// Who is calling: the admin, or an app's server or client key.
package struct Caller: Sendable, Hashable {
    package var kind: KeyKind
    /// The app the key belongs to (nil for the admin).
    package var appID: String?
    /// Whether the app counts a device's external user ID only with an identity token.
    package var requiresIdentityVerification = false
}

/// Resolves `Authorization: Bearer <key>` to a ``Caller``. Keys are looked up by their SHA-256
/// (only hashes are stored); the admin key's hash is compared in constant time. Resolved keys are
/// cached until any key changes, and a rotation takes effect for every request that starts after
/// it returns (a look-up under way then does not fill the cache). Apps' settings are cached the
/// same way (``app(_:read:)``). Nodes sharing a database forget theirs when another node announces
/// a change (``AnnouncedWork/apps``), and whenever they start hearing again after a lost connection.
package final class Authenticator: Sendable {
    private let store: any KeyDirectory
    private let adminKeyHash: [UInt8]
    private let cache = Mutex(Cache())

    /// Resolved keys, and how many times they were all forgotten: a look-up that started before a
    /// rotation must not put what it read into the cache after it.
    private struct Cache {
        package var owners: [[UInt8]: KeyOwner] = [:]
        package var apps: [String: AppRecord] = [:]
        package var generation = 0
    }

    package init(store: any KeyDirectory, adminKeyHash: [UInt8]) {
        self.store = store
        self.adminKeyHash = adminKeyHash
    }

    /// The caller of a request whose `Authorization` header is `authorization` (nil when it sent
    /// none), when one of `allowed` kinds.
    package func authenticate(authorization: String?, allowed: Set<KeyKind>) async throws -> Caller {
        switch try resolve(authorization, allowed: allowed) {
        case .caller(let caller):
            return caller
        case .lookUp(let hash, let generation):
            guard let owner = try await store.keyOwner(hash: hash) else { throw Self.unknownKey }
            cache.withLock { cache in
                guard cache.generation == generation else { return }
                if cache.owners.count > 10_000 { cache.owners.removeAll() }
                cache.owners[hash] = owner
            }
            return try check(Caller(owner), allowed: allowed)
        }
    }

    /// ``authenticate(authorization:allowed:)`` without waiting: the caller, or the error, when the store need
    /// not be asked (the admin key, a key resolved before, a header that is wrong); nil when the
    /// key must be looked up.
    package func cachedCaller(authorization: String?, allowed: Set<KeyKind>) throws -> Caller? {
        guard case .caller(let caller) = try resolve(authorization, allowed: allowed) else { return nil }
        return caller
    }

    private enum Resolution {
        case caller(Caller)
        /// A key the cache does not hold: its hash, and the cache's generation then.
        case lookUp(hash: [UInt8], generation: Int)
    }

    private func resolve(_ authorization: String?, allowed: Set<KeyKind>) throws -> Resolution {
        guard let header = authorization else {
            throw Refusal(kind: .unauthorized, code: "missing_key", message: "send the key in an Authorization: Bearer <key> header", field: nil)
        }
        guard header.hasPrefix("Bearer "), case let key = String(header.dropFirst(7)), !key.isEmpty, !key.utf8.contains(UInt8(ascii: " ")) else {
            throw Refusal(kind: .unauthorized, code: "invalid_key", message: "the Authorization header must be \"Bearer <key>\"", field: nil)
        }
        let hash = try APIKey.hash(key)
        if APIKey.kind(of: key) == .admin {
            guard Crypto.constantTimeEqual(hash, adminKeyHash) else { throw Self.unknownKey }
            return .caller(try check(Caller(kind: .admin, appID: nil), allowed: allowed))
        }
        let (cached, generation) = cache.withLock { ($0.owners[hash], $0.generation) }
        guard let owner = cached else { return .lookUp(hash: hash, generation: generation) }
        return .caller(try check(Caller(owner), allowed: allowed))
    }

    private func check(_ caller: Caller, allowed: Set<KeyKind>) throws -> Caller {
        guard allowed.contains(caller.kind) else {
            let names = allowed.map(\.rawValue).sorted().joined(separator: " or ")
            throw Refusal(kind: .forbidden, code: "key_not_allowed", message: "this needs the \(names) key; a \(caller.kind.rawValue) key cannot do it", field: nil)
        }
        return caller
    }

    /// The app `id` as `read` reads it, cached until ``invalidate()``: a send needs its pacing and
    /// credentials' revision, and they change only through the API.
    package func app(_ id: String, read: () async throws -> AppRecord?) async throws -> AppRecord? {
        let (cached, generation) = cache.withLock { ($0.apps[id], $0.generation) }
        if let cached { return cached }
        guard let app = try await read() else { return nil }
        cache.withLock { cache in
            guard cache.generation == generation else { return }
            if cache.apps.count > 10_000 { cache.apps.removeAll() }
            cache.apps[id] = app
        }
        return app
    }

    /// Forgets every resolved key and app (after a rotation, a change of an app's settings or
    /// credentials, or an app's deletion, here or on another node).
    package func invalidate() {
        cache.withLock { cache in
            cache.owners.removeAll()
            cache.apps.removeAll()
            cache.generation += 1
        }
    }

    /// What a node hears another announce (``BackendStore/listen(_:)``): an app's change forgets
    /// everything resolved.
    package func hear(_ work: AnnouncedWork) {
        if work == .apps { invalidate() }
    }

    private static let unknownKey = Refusal(kind: .unauthorized, code: "invalid_key", message: "the key is not valid (rotated, or its app deleted); use a current key", field: nil)
}

extension Caller {
    package init(_ owner: KeyOwner) {
        self.init(kind: owner.kind, appID: owner.appID, requiresIdentityVerification: owner.requiresIdentityVerification)
    }
}
