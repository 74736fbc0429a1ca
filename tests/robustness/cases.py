"""The robustness table: bad inputs and misbehaving servers, each with the exit code, time bound
and artifacts servebench promises (docs/reliability.md). Every case also passes --api-key and an
X-Auth-Token header and checks that neither value appears in any artifact, stdout or stderr.

Exit codes: 0 ok, 1 a gate failed, 2 usage/config/input error, 3 runtime failure (every request
failed, or the server was unreachable at the end of the run: load/unreachable.h), 130/143
interrupted by SIGINT/SIGTERM (after writing every artifact)."""

import os

from harness import Case

# Cases (or "check:<name>" for a check made in every case) that fail on the current tree because
# the fix is on another branch; the value is the issue-11 item that fixes it. Reported as skipped
# with this reason, never as passes; a listed entry that passes fails the suite, so the list is
# emptied as the fixes are merged.
EXPECTED_TO_FAIL_UNTIL_MERGED = {
}


def usage(name, args, **kw):
    return Case(name, args, exit=(2,), bound_s=kw.pop("bound_s", 2.0), kind="usage", **kw)


def write(name, data):
    def setup(tmp):
        with open(os.path.join(tmp, name), "wb") as f:
            f.write(data)
    return setup


def bounded_connect_errors(limit):
    def check(ctx):
        n = sum(1 for r in ctx.records() if "connect" in str(r.get("error", "")).lower()
                or "refused" in str(r.get("error", "")).lower())
        total = len(ctx.records())
        return [("bounded errors", f"{n} connect errors ({total} records) > {limit}")] if n > limit else []
    return check


def record_count_between(low, high):
    def check(ctx):
        n = len(ctx.records())
        return [] if low <= n <= high else [("record count", f"{n} records, expected {low}..{high}")]
    return check


def stderr_has(text, name=None):
    def check(ctx):
        return [] if text in ctx.stderr else [(name or f"stderr says '{text}'", f"stderr: {ctx.stderr[-300:]}")]
    return check


def warning_in_summary(text):
    def check(ctx):
        found = text in str(ctx.summary())
        return [] if found else [("warning in artifacts", f"no '{text}' in profile_export_aiperf.json")]
    return check


def every_error_mentions(*words):
    def check(ctx):
        records = ctx.records()
        bad = [r for r in records if not r.get("error") or not any(w in str(r["error"]).lower() for w in words)]
        if not records or bad:
            return [("error kind", f"{len(bad)} of {len(records)} records lack an error naming {words}: "
                                   f"{str(bad[0].get('error'))[:200] if bad else ''}")]
        return []
    return check


def only_connect_errors(ctx):
    """After GOAWAY the streams in flight complete; only new connections are refused."""
    kinds = {(r["error"] or {}).get("type") for r in ctx.records() if r.get("error")}
    return [] if kinds <= {"connect"} else [("streams survive GOAWAY", f"error kinds {sorted(map(str, kinds))}")]


def every_record_ok(ctx):
    bad = [r for r in ctx.records() if r.get("error")]
    return [("every request ok", f"{len(bad)} failed, e.g. {bad[0].get('error')}")] if bad else []


def mock_path_has_query(ctx):
    import json
    paths = [json.loads(l).get("path", "") for l in open(ctx.server.requests)] if ctx.server else []
    good = paths and all(p.startswith("/v1/chat/completions") and p.endswith("?api-version=1") for p in paths)
    return [] if good else [("query after path", f"paths sent: {sorted(set(paths))[:3]}")]


def fd_limit_handled(ctx):
    """Post-fix: exit 2 naming `ulimit -n`, or a run capped with a warning and no EMFILE errors."""
    if ctx.exit == 2:
        return [] if "ulimit" in ctx.stderr else [("fd limit message", f"stderr: {ctx.stderr[-300:]}")]
    emfile = [r for r in ctx.records() if "Too many open files" in str(r.get("error", ""))]
    warned = "descriptor" in str(ctx.summary()).lower() or "ulimit" in str(ctx.summary()).lower()
    out = []
    if emfile:
        out.append(("no EMFILE errors", f"{len(emfile)} requests failed with 'Too many open files'"))
    if not warned:
        out.append(("fd limit warning", "no warning about the descriptor limit in the artifacts"))
    return out


def interrupted_marked(ctx):
    marked = ctx.summary().get("was_cancelled") is True
    return [] if marked else [("marked interrupted", "profile_export_aiperf.json lacks was_cancelled: true")]


def make_fifo(tmp):
    os.mkfifo(os.path.join(tmp, "fifo"))


MOCK = "mock:--ttft-ms 2 --itl-ms 1"
SHORT = ["--streaming", "--request-count", "8", "--concurrency", "2"]

CASES = [
    # Bad flags and values: exit 2, one line, within a second (2 s allowed on a loaded machine).
    usage("unknown_flag", ["--no-such-flag"]),
    usage("concurrency_not_a_number", ["--concurrency", "abc"]),
    usage("concurrency_zero", ["--concurrency", "0"]),
    usage("negative_rate", ["--request-rate", "-1"]),
    usage("duration_not_a_duration", ["--benchmark-duration", "abc"]),
    usage("osl_negative", ["--osl", "-5"], defaults={"--osl": None}),
    usage("extra_inputs_json_array", ["--extra-inputs", "[1,2]"],
          checks=[stderr_has("[1,2]", "message names the whole value")]),
    usage("extra_inputs_invalid_utf8", ["--extra-inputs", "temp\udcab:0.5"]),
    # URLs.
    usage("url_bad_scheme", ["-u", "ftp://x"]),
    usage("url_empty", ["-u", ""]),
    usage("url_port_out_of_range", ["-u", "localhost:99999"]),
    usage("url_port_not_a_number", ["-u", "http://127.0.0.1:abc"]),
    usage("url_port_zero", ["-u", "http://127.0.0.1:0"]),
    usage("endpoint_is_a_url", ["--endpoint", "http://127.0.0.1:9/v1/chat/completions?key=sk-x"]),
    usage("endpoint_with_space", ["--custom-endpoint", "/v1/chat completions"]),
    # Files: input datasets and tokenizers.
    usage("input_file_missing", ["--input-file", "{tmp}/missing.jsonl"]),
    usage("input_file_empty", ["--input-file", "{tmp}/empty.jsonl"], setup=write("empty.jsonl", b"")),
    usage("input_file_not_json", ["--input-file", "{tmp}/bad.jsonl"], setup=write("bad.jsonl", b'{"text": 5\n')),
    usage("input_file_binary", ["--input-file", "{tmp}/bin.jsonl"], setup=write("bin.jsonl", bytes(range(256)) * 64)),
    usage("input_file_dev_zero", ["--input-file", "/dev/zero"], bound_s=3.0),
    usage("input_file_fifo", ["--input-file", "{tmp}/fifo"], setup=make_fifo, bound_s=3.0),
    usage("tokenizer_missing", [], defaults={"--tokenizer": "{tmp}/none/tokenizer.json"}),
    usage("tokenizer_not_json", [], defaults={"--tokenizer": "{tmp}/t.json"}, setup=write("t.json", b"garbage")),
    usage("tokenizer_empty", [], defaults={"--tokenizer": "{tmp}/t.json"}, setup=write("t.json", b"")),
    usage("tokenizer_unknown_model", [], defaults={"--tokenizer": "{tmp}/t.json"},
          setup=write("t.json", b'{"model":{"type":"Nope"}}')),
    usage("tokenizer_folder_without_file", [], defaults={"--tokenizer": "{tmp}"}),
    usage("tiktoken_garbage", [], defaults={"--tokenizer": "{tmp}/x.tiktoken"},
          setup=write("x.tiktoken", b"not base64 at all\n")),
    # Artifact paths: refused before the first request (nothing measured is lost).
    usage("artifact_dir_in_proc", SHORT, server=MOCK, defaults={"--artifact-dir": "/proc/x"}),
    usage("artifact_dir_is_a_file", SHORT, server=MOCK, defaults={"--artifact-dir": "{tmp}/file"},
          setup=write("file", b"x")),
    usage("export_prefix_escapes", SHORT + ["--profile-export-prefix", "../../x"], server=MOCK),

    # Servers that misbehave.
    Case("connection_refused", ["--concurrency", "4", "--benchmark-duration", "2"], exit=(3,), bound_s=6,
         server="refused", checks=[bounded_connect_errors(4 * 16), stderr_has("server unreachable from"),
                                  every_error_mentions("refused")],
         why="issue 11 item 5: closed-loop slots back off instead of storming"),
    Case("connection_refused_sessions", ["--session-turns-mean", "3", "--concurrency", "4",
                                         "--benchmark-duration", "2"], exit=(3,), bound_s=6,
         server="refused", checks=[bounded_connect_errors(4 * 16)],
         why="issue 11 item 5: closed-loop sessions back off between turns and between sessions"),
    Case("connection_refused_open_loop", ["--request-rate", "50", "--benchmark-duration", "1"], exit=(3,),
         bound_s=5, server="refused", checks=[record_count_between(45, 55)],
         why="open loop keeps its schedule against a dead server: rate x duration attempts, no back-off"),
    Case("unresolvable_host", ["-u", "http://servebench-robustness.invalid:8000", "--request-count", "4"],
         exit=(2, 3), bound_s=8),
    Case("silent_listener", ["--request-count", "2", "--request-timeout-seconds", "1"], exit=(3,),
         bound_s=5, server="silent", checks=[every_error_mentions("timeout", "timed out")]),
    Case("hang_after_headers", ["--streaming", "--request-count", "2", "--request-timeout-seconds", "1"],
         exit=(3,), bound_s=5, server="hang_after_headers", checks=[every_error_mentions("timeout", "timed out")]),
    Case("slow_headers", ["--streaming", "--request-count", "2", "--concurrency", "1"], exit=(0,),
         bound_s=8, server="slow_headers", checks=[every_record_ok]),
    Case("events_of_8_mib", ["--streaming", "--request-count", "1"], exit=(0,), bound_s=15,
         server="big_events", checks=[every_record_ok]),
    Case("events_of_8_mib_bpe_tokenizer", ["--streaming", "--request-count", "1"], exit=(0,), bound_s=6,
         server="big_events", defaults={"--tokenizer": "builtin"}, checks=[every_record_ok],
         why="issue 11 item 8: counting a giant word with a BPE tokenizer must stay near prose speed"),
    Case("http500_everywhere", SHORT, exit=(3,), bound_s=6,
         server="mock:--error-rate 100 --error-kind http500"),
    Case("malformed_sse_everywhere", SHORT, exit=(3,), bound_s=6,
         server="mock:--error-rate 100 --error-kind malformed --itl-ms 1"),
    Case("server_killed_mid_run", ["--streaming", "--concurrency", "8", "--benchmark-duration", "4"],
         exit=(3,), bound_s=9, server=MOCK, action=(1.0, "kill_server"),
         checks=[bounded_connect_errors(8 * 16), stderr_has("server unreachable from"),
                 warning_in_summary("server unreachable from")],
         why="issue 11 item 5: bounded errors, a warning with the instant, exit 3, artifacts"),
    Case("tls_self_signed_refused", SHORT, exit=(3,), bound_s=8, server="tls",
         checks=[every_error_mentions("certificate", "ssl", "tls")]),
    Case("tls_self_signed_insecure", SHORT + ["--insecure"], exit=(0,), bound_s=8, server="tls",
         checks=[every_record_ok]),
    Case("http2_goaway_mid_run", ["--streaming", "--insecure", "--http-version", "2", "--concurrency", "4",
                                  "--benchmark-duration", "3"],
         exit=(3,), bound_s=9, server="tls_h2", action=(1.0, "goaway"),
         checks=[only_connect_errors, stderr_has("server unreachable from")]),

    # Signals, limits, secrets.
    Case("ctrl_c_mid_run_exits_130", ["--streaming", "--concurrency", "2", "--benchmark-duration", "60"],
         exit=(130,), bound_s=5, server=MOCK, action=(1.0, "sigint"), checks=[interrupted_marked]),
    Case("sigterm_mid_run_exits_143", ["--streaming", "--concurrency", "2", "--benchmark-duration", "60"],
         exit=(143,), bound_s=5, server=MOCK, action=(1.0, "sigterm"), checks=[interrupted_marked]),
    Case("ctrl_c_during_warmup", ["--streaming", "--concurrency", "2", "--warmup-request-count", "1000000",
                                  "--request-count", "10"],
         exit=(130,), bound_s=5, server=MOCK, action=(1.0, "sigint")),
    Case("ctrl_c_twice_cancels_at_once", ["--streaming", "--concurrency", "2", "--benchmark-duration", "60",
                                          "--osl", "200", "--extra-inputs", "ignore_eos:true"],
         exit=(130,), bound_s=3.5, server="mock:--ttft-ms 2 --itl-ms 50", defaults={"--osl": None},
         action=(1.0, "sigint", 1.3, "sigint"), checks=[interrupted_marked]),
    Case("ctrl_c_during_setup", ["--input-file", "/dev/zero"], exit=(2, 130), bound_s=2.5, kind="none",
         action=(0.5, "sigint")),
    Case("fd_limit_below_concurrency", ["--streaming", "--concurrency", "5000", "--request-count", "5000"],
         exit=(0, 2), bound_s=20, server="mock:--ttft-ms 500 --itl-ms 1", nofile=1024,
         checks=[fd_limit_handled]),
    Case("secret_headers_and_url_userinfo",
         ["-u", "http://user:SECRET4@127.0.0.1:{port}", "-H", "X-Custom-Secret: SECRET3",
          "-H", "X-Access-Token: SECRET5", "--request-count", "2"],
         exit=(0, 2), bound_s=6, server=MOCK),
    Case("header_invalid_utf8", ["-H", "X-Odd: \udcab", "--request-count", "2"], exit=(0, 2), bound_s=6,
         server=MOCK),
    Case("url_query_string_kept_after_path", ["-u", "{url}?api-version=1", "--request-count", "2"],
         exit=(0,), bound_s=6, server=MOCK, checks=[mock_path_has_query]),
]
