#!/usr/bin/env python3
"""Schedule lag (request_start − intended) distribution from a profile_export.jsonl, in us."""
import json
import sys

lags = []
with open(sys.argv[1]) as f:
    for line in f:
        m = json.loads(line)["metadata"]
        if m.get("benchmark_phase") == "warmup":
            continue
        lags.append((m["request_start_ns"] - m["intended_ns"]) / 1e3)
lags.sort()


def pct(p):
    k = (len(lags) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(lags) - 1)
    return lags[lo] + (lags[hi] - lags[lo]) * (k - lo)


late = sum(1 for v in lags if v > 1000) / len(lags) * 100
print(f"requests {len(lags)}  lag us: p50 {pct(50):.1f}  p90 {pct(90):.1f}  p99 {pct(99):.1f}  "
      f"p99.9 {pct(99.9):.1f}  max {lags[-1]:.1f}  late>1ms {late:.2f}%")
