#!/usr/bin/env python3
"""Self-test of check_pooling.py: a consistent fabricated rankings run passes, and each breakage
fails the check meant for it. Runs without a server, standard library only."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_pooling  # noqa: E402

N, Q, P, TEXTS, K = 4, 12, 20, 3, 2
ISL = Q + TEXTS * P
USAGE = TEXTS * (Q + P + K)  # the server counts the query once per passage, plus separators


def write_run(d, recs, summary, console, bodies):
    with open(os.path.join(d, "profile_export.jsonl"), "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")
    with open(os.path.join(d, "profile_export_aiperf.json"), "w") as f:
        json.dump(summary, f)
    with open(os.path.join(d, "profile_export_console.txt"), "w") as f:
        f.write(console)
    with open(os.path.join(d, "inputs.json"), "w") as f:
        json.dump({"data": [{"session_id": f"s{i}", "payloads": [b]} for i, b in enumerate(bodies)]}, f)


def good():
    recs = [{"metadata": {"benchmark_phase": "profiling"}, "error": None,
             "metrics": {"input_sequence_length": {"value": ISL}, "usage_prompt_tokens": {"value": USAGE},
                         "request_latency": {"value": 5.0 + i}}} for i in range(N)]
    summary = {"request_count": {"avg": N}, "request_throughput": {"avg": 9.0},
               "request_latency": {"avg": 6.5}}
    bodies = [{"model": "m", "query": "q", "documents": ["p"] * TEXTS} for _ in range(N)]
    return recs, summary, "NVIDIA AIPerf | Ranking Metrics\n", bodies


def run(parts, extra=()):
    with tempfile.TemporaryDirectory() as d:
        write_run(d, *parts)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = check_pooling.main(["--artifacts", d, "--kind", "rankings", "--request-count", str(N),
                                     "--isl", str(ISL), "--texts", str(TEXTS), "--per-text-overhead", str(K),
                                     "--query-tokens", str(Q), "--title", "Ranking", *extra])
        return rc, out.getvalue()


def failed(text):
    return sorted(line.split()[1].rstrip(":") for line in text.splitlines() if line.startswith("FAIL"))


class CheckPoolingTest(unittest.TestCase):
    def test_good_run_passes(self):
        rc, out = run(good())
        self.assertEqual(rc, 0, out)

    def test_each_breakage_fails_its_check(self):
        cases = []
        recs, s, c, b = good()
        recs[1]["error"] = {"code": 500}
        s["request_count"]["avg"] = N - 1  # the summary counts the successful ones
        cases.append(((recs, s, c, b), ["all_succeeded"]))
        recs, s, c, b = good()
        recs[2]["metrics"]["input_sequence_length"]["value"] = ISL + 1
        recs[2]["metrics"]["usage_prompt_tokens"]["value"] = USAGE + 1
        cases.append(((recs, s, c, b), ["exact_isl"]))
        recs, s, c, b = good()
        recs[0]["metrics"]["usage_prompt_tokens"]["value"] = USAGE - 1
        cases.append(((recs, s, c, b), ["isl_vs_server"]))
        recs, s, c, b = good()
        recs[0]["metrics"]["time_to_first_token"] = {"value": 1.0}
        cases.append(((recs, s, c, b), ["latency_only"]))
        recs, s, c, b = good()
        cases.append(((recs, s, "NVIDIA AIPerf | LLM Metrics", b), ["latency_only"]))
        recs, s, c, b = good()
        b[3]["documents"] = ["p"]
        cases.append(((recs, s, c, b), ["payload"]))
        for parts, want in cases:
            rc, out = run(parts)
            self.assertEqual(rc, 1, out)
            self.assertEqual(failed(out), want, out)

    def test_no_usage_skips_the_server_comparison(self):
        recs, s, c, b = good()
        for r in recs:
            del r["metrics"]["usage_prompt_tokens"]
        rc, out = run((recs, s, c, b), ["--no-usage"])
        self.assertEqual(rc, 0, out)
        self.assertIn("SKIP isl_vs_server", out)


if __name__ == "__main__":
    unittest.main()
