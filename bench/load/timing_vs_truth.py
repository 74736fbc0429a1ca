#!/usr/bin/env python3
"""Timing error of servebench against servebench-mock's ground-truth file.

Both processes run on one machine and stamp CLOCK_MONOTONIC (steady_clock) ns, so the client's
raw export (start_perf_ns, responses[].perf_ns) and the mock's ground truth (received_steady_ns,
chunks[].steady_ns) are directly comparable. Requests are matched by X-Request-ID.

Reported, as p50 / p99 / p99.9 / max in microseconds:
  delivery   client receive time of content chunk k − server write time of chunk k
             (the client's timestamping error plus loopback delivery; always >= 0)
  ttft       |client TTFT − server TTFT| (client: start → first content; server: request
             received → first content written; includes request transmission)
  gap        |client chunk gap − server chunk gap| for consecutive content chunks

usage: timing_vs_truth.py RAW_JSONL GROUND_TRUTH_JSONL
"""
import json
import sys


def pct(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    k = (len(s) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def main():
    raw_path, gt_path = sys.argv[1], sys.argv[2]
    truth = {}
    with open(gt_path) as f:
        for line in f:
            g = json.loads(line)
            truth[g["x_request_id"]] = g
    delivery, ttft, gap = [], [], []
    matched = 0
    with open(raw_path) as f:
        for line in f:
            r = json.loads(line)
            meta = r.get("metadata", {})
            rid = meta.get("x_request_id")
            g = truth.get(rid)
            if g is None or r.get("error"):
                continue
            if meta.get("benchmark_phase") == "warmup":
                continue
            c_chunks = [e["perf_ns"] for e in r.get("responses", []) if e.get("kind") == "content"]
            s_chunks = [c["steady_ns"] for c in g["chunks"] if c["kind"] == "content"]
            n = min(len(c_chunks), len(s_chunks))
            if n == 0:
                continue
            matched += 1
            for k in range(n):
                delivery.append((c_chunks[k] - s_chunks[k]) / 1e3)
            ttft.append(abs((c_chunks[0] - r["start_perf_ns"]) - (s_chunks[0] - g["received_steady_ns"])) / 1e3)
            for k in range(1, n):
                gap.append(abs((c_chunks[k] - c_chunks[k - 1]) - (s_chunks[k] - s_chunks[k - 1])) / 1e3)
    print(f"matched requests: {matched}, content chunks: {len(delivery)}")
    for name, vals in (("delivery", delivery), ("ttft", ttft), ("gap", gap)):
        print(f"{name:9s} us: p50 {pct(vals, 50):9.1f}  p99 {pct(vals, 99):9.1f}  "
              f"p99.9 {pct(vals, 99.9):9.1f}  max {max(vals) if vals else float('nan'):9.1f}  n={len(vals)}")


if __name__ == "__main__":
    main()
