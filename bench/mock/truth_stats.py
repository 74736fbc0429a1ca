#!/usr/bin/env python3
"""Server-side timing precision from a servebench-mock --ground-truth file.

For every token event: lateness = steady_ns (when the write was issued) - due_steady_ns (when
the latency model wanted it). Prints one JSON line with percentiles in microseconds, split into
first-token (TTFT) events and later (inter-token) events. Usage: truth_stats.py FILE [SKIP_S]
(SKIP_S: ignore requests received in the first SKIP_S seconds, the ramp-up; default 1).
"""
import json
import sys


def pct(v, p):
    if not v:
        return 0.0
    return v[min(len(v) - 1, int(p / 100.0 * len(v)))]


def dist(v):
    v = sorted(v)
    return {"n": len(v), "p50_us": round(pct(v, 50), 1), "p90_us": round(pct(v, 90), 1),
            "p99_us": round(pct(v, 99), 1), "p999_us": round(pct(v, 99.9), 1),
            "max_us": round(v[-1], 1) if v else 0.0}


def main():
    path = sys.argv[1]
    skip_ns = float(sys.argv[2] if len(sys.argv) > 2 else 1) * 1e9
    lines = [json.loads(l) for l in open(path) if l.strip()]
    if not lines:
        print("{}")
        return
    t0 = min(l["received_steady_ns"] for l in lines)
    first, later = [], []
    for l in lines:
        if l["received_steady_ns"] - t0 < skip_ns or l["outcome"] != "ok":
            continue
        seen_first = False
        for c in l["chunks"]:
            if c["kind"] not in ("content", "reasoning") or c["tokens"] == 0:
                continue
            late_us = (c["steady_ns"] - c["due_steady_ns"]) / 1e3
            (later if seen_first else first).append(late_us)
            seen_first = True
    print(json.dumps({"requests": len(lines), "ttft_lateness": dist(first),
                      "itl_lateness": dist(later), "all_lateness": dist(first + later)}))


if __name__ == "__main__":
    main()
