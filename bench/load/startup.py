#!/usr/bin/env python3
"""Start-up to first request: wall time from spawning `servebench profile ...` to the first
request_start in its records (both wall-clock ns on this machine).

usage: startup.py ARTIFACT_DIR -- servebench profile ARGS...   (ARGS must include --artifact-dir)
"""
import glob
import json
import subprocess
import sys
import time

art = sys.argv[1]
cmd = sys.argv[sys.argv.index("--") + 1:]
t0 = time.time_ns()
subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)
first = None
for path in glob.glob(art + "/*/profile_export.jsonl"):
    with open(path) as f:
        for line in f:
            s = json.loads(line)["metadata"]["request_start_ns"]
            first = s if first is None else min(first, s)
print(f"start-up to first request: {(first - t0) / 1e6:.1f} ms")
