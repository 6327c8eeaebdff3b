"""Transactional messages against registrations, in one run (issue 27).

For every setup (an app of N devices with H messages already in its history, on SQLite and, with
--postgres, on PostgreSQL) and every run, a fresh copy of the prepared database and a fresh server,
then with wrk, one after the other:

  1. one-device messages by `deviceIds` (POST /v1/messages, server key, a verification code to one
     registered device per request, cycling over a sample of the app's devices), then the time
     until every message accepted is recorded sent by the accepting sender;
  2. the same by `externalUserIds` (every device is registered with its own user ID, user-N);
  3. registrations (POST /v1/devices, client key, script/bench/register.lua) into the same app.

Messages per second are printed as a share of the registrations per second of the same run.

The app's devices are registered once per backend and size through the batch API (10,000 per
request), then dated eight days back (the app and its devices existed before its history). The
history is written into the stopped server's database directly, spread over the last seven days:
completed one-device messages, each with its one delivery `sent`, shaped as the API writes them
(identifiers in the server's format: UUIDv7, lowercase).

Run through script/bench-transactional, which builds the release binary, starts the throwaway
PostgreSQL and cleans up.
"""

import argparse
import http.client
import itertools
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import time

ADMIN = "nb_admin_DomCCGDDQvLH7GlNFEAjsQMBwqzN0HjLUWegbQw9W8w"
DAY = 86_400_000
SAMPLE = 50_000  # audiences wrk cycles over, at most
CONTENT = json.dumps({"message": {"body": "Your code is 123456", "title": "Code"}}, separators=(",", ":"))
SCRIPTS = os.path.dirname(os.path.abspath(__file__))
servers = []  # running servers, stopped on the way out whatever happens


def load():
    return "load " + " ".join(open("/proc/loadavg").read().split()[:3])


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def identifier(milliseconds, number):
    """An identifier as the server makes them (Identifier.swift): a lowercase UUIDv7 for the time,
    with `number` in its last 32 bits so that those of one table never repeat."""
    bits = random.getrandbits(24)
    return (f"{milliseconds:012x}"[:8] + "-" + f"{milliseconds:012x}"[8:] + f"-7{bits >> 12:03x}-"
            + "89ab"[number % 4] + f"{bits & 0xfff:03x}-{random.getrandbits(16):04x}{number:08x}")


class Server:
    def __init__(self, args, data, database, log):
        self.port = free_port()
        command = [args.binary, "serve", "--listen", f"127.0.0.1:{self.port}", "--data-dir", data,
                   "--sender", "accept", *getattr(args, "limits", ["--rate-limit-server", "0", "--rate-limit-client", "0"]),
                   "--no-access-log", "--log-level", "warning", "--max-body-bytes", "8388608"] + args.serve_extra
        if database:
            command += ["--database", database]
        self.log = log
        with open(log, "ab") as output:
            self.process = subprocess.Popen(command, stdout=output, stderr=output,
                                            env=dict(os.environ, NOTIBASE_ADMIN_KEY=ADMIN))
        servers.append(self)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                if self.call("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        sys.exit(f"bench-transactional: the server did not start:\n{open(log).read()[-2000:]}")

    def call(self, method, path, body=None, key=ADMIN):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        try:
            headers = {"Authorization": "Bearer " + key, "Content-Type": "application/json"}
            connection.request(method, path, None if body is None else json.dumps(body), headers)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def json(self, method, path, body=None, key=ADMIN):
        status, answer = self.call(method, path, body, key)
        if status >= 300:
            sys.exit(f"bench-transactional: {method} {path} answered {status}: {answer[:300]!r}")
        return json.loads(answer)

    def metrics(self):
        """The counters the drain is judged by: POST /v1/messages answered 202, pushes sent, and
        deliveries not yet final."""
        status, text = self.call("GET", "/metrics")
        values = {"posted": 0, "sent": 0, "depth": None}
        for line in text.decode().splitlines():
            if line.startswith('notibase_http_requests_total{route="/v1/messages",method="POST",status="202"}'):
                values["posted"] = int(float(line.split()[-1]))
            elif line.startswith("notibase_sends_total{") and 'outcome="sent"' in line:
                values["sent"] += int(float(line.split()[-1]))
            elif line.startswith("notibase_queue_depth "):
                values["depth"] = int(float(line.split()[-1]))
        return values

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(120)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        servers.remove(self)


class Backend:
    """Where a setup's database lives: a data directory (SQLite) or a database of the cluster
    (PostgreSQL); `copy` makes a fresh one from another, `remove` drops it."""

    def __init__(self, name, work, postgres):
        self.name, self.work, self.postgres = name, work, postgres

    def data(self, label):
        return os.path.join(self.work, f"{self.name}-{label}")

    def url(self, label):
        return self.postgres.rsplit("/", 1)[0] + "/" + label if self.postgres else None

    def psql(self, label, sql, *variables):
        command = ["psql", self.url(label), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1"]
        for variable in variables:
            command += ["-v", variable]
        done = subprocess.run(command, input=sql, text=True, capture_output=True)
        if done.returncode != 0:
            sys.exit(f"bench-transactional: psql on {label} failed: {done.stderr}")
        return done.stdout

    def create(self, label, template=None):
        if template:
            shutil.copytree(self.data(template), self.data(label))
        else:
            os.makedirs(self.data(label))
        if self.postgres:
            self.psql("postgres", f"CREATE DATABASE {label}" + (f" TEMPLATE {template}" if template else ""))

    def remove(self, label):
        shutil.rmtree(self.data(label), ignore_errors=True)
        if self.postgres:
            self.psql("postgres", f"DROP DATABASE IF EXISTS {label}")

    def start(self, args, label, note):
        return Server(args, self.data(label), self.url(label), os.path.join(self.work, f"{self.name}-{label}-{note}.log"))


def register(args, backend, devices):
    """An app of `devices` devices (3/4 iOS, 1/4 Android, a third fr-FR, each with its own user
    ID), then the app and its devices dated eight days back. Returns the database's label and keys."""
    label = f"registered_{devices}"
    backend.create(label)
    server = backend.start(args, label, "register")
    app = server.json("POST", "/v1/apps", {"name": "transactional"})
    began = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
    for start in range(0, devices, 10_000):
        batch = [{"platform": "android" if n % 4 == 0 else "ios",
                  "token": f"fcm-{n:024x}" if n % 4 == 0 else f"{n:064x}",
                  "locale": "fr-FR" if n % 3 == 0 else "en-US",
                  "externalUserId": f"user-{n}"} for n in range(start, min(devices, start + 10_000))]
        connection.request("POST", "/v1/devices/batch", json.dumps({"devices": batch}),
                           {"Authorization": "Bearer " + app["serverKey"], "Content-Type": "application/json"})
        response = connection.getresponse()
        answer = response.read()
        if response.status != 200:
            sys.exit(f"bench-transactional: batch registration answered {response.status}: {answer[:300]!r}")
    connection.close()
    server.stop()
    print(f"   {backend.name}: {devices:,} devices registered through the batch API in {time.monotonic() - began:.1f} s", flush=True)
    backdate = f"UPDATE apps SET created_at = created_at - {8 * DAY}; UPDATE devices SET created_at = created_at - {8 * DAY}, updated_at = updated_at - {8 * DAY};"
    if backend.postgres:
        backend.psql(label, backdate)
    else:
        with sqlite3.connect(os.path.join(backend.data(label), "notibase.sqlite")) as database:
            database.executescript(backdate)
    return label, app


def history_sqlite(path, count):
    """`count` completed one-device messages over the last seven days, each with its delivery sent
    (the rows the API writes for one, with the accepting sender's provider ID), half of them to a
    device ID and half to a user ID."""
    database = sqlite3.connect(path)
    targets = database.execute("SELECT seq, id, platform, external_user_id FROM devices ORDER BY seq").fetchall()
    app = database.execute("SELECT id FROM apps").fetchone()[0]
    first = database.execute("SELECT coalesce(max(seq), 0) FROM messages").fetchone()[0] + 1
    now = int(time.time() * 1000)
    start = now - 7 * DAY

    def rows():
        for n in range(count):
            seq, device, platform, user = random.choice(targets)
            at = start + n * (7 * DAY - 60_000) // count
            audience = {"deviceIds": [device]} if n % 2 == 0 else {"externalUserIds": [user]}
            delivery = identifier(at + 1, n)
            yield ((first + n, identifier(at, n), app, CONTENT, json.dumps(audience, separators=(",", ":")),
                    at, seq, at, at + 2),
                   (delivery, first + n, seq, platform, "accepted-" + delivery, at + 2, at + 1, at + 2))

    generator = rows()
    with database:
        while batch := list(itertools.islice(generator, 100_000)):
            database.executemany(
                "INSERT INTO messages (seq, id, app_id, content, audience, state, send_at, audience_size, fanout_cursor, created_at, finished_at)"
                " VALUES (?, ?, ?, ?, ?, 'completed', ?, 1, ?, ?, ?)", [message for message, _ in batch])
            database.executemany(
                "INSERT INTO deliveries (id, message_seq, device_seq, platform, state, attempts, provider_id, sent_at, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, 'sent', 1, ?, ?, ?, ?)", [delivery for _, delivery in batch])
    database.close()


def history_postgres(backend, label, count):
    """The same history as history_sqlite, written by PostgreSQL itself (generate_series), in the
    weekly partitions of its deliveries."""
    backend.psql(label, """
        CREATE FUNCTION pg_temp.bench_id(milliseconds BIGINT, number BIGINT) RETURNS TEXT LANGUAGE sql VOLATILE AS $$
            SELECT substr(t, 1, 8) || '-' || substr(t, 9, 4) || '-7' || substr(r, 1, 3) || '-'
                || substr('89ab', 1 + (number % 4)::int, 1) || substr(r, 4, 3) || '-' || substr(r, 7, 4) || lpad(to_hex(number), 8, '0')
            FROM (SELECT lpad(to_hex(milliseconds), 12, '0') AS t, md5(random()::text) AS r) AS parts
        $$;
        CREATE TEMP TABLE targets AS
            SELECT row_number() OVER (ORDER BY seq) - 1 AS position, seq, id, platform, external_user_id FROM devices;
        CREATE TEMP TABLE clock AS SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint - 7 * 86400000 AS start;
        SELECT notibase_make_history_partitions(start, start + 8 * 86400000) FROM clock;
        CREATE TEMP TABLE written (n BIGINT, seq BIGINT, created_at BIGINT);
        WITH inserted AS (
            INSERT INTO messages (id, app_id, content, audience, state, send_at, audience_size, fanout_cursor, created_at, finished_at)
            SELECT pg_temp.bench_id(g.at, g.n), (SELECT id FROM apps), :'content',
                   CASE WHEN g.n % 2 = 0 THEN '{"deviceIds":["' || t.id || '"]}'
                        ELSE '{"externalUserIds":["' || t.external_user_id || '"]}' END,
                   'completed', g.at, 1, t.seq, g.at, g.at + 2
            FROM (SELECT n, start + n * (7 * 86400000 - 60000) / :count AS at,
                         floor(random() * (SELECT count(*) FROM targets))::bigint AS pick
                  FROM generate_series(0::bigint, :count - 1) AS n, clock) AS g
            JOIN targets t ON t.position = g.pick
            ORDER BY g.n
            RETURNING seq, created_at)
        INSERT INTO written SELECT row_number() OVER (ORDER BY seq) - 1, seq, created_at FROM inserted;
        INSERT INTO deliveries (id, message_seq, device_seq, platform, state, attempts, provider_id, sent_at, created_at, updated_at)
        SELECT d.id, w.seq, m.fanout_cursor, t.platform, 'sent', 1, 'accepted-' || d.id, w.created_at + 2, w.created_at + 1, w.created_at + 2
        FROM written w JOIN messages m ON m.seq = w.seq JOIN targets t ON t.seq = m.fanout_cursor,
             LATERAL (SELECT pg_temp.bench_id(w.created_at + 1, w.n) AS id) AS d;
        """, f"content={CONTENT}", f"count={count}")


def prepare(args, backend, devices, history, registered):
    """The database of one setup, kept for every run: the registered app, its history, and the
    audiences wrk cycles over (a random sample of the app's devices)."""
    label, app = registered
    setup = f"setup_{devices}_{history}"
    backend.create(setup, template=label)
    began = time.monotonic()
    if history and backend.postgres:
        history_postgres(backend, setup, history)
    elif history:
        history_sqlite(os.path.join(backend.data(setup), "notibase.sqlite"), history)
    if history:
        print(f"   {backend.name}: {history:,} messages written into the history in {time.monotonic() - began:.1f} s", flush=True)
        # What was written behind the server's back must contradict none of its rules.
        command = [args.binary, "serve", "--check", "--data-dir", backend.data(setup)]
        check = subprocess.run(command + (["--database", backend.url(setup)] if backend.postgres else []), capture_output=True, text=True)
        if check.returncode != 0:
            sys.exit(f"bench-transactional: the history written breaks the server's rules:\n{check.stdout}{check.stderr}")
    if backend.postgres:
        # Statistics, as autovacuum would have made them by the time an app has this many devices
        # and messages (without them, a setup just registered is planned blind: at 20,000 devices
        # and no history, one-device messages ran at a quarter of the rate with them).
        backend.psql(setup, "ANALYZE;")
    query = f"SELECT id, external_user_id FROM devices ORDER BY random() LIMIT {SAMPLE}"
    if backend.postgres:
        sample = [line.split("|") for line in backend.psql(setup, query + ";").split()]
    else:
        with sqlite3.connect(os.path.join(backend.data(setup), "notibase.sqlite")) as database:
            sample = database.execute(query).fetchall()
    files = {}
    for audience, column in (("deviceIds", 0), ("externalUserIds", 1)):
        files[audience] = os.path.join(backend.work, f"{backend.name}-{setup}-{audience}.txt")
        with open(files[audience], "w") as out:
            out.write("".join(row[column] + "\n" for row in sample))
    return setup, app, files


def milliseconds(text):
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60_000}[unit]


def cpu_seconds(process):
    """The CPU time (user and system) a process has used so far, from /proc."""
    with open(f"/proc/{process.pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wrk(args, server, script, environment):
    command = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.duration}s", "--timeout", "30s",
               "--latency", "-s", os.path.join(SCRIPTS, script), f"http://127.0.0.1:{server.port}"]
    cpu = cpu_seconds(server.process)
    output = subprocess.run(command, env=dict(os.environ, **environment), capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(server.process) - cpu
    result = {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
              "requests": int(re.search(r"(\d+) requests in", output).group(1)),
              "p50": milliseconds(re.search(r"^\s+50%\s+(\S+)", output, re.M).group(1)),
              "p99": milliseconds(re.search(r"^\s+99%\s+(\S+)", output, re.M).group(1))}
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    errors = re.search(r"Socket errors: (.*)", output)
    result["non2xx"] = int(non2xx.group(1)) if non2xx else 0
    result["errors"] = errors.group(1) if errors else ""
    # The server's CPU per request while wrk ran (for messages, their sends included, as far as
    # they kept up): what a request costs, whatever else shares the machine.
    result["cpu"] = 1e6 * cpu / max(1, result["requests"])
    return result


def messages(args, server, app, audience, ids):
    """One-device messages for --duration seconds, then the wait until every one accepted is
    recorded sent: `drain` is the time from the end of wrk until then, `e2e` the messages sent per
    second from the start of wrk until the last was sent."""
    before = server.metrics()
    began = time.monotonic()
    result = wrk(args, server, "one-device.lua",
                 {"NOTIBASE_SERVER_KEY": app["serverKey"], "NOTIBASE_AUDIENCE": audience, "NOTIBASE_IDS": ids})
    ended = time.monotonic()
    # Done when the newest message is completed and every message answered 202 has its push sent
    # (each goes to one device), twice in a row with no message answered between (a request still in
    # flight when wrk stopped is stored before it is counted). Not the queue's depth: the server
    # counts it every 10 s in the background, so it lags.
    settled = None
    while True:
        newest = server.json("GET", "/v1/messages?limit=1", key=app["serverKey"])["items"][0]
        now = server.metrics()
        posted, sent = now["posted"] - before["posted"], now["sent"] - before["sent"]
        if newest["state"] == "completed" and sent >= posted:
            if settled and settled[1] == posted:
                break
            settled = (time.monotonic(), posted)
        else:
            settled = None
        if time.monotonic() - ended > args.drain_timeout:
            sys.exit(f"bench-transactional: {sent} of {posted} messages sent {args.drain_timeout} s after wrk ended"
                     f" ({now['depth']} deliveries waiting, the newest message {newest['state']})")
        time.sleep(0.05)
    done = settled[0]
    result.update(posted=posted, sent=sent, drain=done - ended, e2e=sent / (done - began))
    return result


def measure(args, backend, setup, app, files, run):
    """One run of one setup: a fresh copy of its database, a fresh server, the three wrk runs."""
    label = f"run_{setup.removeprefix('setup_')}"
    backend.create(label, template=setup)
    server = backend.start(args, label, f"run{run}")
    try:
        subprocess.run(["wrk", "-t1", "-c4", "-d1s", f"http://127.0.0.1:{server.port}/healthz"], capture_output=True, check=True)
        results = {"load": load()}
        for audience in ("deviceIds", "externalUserIds"):
            results[audience] = messages(args, server, app, audience, files[audience])
        results["registrations"] = wrk(args, server, "register.lua", {"NOTIBASE_CLIENT_KEY": app["clientKey"]})
        results["load"] += " → " + load().removeprefix("load ")
    finally:
        server.stop()
        backend.remove(label)
    return results


def show(name, result, registrations):
    line = (f"   {name:<28} {result['rps']:>9,.0f}/s  p50 {result['p50']:>8.2f} ms  p99 {result['p99']:>8.2f} ms"
            f"  non-2xx {result['non2xx']}  server CPU {result['cpu']:,.0f} µs/request")
    if "drain" in result:
        line += (f"  {100 * result['rps'] / registrations:5.1f}% of registrations"
                 f"  | {result['sent']:,} sent, all {result['drain']:.2f} s after wrk ended ({result['e2e']:,.0f}/s end to end)")
    if result["errors"]:
        line += f"  socket errors: {result['errors']}"
    print(line, flush=True)


def spread(values, unit="", digits=0):
    middle = statistics.median(values)
    text = f"{middle:,.{digits}f}{unit}"
    return text + (f" ({min(values):,.{digits}f}–{max(values):,.{digits}f})" if len(values) > 1 else "")


def summary(args, results):
    print(f"\n== summary: median (spread) of {args.runs} run(s); wrk -t{args.threads} -c{args.connections} -d{args.duration}s", flush=True)
    for backend in dict.fromkeys(key[0] for key in results):
        setups = [key for key in results if key[0] == backend]
        print(f"-- {backend}")
        for key in setups:
            runs = results[key]
            registrations = [r["registrations"]["rps"] for r in runs]
            print(f"   {key[1]:>9,} devices, history {key[2]:>9,}: registrations {spread(registrations)}/s,"
                  f" server CPU {spread([r['registrations']['cpu'] for r in runs], ' µs')}/request")
            for audience in ("deviceIds", "externalUserIds"):
                kind = [r[audience] for r in runs]
                print(f"      by {audience:<15} {spread([k['rps'] for k in kind])}/s = "
                      f"{spread([100 * k['rps'] / r['registrations']['rps'] for k, r in zip(kind, runs)], '%', 1)} of registrations,"
                      f" p50 {spread([k['p50'] for k in kind], ' ms', 2)}, p99 {spread([k['p99'] for k in kind], ' ms', 2)},"
                      f" drained {spread([k['drain'] for k in kind], ' s', 2)} after, server CPU {spread([k['cpu'] for k in kind], ' µs')}/message")
        smallest, largest = setups[0], setups[-1]
        if smallest != largest:
            for audience in ("deviceIds", "externalUserIds"):
                small = statistics.median(r[audience]["p50"] for r in results[smallest])
                large = statistics.median(r[audience]["p50"] for r in results[largest])
                share = min(statistics.median(100 * r[audience]["rps"] / r["registrations"]["rps"] for r in results[key]) for key in setups)
                print(f"   by {audience}: p50 at {largest[1]:,}/{largest[2]:,} is {large / small:.2f}× that at {smallest[1]:,}/{smallest[2]:,}"
                      f" (goal ≤ 2×: {'met' if large <= 2 * small else 'NOT met'}); lowest share of registrations {share:.1f}%"
                      f" (goal ≥ 25%: {'met' if share >= 25 else 'NOT met'})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--postgres", help="URL of the throwaway cluster: every setup runs on it as well")
    parser.add_argument("--devices", default="1000 1000000", help="app sizes, a list (default: %(default)s)")
    parser.add_argument("--history", default="0 1000000", help="messages already in the history, a list (default: %(default)s)")
    parser.add_argument("--duration", type=int, default=8, help="seconds of each wrk run (default: %(default)s)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--drain-timeout", type=float, default=300, help="seconds to wait for the messages to be sent")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 1,000 devices, history 0 and 2,000, 2 s each")
    args = parser.parse_args()
    if args.quick:
        args.devices, args.history, args.duration = "1000", "0 2000", 2
    sizes = sorted({int(n) for n in args.devices.replace(",", " ").split()})
    histories = sorted({int(n) for n in args.history.replace(",", " ").split()})
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    help_text = subprocess.run([args.binary, "serve", "--help"], capture_output=True, text=True).stdout
    args.serve_extra = ["--app-messages-per-minute", "0"] if "--app-messages-per-minute" in help_text else []
    print(f"serve --sender accept --rate-limit-server 0 --rate-limit-client 0 {' '.join(args.serve_extra)}"
          f"{'' if args.serve_extra else '(this build has no --app-messages-per-minute)'}")
    print(f"setups: devices {', '.join(f'{n:,}' for n in sizes)} × history {', '.join(f'{n:,}' for n in histories)};"
          f" wrk -t{args.threads} -c{args.connections} -d{args.duration}s --timeout 30s; {args.runs} run(s)", flush=True)

    backends = [Backend("sqlite", args.work, None)] + ([Backend("postgres", args.work, args.postgres)] if args.postgres else [])
    results = {}
    try:
        prepared = {}
        for backend in backends:
            print(f"== preparing {backend.name}, {load()}", flush=True)
            for devices in sizes:
                registered = register(args, backend, devices)
                for history in histories:
                    prepared[(backend.name, devices, history)] = (backend, *prepare(args, backend, devices, history, registered))
                backend.remove(registered[0])
        for run in range(1, args.runs + 1):
            for key, (backend, setup, app, files) in prepared.items():
                print(f"== run {run}/{args.runs}, {key[0]}, {key[1]:,} devices, history {key[2]:,}", flush=True)
                outcome = measure(args, backend, setup, app, files, run)
                results.setdefault(key, []).append(outcome)
                registrations = outcome["registrations"]["rps"]
                for audience in ("deviceIds", "externalUserIds"):
                    show(f"messages by {audience}", outcome[audience], registrations)
                show("registrations", outcome["registrations"], registrations)
                print(f"   {outcome['load']}", flush=True)
                failed = [name for name in ("deviceIds", "externalUserIds", "registrations")
                          if outcome[name]["non2xx"] or outcome[name]["errors"]]
                if failed:
                    sys.exit(f"bench-transactional: answers that were not 2xx, or socket errors, in: {', '.join(failed)}")
        summary(args, results)
    finally:
        for server in list(servers):
            server.stop()


if __name__ == "__main__":
    main()
