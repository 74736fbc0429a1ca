"""Runs one robustness case: starts its server, runs the real `servebench profile` with the
case's flags plus two secrets, applies the case's mid-run action (kill the server, Ctrl-C, ...),
kills the process group if it outlives the case's time bound, and evaluates the common checks
(exit code, time bound, one-line usage error, artifacts present, no secret anywhere) and the
case's own. Returns the failed checks as (check name, message) pairs."""

import glob
import json
import os
import resource
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

import servers

# Passed in every case; neither may appear in any artifact, stdout or stderr.
SECRETS = {"api-key": "SECRETVALUE", "X-Auth-Token": "SECRET2"}
EXTRA_SECRETS = ["SECRET3", "SECRET4", "SECRET5"]  # used by the secret-header case


class Unavailable(Exception):
    """A fixture this machine lacks (e.g. nghttpx): the case is skipped, with the reason."""


@dataclass
class Case:
    name: str
    args: List[str]                 # flags after the defaults; {url} {tmp} {port} are filled in
    exit: Tuple[int, ...]           # accepted exit codes
    bound_s: float                  # exits within this many seconds
    kind: str = "run"               # "usage": one stderr line, no request sent; "run": artifacts
    server: Optional[str] = None    # mock[:flags] | refused | tls | tls_h2 | silent | hang_after_headers
                                    # | slow_headers | big_events
    defaults: Dict[str, Optional[str]] = field(default_factory=dict)  # override (None: drop) a default
    action: Optional[Tuple] = None  # (after s, kill_server | sigint | sigterm | goaway[, after s, ...])
    nofile: Optional[int] = None    # soft and hard RLIMIT_NOFILE for servebench
    setup: Optional[Callable] = None  # setup(tmp): files the flags name
    checks: List[Callable] = field(default_factory=list)  # check(ctx) -> [(name, message)]
    why: str = ""


@dataclass
class Ctx:
    case: Case
    tmp: str
    exit: int = -1
    elapsed_s: float = 0.0
    killed: bool = False
    stdout: str = ""
    stderr: str = ""
    server: object = None

    def run_dir(self):
        """The artifact folder of the run (art/<model-endpoint-load>), or None."""
        found = glob.glob(os.path.join(self.tmp, "art", "*", "profile_export_aiperf.json"))
        return os.path.dirname(found[0]) if found else None

    def summary(self):
        d = self.run_dir()
        return json.load(open(os.path.join(d, "profile_export_aiperf.json"))) if d else {}

    def records(self):
        d = self.run_dir()
        if not d or not os.path.exists(os.path.join(d, "profile_export.jsonl")):
            return []
        return [json.loads(l) for l in open(os.path.join(d, "profile_export.jsonl")) if l.strip()]

    def requests_received(self):
        return self.server.request_count() if isinstance(self.server, servers.Mock) else None


DEFAULTS = {"-m": "mock-model", "--tokenizer": "simple", "--isl": "16", "--osl": "4",
            "--random-seed": "1", "--artifact-dir": "{tmp}/art", "--api-key": SECRETS["api-key"],
            "-H": "X-Auth-Token: " + SECRETS["X-Auth-Token"]}


def start_server(case, bin_dir, tmp):
    kind = case.server or ""
    if kind.startswith("mock"):
        return servers.Mock(bin_dir, tmp, kind.split(":", 1)[1].split() if ":" in kind else [])
    if kind == "refused":
        port = servers.free_port()
        return type("Refused", (), {"url": f"http://127.0.0.1:{port}", "port": port, "stop": lambda s: None})()
    if kind.startswith("tls"):
        if not os.access(servers.Nghttpx.BIN, os.X_OK):
            raise Unavailable(f"{servers.Nghttpx.BIN} is not installed (scripts/setup.sh installs nghttp2-proxy)")
        mock = servers.Mock(bin_dir, tmp, ["--ttft-ms", "2", "--itl-ms", "1"])
        front = servers.Nghttpx(tmp, mock.port)
        front.backend = mock
        front.request_count = mock.request_count
        return front
    if kind:
        return servers.RawServer(kind)
    return None


def stop_server(server):
    if server is None:
        return
    server.stop()
    if hasattr(server, "backend"):
        server.backend.stop()


def build_argv(case, bin_dir, ctx):
    fill = lambda s: s.format(url=getattr(ctx.server, "url", ""), tmp=ctx.tmp,
                              port=getattr(ctx.server, "port", 0))
    argv = [os.path.join(bin_dir, "servebench"), "profile"]
    defaults = dict(DEFAULTS, **case.defaults)
    for flag, value in defaults.items():
        if value is not None:
            argv += [flag, fill(value)]
    if ctx.server is not None and "-u" not in case.args and "--url" not in case.args:
        argv += ["-u", ctx.server.url]
    return argv + [fill(a) for a in case.args]


def act(what, proc, server):
    if what == "kill_server":
        (server.backend if hasattr(server, "backend") else server).kill()
    elif what == "goaway":
        server.graceful_shutdown()
    elif what in ("sigint", "sigterm"):
        proc.send_signal(signal.SIGINT if what == "sigint" else signal.SIGTERM)


def run(case, bin_dir, tmp):
    ctx = Ctx(case=case, tmp=tmp)
    if case.setup:
        case.setup(tmp)
    try:
        ctx.server = start_server(case, bin_dir, tmp)
        argv = build_argv(case, bin_dir, ctx)

        def limits():
            if case.nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (case.nofile, case.nofile))

        out, err = open(os.path.join(tmp, "stdout"), "w"), open(os.path.join(tmp, "stderr"), "w")
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                start_new_session=True, preexec_fn=limits)
        timers = []
        for at, what in zip((case.action or ())[::2], (case.action or ())[1::2]):
            timers.append(threading.Timer(at, act, (what, proc, ctx.server)))
            timers[-1].start()
        try:
            ctx.exit = proc.wait(timeout=case.bound_s + 1.5)
        except subprocess.TimeoutExpired:
            ctx.killed = True
            os.killpg(proc.pid, signal.SIGKILL)
            ctx.exit = proc.wait()
        ctx.elapsed_s = time.monotonic() - start
        for t in timers:
            t.cancel()
        out.close()
        err.close()
        ctx.stdout = open(os.path.join(tmp, "stdout"), errors="replace").read()
        ctx.stderr = open(os.path.join(tmp, "stderr"), errors="replace").read()
        return ctx, evaluate(ctx)
    finally:
        stop_server(ctx.server)


def evaluate(ctx):
    case, failed = ctx.case, []
    if ctx.killed:
        failed.append(("time bound", f"still running after {case.bound_s + 1.5:.1f} s; killed"))
    elif ctx.elapsed_s > case.bound_s:
        failed.append(("time bound", f"took {ctx.elapsed_s:.2f} s > {case.bound_s} s"))
    if not ctx.killed and ctx.exit not in case.exit:
        failed.append(("exit code", f"exit {ctx.exit}, expected {case.exit}; stderr: {tail(ctx.stderr)}"))
    if case.kind == "usage" and not ctx.killed:
        # Log lines (info/debug/warning) may precede it; the error itself is one line.
        lines = [l for l in ctx.stderr.splitlines()
                 if l.strip() and not l.startswith(("info:", "debug:", "warning:"))]
        if len(lines) != 1:
            failed.append(("one-line error", f"{len(lines)} stderr lines: {tail(ctx.stderr)}"))
        received = ctx.requests_received()
        if received:
            failed.append(("no request before the error", f"the server received {received} request(s)"))
    if case.kind == "run" and not ctx.killed and ctx.exit in (0, 1, 3, 130, 143):
        d = ctx.run_dir()
        if not d:
            failed.append(("artifacts", "no profile_export_aiperf.json written"))
        elif not os.path.exists(os.path.join(d, "profile_export.jsonl")):
            failed.append(("artifacts", "no profile_export.jsonl written"))
    failed += secret_checks(ctx)
    for check in case.checks:
        failed += check(ctx)
    return failed


def secret_checks(ctx):
    """Every file under the case's folder that servebench wrote, plus stdout and stderr."""
    texts = {"stdout": ctx.stdout, "stderr": ctx.stderr}
    art = os.path.join(ctx.tmp, "art")
    for root, _, files in os.walk(art):
        for f in files:
            p = os.path.join(root, f)
            texts[os.path.relpath(p, art)] = open(p, errors="replace").read()
    failed = []
    for label, secret in list(SECRETS.items()) + [(s, s) for s in EXTRA_SECRETS]:
        where = [name for name, text in texts.items() if secret in text]
        if where:
            failed.append((f"secret {label}", f"'{secret}' appears in {', '.join(sorted(where))}"))
    return failed


def tail(text, n=300):
    text = " | ".join(l for l in text.splitlines() if l.strip())
    return text[-n:] if text else "(empty)"
