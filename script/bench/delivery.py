"""Fan-out and delivery of one message to N devices, end to end, on each storage setup in one run.

For every setup (SQLite, PostgreSQL with one node, PostgreSQL with two nodes) and every run: a
fresh copy of a database holding N registered devices (3/4 iOS, 1/4 Android, a third fr-FR;
registered once per backend through the API), then
POST /v1/messages to all of them and the time until the message is `completed`, that is every
delivery recorded as sent. Two seconds into that fan-out a second app posts a message to its one
device, and the time until that one is sent is the fairness figure.

--sender simulated uses the server's simulated sender; --sender providers uses the real APNs and
FCM senders against a local h2o (HTTP/2, TLS) that accepts every push, echoes apns-id and answers
FCM's token and send endpoints.

Run through script/bench-delivery, which builds the release binary and starts what is needed.
"""

import argparse
import datetime
import base64
import hashlib
import hmac
import http.client
import http.server
import json
import os
import shutil
import socket
import signal
import statistics
import multiprocessing
import subprocess
import sys
import tempfile
import threading
import time

ADMIN = "nb_admin_DomCCGDDQvLH7GlNFEAjsQMBwqzN0HjLUWegbQw9W8w"
SECRET = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="  # base64 of 32 bytes, the same on every node


def stamp(text):
    """Milliseconds of one of the API's timestamps (2026-12-01T17:30:00.123Z)."""
    pattern = "%Y-%m-%dT%H:%M:%S.%f%z" if "." in text else "%Y-%m-%dT%H:%M:%S%z"
    moment = datetime.datetime.strptime(text.replace("Z", "+0000"), pattern)
    return moment.timestamp() * 1000


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid):
    """CPU seconds (user and system, every thread) process `pid` has used; None once it is gone."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS


def thread_cpu(pid):
    """CPU seconds each kind of thread of process `pid` has used, by thread name (digits dropped:
    the database lanes, Swift's shared threads, the checkpointer...)."""
    used = {}
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return used
    for task in tasks:
        try:
            name = open(f"/proc/{pid}/task/{task}/comm").read().strip().rstrip("0123456789-.") or "?"
            fields = open(f"/proc/{pid}/task/{task}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used[name] = used.get(name, 0) + (int(fields[11]) + int(fields[12])) / TICKS
    return used


def writer_schedule(pid):
    """Seconds the SQLite writer thread (`nb-writer`) of process `pid` has run and has waited, ready,
    for a core (/proc schedstat); None without one."""
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            if open(f"/proc/{pid}/task/{task}/comm").read().strip() == "nb-writer":
                ran, waited, _ = open(f"/proc/{pid}/task/{task}/schedstat").read().split()
                return int(ran) / 1e9, int(waited) / 1e9
    except OSError:
        pass
    return None


def postgres_processes():
    """The PostgreSQL server's processes on this machine (every cluster: the bench's is the only
    busy one), by PID."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if open(f"/proc/{entry}/comm").read().startswith("postgres"):
                    found[int(entry)] = process_cpu(entry) or 0
            except OSError:
                pass
    return found


def machine_idle():
    """Seconds every core of the machine spent idle (or waiting for I/O) so far."""
    fields = open("/proc/stat").readline().split()[1:]
    return (int(fields[3]) + int(fields[4])) / TICKS


class CPU:
    """Where a run's CPU time goes, from its start to `done()`: the nodes, PostgreSQL (a backend
    that ends before counts only what it used until the previous reading), this process (the
    webhook receiver, the polling) and the idle rest of the machine's cores."""

    def __init__(self, nodes, receiver=None):
        self.nodes = nodes
        # The receiver's own process counts with the bench's.
        self.receiver = receiver.process.pid if receiver and receiver.process else None
        self.receiver_start = process_cpu(self.receiver) or 0 if self.receiver else 0
        self.started = time.monotonic()
        self.node_start = [process_cpu(node.process.pid) or 0 for node in nodes]
        self.threads_start = thread_cpu(nodes[0].process.pid)
        self.writer_start = writer_schedule(nodes[0].process.pid)
        self.postgres_start = postgres_processes()
        self.own_start = time.process_time()
        self.idle_start = machine_idle()

    def done(self):
        wall = time.monotonic() - self.started
        nodes = sum((process_cpu(node.process.pid) or 0) - start for node, start in zip(self.nodes, self.node_start))
        postgres = sum(used - self.postgres_start.get(pid, 0) for pid, used in postgres_processes().items())
        threads = {name: used - self.threads_start.get(name, 0) for name, used in thread_cpu(self.nodes[0].process.pid).items()}
        receiver = (process_cpu(self.receiver) or 0) - self.receiver_start if self.receiver else 0
        writer = writer_schedule(self.nodes[0].process.pid)
        # The writer's time during the send: running, ready but waiting for a core, and the rest
        # (nothing to do: waiting for the workers' and the fan-out's next call).
        if writer and self.writer_start:
            ran, waited = writer[0] - self.writer_start[0], writer[1] - self.writer_start[1]
            writer = {"ran": ran, "waited": waited, "idle": max(0.0, wall - ran - waited)}
        else:
            writer = None
        return {"wall": wall, "nodes": nodes, "postgres": postgres, "bench": time.process_time() - self.own_start + receiver,
                "idle": machine_idle() - self.idle_start, "cores": os.cpu_count(), "writer": writer,
                "threads": {name: used for name, used in sorted(threads.items(), key=lambda item: -item[1]) if used >= 0.05}}

    @staticmethod
    def describe(used):
        return (f"CPU during the send: nodes {used['nodes']:.1f} s, PostgreSQL {used['postgres']:.1f} s, "
                f"bench process (receiver, polling) {used['bench']:.1f} s, idle {used['idle']:.1f} s "
                f"of {used['cores']} cores x {used['wall']:.1f} s; the first node's threads: "
                + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in used["threads"].items())
                + (f"; the writer ran {used['writer']['ran']:.2f} s, waited for a core {used['writer']['waited']:.2f} s, "
                   f"had nothing to do {used['writer']['idle']:.2f} s" if used.get("writer") else ""))


class Node:
    def __init__(self, binary, work, name, port, database, sender, peer, extra=()):
        self.port = port
        data = os.path.join(work, "data-" + name)
        os.makedirs(data, exist_ok=True)
        key = os.path.join(work, "secret.key")
        with open(key, "w") as f:
            f.write(SECRET)
        command = [binary, "serve", "--listen", f"127.0.0.1:{port}", "--data-dir", data, "--secret-key-file", key,
                   "--no-access-log", "--log-level", "warning", "--rate-limit-server", "0", "--rate-limit-client", "0",
                   "--rate-limit-admin", "0", "--max-body-bytes", "8388608"]
        if database:
            command += ["--database", database]
        if sender == "simulated":
            command += ["--sender", "simulated"]
        else:
            command += ["--apns-url", peer["url"], "--apns-ca", peer["ca"], "--fcm-url", peer["url"],
                        "--fcm-token-url", peer["url"] + "/token", "--fcm-ca", peer["ca"]]
        command += list(extra)
        self.log = open(os.path.join(work, f"server-{name}.log"), "w")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT,
                                        env={**os.environ, "NOTIBASE_ADMIN_KEY": ADMIN})
        for _ in range(300):
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                c.request("GET", "/healthz")
                if c.getresponse().status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        sys.exit(f"bench: node {name} did not start; see {self.log.name}")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Client:
    def __init__(self, port, key):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.headers = {"Authorization": "Bearer " + key, "Content-Type": "application/json"}

    def call(self, method, path, body=None, expect=(200, 201, 202)):
        self.connection.request(method, path, None if body is None else json.dumps(body), self.headers)
        response = self.connection.getresponse()
        data = response.read()
        if response.status not in expect:
            sys.exit(f"bench: {method} {path} answered {response.status}: {data[:300]!r}")
        return json.loads(data) if data else None


class Receiver:
    """A local webhook endpoint that verifies every request's Standard Webhooks signature (HMAC-SHA256
    of `id.timestamp.body` under the secret) and counts the events (by their keys; every 20th body
    parsed too, which must agree); when `delivery.sent` events arrive, and when the last one did.

    It runs in a process of its own (at nice `niceness`): in the bench's process its work held
    Python's lock beside the thread that watches the send, whose time it measures; and a receiver
    is another machine's, so `--receiver-nice` can give it only what the server leaves."""

    def __init__(self, niceness=0):
        context = multiprocessing.get_context("fork")
        # sent, events, batches, bad, when the last delivery.sent arrived (monotonic, 0: none).
        self.counts = context.Array("d", 5)
        self.secret_text = context.Array("c", 256)
        ready, told = context.Pipe(duplex=False)
        self.process = context.Process(target=Receiver.serve, args=(self.counts, self.secret_text, told, niceness), daemon=True)
        self.process.start()
        self.port = ready.recv()

    @property
    def secret(self):
        return self.secret_text.value.decode()

    @secret.setter
    def secret(self, value):
        self.secret_text.value = value.encode()

    @property
    def sent(self):
        return int(self.counts[0])

    def totals(self):
        with self.counts.get_lock():
            sent, events, batches, bad, last = self.counts[:]
        return int(sent), int(events), int(batches), int(bad), (last or None)

    @staticmethod
    def serve(counts, secret_text, told, niceness):
        if niceness:
            os.nice(niceness)
        batches = [0]
        lock = threading.Lock()

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *_):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                signed = f"{self.headers['webhook-id']}.{self.headers['webhook-timestamp']}.".encode() + body
                key = base64.b64decode(secret_text.value.decode().removeprefix("whsec_"))
                expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
                valid = expected in self.headers.get("webhook-signature", "").split(" ")
                # Counted by the keys the server writes, not parsed: Python's json module took more
                # than a second of the machine's two cores in a 300,000-device send, beside the
                # server it measures. Every event, and the envelope, has one "type"; none of these
                # events' data has one. Every 20th batch is parsed as well, and must agree.
                events = body.count(b'"type":"') - 1 if valid else 0
                sent = body.count(b'"type":"delivery.sent"') if valid else 0
                with lock:
                    batches[0] += 1
                    check = valid and batches[0] % 20 == 1
                if check:
                    parsed = json.loads(body)["data"]["events"]
                    if len(parsed) != events or sum(1 for event in parsed if event["type"] == "delivery.sent") != sent:
                        valid = False
                with counts.get_lock():
                    counts[0] += sent
                    counts[1] += events
                    counts[2] += 1
                    counts[3] += 0 if valid else 1
                    if sent:
                        counts[4] = time.monotonic()
                self.send_response(204 if valid else 400)
                self.end_headers()

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        told.send(server.server_address[1])
        server.serve_forever()

    def stop(self):
        self.process.terminate()
        self.process.join(5)


class NativeReceiver:
    """The same endpoint as `Receiver`, in C (script/bench/webhook-receiver.c): each request's
    signature verified with OpenSSL's HMAC, its events counted by the same keys (and by each
    event's "data" as a check), in a fifth of the Python receiver's CPU. It prints a line per
    request, which a thread of the bench adds up."""

    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "webhook-receiver.c")

    @staticmethod
    def build(work):
        compiler = shutil.which("cc") or shutil.which("clang") or shutil.which("gcc")
        if not compiler:
            sys.exit("bench: no C compiler for the webhook receiver (cc, clang or gcc); --receiver python needs none")
        path = os.path.join(work, "webhook-receiver")
        subprocess.run([compiler, "-O2", "-Wall", "-o", path, NativeReceiver.source, "-lcrypto"], check=True)
        return path

    def __init__(self, path, niceness=0):
        self._secret = None
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                        preexec_fn=(lambda: os.nice(niceness)) if niceness else None)
        self.port = int(self.process.stdout.readline())
        self.lock = threading.Lock()
        self.counts = [0, 0, 0, 0, 0.0]
        # Connections the server opened to it: fewer than batches when it keeps them.
        self.connections = 0
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        for line in self.process.stdout:
            sent, events, valid, at, connection = line.split()
            with self.lock:
                self.connections = max(self.connections, int(connection))
                self.counts[0] += int(sent)
                self.counts[1] += int(events)
                self.counts[2] += 1
                self.counts[3] += 0 if valid == "1" else 1
                if int(sent):
                    self.counts[4] = int(at) / 1e9

    @property
    def secret(self):
        return self._secret

    @secret.setter
    def secret(self, value):
        self._secret = value
        self.process.stdin.write(value + "\n")
        self.process.stdin.flush()

    @property
    def sent(self):
        with self.lock:
            return self.counts[0]

    def totals(self):
        with self.lock:
            sent, events, batches, bad, last = self.counts
        return sent, events, batches, bad, (last or None)

    def stop(self):
        self.process.kill()
        self.process.wait(5)


class DownEndpoint:
    """`--receiver down`: an endpoint nothing listens on (a port bound and let go), as a customer's
    endpoint that is down through a send: every event is recorded in the send's transactions and
    waits, and the dispatcher's attempts fail at once and back off (5 s, then 1 min). The send's
    time against the same send with no endpoint is what recording the events costs, without
    reading, signing or posting them."""

    process = None
    secret = None

    def __init__(self):
        probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()

    def stop(self):
        pass


def make_app(port, name, credentials):
    app = Client(port, ADMIN).call("POST", "/v1/apps", {"name": name})
    client = Client(port, app["serverKey"])
    if credentials:
        client.call("PUT", f"/v1/apps/{app['id']}/credentials/apns", credentials["apns"])
        client.call("PUT", f"/v1/apps/{app['id']}/credentials/fcm", credentials["fcm"])
    return app


def register(port, key, total):
    client = Client(port, key)
    for start in range(0, total, 10000):
        devices = [{"platform": "android" if n % 4 == 0 else "ios",
                    "token": ("fcm-%024x" % n) if n % 4 == 0 else ("%064x" % n),
                    "locale": "fr-FR" if n % 3 == 0 else "en-US"} for n in range(start, min(total, start + 10000))]
        client.call("POST", "/v1/devices/batch", {"devices": devices})


def wait_completed(client, message_id, interval):
    """Polls the app's newest message (the list answers without counting deliveries, so polling
    costs the server little), then reads the message with its counts once."""
    while True:
        newest = client.call("GET", "/v1/messages?limit=1")["items"][0]
        if newest["id"] != message_id:
            sys.exit("bench: the app's newest message is not the one sent")
        if newest["state"] in ("completed", "failed", "cancelled"):
            return client.call("GET", f"/v1/messages/{message_id}")
        time.sleep(interval)


def prepare(backend, args, binary, work, peer, credentials, postgres, index=0):
    """Registers the devices once per backend (and build: `index`) into a template (a data
    directory for SQLite, a database for PostgreSQL) that every run copies, so each run starts
    from the same state."""
    database = None
    name = f"bench_template_{index}"
    if backend == "postgres":
        database = postgres.rsplit("/", 1)[0] + "/" + name
        subprocess.run(["psql", postgres, "-q", "-c", f"DROP DATABASE IF EXISTS {name}", "-c", f"CREATE DATABASE {name}"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    directory = os.path.join(work, f"template-{backend}-{index}")
    os.makedirs(directory)
    node = Node(binary, directory, "0", args.port, database, args.sender, peer)
    try:
        big = make_app(node.port, "campaigns", credentials)
        small = make_app(node.port, "resets", credentials)
        started = time.monotonic()
        register(node.port, big["serverKey"], args.devices)
        register(node.port, small["serverKey"], 1)
        print(f"{backend} template: {args.devices} devices registered in {time.monotonic() - started:.0f} s "
              f"(POST /v1/devices/batch, 10,000 per request)", flush=True)
    finally:
        node.stop()
    if database:
        subprocess.run(["psql", database, "-q", "-c", "VACUUM ANALYZE"], check=True, stdout=subprocess.DEVNULL)
    return {"directory": directory, "database": database, "name": name, "big": big, "small": small}


def one_run(setup, run, args, binary, work, peer, template, postgres):
    webhook = setup.endswith("-webhook")
    base = setup.removesuffix("-webhook")
    nodes_count = 2 if base == "postgres-2" else 1
    database = None
    directory = os.path.join(work, f"{setup}-{run}-{template['name']}")
    if base.startswith("postgres"):
        name = f"bench_{setup.replace('-', '_')}_{run}_{template['name']}"
        subprocess.run(["psql", postgres, "-q", "-c", f"DROP DATABASE IF EXISTS {name}", "-c", f"CREATE DATABASE {name} TEMPLATE {template['name']}"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        database = postgres.rsplit("/", 1)[0] + "/" + name
        os.makedirs(directory)
    else:
        shutil.copytree(os.path.join(template["directory"], "data-0"), os.path.join(directory, "data-0"))
    extra = args.serve_args.split() + (["--webhook-allow-insecure"] if webhook else [])
    nodes = [Node(binary, directory, f"{n}", args.port + n, database, args.sender, peer, extra)
             for n in range(nodes_count)]
    receiver = None
    if webhook:
        receiver = (NativeReceiver(args.native_receiver, args.receiver_nice) if args.receiver == "native"
                    else DownEndpoint() if args.receiver == "down" else Receiver(args.receiver_nice))
    try:
        big, small = template["big"], template["small"]
        # Let the nodes settle before the clock runs.
        time.sleep(3)
        before = load()
        client = Client(nodes[0].port, big["serverKey"])
        if receiver:
            # Every event type (types omitted), to a receiver that verifies and counts.
            endpoint = client.call("POST", "/v1/webhooks", {"url": f"http://127.0.0.1:{receiver.port}/events"})
            receiver.secret = endpoint["secret"]
        message = {"message": {"title": "Flash sale", "body": "Everything must go", "buttons": [{"id": "buy", "text": "Buy"}]},
                   "variants": {"fr": {"title": "Soldes", "body": "Tout doit partir", "buttons": [{"id": "buy", "text": "Acheter"}]}},
                   "audience": {"all": True}}
        fairness = {}

        def probe():
            time.sleep(2)
            reset = Client(nodes[-1].port, small["serverKey"])
            posted = time.monotonic()
            answer = reset.call("POST", "/v1/messages", {"message": {"title": "Your code is 123456"}, "audience": {"all": True}})
            wait_completed(reset, answer["id"], 0.005)
            fairness["seconds"] = time.monotonic() - posted
            # Where the probe's time went, from the server's own record of it (milliseconds).
            record = reset.call("GET", f"/v1/messages/{answer['id']}")
            delivery = reset.call("GET", f"/v1/messages/{answer['id']}/deliveries")["items"][0]
            sent = next(entry["at"] for entry in delivery["history"] if entry["event"] == "sent")
            created = stamp(record["createdAt"])
            fairness["phases"] = (stamp(delivery["createdAt"]) - created, stamp(sent) - created, stamp(record["finishedAt"]) - created)

        prober = threading.Thread(target=probe)
        if database and args.statements:
            subprocess.run(["psql", database, "-q", "-c", "CREATE EXTENSION IF NOT EXISTS pg_stat_statements", "-c", "SELECT pg_stat_statements_reset()"],
                           check=True, stdout=subprocess.DEVNULL)
        cpu = CPU(nodes, receiver)
        t0 = time.monotonic()
        accepted = client.call("POST", "/v1/messages", message)
        answered = time.monotonic() - t0
        prober.start()
        final = wait_completed(client, accepted["id"], 0.05)
        elapsed = time.monotonic() - t0
        result_cpu = cpu.done()
        prober.join()
        sent = final["counts"]["byState"].get("sent", 0)
        if final["state"] != "completed" or sent != args.devices:
            sys.exit(f"bench: {setup} run {run}: state {final['state']}, counts {final['counts']['byState']}")
        result = {"setup": setup, "run": run, "answered_ms": answered * 1000, "seconds": elapsed, "rate": args.devices / elapsed,
                  "fairness": fairness.get("seconds"), "load_before": before, "load_after": load(), "cpu": result_cpu}
        if isinstance(receiver, DownEndpoint):
            print(f"{setup:11} run {run}: webhook: the endpoint is down; the send's events were recorded and wait for it", flush=True)
        elif receiver:
            # Every delivery's `delivery.sent` (and the probe's, which goes to another app): how long
            # after the send's last delivery was recorded the receiver had the last of them.
            deadline = time.monotonic() + 600
            while receiver.sent < args.devices and time.monotonic() < deadline:
                time.sleep(0.05)
            sent, events, batches, bad, last_sent_at = receiver.totals()
            result["events_sent"], result["events"], result["batches"], result["bad"] = sent, events, batches, bad
            result["last_event_after"] = (last_sent_at - t0 - elapsed) if last_sent_at else None
            if result["events_sent"] < args.devices or result["bad"]:
                sys.exit(f"bench: {setup} run {run}: {result['events_sent']} delivery.sent events of {args.devices}, {result['bad']} badly signed or miscounted")
            # The C receiver counts the connections the server opened (a receiver a run).
            connections = getattr(receiver, "connections", None)
            if connections is not None:
                result["connections"] = connections
            on = f" on {connections:,} connections" if connections is not None else ""
            print(f"{setup:11} run {run}: webhook: {result['events']:,} events in {result['batches']:,} batches{on}, every one verified; "
                  f"the last delivery.sent arrived {result['last_event_after']:.1f} s after the send completed "
                  f"({result['events'] / (elapsed + max(0, result['last_event_after'])):,.0f} events/s)", flush=True)
        print(f"{setup:11} run {run}: POST answered {result['answered_ms']:.0f} ms; all {args.devices} sent after {elapsed:.1f} s "
              f"({result['rate']:,.0f}/s); one-device message during it sent after {result['fairness']:.3f} s "
              f"(fanned out, sent, completed at {', '.join(f'{ms:.0f}' for ms in fairness['phases'])} ms); "
              f"load {before} -> {result['load_after']}", flush=True)
        print(f"{setup:11} run {run}: {CPU.describe(result_cpu)}", flush=True)
        if database and args.statements:
            statements(database, args.devices)
        return result
    finally:
        for node in nodes:
            node.stop()
        if receiver:
            receiver.stop()
        shutil.rmtree(directory, ignore_errors=True)
        if database:
            subprocess.run(["psql", postgres, "-q", "-c", f"DROP DATABASE IF EXISTS {database.rsplit('/', 1)[1]}"],
                           stdout=subprocess.DEVNULL)


def statements(database, devices):
    """What PostgreSQL spent the run's time on, per statement of this database: time inside the
    server (all sessions together, so more than the run's length when they overlap), and per
    delivery the time, the buffers touched and the WAL written."""
    query = f"""
        SELECT round((total_exec_time / 1000)::numeric, 1), calls, round((total_exec_time * 1000 / {devices})::numeric, 1),
               round(shared_blks_hit::numeric / {devices}, 1), round(wal_bytes / {devices}),
               left(regexp_replace(query, '\\s+', ' ', 'g'), 90)
        FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        ORDER BY total_exec_time DESC LIMIT 8"""
    answer = subprocess.run(["psql", database, "-AtF", "\t", "-c", query], capture_output=True, text=True)
    if answer.returncode != 0:
        print(f"  statements: psql failed: {answer.stderr.strip()}", flush=True)
        return
    rows = answer.stdout
    print("  statements: server s, calls, per delivery: us, buffers, WAL bytes; statement", flush=True)
    for line in rows.splitlines():
        print("    " + "  ".join(line.split("\t")), flush=True)


def summary(label, values, unit, digits):
    median = statistics.median(values)
    return f"{label} median {median:.{digits}f} {unit} (runs: {', '.join(f'{v:.{digits}f}' for v in values)}; spread {min(values):.{digits}f}-{max(values):.{digits}f})"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--against", help="a second notibase binary (an earlier build) run in turn with --binary, "
                                          "every run of each setup, each on a template of the same devices it registered itself")
    parser.add_argument("--devices", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--setups", default="sqlite,postgres-1,postgres-2",
                        help="any of sqlite, postgres-1, postgres-2, each also with -webhook: the same with an endpoint "
                             "subscribed to every event, at a local receiver that verifies and counts (the nodes run "
                             "with --webhook-allow-insecure)")
    parser.add_argument("--sender", choices=["simulated", "providers"], default="simulated")
    parser.add_argument("--postgres", help="URL of a PostgreSQL server to make databases in")
    parser.add_argument("--peer-url")
    parser.add_argument("--peer-ca")
    parser.add_argument("--credentials", help="JSON file: the APNs and FCM credentials to upload")
    parser.add_argument("--port", type=int, default=18600)
    parser.add_argument("--receiver-nice", type=int, default=0,
                        help="the webhook receiver's nice value (its own process; a receiver is another machine's)")
    parser.add_argument("--receiver", choices=["native", "python", "down"], default="native",
                        help="the webhook receiver: native (C, script/bench/webhook-receiver.c) or python (http.server), "
                             "both verifying every signature and counting every event; or down (nothing listens: the events "
                             "are recorded and wait, so the send pays for recording them only)")
    parser.add_argument("--serve-args", default="", help="more arguments for every notibase serve, for experiments")
    parser.add_argument("--statements", action="store_true",
                        help="after each PostgreSQL run, the statements that took its time (pg_stat_statements; "
                             "script/bench-delivery loads it)")
    args = parser.parse_args()
    setups = args.setups.split(",")
    peer = {"url": args.peer_url, "ca": args.peer_ca}
    credentials = json.load(open(args.credentials)) if args.credentials else None
    work = tempfile.mkdtemp(prefix="notibase-bench-")
    if args.receiver == "native" and any(setup.endswith("-webhook") for setup in setups):
        args.native_receiver = NativeReceiver.build(work)
    print(f"machine: {os.cpu_count()} cores, {os.uname().sysname} {os.uname().release}; {args.devices} devices, "
          f"sender {args.sender}, {args.runs} runs of {', '.join(setups)} (interleaved)", flush=True)
    results = []
    try:
        templates = {}
        binaries = [args.binary] + ([args.against] if args.against else [])
        for backend in dict.fromkeys("postgres" if setup.startswith("postgres") else "sqlite" for setup in setups):
            # One per build: a build refuses a schema it does not know (an earlier build a newer
            # one, and a build after a squash of unreleased migrations one written between releases).
            for index, binary in enumerate(binaries):
                templates[(backend, binary)] = prepare(backend, args, binary, work, peer, credentials, args.postgres, index)
        # Interleaved (sqlite, postgres-1, postgres-2, sqlite, ...), so a change in the machine's
        # load over the run touches every setup alike.
        for run in range(1, args.runs + 1):
            for setup in setups:
                backend = "postgres" if setup.startswith("postgres") else "sqlite"
                for binary in binaries:
                    if args.against:
                        print(f"{setup:11} run {run} with {binary}", flush=True)
                    result = one_run(setup, run, args, binary, work, peer, templates[(backend, binary)], args.postgres)
                    result["binary"] = binary
                    results.append(result)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("== summary")
    for setup in setups:
        for binary in dict.fromkeys(r["binary"] for r in results):
            mine = [r for r in results if r["setup"] == setup and r["binary"] == binary]
            label = f"{setup:11} " + (f"{binary} " if args.against else "")
            print(label + summary("all sent:", [r["seconds"] for r in mine], "s", 1))
            print(label + summary("deliveries/s:", [r["rate"] for r in mine], "", 0))
            print(label + summary("one-device message sent after:", [r["fairness"] for r in mine], "s", 3))
            for part, name in (("nodes", "nodes' CPU"), ("postgres", "PostgreSQL's CPU"), ("bench", "bench process's CPU"), ("idle", "idle CPU")):
                if part != "postgres" or setup.startswith("postgres"):
                    print(label + summary(f"{name} during the send:", [r["cpu"][part] for r in mine], "s", 1))
            if mine and all(r["cpu"].get("writer") for r in mine):
                for part, name in (("ran", "ran"), ("waited", "waited for a core"), ("idle", "had nothing to do")):
                    print(label + summary(f"the writer {name} during the send:", [r["cpu"]["writer"][part] for r in mine], "s", 2))
            if mine and "last_event_after" in mine[0]:
                print(label + summary("last delivery.sent event after the send:", [r["last_event_after"] for r in mine], "s", 1))


if __name__ == "__main__":
    main()
