#!/usr/bin/env python3
"""Delivery under an API flood (decision 0012): one node on SQLite with the simulated sender,
N registered devices, a message to all of them, and from the moment it is posted a wrk flood for
15 s, either of `GET /v1/messages?limit=1` (server key) or of registrations (`POST /v1/devices`,
script/bench/register.lua); every 3 s the message's state and counts, then the flood's rate.
A priority that lets requests outrank the delivery loops shows here as a message that does not
move while the flood lasts.

Usage: python3 script/bench/flood.py --binary .build/release/notibase --flood gets|registrations [--devices N]
(wrk: script/bootstrap --tests installs it)
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import delivery  # noqa: E402  (the delivery benchmark's node and client)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--flood", choices=["gets", "registrations"], required=True)
    parser.add_argument("--devices", type=int, default=100_000)
    parser.add_argument("--port", type=int, default=18700)
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    work = tempfile.mkdtemp(prefix="notibase-flood-")
    node = delivery.Node(args.binary, work, "0", args.port, None, "simulated", None)
    try:
        app = delivery.make_app(args.port, "flooded", None)
        delivery.register(args.port, app["serverKey"], args.devices)
        client = delivery.Client(args.port, app["serverKey"])
        url = f"http://127.0.0.1:{args.port}"
        if args.flood == "gets":
            command = ["wrk", "-t1", "-c64", "-d15s", "-H", "Authorization: Bearer " + app["serverKey"], url + "/v1/messages?limit=1"]
        else:
            command = ["wrk", "-t1", "-c64", "-d15s", "-s", os.path.join(here, "register.lua"), url]
        message = client.call("POST", "/v1/messages", {"message": {"title": "Flooded"}, "audience": {"all": True}})
        started = time.monotonic()
        flood = subprocess.Popen(command, env={**os.environ, "NOTIBASE_CLIENT_KEY": app["clientKey"]}, stdout=subprocess.PIPE, text=True)
        while flood.poll() is None:
            record = client.call("GET", f"/v1/messages/{message['id']}")
            print(f"{time.monotonic() - started:5.1f} s: {record['state']} {record['counts']['byState']}", flush=True)
            time.sleep(3)
        for line in flood.stdout.read().splitlines():
            if "Requests/sec" in line or "Non-2xx" in line:
                print(f"flood ({args.flood}): {line.strip()}")
    finally:
        node.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
