"""A local APNs for Notibase's tests: checks requests the way APNs documents and answers per
device token as script.json says (test-only code).

Checks, in APNs's order: method, path, topic, push type, priority, provider token (ES256 JWT
signed by a key in --keys, issued by its team, younger than max_token_age), payload size.
A background push must have priority 5 (Apple: 10 is an error for it: 400 BadPriority) and an aps of
only content-available: 1 (Apple's rule for a silent push, which iOS otherwise does not treat as
one; this check is the peer's own, answered 400 BadBackgroundPayload).

A Live Activity push (apns-push-type: liveactivity) is checked as Apple documents it: the topic is
the bundle ID with ".push-type.liveactivity" (else 400 BadTopic), the priority 5 or 10 (else 400
BadPriority), a provider token present (a certificate is not accepted for this push type: 403
MissingProviderToken), and an aps with an integer timestamp, an event of start, update or end, a
content-state object, dismissal-date only with end, and for start an attributes-type and an
attributes object (input-push-token, when present, 1). APNs itself accepts a malformed Live Activity
payload and the device drops it silently; Apple documents no reason for that, so the peer refuses
it with 400 and the reason "BadLiveActivityPayload", its own, and logs what is wrong as "problem".

script.json:
  {"tokens": {"<device token>": [answer, answer, ...]},   answers in order, the last repeating
   "goaway_after": N, "max_token_age": seconds (3600), "max_concurrent_streams": N,
   "topics": ["<bundle ID>", ...] (when given, any other apns-topic is 400 BadTopic)}
The token of Notibase's credential test (48 zeros, then "notibase" in hex) belongs to nobody: unless scripted it is 400 BadDeviceToken, as APNs answers
a well-formed token it does not know once the provider token and topic pass.
An answer: {"status": 410, "reason": "Unregistered", "timestamp": ms} | {"status": 200}
  | {"delay": s, ...} | {"never": true} | {"drop": true} | {"headers": [[name, value]]}
"""

import base64
import json
import os
import re
import time
import uuid

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

import h2peer

LIVE_ACTIVITY_SUFFIX = ".push-type.liveactivity"
LIVE_ACTIVITY_EVENTS = {"start", "update", "end"}

PUSH_TYPES = {"alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity", "pushtotalk", "controls", "widgets"}
TOKEN_PATTERN = re.compile(r"^/3/device/([0-9a-fA-F]{64,200})$")
NOBODYS_TOKEN = "0" * 48 + "notibase".encode().hex()


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def load_keys(path):
    """{"KEYID": {"team": "TEAMID", "public_key": "PEM"}} from the --keys file."""
    if not path:
        return {}
    with open(path) as handle:
        keys = json.load(handle)
    return {kid: (entry["team"], serialization.load_pem_public_key(entry["public_key"].encode())) for kid, entry in keys.items()}


def check_provider_token(peer, authorization):
    """None when the bearer JWT is valid, else the APNs reason."""
    if not authorization or not authorization.startswith("bearer "):
        return "MissingProviderToken"
    try:
        header_b64, claims_b64, signature_b64 = authorization[len("bearer "):].split(".")
        header = json.loads(b64url_decode(header_b64))
        claims = json.loads(b64url_decode(claims_b64))
        signature = b64url_decode(signature_b64)
    except ValueError:
        return "InvalidProviderToken"
    key = peer.keys.get(header.get("kid"))
    if header.get("alg") != "ES256" or key is None or len(signature) != 64:
        return "InvalidProviderToken"
    team, public_key = key
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        public_key.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return "InvalidProviderToken"
    if claims.get("iss") != team or not isinstance(claims.get("iat"), int):
        return "InvalidProviderToken"
    if time.time() - claims["iat"] > float(peer.script.current().get("max_token_age", 3600)):
        return "ExpiredProviderToken"
    return None


def is_silent(body):
    """Whether a payload is what Apple documents for a background push: aps holds content-available
    1 and nothing that is drawn or played (alert, sound, badge) and no mutable-content."""
    try:
        aps = json.loads(body).get("aps")
    except (ValueError, AttributeError):
        return False
    return isinstance(aps, dict) and aps.get("content-available") == 1 and not ({"alert", "sound", "badge", "mutable-content"} & aps.keys())


def error(status, reason, apns_id, **extra):
    body = {"reason": reason}
    body.update(extra)
    return {"status": status, "reason": reason, "headers": [["apns-id", apns_id]], "body": json.dumps(body).encode()}


def is_integer(value):
    return isinstance(value, int) and not isinstance(value, bool)


def live_activity_problem(body):
    """None when a liveactivity body is as Apple documents it, else what is wrong."""
    try:
        payload = json.loads(body)
    except ValueError:
        return "the payload is not JSON"
    aps = payload.get("aps") if isinstance(payload, dict) else None
    if not isinstance(aps, dict):
        return "no aps object"
    event = aps.get("event")
    if event not in LIVE_ACTIVITY_EVENTS:
        return f"aps.event is {event!r}, not start, update or end"
    if not is_integer(aps.get("timestamp")):
        return "aps.timestamp is not an integer"
    if not isinstance(aps.get("content-state"), dict):
        return "aps.content-state is not an object"
    if "dismissal-date" in aps and event != "end":
        return "aps.dismissal-date is only for end"
    for key in ("stale-date", "dismissal-date"):
        if key in aps and not is_integer(aps[key]):
            return f"aps.{key} is not an integer"
    if event == "start":
        if not isinstance(aps.get("attributes-type"), str) or not isinstance(aps.get("attributes"), dict):
            return "a start needs aps.attributes-type and an aps.attributes object"
        if aps.get("input-push-token", 1) != 1:
            return "aps.input-push-token is not 1"
    elif "attributes" in aps or "attributes-type" in aps:
        return "aps.attributes and aps.attributes-type are only for start"
    return None


def handle(peer, headers, body):
    apns_id = headers.get("apns-id") or str(uuid.uuid4()).upper()
    if headers.get(":method") != "POST":
        return error(405, "MethodNotAllowed", apns_id)
    match = TOKEN_PATTERN.match(headers.get(":path", ""))
    if not match:
        return error(404, "BadPath", apns_id)
    token = match.group(1)
    if not headers.get("apns-topic"):
        return error(400, "MissingTopic", apns_id)
    if headers.get("apns-push-type") not in PUSH_TYPES:
        return error(400, "InvalidPushType", apns_id)
    live_activity = headers.get("apns-push-type") == "liveactivity"
    if headers.get("apns-priority", "10") not in (("5", "10") if live_activity else ("1", "5", "10")):
        return error(400, "BadPriority", apns_id)
    if live_activity and not headers["apns-topic"].endswith(LIVE_ACTIVITY_SUFFIX):
        return error(400, "BadTopic", apns_id)
    if live_activity and not headers.get("authorization"):
        return error(403, "MissingProviderToken", apns_id)
    if peer.keys:
        reason = check_provider_token(peer, headers.get("authorization"))
        if reason:
            return error(403, reason, apns_id)
    topics = peer.script.current().get("topics")
    bundle_id = headers["apns-topic"][:-len(LIVE_ACTIVITY_SUFFIX)] if live_activity else headers["apns-topic"]
    if topics is not None and bundle_id not in topics:
        return error(400, "BadTopic", apns_id)
    if len(body) == 0:
        return error(400, "PayloadEmpty", apns_id)
    if len(body) > 4096:
        return error(413, "PayloadTooLarge", apns_id)
    if headers.get("apns-push-type") == "background":
        if headers.get("apns-priority", "10") != "5":
            return error(400, "BadPriority", apns_id)
        if not is_silent(body):
            return error(400, "BadBackgroundPayload", apns_id)
    problem = live_activity_problem(body) if live_activity else None
    if problem:
        refused = error(400, "BadLiveActivityPayload", apns_id)
        refused["problem"] = problem
        return refused
    nobodys = {"status": 400, "reason": "BadDeviceToken"} if token == NOBODYS_TOKEN else None
    answer = peer.script.next_answer("tokens", token) or nobodys or {"status": 200}
    answer = dict(answer)
    if answer.get("drop") or answer.get("never"):
        return answer
    status = int(answer.get("status", 200))
    if status == 200:
        answer["headers"] = [["apns-id", apns_id]] + answer.get("headers", [])
        return answer
    extra = {"timestamp": answer["timestamp"]} if "timestamp" in answer else {}
    scripted = error(status, answer.get("reason", ""), apns_id, **extra)
    scripted["headers"] += answer.get("headers", [])
    scripted["delay"] = answer.get("delay", 0)
    return scripted


if __name__ == "__main__":
    def start(peer, arguments):
        peer.keys = load_keys(arguments.keys)

    h2peer.serve(handle, [("--keys", {"default": None})], on_start=start)
