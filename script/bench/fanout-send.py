"""One send of script/bench-server's fan-out benchmark: POST /v1/messages to every registered
device, then poll until the message is completed. Prints what it measured, and appends it as a
line of JSON to FIGURES for fanout-compare.py.

Usage: fanout-send.py PORT SERVER_KEY DEVICES unscheduled|scheduled RUN FIGURES

scheduled: the same message at a local time and date that passed a few minutes ago where it came
last (UTC-11), so that in every zone each delivery is scheduled and due at once."""
import datetime
import http.client
import json
import sys
import time

port, key, total, kind, run = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
headers = {"Authorization": "Bearer " + key, "Content-Type": "application/json"}
connection = http.client.HTTPConnection("127.0.0.1", port)

message = {"message": {"title": "Flash sale", "body": "Everything must go", "buttons": [{"id": "buy", "text": "Buy"}]},
           "variants": {"fr": {"title": "Soldes", "body": "Tout doit partir", "buttons": [{"id": "buy", "text": "Acheter"}]}},
           "audience": {"all": True}}
if kind == "scheduled":
    moment = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=11, minutes=5)
    message.update(localTime=moment.strftime("%H:%M"), localDate=moment.strftime("%Y-%m-%d"))
    print(f"the same audience at {message['localTime']} on {message['localDate']} in each of 400 time zones")

started = time.monotonic()
connection.request("POST", "/v1/messages", json.dumps(message), headers)
response = connection.getresponse()
accepted = json.loads(response.read())
if response.status != 202:
    sys.exit(f"sending failed: {response.status} {accepted}")
answered = time.monotonic() - started
fanned_out = None
while True:
    connection.request("GET", "/v1/messages?limit=1", headers=headers)
    state = json.loads(connection.getresponse().read())["items"][0]["state"]
    if fanned_out is None and state not in ("scheduled", "fanningOut"):
        fanned_out = time.monotonic() - started
    if state == "completed":
        break
    time.sleep(0.05)
elapsed = time.monotonic() - started
connection.request("GET", "/v1/messages/" + accepted["id"], headers=headers)
counts = json.loads(connection.getresponse().read())["counts"]

fallbacks = f", timeZoneFallbacks {accepted.get('timeZoneFallbacks')}" if kind == "scheduled" else ""
print(f"POST /v1/messages answered in {answered * 1000:.1f} ms (audienceSize {accepted['audienceSize']}{fallbacks})")
print(f"fan-out to {total} devices: fanned out after {fanned_out:.2f} s, every delivery recorded as sent after "
      f"{elapsed:.1f} s ({total / elapsed:.0f} deliveries/s); counts {counts['byState']}")
with open(sys.argv[6], "a") as figures:
    print(json.dumps({"run": run, "kind": kind, "answeredMilliseconds": answered * 1000, "fannedOut": fanned_out,
                      "elapsed": elapsed, "costMicroseconds": elapsed / total * 1e6}), file=figures)
