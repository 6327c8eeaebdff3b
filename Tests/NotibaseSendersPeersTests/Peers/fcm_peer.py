"""A local FCM HTTP v1 for Notibase's tests: Google's OAuth token endpoint and messages:send,
checked the way Google documents and answered per registration token as script.json says
(test-only code).

POST /token          verifies the RS256 JWT assertion with the service account's public key
                     (--service-account: {"client_email", "public_key"}), then issues an access token.
POST /v1/projects/<project>/messages:send
                     checks the bearer token (issued here and not expired) and the project.
                     With "validate_only": true (a dry run, as FCM documents) nothing is sent:
                     200 {"name": "projects/<project>/messages/fake_message_id"}; a dry run may
                     address a "topic" instead of a "token" (answered per topic as "topics" says).

script.json:
  {"tokens": {"<registration token>": [answer, ...]}, "topics": {"<topic>": [answer, ...]},
   "token_endpoint": [answer, ...],
   "expires_in": seconds (3600), "revoke_tokens_up_to": N (access tokens 1…N now refused)}
An answer: {"status": 200} | {"error": "UNREGISTERED"} (the status follows from the code)
  | {"error": "INVALID_ARGUMENT", "field": "message.token"} | {"retry_after": "120"}
  | {"delay": s} | {"never": true} | {"drop": true}
  | {"status": 404} (a Google error without an FCM error code: NOT_FOUND, PERMISSION_DENIED…)
For token_endpoint: {"status": 400, "oauth_error": "invalid_grant"} | {"status": 503}
"""

import base64
import json
import time
import urllib.parse

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

import h2peer

SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
CODES = {
    "UNSPECIFIED_ERROR": (500, "UNKNOWN"),
    "INVALID_ARGUMENT": (400, "INVALID_ARGUMENT"),
    "UNREGISTERED": (404, "NOT_FOUND"),
    "SENDER_ID_MISMATCH": (403, "PERMISSION_DENIED"),
    "QUOTA_EXCEEDED": (429, "RESOURCE_EXHAUSTED"),
    "UNAVAILABLE": (503, "UNAVAILABLE"),
    "INTERNAL": (500, "INTERNAL"),
    "THIRD_PARTY_AUTH_ERROR": (401, "UNAUTHENTICATED"),
}


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def json_answer(status, body, headers=None):
    return {"status": status, "headers": [["content-type", "application/json; charset=UTF-8"]] + (headers or []), "body": json.dumps(body).encode()}


def google_error(status, canonical, message, details):
    return {"error": {"code": status, "message": message, "status": canonical, "details": details}}


def check_assertion(peer, assertion):
    """None when the JWT assertion is valid, else why not."""
    try:
        header_b64, claims_b64, signature_b64 = assertion.split(".")
        header = json.loads(b64url_decode(header_b64))
        claims = json.loads(b64url_decode(claims_b64))
        signature = b64url_decode(signature_b64)
    except ValueError:
        return "Invalid JWT: malformed"
    if header.get("alg") != "RS256":
        return "Invalid JWT: algorithm"
    try:
        peer.public_key.verify(signature, f"{header_b64}.{claims_b64}".encode(), padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        return "Invalid JWT Signature."
    now = time.time()
    if claims.get("iss") != peer.client_email:
        return "Invalid JWT: iss"
    if claims.get("aud") != f"https://127.0.0.1:{peer.port}/token":
        return "Invalid JWT: aud"
    if SCOPE not in str(claims.get("scope", "")).split(" "):
        return "Invalid JWT: scope"
    iat, exp = claims.get("iat", 0), claims.get("exp", 0)
    if exp - iat > 3600 or exp < now or iat > now + 60:
        return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe."
    return None


def token_endpoint(peer, body):
    form = urllib.parse.parse_qs(body.decode())
    scripted = peer.script.next_answer("endpoints", "token")
    if scripted and scripted.get("status", 200) != 200:
        if "oauth_error" in scripted:
            return json_answer(scripted["status"], {"error": scripted["oauth_error"], "error_description": "scripted"})
        return {"status": scripted["status"]}
    if form.get("grant_type") != ["urn:ietf:params:oauth:grant-type:jwt-bearer"] or "assertion" not in form:
        return json_answer(400, {"error": "unsupported_grant_type", "error_description": "Invalid grant_type"})
    problem = check_assertion(peer, form["assertion"][0])
    if problem:
        return json_answer(400, {"error": "invalid_grant", "error_description": problem})
    expires_in = int(peer.script.current().get("expires_in", 3600))
    peer.issued += 1
    token = f"ya29.test-{peer.issued}"
    peer.access_tokens[token] = time.time() + expires_in
    return json_answer(200, {"access_token": token, "expires_in": expires_in, "token_type": "Bearer"})


def send_endpoint(peer, headers, body, project):
    authorization = headers.get("authorization", "")
    token = authorization[len("Bearer "):] if authorization.startswith("Bearer ") else ""
    revoked_up_to = int(peer.script.current().get("revoke_tokens_up_to", 0))
    revoked = token.startswith("ya29.test-") and int(token.rsplit("-", 1)[1]) <= revoked_up_to
    if revoked or peer.access_tokens.get(token, 0) < time.time():
        return json_answer(401, google_error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.", []))
    if project != peer.project:
        return json_answer(403, google_error(403, "PERMISSION_DENIED", "Permission denied on the project.", []))
    try:
        request = json.loads(body)
        message = request["message"]
        validate_only = request.get("validate_only", request.get("validateOnly", False)) is True
        target = ("topics", message["topic"]) if validate_only and "topic" in message else ("tokens", message["token"])
    except (ValueError, KeyError, TypeError, AttributeError):
        return json_answer(400, google_error(400, "INVALID_ARGUMENT", "Invalid JSON payload received.", []))
    device = target[1]
    android = message.get("android") if isinstance(message.get("android"), dict) else {}
    answer = dict(peer.script.next_answer(*target) or {"status": 200})
    answer["device"] = device
    if answer.get("drop") or answer.get("never"):
        return answer
    extra_headers = [["retry-after", str(answer["retry_after"])]] if "retry_after" in answer else []
    code = answer.get("error")
    status = int(answer.get("status", 200))
    if code is None and status != 200:
        canonical = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND"}.get(status, "UNKNOWN")
        result = json_answer(status, google_error(status, canonical, "scripted error", []), extra_headers)
    elif code is None and validate_only:
        result = json_answer(200, {"name": f"projects/{project}/messages/fake_message_id"}, extra_headers)
    elif code is None:
        peer.sent += 1
        result = json_answer(200, {"name": f"projects/{project}/messages/0:{peer.sent}"}, extra_headers)
    else:
        status, canonical = CODES.get(code, (400, "INVALID_ARGUMENT"))
        details = [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code}]
        message_text = "scripted error"
        if "field" in answer:
            details.append({"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [{"field": answer["field"], "description": "Invalid value"}]})
            if answer["field"] == "message.token":
                message_text = "The registration token is not a valid FCM registration token"
        result = json_answer(status, google_error(status, canonical, message_text, details), extra_headers)
    result["delay"] = answer.get("delay", 0)
    result["device"] = device
    result["validate_only"] = validate_only
    # What kind of message it was, for the tests to read back: data-only or with a notification.
    result["android_priority"] = android.get("priority", "NORMAL")
    result["has_notification"] = "notification" in message or "notification" in android
    return result


def handle(peer, headers, body):
    path = headers.get(":path", "")
    if headers.get(":method") != "POST":
        return json_answer(405, google_error(405, "METHOD_NOT_ALLOWED", "Method not allowed.", []))
    if path == "/token":
        return token_endpoint(peer, body)
    prefix, suffix = "/v1/projects/", "/messages:send"
    if path.startswith(prefix) and path.endswith(suffix):
        return send_endpoint(peer, headers, body, path[len(prefix):-len(suffix)])
    return json_answer(404, google_error(404, "NOT_FOUND", "Not found.", []))


if __name__ == "__main__":
    def start(peer, arguments):
        with open(arguments.service_account) as handle:
            account = json.load(handle)
        peer.client_email = account["client_email"]
        peer.public_key = serialization.load_pem_public_key(account["public_key"].encode())
        peer.project = account["project_id"]
        peer.access_tokens = {}
        peer.issued = 0
        peer.sent = 0

    h2peer.serve(handle, [("--service-account", {"required": True})], on_start=start)
