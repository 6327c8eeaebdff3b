"""A small HTTP/2-over-TLS server for Notibase's sender tests (test-only code).

It makes a certificate authority for each run, serves HTTP/2 with ALPN h2 on a loopback port,
answers each request through a handler, and logs every request and PING as a JSON line so tests
can see exactly what reached the peer. Answers are scripted through script.json in the state
directory, re-read whenever it changes.

Answer shapes a handler may return (a dict):
  {"status": 200, "headers": [[name, value]], "body": bytes}   a normal answer
  plus "delay": seconds   answer after a pause
  {"never": true}         never answer this stream
  {"drop": true}          close the TCP connection at once, answering nothing on it
"""

import argparse
import asyncio
import datetime
import ipaddress
import json
import os
import shutil
import ssl
import sys
import threading
import time

import h2.config
import h2.connection
import h2.events
import h2.exceptions
import h2.settings
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def _name(common_name):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _certificate(subject, issuer, public_key, signing_key, is_ca, usages, alt_names=None):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(_name(issuer))
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=is_ca, path_length=None), critical=True)
    )
    if usages:
        builder = builder.add_extension(x509.ExtendedKeyUsage(usages), critical=False)
    if alt_names:
        builder = builder.add_extension(x509.SubjectAlternativeName(alt_names), critical=False)
    return builder.sign(signing_key, hashes.SHA256())


def _pem(certificate):
    return certificate.public_bytes(serialization.Encoding.PEM)


def _key_pem(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


def make_certificates(state_dir):
    """A CA for this run, a server certificate for localhost/127.0.0.1 and a client certificate."""
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _certificate("Notibase test CA", "Notibase test CA", ca_key.public_key(), ca_key, True, None)
    server_key = ec.generate_private_key(ec.SECP256R1())
    server = _certificate(
        "localhost", "Notibase test CA", server_key.public_key(), ca_key, False,
        [ExtendedKeyUsageOID.SERVER_AUTH],
        [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))],
    )
    client_key = ec.generate_private_key(ec.SECP256R1())
    client = _certificate("com.example.app", "Notibase test CA", client_key.public_key(), ca_key, False, [ExtendedKeyUsageOID.CLIENT_AUTH])
    files = {
        "ca.pem": _pem(ca),
        "server-cert.pem": _pem(server),
        "server-key.pem": _key_pem(server_key),
        "client-cert.pem": _pem(client),
        "client-key.pem": _key_pem(client_key),
    }
    for name, data in files.items():
        with open(os.path.join(state_dir, name), "wb") as handle:
            handle.write(data)


class Script:
    """script.json, re-read when it changes; per-key answer sequences are consumed in order."""

    def __init__(self, path):
        self.path = path
        self.mtime = None
        self.data = {}
        self.used = {}

    def current(self):
        try:
            mtime = os.stat(self.path).st_mtime_ns
        except FileNotFoundError:
            return self.data
        if mtime != self.mtime:
            with open(self.path) as handle:
                self.data = json.load(handle)
            self.mtime = mtime
            self.used = {}
        return self.data

    def next_answer(self, table, key):
        """The next scripted answer for key in table ("tokens"), the last one repeating."""
        sequence = self.current().get(table, {}).get(key)
        if not sequence:
            return None
        index = self.used.get((table, key), 0)
        self.used[(table, key)] = index + 1
        return sequence[min(index, len(sequence) - 1)]


class Peer:
    def __init__(self, state_dir, handler):
        self.state_dir = state_dir
        self.handler = handler
        self.script = Script(os.path.join(state_dir, "script.json"))
        self.log_file = open(os.path.join(state_dir, "log.jsonl"), "a", buffering=1)
        self.connections = 0

    def log(self, entry):
        entry["time"] = time.time()
        self.log_file.write(json.dumps(entry) + "\n")


class Connection(asyncio.Protocol):
    def __init__(self, peer):
        self.peer = peer
        peer.connections += 1
        self.number = peer.connections
        self.h2 = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        self.streams = {}
        self.received = 0
        self.goaway_stream = None
        self.open_answers = 0
        self.closed = False

    def connection_made(self, transport):
        self.transport = transport
        streams = int(self.peer.script.current().get("max_concurrent_streams", 1000))
        self.h2.local_settings = h2.settings.Settings(client=False, initial_values={
            h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: streams,
            h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 1 << 20,
        })
        self.h2.initiate_connection()
        self.h2.increment_flow_control_window(1 << 24)
        self.peer.log({"event": "connect", "connection": self.number})
        self.flush()

    def connection_lost(self, exc):
        self.closed = True
        self.peer.log({"event": "disconnect", "connection": self.number})

    def flush(self):
        if not self.closed:
            self.transport.write(self.h2.data_to_send())

    def data_received(self, data):
        try:
            events = self.h2.receive_data(data)
        except h2.exceptions.ProtocolError:
            self.flush()
            self.transport.close()
            return
        for event in events:
            if isinstance(event, h2.events.RequestReceived):
                self.streams[event.stream_id] = (dict(event.headers), bytearray())
            elif isinstance(event, h2.events.DataReceived):
                if event.stream_id in self.streams:
                    self.streams[event.stream_id][1].extend(event.data)
                self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                self.request_complete(event.stream_id)
            elif isinstance(event, h2.events.PingReceived):
                self.peer.log({"event": "ping", "connection": self.number})
            elif isinstance(event, h2.events.StreamReset):
                self.streams.pop(event.stream_id, None)
        self.flush()

    def request_complete(self, stream_id):
        headers, body = self.streams.pop(stream_id, ({}, bytearray()))
        if self.goaway_stream is not None and stream_id > self.goaway_stream:
            return  # refused by our GOAWAY: the client must send it again elsewhere
        self.received += 1
        answer = self.peer.handler(self.peer, headers, bytes(body))
        entry = {"event": "request", "connection": self.number, "stream": stream_id,
                 "method": headers.get(":method"), "path": headers.get(":path"),
                 "headers": {k: v for k, v in headers.items() if not k.startswith(":")},
                 "body_size": len(body), "answer": {k: v for k, v in answer.items() if k not in ("headers", "body")}}
        self.peer.log(entry)
        if answer.get("drop"):
            self.closed = True
            self.transport.abort()
            return
        goaway_after = self.peer.script.current().get("goaway_after")
        if goaway_after and self.received == int(goaway_after) and self.goaway_stream is None:
            # Answer this last stream, then GOAWAY: streams after it are refused (never processed)
            # and the connection closes once the streams before it are answered.
            self.goaway_stream = stream_id
            if not answer.get("never"):
                self.open_answers += 1
                self.respond(stream_id, {k: v for k, v in answer.items() if k != "delay"}, close_when_done=False)
            self.h2.close_connection(last_stream_id=stream_id)
            self.flush()
            if self.open_answers == 0:
                self.transport.close()
            return
        if answer.get("never"):
            return
        self.open_answers += 1
        delay = float(answer.get("delay", 0))
        if delay > 0:
            asyncio.get_running_loop().call_later(delay, self.respond, stream_id, answer)
        else:
            self.respond(stream_id, answer)

    def respond(self, stream_id, answer, close_when_done=True):
        self.open_answers -= 1
        if self.closed:
            return
        body = answer.get("body", b"")
        headers = [(":status", str(answer.get("status", 200)))] + [tuple(h) for h in answer.get("headers", [])]
        headers.append(("content-length", str(len(body))))
        try:
            self.h2.send_headers(stream_id, headers, end_stream=not body)
            if body:
                self.h2.send_data(stream_id, body, end_stream=True)
        except (h2.exceptions.StreamClosedError, h2.exceptions.ProtocolError):
            pass
        self.flush()
        if close_when_done and self.goaway_stream is not None and self.open_answers == 0:
            self.transport.close()


def serve(handler, extra_arguments=None, on_start=None):
    """Parses the common arguments, makes the certificates and serves until killed."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--state-dir", required=True)
    parser.add_argument("--require-client-certificate", action="store_true")
    parser.add_argument("--certificates-from", default=None, help="use another peer's CA and certificates (one CA file trusts both)")
    parser.add_argument("--client-ca", default=None, help="with --require-client-certificate: trust this CA for clients instead of the run's")
    for name, kwargs in (extra_arguments or []):
        parser.add_argument(name, **kwargs)
    arguments = parser.parse_args()
    if arguments.certificates_from:
        for name in ("ca.pem", "server-cert.pem", "server-key.pem", "client-cert.pem", "client-key.pem"):
            shutil.copyfile(os.path.join(arguments.certificates_from, name), os.path.join(arguments.state_dir, name))
    else:
        make_certificates(arguments.state_dir)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(os.path.join(arguments.state_dir, "server-cert.pem"), os.path.join(arguments.state_dir, "server-key.pem"))
    context.set_alpn_protocols(["h2"])
    if arguments.require_client_certificate:
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(arguments.client_ca or os.path.join(arguments.state_dir, "ca.pem"))
    peer = Peer(arguments.state_dir, handler)
    if on_start:
        on_start(peer, arguments)

    async def main():
        server = await asyncio.get_running_loop().create_server(lambda: Connection(peer), "127.0.0.1", 0, ssl=context)
        port = server.sockets[0].getsockname()[1]
        peer.port = port
        print(f"READY {port}", flush=True)
        async with server:
            await server.serve_forever()

    def exit_with_parent():
        # The test process holds our standard input: when it goes away, so do we.
        sys.stdin.buffer.read()
        os._exit(0)

    threading.Thread(target=exit_with_parent, daemon=True).start()
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit("run apns_peer.py or fcm_peer.py")
