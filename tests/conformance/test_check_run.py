#!/usr/bin/env python3
"""Self-test of check_run.py: a consistent fabricated run passes, and each kind of breakage the
conformance suite exists to catch fails exactly the check meant for it. Runs without a server
(python3 -m unittest, or directly), standard library only."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_run  # noqa: E402

N, ISL, OSL, OVERHEAD = 6, 32, 8, 1


def good_records():
    recs = []
    for i in range(N):
        m = {
            "input_sequence_length": ISL,
            "usage_prompt_tokens": ISL + OVERHEAD,
            "usage_completion_tokens": OSL,
            "output_sequence_length": OSL - (i % 2),  # re-tokenizing differs a little
            "time_to_first_token": 1e6 * (i + 1),
            "request_latency": 5e6 * (i + 1),
            "inter_token_latency": 1e5,
        }
        recs.append({
            "metadata": {"benchmark_phase": "profiling", "request_start_ns": 1000 + i, "x_request_id": f"r{i}"},
            "metrics": {k: {"value": v, "unit": "x"} for k, v in m.items()},
            "error": None,
        })
    return recs


def summary_of(recs):
    s = {"request_count": {"avg": len(recs)}, "request_throughput": {"avg": 3.0},
         "output_token_throughput": {"avg": 20.0}, "benchmark_duration": {"avg": 2.0}}
    for tag in ("input_sequence_length", "request_latency", "time_to_first_token"):
        vals = [r["metrics"][tag]["value"] for r in recs]
        s[tag] = {"avg": sum(vals) / len(vals), "count": len(vals)}
    return s


def raw_records(recs):
    """The raw export of `recs`: llama-server's chat stream shape (a role-only first event, one
    content event per token, then a usage-only event), timed to agree with the records."""
    raws = []
    for i, r in enumerate(recs):
        start = 10**9 * (i + 1)
        ttft_ns = int(r["metrics"]["time_to_first_token"]["value"])
        lat_ns = int(r["metrics"]["request_latency"]["value"])
        # Record metric values above are in ms in real exports; here values are read as ms too.
        resps = [{"perf_ns": start + ttft_ns * 10**6 - 500_000, "kind": "empty", "text": ""}]
        for k in range(OSL):
            t = ttft_ns + (lat_ns - ttft_ns) * k / (OSL - 1)
            resps.append({"perf_ns": start + int(round(t * 10**6)), "kind": "content", "text": "x"})
        resps.append({"perf_ns": resps[-1]["perf_ns"], "kind": "usage", "text": ""})
        raws.append({"metadata": dict(r["metadata"]), "start_perf_ns": start, "requested_output_tokens": OSL,
                     "usage": {"prompt_tokens": ISL + OVERHEAD, "completion_tokens": OSL}, "responses": resps,
                     "error": None})
    return raws


def inputs_json():
    return {"data": [{"session_id": f"s{i}", "payloads": [
        {"messages": [{"role": "user", "content": "x"}], "max_completion_tokens": OSL, "ignore_eos": True,
         "stream": True, "stream_options": {"include_usage": True}}]} for i in range(N)]}


class CheckRunTest(unittest.TestCase):
    def run_check(self, recs, summary=None, raws=None, inputs=None, served_tokens=None, extra=()):
        with tempfile.TemporaryDirectory() as d:
            sub = os.path.join(d, "model-openai-chat-concurrency2")
            os.makedirs(sub)
            with open(os.path.join(sub, "profile_export.jsonl"), "w") as f:
                for r in recs:
                    f.write(json.dumps(r) + "\n")
            with open(os.path.join(sub, "profile_export_aiperf.json"), "w") as f:
                json.dump(summary if summary is not None else summary_of(recs), f)
            if raws is not None:
                with open(os.path.join(sub, "profile_export_raw.jsonl"), "w") as f:
                    for r in raws:
                        f.write(json.dumps(r) + "\n")
            if inputs is not None:
                with open(os.path.join(sub, "inputs.json"), "w") as f:
                    json.dump(inputs, f)
            if served_tokens is not None:
                with open(os.path.join(d, "before.txt"), "w") as f:
                    f.write("# TYPE llamacpp:tokens_predicted_total counter\nllamacpp:tokens_predicted_total 100\n")
                with open(os.path.join(d, "after.txt"), "w") as f:
                    f.write(f"llamacpp:tokens_predicted_total {100 + served_tokens}\nllamacpp:n_decode_total 7\n")
                extra = [*extra, "--server-metrics-before", os.path.join(d, "before.txt"),
                         "--server-metrics-after", os.path.join(d, "after.txt")]
            out_json = os.path.join(d, "report.json")
            args = ["--artifacts", d, "--request-count", str(N), "--isl", str(ISL), "--osl", str(OSL),
                    "--prompt-overhead", str(OVERHEAD), "--streaming", "--endpoint-type", "chat",
                    "--json-out", out_json, *extra]
            with contextlib.redirect_stdout(io.StringIO()):
                rc = check_run.main(args)
            with open(out_json) as f:
                report = json.load(f)
        return rc, {i["check"]: i["status"] for i in report["items"]}

    def assert_only_failure(self, statuses, check):
        failed = sorted(k for k, v in statuses.items() if v == "FAIL")
        self.assertEqual(failed, [check], statuses)

    def test_consistent_run_passes(self):
        recs = good_records()
        rc, st = self.run_check(recs, raws=raw_records(recs), inputs=inputs_json(), served_tokens=N * OSL)
        self.assertEqual(rc, 0, st)
        self.assertEqual(set(st.values()), {"PASS"}, st)

    def test_missing_raw_is_skipped_not_failed(self):
        rc, st = self.run_check(good_records())
        self.assertEqual(rc, 0)
        self.assertEqual((st["payload"], st["stream_structure"], st["server_counters"]), ("SKIP",) * 3)

    def test_server_generating_tokens_no_record_shows_fails_server_counters(self):
        _, st = self.run_check(good_records(), served_tokens=N * OSL + OSL)  # one response lost
        self.assert_only_failure(st, "server_counters")

    def test_failed_request_fails_all_succeeded_only(self):
        # A transport error is one failure, not one per check: the rest look at the successes.
        recs = good_records()
        recs[2]["error"] = {"code": None, "type": "stream_reset", "message": "Connection died"}
        del recs[2]["metrics"]["usage_prompt_tokens"]
        s = summary_of([x for x in recs if not x["error"]])
        s["error_request_count"] = {"avg": 1}
        rc, st = self.run_check(recs, summary=s)
        self.assertEqual(rc, 1)
        self.assert_only_failure(st, "all_succeeded")

    def test_summary_miscounting_errors_fails(self):
        recs = good_records()
        recs[2]["error"] = {"code": 500, "type": "http_status", "message": "boom"}
        _, st = self.run_check(recs, summary=summary_of([x for x in recs if not x["error"]]))
        self.assertEqual(st["artifacts_sane"], "FAIL")  # error_request_count 0, one record failed

    def test_wrong_count_fails(self):
        _, st = self.run_check(good_records()[:-1])
        self.assert_only_failure(st, "all_succeeded")

    def test_every_request_failing_fails_the_accounting_checks_too(self):
        recs = good_records()
        for x in recs:
            x["error"] = {"code": 500, "type": "http_status", "message": "boom"}
        _, st = self.run_check(recs, summary={"request_count": {"avg": 0}, "error_request_count": {"avg": N}},
                               raws=raw_records(recs))
        for check in ("all_succeeded", "isl_vs_server", "exact_isl", "server_osl", "osl_retokenized",
                      "artifacts_sane", "stream_structure"):
            self.assertEqual(st[check], "FAIL", check)

    def test_isl_off_by_one_against_server(self):
        # Our count drifts from the server's on one request (e.g. a tokenizer bug), while the
        # requested length is still what we believe we sent.
        recs = good_records()
        recs[3]["metrics"]["usage_prompt_tokens"]["value"] += 1
        rc, st = self.run_check(recs)
        self.assertEqual(st["isl_vs_server"], "FAIL")
        self.assertEqual(st["exact_isl"], "FAIL")  # the server saw 33 tokens, not 32

    def test_inexact_prompts_fail_or_warn(self):
        recs = good_records()
        for r in recs:
            r["metrics"]["input_sequence_length"]["value"] = ISL + 2
            r["metrics"]["usage_prompt_tokens"]["value"] = ISL + 2 + OVERHEAD
        _, st = self.run_check(recs)
        self.assert_only_failure(st, "exact_isl")
        rc, st = self.run_check(recs, extra=["--exact-isl", "warn"])
        self.assertEqual((rc, st["exact_isl"]), (0, "WARN"))

    def test_server_stopping_early_fails_server_osl(self):
        recs = good_records()
        recs[0]["metrics"]["usage_completion_tokens"]["value"] = OSL - 3
        _, st = self.run_check(recs)
        self.assertEqual(st["server_osl"], "FAIL")

    def test_gross_osl_mismatch_fails_small_one_passes(self):
        recs = good_records()
        recs[1]["metrics"]["output_sequence_length"]["value"] = OSL * 5  # e.g. counted usage JSON text
        _, st = self.run_check(recs)
        self.assert_only_failure(st, "osl_retokenized")

    def test_ttft_not_below_latency_fails(self):
        recs = good_records()
        recs[4]["metrics"]["time_to_first_token"]["value"] = recs[4]["metrics"]["request_latency"]["value"]
        _, st = self.run_check(recs)
        self.assert_only_failure(st, "artifacts_sane")

    def test_summary_disagreeing_with_records_fails(self):
        recs = good_records()
        s = summary_of(recs)
        s["request_latency"]["avg"] *= 1.01
        _, st = self.run_check(recs, summary=s)
        self.assert_only_failure(st, "artifacts_sane")

    def test_zero_throughput_fails(self):
        recs = good_records()
        s = summary_of(recs)
        s["request_throughput"]["avg"] = 0
        _, st = self.run_check(recs, summary=s)
        self.assert_only_failure(st, "artifacts_sane")

    def test_payload_without_include_usage_or_ignore_eos_fails(self):
        for field in ("stream_options", "ignore_eos"):
            inputs = inputs_json()
            del inputs["data"][2]["payloads"][0][field]
            _, st = self.run_check(good_records(), inputs=inputs)
            self.assert_only_failure(st, "payload")

    def test_chatlike_payloads_are_checked_with_their_own_keys(self):
        recs = good_records()

        def payloads(body):
            return {"data": [{"session_id": f"s{i}", "payloads": [dict(body)]} for i in range(N)]}
        responses = payloads({"input": [{"type": "message", "role": "user", "content": []}],
                              "max_output_tokens": OSL, "ignore_eos": True, "stream": True})
        messages = payloads({"messages": [{"role": "user", "content": "x"}], "max_tokens": OSL,
                             "ignore_eos": True, "stream": True})
        for kind, good in (("responses", responses), ("messages", messages)):
            _, st = self.run_check(recs, raws=raw_records(recs), inputs=good, extra=("--endpoint-type", kind))
            self.assertEqual(st["payload"], "PASS", kind)
        # A chat body is neither: no `input`, and no max_output_tokens / max_tokens.
        for kind in ("responses", "messages"):
            _, st = self.run_check(recs, raws=raw_records(recs), inputs=inputs_json(), extra=("--endpoint-type", kind))
            self.assert_only_failure(st, "payload")

    def test_ttft_on_the_role_chunk_fails_stream_structure(self):
        # The classic llama-server pitfall: timing the first token from the role-only event.
        recs = good_records()
        raws = raw_records(recs)
        raws[1]["responses"][0]["kind"] = "content"
        _, st = self.run_check(recs, raws=raws)
        self.assert_only_failure(st, "stream_structure")

    def test_latency_on_the_usage_chunk_fails_stream_structure(self):
        recs = good_records()
        raws = raw_records(recs)
        raws[0]["responses"][-1]["perf_ns"] += 3 * 10**6
        raws[0]["responses"][-1]["kind"] = "content"
        _, st = self.run_check(recs, raws=raws)
        self.assert_only_failure(st, "stream_structure")

    def test_warmup_records_are_ignored(self):
        recs = good_records()
        warm = json.loads(json.dumps(recs[0]))
        warm["metadata"]["benchmark_phase"] = "warmup"
        warm["error"] = {"message": "ignored"}
        rc, st = self.run_check(recs + [warm], summary=summary_of(recs))
        self.assertEqual(rc, 0, st)


if __name__ == "__main__":
    unittest.main()
