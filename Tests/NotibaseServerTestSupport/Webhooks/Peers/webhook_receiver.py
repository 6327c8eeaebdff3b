#!/usr/bin/env python3
"""An HTTPS webhook receiver on loopback for the webhook transport's tests.

It makes a certificate authority and a certificate for localhost/127.0.0.1 (the HTTP/2 peers'
make_certificates, in the senders' tests), prints `READY <port>`, and answers by path:

  /status/NNN[?retry-after=V]  NNN with the body "answer NNN" (and Retry-After: V)
  /redirect                    302 to /moved (which it would log if anyone followed)
  /hang                        reads the request and never answers
  /close-mid                   half a status line, then closes the connection
  /drip, /drip-body            a slow loris: the head (or, after a whole head, the body) a byte
                               every 0.1 s for 20 s, then closes
  /huge                        200 with a 64 MB body, written until the client stops reading
  /keep-open                   200 with "hello" (Content-Length), then keeps the connection open
  /chunked                     200 with "Wikipedia" in two chunks, then keeps the connection open
  /verify                      verifies the signature with standardwebhooks and svix, unchanged,
                               under each --secret: 204 when both libraries accept it under every
                               secret, else 400 with why
  /events                      a server's batches: first does what STATE_DIR/faults.json's next
                               entry says ("500", "hang", "close-mid", "429:SECONDS"; each taken
                               once, in order), else verifies with standardwebhooks under the
                               secret in STATE_DIR/secret (the test writes it once the endpoint
                               exists): 204, or 400 with why, after STATE_DIR/delay's seconds when
                               the test wrote one (a slow receiver). Logs the batch's events' IDs and types.

Under /alive/ it keeps the connection for the next request (unless the request says
`Connection: close`), as most servers do:

  /alive/status/NNN            NNN with "answer NNN" and its Content-Length, no Connection: close
  /alive/chunked               200 with "Wikipedia" in two chunks and a trailer
  /alive/http10                the same as an HTTP/1.0 answer (which ends the connection)
  /alive/extra                 200 with Content-Length 2 and four bytes of body (not one answer)
  /alive/close-idle            200, then closes the connection at once (an idle timeout)
  /alive/drop-next             200, then reads the next request on the connection, logs it with
                               "dropped", and closes without answering (the race in which a
                               server closes an idle connection as a request arrives)

With --plain it speaks http, not https (for `notibase serve --webhook-allow-insecure`).

Every request is logged to STATE_DIR/log.jsonl: path, headers, body, the client's port (`peer_port`,
so a test can tell which of its processes or connections sent it), the address it came in on
(`local_address`: it listens on 127.0.0.1 and, on the same port, 127.0.0.2), and what became of it.
"""
import argparse
import json
import os
import socket
import ssl
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "NotibaseSendersPeersTests", "Peers"))
from h2peer import make_certificates  # noqa: E402

# Imported before READY: svix takes seconds to import on a loaded machine, which a request's
# deadline should not pay.
import standardwebhooks  # noqa: E402
import svix.webhooks  # noqa: E402

HUGE = 64 << 20
LOCK = threading.Lock()


def log(state_dir, entry):
    with LOCK, open(os.path.join(state_dir, "log.jsonl"), "a") as handle:
        handle.write(json.dumps(entry) + "\n")


def read_request(stream):
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = stream.recv(4096)
        if not chunk:
            return None
        head += chunk
    head, _, body = head.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, target, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = stream.recv(65536)
        if not chunk:
            break
        body += chunk
    return method, target, headers, body


def verify(headers, body, secrets):
    """Why the request does not verify, or None when both libraries accept it under every secret."""
    signed = {name: headers.get(name, "") for name in ("webhook-id", "webhook-timestamp", "webhook-signature")}
    svix_headers = {"svix-" + name[len("webhook-"):]: value for name, value in signed.items()}
    for secret in secrets:
        try:
            standardwebhooks.Webhook(secret).verify(body, signed)
        except Exception as error:  # the library's own verification error
            return f"standardwebhooks: {type(error).__name__}: {error}"
        try:
            svix.webhooks.Webhook(secret).verify(body, svix_headers)
        except Exception as error:
            return f"svix: {type(error).__name__}: {error}"
    return None


def wait_for_close(stream):
    """Until the client gives up and closes (or a minute)."""
    stream.settimeout(60)
    try:
        stream.recv(1)
    except OSError:
        pass


def next_fault(state_dir):
    """Takes the first entry of faults.json, or None when there is none left."""
    path = os.path.join(state_dir, "faults.json")
    with LOCK:
        try:
            with open(path) as handle:
                faults = json.load(handle)
        except (OSError, ValueError):
            return None
        if not faults:
            return None
        with open(path + ".tmp", "w") as handle:
            json.dump(faults[1:], handle)
        os.replace(path + ".tmp", path)
        return faults[0]


def receive_events(stream, headers, body, entry, arguments):
    """/events: a fault when one is due, else the batch verified with standardwebhooks, unchanged."""
    fault = next_fault(arguments.state_dir)
    entry["fault"] = fault
    if fault == "500":
        answer(stream, 500, b"answer 500")
    elif fault == "hang":
        log(arguments.state_dir, entry)
        wait_for_close(stream)
        return False
    elif fault == "close-mid":
        stream.sendall(b"HTTP/1.1 2")
    elif fault is not None and fault.startswith("429:"):
        answer(stream, 429, b"slow down", [("Retry-After", fault[len("429:"):])])
    else:
        try:
            with open(os.path.join(arguments.state_dir, "delay")) as handle:
                time.sleep(float(handle.read()))
        except (OSError, ValueError):
            pass
        try:
            with open(os.path.join(arguments.state_dir, "secret")) as handle:
                secret = handle.read().strip()
            payload = standardwebhooks.Webhook(secret).verify(body, {name: headers.get(name, "") for name in ("webhook-id", "webhook-timestamp", "webhook-signature")})
        except Exception as error:  # the library's own verification error, or no secret yet
            entry["verified"] = False
            entry["failure"] = f"{type(error).__name__}: {error}"
            answer(stream, 400, entry["failure"].encode())
            return True
        entry["verified"] = True
        entry["batch"] = headers.get("webhook-id")
        entry["events"] = [{"id": event["id"], "type": event["type"], "data": event["data"]} for event in payload["data"]["events"]]
        answer(stream, 204)
    return True


def answer(stream, status, body=b"", extra=(), keep=False):
    reason = {200: "OK", 204: "No Content", 302: "Found", 400: "Bad Request", 429: "Too Many Requests", 500: "Internal Server Error"}.get(status, "Status")
    head = f"HTTP/1.1 {status} {reason}\r\nContent-Length: {len(body)}\r\n" + ("" if keep else "Connection: close\r\n")
    head += "".join(f"{name}: {value}\r\n" for name, value in extra)
    stream.sendall(head.encode() + b"\r\n" + body)


def handle(connection, context, arguments):
    try:
        stream = connection if context is None else context.wrap_socket(connection, server_side=True)
    except (ssl.SSLError, OSError) as error:
        log(arguments.state_dir, {"event": "handshake-failed", "error": str(error)})
        connection.close()
        return
    try:
        while True:
            request = read_request(stream)
            if request is None:
                return
            method, target, headers, body = request
            path, _, query = target.partition("?")
            entry = {"event": "request", "method": method, "path": path, "query": query, "headers": headers, "body": body.decode("utf-8", "replace"),
                     "peer_port": stream.getpeername()[1], "local_address": stream.getsockname()[0]}
            if not path.startswith("/alive/"):
                answer_once(stream, path, query, headers, body, entry, arguments)
                return
            answer_alive(stream, path[len("/alive"):], entry)
            log(arguments.state_dir, entry)
            if path == "/alive/drop-next":
                again = read_request(stream)
                if again is not None:
                    log(arguments.state_dir, {"event": "request", "path": again[1].partition("?")[0], "dropped": True,
                                              "peer_port": stream.getpeername()[1], "local_address": stream.getsockname()[0]})
                return
            if path in ("/alive/http10", "/alive/close-idle") or "close" in headers.get("connection", "").lower():
                return
    except OSError as error:
        log(arguments.state_dir, {"event": "error", "error": str(error)})
    finally:
        try:
            stream.close()
        except OSError:
            pass


def answer_alive(stream, path, entry):
    """A request under /alive/: answered without closing (see the module's text)."""
    if path.startswith("/status/"):
        status = int(path[len("/status/"):])
        answer(stream, status, f"answer {status}".encode(), keep=True)
    elif path == "/chunked":
        stream.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5\r\npedia\r\n0\r\nX-Trailer: 1\r\n\r\n")
    elif path == "/http10":
        stream.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok")
    elif path == "/extra":
        stream.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokXX")
    else:
        answer(stream, 200, b"answer 200", keep=True)


def answer_once(stream, path, query, headers, body, entry, arguments):
    """A request answered on a connection that then closes (by the caller)."""
    if path.startswith("/status/"):
        status = int(path[len("/status/"):])
        extra = []
        if query.startswith("retry-after="):
            extra.append(("Retry-After", query[len("retry-after="):].replace("%20", " ").replace("%2C", ",")))
        answer(stream, status, f"answer {status}".encode(), extra)
    elif path == "/redirect":
        answer(stream, 302, b"moved", [("Location", f"https://127.0.0.1:{arguments.port}/moved")])
    elif path == "/hang":
        log(arguments.state_dir, entry)
        wait_for_close(stream)
        return
    elif path in ("/keep-open", "/chunked"):
        if path == "/keep-open":
            stream.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
        else:
            stream.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n")
        log(arguments.state_dir, entry)
        wait_for_close(stream)
        return
    elif path == "/close-mid":
        stream.sendall(b"HTTP/1.1 2")
    elif path in ("/drip", "/drip-body"):
        log(arguments.state_dir, entry)
        stream.sendall(b"HTTP/1.1 200 OK\r\n" + (b"\r\n" if path == "/drip-body" else b"X-Drip: "))
        try:
            for _ in range(200):
                time.sleep(0.1)
                stream.sendall(b"a")
        except OSError:
            pass
        return
    elif path == "/huge":
        stream.sendall(f"HTTP/1.1 200 OK\r\nContent-Length: {HUGE}\r\n\r\n".encode())
        chunk = b"a" * 65536
        written = 0
        try:
            while written < HUGE:
                written += stream.send(chunk)
        except OSError:
            pass
        entry["bytes_written"] = written
    elif path == "/events":
        if not receive_events(stream, headers, body, entry, arguments):
            return
    elif path == "/verify":
        failure = verify(headers, body, arguments.secret)
        entry["verified"] = failure is None
        if failure is None:
            answer(stream, 204)
        else:
            entry["failure"] = failure
            answer(stream, 400, failure.encode())
    else:
        answer(stream, 404, b"no such path")
    log(arguments.state_dir, entry)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--state-dir", required=True)
    parser.add_argument("--secret", action="append", default=[])
    parser.add_argument("--plain", action="store_true")
    arguments = parser.parse_args()
    context = None
    if not arguments.plain:
        make_certificates(arguments.state_dir)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(os.path.join(arguments.state_dir, "server-cert.pem"), os.path.join(arguments.state_dir, "server-key.pem"))
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    arguments.port = listener.getsockname()[1]
    # The same port on 127.0.0.2: a name the tests resolve to one address and then the other
    # reaches this receiver on either, and the log says which.
    second = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    second.bind(("127.0.0.2", arguments.port))
    second.listen(64)
    print(f"READY {arguments.port}", flush=True)

    def exit_with_parent():
        # The test process holds our standard input: when it goes away, so do we.
        sys.stdin.buffer.read()
        os._exit(0)

    def accept(on):
        while True:
            connection, _ = on.accept()
            threading.Thread(target=handle, args=(connection, context, arguments), daemon=True).start()

    threading.Thread(target=exit_with_parent, daemon=True).start()
    threading.Thread(target=accept, args=(second,), daemon=True).start()
    accept(listener)


if __name__ == "__main__":
    main()
