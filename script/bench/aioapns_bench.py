"""aioapns (a production Python APNs client) against the same local HTTP/2 TLS peer as
`notibase bench apns`, for script/bench-apns. Prints pushes/s and latency percentiles."""

import argparse
import asyncio
import json
import ssl
import time
import uuid

from aioapns import APNs, NotificationRequest, PushType
from aioapns import connection
from h2.events import ResponseReceived
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def echo_apns_id_from_stream():
    """nghttpd (the shared peer) does not echo apns-id, which aioapns needs to match an answer to
    its request; restore it from aioapns's own stream table (one dictionary lookup per answer)."""
    original = connection.APNsBaseClientProtocol.data_received

    def data_received(self, data):
        receive = self.conn.receive_data

        def receive_with_ids(raw):
            events = receive(raw)
            for event in events:
                if isinstance(event, ResponseReceived) and not any(name == b"apns-id" for name, _ in event.headers):
                    notification_id = self.request_streams.get(event.stream_id)
                    if notification_id:
                        event.headers.append((b"apns-id", notification_id.encode()))
            return events

        self.conn.receive_data = receive_with_ids
        try:
            original(self, data)
        finally:
            self.conn.receive_data = receive

    connection.APNsBaseClientProtocol.data_received = data_received


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--concurrency", type=int, default=1000)
    parser.add_argument("--connections", type=int, default=2)
    parser.add_argument("--token", default="a" * 64)
    parser.add_argument("--payload", required=True, help="the JSON payload file every client sends")
    arguments = parser.parse_args()
    echo_apns_id_from_stream()

    # Point aioapns at the local peer instead of api.push.apple.com.
    connection.APNsProductionClientProtocol.APNS_SERVER = arguments.host
    connection.APNsTLSClientProtocol.APNS_PORT = arguments.port
    context = ssl.create_default_context(cafile=arguments.ca)
    context.set_alpn_protocols(["h2"])
    key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    client = APNs(key=key, key_id="BENCHKEY01", team_id="BENCHTEAM1", topic="com.example.bench",
                  max_connections=arguments.connections, ssl_context=context)
    with open(arguments.payload) as handle:
        payload = json.load(handle)
    latencies = []
    failures = 0
    queue = iter(range(arguments.count))

    async def worker():
        nonlocal failures
        for _ in queue:
            request = NotificationRequest(device_token=arguments.token, message=payload,
                                          notification_id=str(uuid.uuid4()), push_type=PushType.ALERT)
            began = time.perf_counter()
            result = await client.send_notification(request)
            latencies.append(time.perf_counter() - began)
            if not result.is_successful:
                failures += 1

    # Warm up the connections, then measure.
    await asyncio.gather(*(client.send_notification(NotificationRequest(device_token=arguments.token, message=payload, push_type=PushType.ALERT)) for _ in range(50)))
    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(arguments.concurrency)))
    elapsed = time.perf_counter() - start
    latencies.sort()
    pick = lambda fraction: latencies[min(len(latencies) - 1, int(len(latencies) * fraction))] * 1000
    print(f"aioapns: {arguments.count} pushes, {arguments.concurrency} in flight, {arguments.connections} connection(s)")
    print(f"pushes/s: {arguments.count / elapsed:.0f}")
    print(f"latency: p50 {pick(0.5):.2f} ms, p90 {pick(0.9):.2f} ms, p99 {pick(0.99):.2f} ms, max {latencies[-1] * 1000:.2f} ms")
    print(f"failed: {failures}")


asyncio.run(main())
