"""A bystander beside a noisy tenant (issue 27): how long a bystander app's one-device message takes
to be answered and to be sent, and how long its reads take, first alone, then while another tenant
of the same server does the most expensive things its limits allow, at once, on four connections:

  - its largest messages: 10,000 device IDs and a 3,800-character body each, until its quota
    refuses (429), again and again;
  - audience counts over tags of its whole app (POST /v1/audience/count);
  - campaigns to its whole app paced at 1,000 a minute (every delivery written, waiting), each
    cancelled as soon as it is answered: a cancel of the whole app's deliveries;
  - campaigns sent now to a seventh of its app.

The tenant runs at the server's default limits (`--rate-limit-server 1000`, 60,000 messages a
minute, 1 GiB stored), with the accepting sender. The bystander, on its own connection, sends one
message at a time to its one device and reads it back (GET the message, list its messages), for
--seconds in each phase. "Sent" is the server's own record: the delivery's `sent` entry minus the
message's `createdAt`.

Run through script/bench-noisy, which builds the release binary and cleans up.
"""

import argparse
import datetime
import http.client
import json
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import transactional  # noqa: E402  (the server process and the backends)

LARGEST = json.dumps({
    "message": {"title": "Sale", "body": "x" * 3_800},
    "audience": {"deviceIds": [f"{n:08x}-0000-7000-8000-{n:012x}" for n in range(10_000)]},
})


class Client:
    """One keep-alive connection with one key; times each call."""

    def __init__(self, port, key):
        self.port, self.key = port, key
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method, path, body=None):
        headers = {"Authorization": "Bearer " + self.key, "Content-Type": "application/json"}
        payload = body if body is None or isinstance(body, str) else json.dumps(body)
        began = time.monotonic()
        try:
            self.connection.request(method, path, payload, headers)
            response = self.connection.getresponse()
            answer = response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            raise
        return response.status, answer, 1000 * (time.monotonic() - began)


def timestamp(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000


def bystander(port, key, device, seconds):
    """One message at a time to `device`, each followed by its reads; returns the timings (ms)."""
    client = Client(port, key)
    timings = {"send answered": [], "sent after created": [], "GET message": [], "list": []}
    deadline = time.monotonic() + seconds
    index = 0
    # At most 100 rounds a second: a round is four or more requests with the app's server key,
    # and a faster server let the bystander alone reach its own limit (1,000 a second) and be
    # refused, which says nothing about the tenant.
    next_round = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(max(0.0, next_round - time.monotonic()))
        next_round = time.monotonic() + 0.01
        index += 1
        status, answer, took = client.call("POST", "/v1/messages", {
            "message": {"title": "Code", "body": f"Your code is {index:06d}"}, "audience": {"deviceIds": [device]}})
        if status != 202:
            sys.exit(f"bench-noisy: the bystander's send answered {status}: {answer[:300]!r}")
        timings["send answered"].append(took)
        message = json.loads(answer)
        status, _, took = client.call("GET", f"/v1/messages/{message['id']}")
        timings["GET message"].append(took)
        status, _, took = client.call("GET", "/v1/messages?limit=20")
        timings["list"].append(took)
        # Sent: the server's record of it, however long the bystander waits to read it.
        while True:
            status, answer, _ = client.call("GET", f"/v1/messages/{message['id']}/deliveries")
            entries = [entry for delivery in json.loads(answer)["items"] for entry in delivery["history"] if entry["event"] == "sent"]
            if entries:
                timings["sent after created"].append(timestamp(entries[0]["at"]) - timestamp(message["createdAt"]))
                break
            if time.monotonic() > deadline + 60:
                sys.exit("bench-noisy: a bystander's message was not sent within a minute")
            time.sleep(0.002)
    return timings


def noise(port, key, lane, stop, counts):
    """The tenant's lane `lane` until `stop` is set; counts answers by kind and status."""
    client = Client(port, key)
    while not stop.is_set():
        try:
            if lane == 0:
                status, _, _ = client.call("POST", "/v1/messages", LARGEST)
                kind = "largest message"
            elif lane == 1:
                status, _, _ = client.call("POST", "/v1/audience/count", {"audience": {"tags": {"anyOf": ["t1", "t2", "t3"]}}})
                kind = "audience count"
            elif lane == 2:
                status, answer, _ = client.call("POST", "/v1/messages", {
                    "message": {"title": "Paced"}, "audience": {"tags": {"anyOf": [f"t{n}" for n in range(7)]}}, "ratePerMinute": 1000})
                kind = "paced campaign"
                if status == 202:
                    counts[(kind, status)] = counts.get((kind, status), 0) + 1
                    status, _, _ = client.call("POST", f"/v1/messages/{json.loads(answer)['id']}/cancel")
                    kind = "cancel"
            else:
                status, _, _ = client.call("POST", "/v1/messages", {"message": {"title": "Now"}, "audience": {"tags": {"allOf": ["t4"]}}})
                kind = "campaign"
        except (OSError, http.client.HTTPException) as error:
            status, kind = type(error).__name__, "connection"
        counts[(kind, status)] = counts.get((kind, status), 0) + 1
        if status == 429:
            time.sleep(0.01)


def percentiles(values):
    ordered = sorted(values)
    def at(share):
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
    return f"n {len(ordered):>4}  p50 {statistics.median(ordered):8.1f}  p99 {at(0.99):8.1f}  max {ordered[-1]:8.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--postgres", help="URL of the throwaway cluster: run there as well")
    parser.add_argument("--devices", type=int, default=200_000, help="the tenant's devices (default: %(default)s)")
    parser.add_argument("--seconds", type=int, default=30, help="the bystander's time in each phase (default: %(default)s)")
    args = parser.parse_args()
    # The tenant at the server's default limits (the other benchmarks turn them off).
    args.limits, args.serve_extra = [], []
    backends = [transactional.Backend("sqlite", args.work, None)]
    if args.postgres:
        backends.append(transactional.Backend("postgres", args.work, args.postgres))
    try:
        for backend in backends:
            label = "noisy"
            backend.create(label)
            server = backend.start(args, label, "serve")
            tenant = server.json("POST", "/v1/apps", {"name": "tenant"})
            by = server.json("POST", "/v1/apps", {"name": "bystander"})
            began = time.monotonic()
            for start in range(0, args.devices, 10_000):
                batch = [{"platform": "android" if n % 4 == 0 else "ios", "token": f"fcm-{n:024x}" if n % 4 == 0 else f"{n:064x}",
                          "tags": [f"t{n % 7}"]} for n in range(start, min(args.devices, start + 10_000))]
                status, answer = server.call("POST", "/v1/devices/batch", {"devices": batch}, key=tenant["serverKey"])
                if status != 200:
                    sys.exit(f"bench-noisy: registration answered {status}: {answer[:300]!r}")
            device = server.json("POST", "/v1/devices", {"platform": "ios", "token": "ab" * 32}, key=by["clientKey"])["id"]
            print(f"== {backend.name}: the tenant's {args.devices:,} devices registered in {time.monotonic() - began:.0f} s; "
                  f"{transactional.load()}", flush=True)

            alone = bystander(server.port, by["serverKey"], device, args.seconds)
            stop, counts = threading.Event(), {}
            lanes = [threading.Thread(target=noise, args=(server.port, tenant["serverKey"], lane, stop, counts)) for lane in range(4)]
            for lane in lanes:
                lane.start()
            time.sleep(2)
            beside = bystander(server.port, by["serverKey"], device, args.seconds)
            stop.set()
            for lane in lanes:
                lane.join()
            print(f"   the tenant's requests meanwhile: " + ", ".join(f"{kind} {status}: {n}" for (kind, status), n in sorted(counts.items(), key=str)))
            for name in alone:
                print(f"   {name:<20} alone        {percentiles(alone[name])}")
                print(f"   {name:<20} beside noise {percentiles(beside[name])}", flush=True)
            print(f"   {transactional.load()}", flush=True)
            server.stop()
            backend.remove(label)
    finally:
        for server in list(transactional.servers):
            server.stop()


if __name__ == "__main__":
    main()
