#!/usr/bin/env python3
"""Checks one `servebench profile` run against a real server (llama-server) from its artifacts.

Reads profile_export.jsonl (one record per request, AIPerf's schema: {"metadata", "metrics":
{tag: {"value", "unit"}}, "error"}), profile_export_aiperf.json and, when present,
profile_export_raw.jsonl, and checks, each as its own named item:

  all_succeeded      every profiling request succeeded and their number is --request-count
  isl_vs_server      our ISL == usage.prompt_tokens - --prompt-overhead for every request
                     (the overhead is what the server adds to a prompt: BOS for completions,
                     BOS + chat template for chat; conformance.sh measures it on the server)
  exact_isl          every prompt is exactly --isl tokens, by our count and by the server's
                     (needs the workload issue's exact-length prompts; --exact-isl warn makes a
                     miss a warning)
  server_osl         usage.completion_tokens == --osl for every request (ignore_eos)
  osl_retokenized    our re-tokenized OSL against usage.completion_tokens: re-encoding random-
                     weight output legitimately differs a little; only a gross mismatch fails
  artifacts_sane     TTFT < latency (streaming), counts match, throughput > 0, the summary
                     agrees with the records
  payload            (inputs.json) what was sent: max tokens, ignore_eos, include_usage
  stream_structure   (raw export) usage arrived; TTFT and latency sit on the first and last
                     content chunk (role-only and usage-only events excluded, as in AIPerf)
  server_counters    (llama-server /metrics before and after) the tokens the server generated
                     during the run == the sum of usage.completion_tokens over our records

Python 3 standard library only. Prints one line per item (PASS/FAIL/WARN/SKIP) and, with
--json-out, a machine-readable report. Exit 0 when nothing failed, 1 otherwise, 2 on bad input.
"""

import argparse
import collections
import json
import os
import statistics
import sys


# What a request body of each endpoint type looks like: the key holding the inputs, the keys
# that may carry the max-tokens count, and whether a streamed body must ask for usage
# (stream_options.include_usage; the Responses and Anthropic APIs always report it).
PAYLOAD_SHAPES = {
    "chat": ("messages", ("max_completion_tokens", "max_tokens"), True),
    "completions": ("prompt", ("max_tokens",), True),
    # -- chat-like types: responses (OpenAI Responses API), messages (Anthropic) --
    "responses": ("input", ("max_output_tokens",), False),
    "messages": ("messages", ("max_tokens",), False),
}


def die(msg):
    print(f"check_run.py: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    p = argparse.ArgumentParser(description="Check a servebench run against a real server.")
    p.add_argument("--artifacts", required=True, help="artifact dir of the run (searched recursively)")
    p.add_argument("--request-count", type=int, required=True)
    p.add_argument("--isl", type=int, required=True, help="requested input tokens (--isl, stddev 0)")
    p.add_argument("--osl", type=int, required=True, help="requested output tokens (--osl, stddev 0)")
    p.add_argument("--prompt-overhead", type=int, required=True,
                   help="tokens the server adds to our prompt (BOS, chat template)")
    p.add_argument("--streaming", action="store_true")
    p.add_argument("--endpoint-type", choices=sorted(PAYLOAD_SHAPES), required=True)
    p.add_argument("--exact-isl", choices=["fail", "warn"], default="fail")
    p.add_argument("--label", default="", help="name of this run in the output")
    p.add_argument("--server-metrics-before", help="the server's Prometheus /metrics before the run")
    p.add_argument("--server-metrics-after", help="... and after it (llama-server --metrics)")
    p.add_argument("--json-out", help="write the report as JSON here")
    return p.parse_args(argv)


def find_file(root, name):
    hits = []
    for d, _, files in os.walk(root):
        if name in files:
            hits.append(os.path.join(d, name))
    if len(hits) > 1:
        die(f"{root}: {len(hits)} copies of {name}; pass the run's own artifact dir")
    return hits[0] if hits else None


def read_jsonl(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as e:
                die(f"{path}:{n}: not JSON ({e})")
    return out


def metric(rec, tag):
    m = (rec.get("metrics") or {}).get(tag)
    if isinstance(m, dict):
        return m.get("value")
    return m  # tolerate a bare number


def phase(rec):
    md = rec.get("metadata") or {}
    return str(md.get("benchmark_phase", md.get("phase", "profiling"))).lower()


def summary_avg(summary, tag):
    v = summary.get(tag)
    if isinstance(v, dict):
        return v.get("avg")
    return v


def hist(values):
    """Compact distribution: {value: count}, sorted, as a string."""
    c = collections.Counter(values)
    return "{" + ", ".join(f"{k}: {c[k]}" for k in sorted(c)) + "}"


class Report:
    def __init__(self, label):
        self.label = label
        self.items = []

    def add(self, name, status, detail):
        self.items.append({"check": name, "status": status, "detail": detail})
        prefix = f"[{self.label}] " if self.label else ""
        print(f"{status:4} {prefix}{name}: {detail}")

    def check(self, name, ok, detail):
        self.add(name, "PASS" if ok else "FAIL", detail)

    def failed(self):
        return any(i["status"] == "FAIL" for i in self.items)


def check_all_succeeded(r, recs, n):
    errors = [x for x in recs if x.get("error")]
    cancelled = [x for x in recs if (x.get("metadata") or {}).get("was_cancelled")]
    detail = f"{len(recs)} profiling records (want {n}), {len(errors)} errors, {len(cancelled)} cancelled"
    if errors:
        first = errors[0]["error"]
        detail += f"; first error: {json.dumps(first)[:200]}"
    r.check("all_succeeded", len(recs) == n and not errors and not cancelled, detail)


def check_isl_vs_server(r, recs, overhead):
    diffs, missing = [], 0
    for x in recs:
        isl, upt = metric(x, "input_sequence_length"), metric(x, "usage_prompt_tokens")
        if isl is None or upt is None:
            missing += 1
            continue
        diffs.append(int(upt) - overhead - int(isl))
    bad = [d for d in diffs if d != 0]
    detail = (f"usage.prompt_tokens - {overhead} - ISL over {len(diffs)} requests: {hist(diffs)}"
              + (f"; {missing} records lack input_sequence_length or usage_prompt_tokens" if missing else ""))
    r.check("isl_vs_server", not bad and not missing and diffs, detail)


def check_exact_isl(r, recs, isl, overhead, mode):
    ours = [int(v) - isl for v in (metric(x, "input_sequence_length") for x in recs) if v is not None]
    server = [int(v) - overhead - isl for v in (metric(x, "usage_prompt_tokens") for x in recs) if v is not None]
    ok = ours and server and all(d == 0 for d in ours) and all(d == 0 for d in server) \
        and len(ours) == len(recs) and len(server) == len(recs)
    detail = (f"requested {isl}; ours - requested: {hist(ours)}; "
              f"server (prompt_tokens - {overhead}) - requested: {hist(server)}")
    r.add("exact_isl", "PASS" if ok else ("FAIL" if mode == "fail" else "WARN"), detail)


def check_server_osl(r, recs, osl):
    vals = [metric(x, "usage_completion_tokens") for x in recs]
    missing = sum(v is None for v in vals)
    diffs = [int(v) - osl for v in vals if v is not None]
    r.check("server_osl", bool(diffs) and not missing and all(d == 0 for d in diffs),
            f"usage.completion_tokens - requested {osl}: {hist(diffs)}"
            + (f"; {missing} records without usage" if missing else ""))


def check_osl_retokenized(r, recs):
    ratios, missing, empty = [], 0, 0
    for x in recs:
        osl, uct = metric(x, "output_sequence_length"), metric(x, "usage_completion_tokens")
        if osl is None or uct is None:
            missing += 1
            continue
        if uct > 0 and osl <= 0:
            empty += 1
            continue
        if uct > 0:
            ratios.append(osl / uct)
    if not ratios:
        r.check("osl_retokenized", False, f"no comparable records ({missing} missing, {empty} empty)")
        return
    q = statistics.quantiles(ratios, n=10) if len(ratios) >= 2 else [ratios[0]] * 9
    med = statistics.median(ratios)
    # Re-encoding random-weight output merges or splits tokens at their seams (and lone bytes of
    # a multi-byte character become U+FFFD), so a few tens of percent either way is expected. A
    # ratio far outside that means we counted the wrong text (role chunk, usage chunk, a dropped
    # or duplicated delta), which is what this check exists to catch.
    gross = [v for v in ratios if v < 0.25 or v > 4.0]
    ok = not missing and not empty and 0.5 <= med <= 1.5 and not gross
    r.check("osl_retokenized", ok,
            f"our OSL / usage.completion_tokens over {len(ratios)} requests: min {min(ratios):.3f} "
            f"p10 {q[0]:.3f} median {med:.3f} p90 {q[-1]:.3f} max {max(ratios):.3f}"
            f"; {missing} missing, {empty} empty, {len(gross)} outside [0.25, 4]")


def check_artifacts_sane(r, recs, summary, n_errors, streaming):
    """recs: the successful profiling records; the summary must count them and n_errors."""
    n = len(recs)
    problems = []
    for i, x in enumerate(recs):
        lat, ttft = metric(x, "request_latency"), metric(x, "time_to_first_token")
        if lat is None or lat <= 0:
            problems.append(f"record {i}: request_latency {lat}")
        if streaming:
            if ttft is None or ttft <= 0 or (lat is not None and ttft >= lat):
                problems.append(f"record {i}: time_to_first_token {ttft} vs request_latency {lat}")
            itl = metric(x, "inter_token_latency")
            if itl is None or itl <= 0:
                problems.append(f"record {i}: inter_token_latency {itl}")
    if summary is None:
        problems.append("profile_export_aiperf.json missing")
    else:
        rc = summary_avg(summary, "request_count")
        if rc is None or int(rc) != n:
            problems.append(f"summary request_count {rc} != {n}")
        erc = summary_avg(summary, "error_request_count")
        if int(erc or 0) != n_errors:
            problems.append(f"summary error_request_count {erc} != {n_errors} failed records")
        for tag in ("request_throughput", "output_token_throughput", "benchmark_duration"):
            v = summary_avg(summary, tag)
            if v is None or not v > 0:
                problems.append(f"summary {tag} {v}")
        # The summary must describe the same records the JSONL holds.
        for tag in ("input_sequence_length", "request_latency") + (("time_to_first_token",) if streaming else ()):
            vals = [metric(x, tag) for x in recs]
            vals = [v for v in vals if v is not None]
            s = summary.get(tag) if isinstance(summary.get(tag), dict) else None
            if not vals or s is None or s.get("avg") is None:
                problems.append(f"summary/records {tag}: missing")
                continue
            mean = sum(vals) / len(vals)
            if abs(s["avg"] - mean) > 1e-6 * max(1.0, abs(mean)):
                problems.append(f"summary {tag}.avg {s['avg']} != records mean {mean}")
            if s.get("count") is not None and int(s["count"]) != len(vals):
                problems.append(f"summary {tag}.count {s['count']} != {len(vals)} records")
    r.check("artifacts_sane", not problems,
            "; ".join(problems[:6]) + (f" (+{len(problems) - 6} more)" if len(problems) > 6 else "")
            if problems else f"{n} records, TTFT < latency{' (streaming)' if streaming else ''}, "
                             "summary matches records, throughput > 0")


def payloads_of(inputs):
    """Request bodies from inputs.json ({"data": [{"payloads": [...]}]}, AIPerf's layout)."""
    out = []
    for entry in inputs.get("data", []) if isinstance(inputs, dict) else []:
        for p in entry.get("payloads", []):
            if isinstance(p, str):
                try:
                    p = json.loads(p)
                except json.JSONDecodeError:
                    p = None
            out.append(p)
    return out


def check_payload(r, inputs_path, osl, streaming, endpoint_type):
    if inputs_path is None:
        r.add("payload", "SKIP", "no inputs.json in the artifacts")
        return
    with open(inputs_path, encoding="utf-8") as f:
        payloads = payloads_of(json.load(f))
    problems = []
    for i, p in enumerate(payloads):
        if not isinstance(p, dict):
            problems.append(f"payload {i}: not a JSON object")
            continue
        key, max_keys, needs_usage_option = PAYLOAD_SHAPES[endpoint_type]
        mt = next((p[k] for k in max_keys if k in p), None)
        if mt != osl:
            problems.append(f"payload {i}: max tokens {mt} != {osl}")
        if p.get("ignore_eos") is not True:
            problems.append(f"payload {i}: ignore_eos {p.get('ignore_eos')}")
        if bool(p.get("stream")) != streaming:
            problems.append(f"payload {i}: stream {p.get('stream')}")
        if streaming and needs_usage_option and not (p.get("stream_options") or {}).get("include_usage"):
            problems.append(f"payload {i}: no stream_options.include_usage")
        if key not in p:
            problems.append(f"payload {i}: no '{key}'")
    r.check("payload", payloads and not problems,
            f"{len(payloads)} payloads: max tokens {osl}, ignore_eos, "
            f"{'include_usage, ' if streaming and PAYLOAD_SHAPES[endpoint_type][2] else ''}"
            f"{PAYLOAD_SHAPES[endpoint_type][0]}"
            if payloads and not problems else "; ".join(problems[:5]) or "inputs.json has no payloads")


def check_stream_structure(r, raw_path, recs, osl, streaming):
    """From the raw export: what the server sent, as we classified it, and whether the latency
    endpoints sit on the right chunks (role-only and usage-only events excluded, as in AIPerf)."""
    if raw_path is None:
        r.add("stream_structure", "SKIP", "no profile_export_raw.jsonl (run with --export-level raw)")
        return
    raws = [x for x in read_jsonl(raw_path) if phase(x) == "profiling"]
    by_id = {(x.get("metadata") or {}).get("x_request_id"): x for x in raws}
    problems, kinds_first, usage_chunks, chunk_ratio = [], collections.Counter(), 0, []
    for i, rec in enumerate(recs):
        rid = (rec.get("metadata") or {}).get("x_request_id")
        raw = by_id.get(rid)
        if raw is None:
            problems.append(f"record {i} ({rid}): not in the raw export")
            continue
        if raw.get("requested_output_tokens") not in (None, -1, osl):
            problems.append(f"record {i}: requested_output_tokens {raw.get('requested_output_tokens')} != {osl}")
        if not isinstance(raw.get("usage"), dict):
            problems.append(f"record {i}: no usage in the raw record")
        resps = raw.get("responses") or []
        content = [c for c in resps if c.get("kind") in ("content", "reasoning", "tool_call")]
        if not content:
            problems.append(f"record {i}: no content chunks")
            continue
        if not streaming:
            continue
        kinds_first[resps[0].get("kind")] += 1
        usage_chunks += any(c.get("kind") == "usage" for c in resps)
        uct = (raw.get("usage") or {}).get("completion_tokens")
        if uct:
            chunk_ratio.append(len(content) / uct)
        start = raw.get("start_perf_ns")
        for tag, chunk in (("time_to_first_token", content[0]), ("request_latency", content[-1])):
            v = metric(rec, tag)
            if v is None or start is None:
                problems.append(f"record {i}: {tag} or start_perf_ns missing")
                continue
            want_ms = (chunk["perf_ns"] - start) / 1e6
            if abs(v - want_ms) > 1e-3:
                problems.append(f"record {i}: {tag} {v} ms but its content chunk arrived at {want_ms} ms")
    detail = f"{len(recs)} records matched in the raw export"
    if streaming and chunk_ratio:
        detail += (f"; first event kinds {dict(kinds_first)}; {usage_chunks} streams with a usage-classified "
                   f"event; content chunks per completion token: min {min(chunk_ratio):.2f} "
                   f"median {statistics.median(chunk_ratio):.2f}; TTFT/latency sit on the first/last "
                   "content chunk")
    r.check("stream_structure", not problems and bool(raws) and bool(recs),
            "; ".join(problems[:5]) + (f" (+{len(problems) - 5} more)" if len(problems) > 5 else "")
            if problems else detail)


def read_prometheus(path):
    vals = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2 and not line.startswith("#"):
                try:
                    vals[parts[0]] = float(parts[1])
                except ValueError:
                    pass
    return vals


def check_server_counters(r, before_path, after_path, recs):
    """The server's own counters across the run against the usage in our records: every token the
    server generated for us must be in some record (a lost or double-counted response shows)."""
    if not before_path or not after_path:
        r.add("server_counters", "SKIP", "no /metrics snapshots given")
        return
    b, a = read_prometheus(before_path), read_prometheus(after_path)
    key = "llamacpp:tokens_predicted_total"
    if key not in b or key not in a:
        r.add("server_counters", "SKIP", f"no {key} in the snapshots")
        return
    served = a[key] - b[key]
    ours = sum(int(metric(x, "usage_completion_tokens") or 0) for x in recs)
    r.check("server_counters", served == ours and served > 0,
            f"server generated {served:.0f} tokens during the run; records' usage.completion_tokens sum to {ours}")


def main(argv):
    a = parse_args(argv)
    if not os.path.isdir(a.artifacts):
        die(f"--artifacts {a.artifacts} is not a directory")
    jsonl = find_file(a.artifacts, "profile_export.jsonl")
    if jsonl is None:
        die(f"no profile_export.jsonl under {a.artifacts}; did the run use --export-level records or raw?")
    summary_path = find_file(a.artifacts, "profile_export_aiperf.json")
    summary = None
    if summary_path:
        with open(summary_path, encoding="utf-8") as f:
            summary = json.load(f)
    recs = [x for x in read_jsonl(jsonl) if phase(x) == "profiling"]

    # A failed request fails all_succeeded; the other checks look at the successful ones, so one
    # transport error does not show up as eight unrelated failures.
    ok = [x for x in recs if not x.get("error")]
    r = Report(a.label)
    check_all_succeeded(r, recs, a.request_count)
    check_isl_vs_server(r, ok, a.prompt_overhead)
    check_exact_isl(r, ok, a.isl, a.prompt_overhead, a.exact_isl)
    check_server_osl(r, ok, a.osl)
    check_osl_retokenized(r, ok)
    check_artifacts_sane(r, ok, summary, len(recs) - len(ok), a.streaming)
    check_payload(r, find_file(a.artifacts, "inputs.json"), a.osl, a.streaming, a.endpoint_type)
    check_stream_structure(r, find_file(a.artifacts, "profile_export_raw.jsonl"), ok, a.osl, a.streaming)
    check_server_counters(r, a.server_metrics_before, a.server_metrics_after, recs)

    if a.json_out:
        with open(a.json_out, "w", encoding="utf-8") as f:
            json.dump({"label": a.label, "failed": r.failed(), "items": r.items}, f, indent=1)
    return 1 if r.failed() else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
