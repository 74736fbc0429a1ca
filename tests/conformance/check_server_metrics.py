#!/usr/bin/env python3
"""Conformance check of servebench's server-metrics collection against a real llama-server
(--metrics): what servebench scraped, parsed and summarised (server_metrics_export.json) must
agree with the server's /metrics fetched independently (curl) right before and after the run, and
with the run's own records.

    check_server_metrics.py --artifacts DIR --before FILE --after FILE --request-count N [--label L]

Checks (one line each, PASS/FAIL/SKIP, exit 1 on any FAIL):
  sm_files            server_metrics_export.json and .csv exist; the endpoint was live
  sm_tokens_predicted llamacpp:tokens_predicted total == curl delta == sum of usage.completion_tokens
  sm_prompt_tokens    llamacpp:prompt_tokens total == curl delta; prompt_tokens + prompt_tokens_cached
                      (tokens reused from llama.cpp's prompt cache) == sum of usage.prompt_tokens
  sm_requests         llama.cpp has no request counter: the run's records are all there,
                      requests_processing (gauge) never above the server's slots, and n_decode moved
  sm_console          the console named llama.cpp
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_run import Report, find_file, metric, phase, read_jsonl, read_prometheus  # noqa: E402


def series_sum(doc, name, stat):
    m = doc.get("metrics", {}).get(name)
    if not m:
        return None
    return sum(s.get("stats", {}).get(stat, 0) for s in m.get("series", []))


def main(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--artifacts", required=True)
    p.add_argument("--before", required=True)
    p.add_argument("--after", required=True)
    p.add_argument("--request-count", type=int, required=True)
    p.add_argument("--slots", type=int, default=4)
    p.add_argument("--console", help="servebench's stdout")
    p.add_argument("--label", default="")
    a = p.parse_args(argv)
    r = Report(a.label)
    path = find_file(a.artifacts, "server_metrics_export.json")
    csv_path = find_file(a.artifacts, "server_metrics_export.csv")
    if path is None:
        r.check("sm_files", False, f"no server_metrics_export.json under {a.artifacts}")
        return 1
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    live = doc.get("summary", {}).get("endpoints_successful", [])
    r.check("sm_files", csv_path is not None and len(live) == 1,
            f"json and csv written; endpoints scraped: {live}; "
            f"{doc['summary'].get('endpoint_info', {}).get(live[0] if live else '', {}).get('total_fetches')} fetches")
    b, af = read_prometheus(a.before), read_prometheus(a.after)
    recs = [x for x in read_jsonl(find_file(a.artifacts, "profile_export.jsonl")) if phase(x) == "profiling"]

    ours = series_sum(doc, "llamacpp:tokens_predicted", "total")
    curl = af.get("llamacpp:tokens_predicted_total", 0) - b.get("llamacpp:tokens_predicted_total", 0)
    usage = sum(int(metric(x, "usage_completion_tokens") or 0) for x in recs)
    r.check("sm_tokens_predicted", ours is not None and ours == curl == usage and usage > 0,
            f"servebench {ours}, curl before/after {curl:.0f}, records' usage.completion_tokens {usage}")

    ours_p = series_sum(doc, "llamacpp:prompt_tokens", "total")
    ours_c = series_sum(doc, "llamacpp:prompt_tokens_cached", "total") or 0
    curl_p = af.get("llamacpp:prompt_tokens_total", 0) - b.get("llamacpp:prompt_tokens_total", 0)
    usage_p = sum(int(metric(x, "usage_prompt_tokens") or 0) for x in recs)
    r.check("sm_prompt_tokens", ours_p is not None and ours_p == curl_p and ours_p + ours_c == usage_p,
            f"servebench processed {ours_p} + cached {ours_c}, curl delta {curl_p:.0f}, "
            f"records' usage.prompt_tokens {usage_p}")

    running_max = series_sum(doc, "llamacpp:requests_processing", "max")
    decodes = series_sum(doc, "llamacpp:n_decode", "total")
    # A short run can fall between two scrapes, so the gauge may never be seen above 0.
    r.check("sm_requests", running_max is not None and running_max <= a.slots and decodes and decodes > 0
            and len(recs) == a.request_count,
            f"{len(recs)} requests; requests_processing max {running_max} (slots {a.slots}); "
            f"n_decode total {decodes} (llama.cpp exposes no request counter)")
    if a.console:
        with open(a.console, encoding="utf-8", errors="replace") as f:
            text = f.read()
        r.check("sm_console", "Server metrics (llama.cpp" in text, "console panel names llama.cpp")
    return 1 if r.failed() else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
