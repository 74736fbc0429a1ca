#!/usr/bin/env python3
"""Unit tests of tests/parity/side_by_side.py on hand-made artifact folders (no AIPerf needed)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "side_by_side.py")


def write_run(root, name, metrics, extra_files=()):
    d = os.path.join(root, name)
    os.makedirs(d)
    body = {tag: {"unit": "ms", "avg": v} for tag, v in metrics.items()}
    with open(os.path.join(d, "profile_export_aiperf.json"), "w") as f:
        json.dump(body, f)
    for extra in extra_files:
        open(os.path.join(d, extra), "w").close()
    return d


BASE = {"time_to_first_token": 20.0, "inter_token_latency": 4.0, "request_latency": 144.0,
        "input_sequence_length": 128.0, "output_sequence_length": 32.0,
        "output_token_throughput": 880.0, "request_throughput": 27.5}


class SideBySide(unittest.TestCase):
    def run_tool(self, aiperf, servebench, known_rows=(), expect=(), label="chat-stream-concurrency"):
        with tempfile.TemporaryDirectory() as tmp:
            a = [write_run(tmp, f"a{i}", m) for i, m in enumerate(aiperf)]
            s = [write_run(tmp, f"s{i}", m) for i, m in enumerate(servebench)]
            known = os.path.join(tmp, "known.tsv")
            with open(known, "w") as f:
                f.write("# comment\n")
                for row in known_rows:
                    f.write("\t".join(row) + "\n")
            cmd = [sys.executable, SCRIPT, "--label", label, "--known", known, "--aiperf", *a,
                   "--servebench", *s]
            if expect:
                cmd += ["--expect", *expect]
            p = subprocess.run(cmd, capture_output=True, text=True)
            return p.returncode, p.stdout + p.stderr

    def test_equal_runs_pass(self):
        rc, out = self.run_tool([BASE, BASE], [BASE, BASE])
        self.assertEqual(rc, 0, out)
        self.assertNotIn("FAIL", out)

    def test_a_metric_beyond_the_tolerance_fails(self):
        rc, out = self.run_tool([BASE, BASE], [dict(BASE, request_latency=160.0)] * 2)
        self.assertEqual(rc, 1, out)
        self.assertIn("FAIL chat-stream-concurrency metrics request_latency", out)

    def test_token_counts_have_no_relative_slack(self):
        rc, out = self.run_tool([dict(BASE, input_sequence_length=290.0)], [dict(BASE, input_sequence_length=288.0)])
        self.assertEqual(rc, 1, out)
        self.assertIn("FAIL chat-stream-concurrency metrics input_sequence_length", out)

    def test_a_metric_neither_tool_reports_passes_one_missing_fails(self):
        neither = {k: v for k, v in BASE.items() if k != "time_to_first_token"}
        rc, out = self.run_tool([neither], [neither])
        self.assertEqual(rc, 0, out)
        self.assertIn("PASS chat-stream-concurrency metrics time_to_first_token: reported by neither", out)
        rc, out = self.run_tool([BASE], [neither])
        self.assertEqual(rc, 1, out)
        self.assertIn("FAIL chat-stream-concurrency metrics time_to_first_token: absent", out)

    def test_known_rows_apply_to_matching_scenarios_only(self):
        row = ("*concurrency", "metrics", "request_latency", "AIPerf adds client time")
        slow = [dict(BASE, request_latency=160.0)]
        rc, out = self.run_tool(slow, [BASE], known_rows=[row])
        self.assertEqual(rc, 0, out)
        self.assertIn("KNOWN chat-stream-concurrency metrics request_latency", out)
        rc, out = self.run_tool(slow, [BASE], known_rows=[row], label="chat-nostream-rate")
        self.assertEqual(rc, 1, out)

    def test_servebench_is_held_to_the_injected_value(self):
        rc, out = self.run_tool([BASE], [dict(BASE, time_to_first_token=25.0)],
                                expect=["time_to_first_token=20:3"],
                                known_rows=[("*", "metrics", "time_to_first_token", "why")])
        self.assertEqual(rc, 1, out)
        self.assertIn("FAIL chat-stream-concurrency injected time_to_first_token", out)

    def test_a_known_row_does_not_excuse_servebench_being_further_from_the_injected_value(self):
        # Both within the injected tolerance, apart from each other, AIPerf the closer: the
        # known row's reason ("servebench is closer") is false here.
        rc, out = self.run_tool([dict(BASE, time_to_first_token=20.1)], [dict(BASE, time_to_first_token=22.5)],
                                expect=["time_to_first_token=20:3"],
                                known_rows=[("*", "metrics", "time_to_first_token", "servebench closer")])
        self.assertEqual(rc, 1, out)
        self.assertIn("AIPerf is the closer", out)

    def test_missing_files_fail_unless_known(self):
        with tempfile.TemporaryDirectory() as tmp:
            a = write_run(tmp, "a", BASE, extra_files=["marker.json"])
            s = write_run(tmp, "s", BASE)
            base = [sys.executable, SCRIPT, "--label", "x", "--aiperf", a, "--servebench", s]
            p = subprocess.run(base, capture_output=True, text=True)
            self.assertEqual(p.returncode, 1, p.stdout)
            self.assertIn("FAIL x files marker.json", p.stdout)
            known = os.path.join(tmp, "k.tsv")
            with open(known, "w") as f:
                f.write("*\tfiles\tmarker.json\tan internal marker\n")
            p = subprocess.run(base + ["--known", known], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout)

    def test_malformed_known_file_and_expect_are_errors(self):
        rc, out = self.run_tool([BASE], [BASE], known_rows=[("metrics", "request_latency", "old 3-column row")])
        self.assertNotEqual(rc, 0, out)
        self.assertIn("want scenario<TAB>check<TAB>path<TAB>why", out)
        rc, out = self.run_tool([BASE], [BASE], expect=["request_latency=fast"])
        self.assertNotEqual(rc, 0, out)
        rc, out = self.run_tool([BASE], [BASE], expect=["no_such_metric=1:1"])
        self.assertEqual(rc, 1, out)


if __name__ == "__main__":
    unittest.main()
