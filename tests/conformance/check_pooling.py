#!/usr/bin/env python3
"""Checks one `servebench profile` run of a rankings or embeddings type against llama-server.

Reads profile_export.jsonl, profile_export_aiperf.json, profile_export_console.txt and
inputs.json under --artifacts, and checks, each as its own named item:

  all_succeeded   every profiling request succeeded and their number is --request-count
  exact_isl       every request's ISL is exactly --isl (query + passages, or the batch's texts;
                  synthetic texts of exact length)
  isl_vs_server   usage.prompt_tokens - ISL is what the server adds: per passage, the query again
                  and --per-text-overhead separators ((texts - 1) * --query-tokens + texts * k,
                  rerank), or per text its BOS (texts * k, embeddings); SKIP with --no-usage
                  (TEI's /rerank answer has no usage)
  latency_only    request_latency > 0 in every record; no TTFT, ITL or OSL in records or summary;
                  request_count and request_throughput in the summary; the console title
  payload         inputs.json: every body carries --texts passages (query/texts/documents) or
                  texts (input)

Python 3 standard library only. One line per item (PASS/FAIL/SKIP); exit 0 when nothing failed,
1 otherwise, 2 on bad input.
"""

import argparse
import json
import os
import sys

from check_run import Report, find_file, hist, metric, phase, read_jsonl, summary_avg, payloads_of


def parse_args(argv):
    p = argparse.ArgumentParser(description="Check a rankings/embeddings run against llama-server.")
    p.add_argument("--artifacts", required=True)
    p.add_argument("--label", default="")
    p.add_argument("--kind", choices=["rankings", "embeddings"], required=True)
    p.add_argument("--request-count", type=int, required=True)
    p.add_argument("--isl", type=int, required=True, help="exact ISL of every request")
    p.add_argument("--texts", type=int, required=True, help="passages (rankings) or texts per request")
    p.add_argument("--per-text-overhead", type=int, required=True,
                   help="tokens the server adds per passage/text (conformance.sh measures it)")
    p.add_argument("--query-tokens", type=int, default=0, help="rankings: the query's tokens")
    p.add_argument("--no-usage", action="store_true", help="the answers carry no usage")
    p.add_argument("--title", required=True, help="text the console table title must contain")
    return p.parse_args(argv)


def check_isl_vs_server(r, recs, a):
    if a.no_usage:
        r.add("isl_vs_server", "SKIP", "the server's answers carry no usage")
        return
    k = a.per_text_overhead
    want = (a.texts - 1) * a.query_tokens + a.texts * k if a.kind == "rankings" else a.texts * k
    diffs, missing = [], 0
    for x in recs:
        isl, upt = metric(x, "input_sequence_length"), metric(x, "usage_prompt_tokens")
        if isl is None or upt is None:
            missing += 1
            continue
        diffs.append(int(upt) - int(isl))
    ok = bool(diffs) and not missing and all(d == want for d in diffs)
    r.check("isl_vs_server", ok,
            f"usage.prompt_tokens - ISL over {len(diffs)} requests: {hist(diffs)} (want {want})"
            + (f"; {missing} records lack ISL or usage_prompt_tokens" if missing else ""))


def check_latency_only(r, recs, summary, console, a):
    problems = []
    for i, x in enumerate(recs):
        lat = metric(x, "request_latency")
        if lat is None or lat <= 0:
            problems.append(f"record {i}: request_latency {lat}")
        for tag in ("time_to_first_token", "inter_token_latency", "output_sequence_length"):
            if metric(x, tag) is not None:
                problems.append(f"record {i} has {tag}")
    if summary is None:
        problems.append("profile_export_aiperf.json missing")
    else:
        if int(summary_avg(summary, "request_count") or 0) != len(recs):
            problems.append(f"summary request_count {summary_avg(summary, 'request_count')}")
        if not (summary_avg(summary, "request_throughput") or 0) > 0:
            problems.append("summary request_throughput missing")
        for tag in ("time_to_first_token", "inter_token_latency", "output_token_throughput"):
            if tag in summary:
                problems.append(f"summary has {tag}")
    if console is None or a.title not in console:
        problems.append(f"console title without '{a.title}'")
    r.check("latency_only", not problems,
            "; ".join(problems[:6]) if problems else
            f"{len(recs)} records with latency, no TTFT/ITL/OSL, title has '{a.title}'")


def check_payload(r, inputs_path, a):
    if inputs_path is None:
        r.add("payload", "SKIP", "no inputs.json")
        return
    with open(inputs_path, encoding="utf-8") as f:
        bodies = payloads_of(json.load(f))
    counts = []
    for b in bodies:
        if not isinstance(b, dict):
            counts.append(-1)
        elif a.kind == "rankings":
            counts.append(len(b.get("texts") or b.get("documents") or b.get("passages") or []))
        else:
            counts.append(len(b.get("input") or []))
    ok = bool(counts) and all(c == a.texts for c in counts)
    r.check("payload", ok, f"{len(bodies)} bodies, texts per body: {hist(counts)} (want {a.texts})")


def main(argv):
    a = parse_args(argv)
    if not os.path.isdir(a.artifacts):
        print(f"check_pooling.py: --artifacts {a.artifacts} is not a directory", file=sys.stderr)
        return 2
    jsonl = find_file(a.artifacts, "profile_export.jsonl")
    if jsonl is None:
        print(f"check_pooling.py: no profile_export.jsonl under {a.artifacts}", file=sys.stderr)
        return 2
    summary, console = None, None
    if (p := find_file(a.artifacts, "profile_export_aiperf.json")) is not None:
        with open(p, encoding="utf-8") as f:
            summary = json.load(f)
    if (p := find_file(a.artifacts, "profile_export_console.txt")) is not None:
        with open(p, encoding="utf-8") as f:
            console = f.read()
    recs = [x for x in read_jsonl(jsonl) if phase(x) == "profiling"]
    ok = [x for x in recs if not x.get("error")]
    r = Report(a.label)
    errors = len(recs) - len(ok)
    first = next((x["error"] for x in recs if x.get("error")), None)
    r.check("all_succeeded", len(recs) == a.request_count and not errors,
            f"{len(recs)} profiling records (want {a.request_count}), {errors} errors"
            + (f"; first error: {json.dumps(first)[:200]}" if first else ""))
    isls = [metric(x, "input_sequence_length") for x in ok]
    r.check("exact_isl", bool(isls) and all(v is not None and int(v) == a.isl for v in isls),
            f"ISL over {len(isls)} requests: {hist([int(v) if v is not None else -1 for v in isls])} "
            f"(want {a.isl})")
    check_isl_vs_server(r, ok, a)
    check_latency_only(r, ok, summary, console, a)
    check_payload(r, find_file(a.artifacts, "inputs.json"), a)
    return 1 if r.failed() else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
