"""Compares the scheduled and unscheduled sends of script/bench-server --scheduled, run by run
(each pair from the same registered database), from the JSON lines fanout-send.py appended to the file read on stdin."""
import json
import statistics
import sys

sends = [json.loads(line) for line in sys.stdin if line.startswith("{")]
runs = sorted({send["run"] for send in sends})
fan_out, cost = [], []
print("== scheduled vs unscheduled, each send from the same registered database:")
for run in runs:
    pair = {send["kind"]: send for send in sends if send["run"] == run}
    scheduled, unscheduled = pair["scheduled"], pair["unscheduled"]
    fan_out.append(100 * (scheduled["fannedOut"] / unscheduled["fannedOut"] - 1))
    cost.append(100 * (scheduled["costMicroseconds"] / unscheduled["costMicroseconds"] - 1))
    print(f"run {run}: time to fan out {scheduled['fannedOut']:.2f} s vs {unscheduled['fannedOut']:.2f} s ({fan_out[-1]:+.1f}%); "
          f"cost per due delivery {scheduled['costMicroseconds']:.1f} µs vs {unscheduled['costMicroseconds']:.1f} µs ({cost[-1]:+.1f}%); "
          f"POST answered in {scheduled['answeredMilliseconds']:.0f} ms vs {unscheduled['answeredMilliseconds']:.0f} ms")
if len(runs) > 1:
    print(f"median of {len(runs)} runs: time to fan out {statistics.median(fan_out):+.1f}% "
          f"(spread {min(fan_out):+.1f}% to {max(fan_out):+.1f}%), cost per due delivery "
          f"{statistics.median(cost):+.1f}% (spread {min(cost):+.1f}% to {max(cost):+.1f}%)")
