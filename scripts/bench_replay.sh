#!/usr/bin/env bash
# Fixed-schedule replay lag: a 2,000-row mooncake trace at 200 requests/s (5 ms apart) replayed
# against servebench-mock; prints the schedule lag (start - timestamp) distribution in ms.
#   RT=1 scripts/bench_replay.sh    # client and mock under SCHED_FIFO (root), as in bench_load.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/bin}
work=$(mktemp -d)
trap 'kill $mock 2>/dev/null || true; rm -rf "$work"' EXIT
rt=()
[[ "${RT:-0}" == "1" ]] && rt=(chrt -f 10)
python3 - "$work/trace.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    for i in range(2000):
        f.write(json.dumps({"timestamp": i * 5, "input_length": 64, "output_length": 4}) + "\n")
PY
"${rt[@]}" "$BIN/servebench-mock" --port 0 --ttft-ms 2 --itl-ms 1 >"$work/mock.log" 2>&1 &
mock=$!
for _ in $(seq 1 100); do
  url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$work/mock.log" | head -1)
  [[ -n "$url" ]] && break
  sleep 0.05
done
"${rt[@]}" "$BIN/servebench" profile -m m -u "$url" --streaming --tokenizer builtin \
  --input-file "$work/trace.jsonl" --artifact-dir "$work/out" -q
python3 - "$work"/out/*/profile_export_aiperf.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
lag = s["servebench"]["schedule_lag"]
print("replay lag (ms): " + " ".join(f"{k} {lag[k]:.4f}" for k in ("p50", "p90", "p99", "max")),
      f"count {lag['count']}; request_throughput {s['request_throughput']['avg']:.2f}/s")
PY
