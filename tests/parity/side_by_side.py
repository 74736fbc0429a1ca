#!/usr/bin/env python3
"""Compares AIPerf's and servebench's artifacts for the same command line (scripts/parity/parity.sh).

    side_by_side.py --label NAME --aiperf DIR [DIR...] --servebench DIR [DIR...] [--known FILE]

Each DIR is one run's artifact folder (repeats of the same command). Checks:
  files    every file AIPerf wrote (logs aside) has a servebench file of the same name;
  json     every key path of AIPerf's profile_export_aiperf.json (input_config aside: it echoes
           each tool's own resolved config) exists in servebench's with the same JSON type;
  csv      the header of profile_export_aiperf.csv's first table and its metric names;
  records  the key paths of the first profile_export.jsonl line (metadata and metrics);
  inputs   the key paths of inputs.json;
  metrics  headline metrics agree: |mean(servebench) - mean(aiperf)| within the spread of the
           repeats of both tools plus a floor (1 % of the value or 0.5 ms for times; token
           counts, deterministic here, within 0.5 token). A metric neither tool reports (TTFT and
           ITL when not streamed) passes; one that only one tool reports fails;
  injected with --expect TAG=VALUE:TOL (what servebench-mock injected), servebench's mean must
           be within TOL of VALUE, and a metric difference listed as known must leave servebench
           at least as close to VALUE as AIPerf (the known rows' reasons say it is closer).
A difference listed in --known (lines "scenario<TAB>check<TAB>path<TAB>why"; scenario is a shell
pattern matched against --label, "*" for every scenario) is reported as known, not failed.
Prints one PASS/FAIL/KNOWN line per finding and exits 1 when something failed.
"""
import argparse
import csv
import fnmatch
import json
import os
import statistics
import sys

HEADLINE = {  # tag: (stat, absolute floor, relative floor)
    "time_to_first_token": ("avg", 0.5, 0.01),
    "inter_token_latency": ("avg", 0.05, 0.01),
    "request_latency": ("avg", 0.5, 0.01),
    "input_sequence_length": ("avg", 0.5, 0.0),
    "output_sequence_length": ("avg", 0.5, 0.0),
    "output_token_throughput": ("avg", 0.0, 0.01),
    "request_throughput": ("avg", 0.0, 0.01),
}
SKIP_TOP = {"input_config"}


def kind(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if v is None:
        return "null"
    return type(v).__name__


def key_paths(obj, prefix="", out=None, depth=0):
    out = {} if out is None else out
    if isinstance(obj, dict):
        for k, v in obj.items():
            if depth == 0 and k in SKIP_TOP:
                continue
            p = f"{prefix}.{k}" if prefix else k
            out[p] = kind(v)
            key_paths(v, p, out, depth + 1)
    elif isinstance(obj, list) and obj and isinstance(obj[0], (dict, list)):
        key_paths(obj[0], prefix + "[]", out, depth + 1)
    return out


def run_files(d):
    found = set()
    for root, dirs, files in os.walk(d):
        dirs[:] = [x for x in dirs if x not in ("logs", "plots")]
        for f in files:
            found.add(os.path.relpath(os.path.join(root, f), d))
    return found


def load_json(path):
    with open(path) as f:
        return json.load(f)


def first_record(path):
    with open(path) as f:
        for line in f:
            if line.strip():
                return json.loads(line)
    return {}


def csv_first_table(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0] if rows else []
    names = []
    for r in rows[1:]:
        if not r or not any(r):
            break
        names.append(r[0])
    return header, names


class Report:
    def __init__(self, label, known):
        self.label, self.known, self.failed = label, known, False

    def why_known(self, check, path):
        for scenario, c, p, why in self.known:
            if c == check and p == path and fnmatch.fnmatchcase(self.label, scenario):
                return why
        return None

    def diff(self, check, path, what):
        why = self.why_known(check, path)
        if why is not None:
            print(f"KNOWN {self.label} {check} {path}: {what} ({why})")
        else:
            self.fail(check, path, what)

    def fail(self, check, path, what):
        print(f"FAIL {self.label} {check} {path}: {what}")
        self.failed = True

    def ok(self, check, what):
        print(f"PASS {self.label} {check}: {what}")


def compare_trees(rep, check, a, s):
    missing = 0
    gone = []  # paths missing in servebench: their children are not reported again
    for path, k in sorted(a.items()):
        if any(path.startswith(g + ".") or path.startswith(g + "[]") for g in gone):
            continue
        if path not in s:
            gone.append(path)
            rep.diff(check, path, "missing in servebench")
            missing += 1
        elif s[path] != k and not (k == "null" or s[path] == "null"):
            rep.diff(check, path, f"type {s[path]} where AIPerf has {k}")
            missing += 1
    if not missing:
        rep.ok(check, f"{len(a)} key paths of AIPerf's present with the same types")


def headline(rep, a_dirs, s_dirs, expect):
    def values(dirs, tag, stat):
        out = []
        for d in dirs:
            m = load_json(os.path.join(d, "profile_export_aiperf.json")).get(tag)
            if isinstance(m, dict) and isinstance(m.get(stat), (int, float)):
                out.append(float(m[stat]))
        return out

    for tag in expect:
        if tag not in HEADLINE:
            rep.fail("injected", tag, "--expect names no headline metric")
    for tag, (stat, floor, rel) in HEADLINE.items():
        a, s = values(a_dirs, tag, stat), values(s_dirs, tag, stat)
        if not a and not s and tag not in expect:
            rep.ok("metrics " + tag, "reported by neither tool")
            continue
        if len(a) != len(a_dirs) or len(s) != len(s_dirs):
            rep.diff("metrics", tag, f"absent (aiperf {len(a)} of {len(a_dirs)} runs, servebench {len(s)} of {len(s_dirs)} runs)")
            continue
        ma, ms = statistics.mean(a), statistics.mean(s)
        spread = (max(a) - min(a)) + (max(s) - min(s))
        tol = spread + max(floor, rel * abs(ma))
        what = f"{stat} aiperf {ma:.4g} (runs {', '.join(f'{x:.4g}' for x in a)}) servebench {ms:.4g} (runs {', '.join(f'{x:.4g}' for x in s)}), tolerance {tol:.3g}"
        if tag in expect:
            inj, inj_tol = expect[tag]
            what += f", injected {inj:g}"
            if abs(ms - inj) > inj_tol:
                rep.fail("injected", tag, f"servebench {ms:.4g} is more than {inj_tol:g} from the injected {inj:g} (aiperf {ma:.4g})")
            else:
                rep.ok("injected " + tag, f"servebench {ms:.4g} within {inj_tol:g} of the injected {inj:g} (aiperf {ma:.4g})")
        if abs(ms - ma) <= tol:
            rep.ok("metrics " + tag, what)
            continue
        if tag in expect and rep.why_known("metrics", tag) is not None and abs(ms - inj) > abs(ma - inj) + floor:
            rep.fail("metrics", tag, what + ": listed as known, but AIPerf is the closer to the injected value")
            continue
        rep.diff("metrics", tag, what)


def load_known(path):
    known = []
    if path and os.path.exists(path):
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if line.strip() and not line.startswith("#"):
                    fields = line.rstrip("\n").split("\t")
                    if len(fields) != 4 or not all(fields):
                        sys.exit(f"{path}:{n}: want scenario<TAB>check<TAB>path<TAB>why")
                    known.append(tuple(fields))
    return known


def parse_expect(items):
    out = {}
    for item in items:
        tag, _, rest = item.partition("=")
        value, _, tol = rest.partition(":")
        try:
            out[tag] = (float(value), float(tol))
        except ValueError:
            sys.exit(f"--expect {item}: want TAG=VALUE:TOLERANCE")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", required=True)
    ap.add_argument("--aiperf", nargs="+", required=True)
    ap.add_argument("--servebench", nargs="+", required=True)
    ap.add_argument("--known")
    ap.add_argument("--expect", nargs="*", default=[], metavar="TAG=VALUE:TOL")
    args = ap.parse_args()
    rep = Report(args.label, load_known(args.known))
    a0, s0 = args.aiperf[0], args.servebench[0]

    a_files, s_files = run_files(a0), run_files(s0)
    missing = sorted(a_files - s_files)
    for f in missing:
        rep.diff("files", f, "AIPerf wrote it, servebench did not")
    if not missing:
        rep.ok("files", f"all {len(a_files)} of AIPerf's files present ({len(s_files - a_files)} more in servebench)")

    both = lambda name: all(os.path.exists(os.path.join(d, name)) for d in (a0, s0))
    trees = [("json", "profile_export_aiperf.json", load_json), ("records", "profile_export.jsonl", first_record),
             ("inputs", "inputs.json", load_json)]
    for check, name, reader in trees:
        if both(name):
            compare_trees(rep, check, key_paths(reader(os.path.join(a0, name))),
                          key_paths(reader(os.path.join(s0, name))))
    if both("profile_export_aiperf.csv"):
        (ha, na), (hs, ns) = (csv_first_table(os.path.join(d, "profile_export_aiperf.csv")) for d in (a0, s0))
        if ha != hs:
            rep.diff("csv", "header", f"servebench {hs} vs AIPerf {ha}")
        lost = [n for n in na if n not in ns]
        for n in lost:
            rep.diff("csv", n, "metric row missing in servebench")
        if ha == hs and not lost:
            rep.ok("csv", f"same header, all {len(na)} metric rows present")
    headline(rep, args.aiperf, args.servebench, parse_expect(args.expect))
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main())
