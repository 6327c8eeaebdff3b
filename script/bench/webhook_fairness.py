"""One tenant's slow webhook endpoints beside two others (issue 43): how long the bystanders' events
take to reach their endpoints, first alone, then while a noisy app keeps every one of its many
endpoints busy answering slowly, inside the deadline.

One `notibase serve --sender accept --webhook-allow-insecure` and one local receiver (HTTP/1.1,
keep-alive, on 127.0.0.1):

  - /fast/<app> answers 200 at once and notes when each `device.registered` event of the batch
    (docs/server.md, "Webhooks": `data.events[]`, each with `type` and `data.deviceId`) arrived;
  - /slow/<n> answers 200 after --slow-seconds (default 9, inside the 10 s deadline).

The noisy app and its endpoints are created first (`--order bystanders-first`: last), so in the
order of creation they come before the bystanders'; it registers nothing in phase 1.

Phase 1 (baseline): two bystander apps, each with one endpoint at /fast/<app>, each registering a
device (POST /v1/devices, client key) every 0.5 s for --seconds. An event's latency is its arrival
at the receiver minus the moment its POST /v1/devices returned.

Phase 2 (noisy): the same two apps again, while a third app with --slow-endpoints endpoints at
/slow/<n> registers a device every 0.5 s (so each of its endpoints always has an event due); the
noisy app starts 5 s before the bystanders and stops after their grace.

An event not at the receiver within 15 s of its phase's last registration counts as never received.
The server caps an app's endpoints (20 by default since issue 43): the script passes
`--webhook-endpoints-per-app 64` when the binary's `serve --help` lists it (builds before have no cap).

Run through script/bench-webhook-fairness, which builds the release binary and cleans up.
"""

import argparse
import http.server
import json
import math
import os
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import transactional  # noqa: E402  (the server process)

INTERVAL = 0.5  # seconds between an app's registrations
GRACE = 15.0    # seconds an event may take after its phase's last registration
WARM_UP = 5.0   # seconds the noisy app runs before the bystanders start


class Receiver(http.server.ThreadingHTTPServer):
    """The endpoints: notes when each bystander event arrives, answers the noisy app's late."""

    daemon_threads = True
    request_queue_size = 256

    def __init__(self, slow_seconds):
        super().__init__(("127.0.0.1", 0), Handler)
        self.slow_seconds = slow_seconds
        self.lock = threading.Lock()
        self.arrivals = {}  # device ID -> monotonic time its device.registered first arrived
        self.slow_batches = 0
        self.slow_events = 0

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # the server stopped, its connections with it
            super().handle_error(request, client_address)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        now = time.monotonic()
        events = json.loads(body).get("data", {}).get("events", [])
        receiver = self.server
        if self.path.startswith("/slow/"):
            time.sleep(receiver.slow_seconds)
            with receiver.lock:
                receiver.slow_batches += 1
                receiver.slow_events += len(events)
        else:
            with receiver.lock:
                for event in events:
                    device = event.get("data", {}).get("deviceId")
                    if event.get("type") == "device.registered" and device:
                        receiver.arrivals.setdefault(device, now)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *arguments):
        pass


class Registrar(threading.Thread):
    """An app registering a new device every 0.5 s until stopped (or for `seconds`); notes when
    each POST /v1/devices returned."""

    def __init__(self, server, app, name, stop, seconds=None):
        super().__init__(daemon=True)
        self.server, self.key, self.name, self.stop, self.seconds = server, app["clientKey"], name, stop, seconds
        self.returned = {}  # device ID -> monotonic time its registration returned
        self.refused = 0

    def run(self):
        began = time.monotonic()
        for tick in range(1_000_000):
            at = began + tick * INTERVAL
            if self.seconds is not None and at >= began + self.seconds:
                return
            if self.stop.wait(max(0.0, at - time.monotonic())):
                return
            token = os.urandom(32).hex()
            try:
                status, answer = self.server.call("POST", "/v1/devices", {"platform": "ios", "token": token}, key=self.key)
            except OSError:
                status, answer = None, b""
            if status == 201:
                self.returned[json.loads(answer)["id"]] = time.monotonic()
            else:
                self.refused += 1


def nearest_rank(ordered, share):
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def summary(label, returned, arrivals, refused):
    latencies = sorted(arrivals[device] - at for device, at in returned.items() if device in arrivals)
    expected = len(returned)
    line = f"   {label:<22} events expected {expected:>4}  received {len(latencies):>4}  never {expected - len(latencies):>4}"
    if latencies:
        line += (f"  latency median {statistics.median(latencies):6.2f} s  p90 {nearest_rank(latencies, 0.9):6.2f} s"
                 f"  max {latencies[-1]:6.2f} s")
    else:
        line += "  latency: none received"
    if refused:
        line += f"  ({refused} registrations refused)"
    return line


def phase(name, server, receiver, bystanders, seconds):
    """Both bystanders for `seconds`, then the grace; prints each one's line and both together."""
    stop = threading.Event()
    registrars = [Registrar(server, app, label, stop, seconds) for label, app in bystanders]
    for registrar in registrars:
        registrar.start()
    for registrar in registrars:
        registrar.join()
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline:
        with receiver.lock:
            if all(device in receiver.arrivals for registrar in registrars for device in registrar.returned):
                break
        time.sleep(0.1)
    with receiver.lock:
        arrivals = dict(receiver.arrivals)
    for registrar in registrars:
        print(summary(f"{name} {registrar.name}", registrar.returned, arrivals, registrar.refused))
    both = {device: at for registrar in registrars for device, at in registrar.returned.items()}
    print(summary(f"{name} both", both, arrivals, sum(r.refused for r in registrars)), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--seconds", type=float, default=45, help="the bystanders' registrations in each phase (default: %(default)s)")
    parser.add_argument("--slow-endpoints", type=int, default=48, help="the noisy app's endpoints (default: %(default)s)")
    parser.add_argument("--slow-seconds", type=float, default=9, help="how long a slow endpoint takes to answer (default: %(default)s)")
    parser.add_argument("--order", choices=["noisy-first", "bystanders-first"], default="noisy-first",
                        help="whose endpoints are created first, so older (default: %(default)s)")
    args = parser.parse_args()
    usage = subprocess.run([args.binary, "serve", "--help"], capture_output=True, text=True)
    capped = "--webhook-endpoints-per-app" in usage.stdout + usage.stderr
    args.limits = []  # the server's default rate limits
    args.serve_extra = ["--webhook-allow-insecure"]
    if capped:
        args.serve_extra += ["--webhook-endpoints-per-app", str(max(64, args.slow_endpoints))]
    receiver = Receiver(args.slow_seconds)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{receiver.server_address[1]}"
    data = os.path.join(args.work, "data")
    os.makedirs(data)
    server = transactional.Server(args, data, None, os.path.join(args.work, "serve.log"))
    try:
        print(f"   server flags: {' '.join(args.serve_extra)}; {args.seconds:g} s a phase, a registration every {INTERVAL} s an app, "
              f"{args.slow_endpoints} noisy endpoints answering after {args.slow_seconds:g} s, "
              f"{args.order.replace('-', ' ')}; {transactional.load()}", flush=True)
        bystanders = []
        for label in ("noisy", "bystander-1", "bystander-2") if args.order == "noisy-first" else ("bystander-1", "bystander-2", "noisy"):
            app = server.json("POST", "/v1/apps", {"name": label})
            for n in range(args.slow_endpoints if label == "noisy" else 1):
                url = f"{base}/slow/{n}" if label == "noisy" else f"{base}/fast/{label}"
                server.json("POST", "/v1/webhooks", {"url": url}, key=app["serverKey"])
            if label == "noisy":
                noisy = app
            else:
                bystanders.append((label, app))
        phase("baseline", server, receiver, bystanders, args.seconds)

        stop = threading.Event()
        noise = Registrar(server, noisy, "noisy", stop)
        noise.start()
        time.sleep(WARM_UP)
        with receiver.lock:
            before = receiver.slow_batches, receiver.slow_events
        began = time.monotonic()
        phase("noisy", server, receiver, bystanders, args.seconds)
        stop.set()
        noise.join()
        with receiver.lock:
            batches, events = receiver.slow_batches - before[0], receiver.slow_events - before[1]
        print(f"   noisy app meanwhile ({time.monotonic() - began:.0f} s): {len(noise.returned)} devices registered"
              f"{f', {noise.refused} refused' if noise.refused else ''}; its endpoints answered {batches} batches "
              f"({events} events, {batches / args.slow_endpoints:.1f} an endpoint); {transactional.load()}", flush=True)
    finally:
        server.process.kill()
        server.process.wait()
        receiver.shutdown()


if __name__ == "__main__":
    main()
