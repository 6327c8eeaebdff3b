import Foundation
import NotibaseCore
package import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// A message's answer written by hand: the send's answer is on the everyday path of every
/// one-device message, and `JSONEncoder` took a sixth of that path's CPU (issue 27,
/// docs/benchmarks/2026-12-07-lab-notes.md).
extension MessagesAPI.MessageBody {
    /// The bytes `JSONEncoder` with sorted keys and unescaped slashes writes for this answer
    /// (`MessageAnswerTests` holds the two to the same bytes). The client's own content, the
    /// message and its variants, is spliced in as ``encodedContent`` when the send has it already
    /// written; anything rare (pacing, credential waits) is written by the encoder.
    package func json() -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 1024)
        writer.field("audience", json: Self.json(audience))
        writer.field("audienceSize", audienceSize)
        if let counts {
            var inner = JSONObjectWriter(capacity: 128)
            inner.field("byPlatform", counts.byPlatform)
            inner.field("byState", counts.byState)
            inner.field("lastDueAt", counts.lastDueAt)
            inner.field("total", counts.total)
            inner.field("waiting", counts.waiting)
            inner.field("waitingForCredentials", json: counts.waitingForCredentials.map(Self.encoded))
            writer.field("counts", json: inner.finish())
        }
        writer.field("createdAt", createdAt)
        writer.field("failureReason", failureReason)
        writer.field("fallbackTimeZone", fallbackTimeZone)
        writer.field("finishedAt", finishedAt)
        writer.field("id", id)
        writer.field("localDate", json: localDate.map(Self.encoded))
        writer.field("localTime", json: localTime.map(Self.encoded))
        writer.field("message", json: encodedContent?.message ?? Self.encoded(message))
        writer.field("quietHours", json: quietHours.map(Self.encoded))
        writer.field("ratePerMinute", ratePerMinute)
        writer.field("replayed", replayed)
        writer.field("sendAt", sendAt)
        writer.field("state", state)
        writer.field("timeZoneFallbacks", timeZoneFallbacks)
        writer.field("variants", json: variants == nil ? nil : encodedContent?.variants ?? Self.encoded(variants))
        if let warnings {
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            for (index, warning) in warnings.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                var inner = JSONObjectWriter(capacity: 128)
                inner.field("code", warning.code)
                inner.field("message", warning.message)
                inner.field("platform", warning.platform)
                if let unmatched = warning.unmatched { inner.field("unmatched", unmatched) }
                bytes += inner.finish()
            }
            bytes.append(UInt8(ascii: "]"))
            writer.field("warnings", json: bytes)
        }
        return writer.finish()
    }

    /// A list of IDs as the audience's encoder writes it; the encoder for tags and everyone.
    private static func json(_ audience: Audience) -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 128)
        switch audience {
        case .devices(let ids): writer.field("deviceIds", ids)
        case .externalUsers(let users): writer.field("externalUserIds", users)
        case .allTags, .anyTag, .everyone: return encoded(audience)
        }
        return writer.finish()
    }

    private static func encoded(_ value: some Encodable) -> [UInt8] {
        (try? JSON.encoder().encode(value)).map(Array.init) ?? Array("null".utf8)
    }
}

extension JSON {
    /// A message's answer, written by hand (``MessagesAPI/MessageBody/json()``).
    package static func response(status: Int, _ value: MessagesAPI.MessageBody) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: value.json())
    }
}
