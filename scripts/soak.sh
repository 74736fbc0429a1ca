#!/usr/bin/env bash
# Soak (`make soak`): SOAK_MINUTES (default 30) of steady open-loop load from servebench against
# servebench-mock with SOAK_FAULT_PCT (default 5) % mixed faults (http500, http429, reset,
# malformed, error-event). Every 10 s it samples servebench's resident memory and CPU time and
# the requests the mock has received, into a CSV; at the end it says whether memory (growth after
# the first interval within 1 KiB per request — the exact summary's per-request columns — or
# within 2 MiB/5% overall) and CPU per request (last third within 25% of the first) stayed flat.
#
#   scripts/soak.sh                       # 30 min at 20 req/s
#   SOAK_MINUTES=1 SOAK_RATE=50 scripts/soak.sh
#
# Environment: SOAK_MINUTES, SOAK_RATE (req/s), SOAK_FAULT_PCT, SOAK_OUT (folder; default a new
# one under /tmp), BUILD (default ./build). Exit 0 when flat, 1 when not, 2 when the run failed.
set -euo pipefail
cd "$(dirname "$0")/.."

MINUTES="${SOAK_MINUTES:-30}"
RATE="${SOAK_RATE:-20}"
FAULT_PCT="${SOAK_FAULT_PCT:-5}"
BIN="${BUILD:-build}/bin"
OUT="${SOAK_OUT:-$(mktemp -d /tmp/servebench-soak-XXXXXX)}"
INTERVAL=10
mkdir -p "$OUT"
CSV="$OUT/soak.csv"

"$BIN/servebench-mock" --port 0 --ttft-ms 20 --itl-ms 2 --error-rate "$FAULT_PCT" --error-kind mixed \
  --record-requests "$OUT/mock_requests.jsonl" >"$OUT/mock.out" 2>"$OUT/mock.err" &
MOCK=$!
BENCH=
cleanup() {
  [[ -n $BENCH ]] && kill "$BENCH" 2>/dev/null || true
  kill "$MOCK" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 100); do grep -q '^listening on ' "$OUT/mock.out" 2>/dev/null && break; sleep 0.1; done
URL=$(sed -n 's/^listening on //p' "$OUT/mock.out")
[[ -n $URL ]] || { echo "soak: servebench-mock did not start: $(cat "$OUT/mock.err")" >&2; exit 2; }

DURATION_S=$((MINUTES * 60))
"$BIN/servebench" profile -m mock-model --tokenizer simple -u "$URL" --streaming --isl 64 --osl 16 \
  --request-rate "$RATE" --benchmark-duration "$DURATION_S" --benchmark-grace-period 5 \
  --request-timeout-seconds 30 --random-seed 1 --artifact-dir "$OUT/artifacts" \
  >"$OUT/servebench.out" 2>"$OUT/servebench.err" &
BENCH=$!

TICK=$(getconf CLK_TCK)
echo "t_s,rss_kb,cpu_s,requests" >"$CSV"
echo "soak: ${MINUTES} min at ${RATE} req/s, ${FAULT_PCT}% mixed faults against $URL; samples in $CSV"
start=$(date +%s)
while kill -0 "$BENCH" 2>/dev/null; do
  sleep "$INTERVAL"
  [[ -r /proc/$BENCH/stat ]] || break
  rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$BENCH/status" 2>/dev/null || echo "")
  # utime + stime: fields 14 and 15 of /proc/PID/stat (after the parenthesised name).
  cpu=$(sed 's/^.*) //' "/proc/$BENCH/stat" 2>/dev/null | awk -v t="$TICK" '{ printf "%.2f", ($12 + $13) / t }')
  [[ -n $rss && -n $cpu ]] || break
  reqs=$(wc -l <"$OUT/mock_requests.jsonl")
  echo "$(($(date +%s) - start)),$rss,$cpu,$reqs" >>"$CSV"
done
set +e
wait "$BENCH"
rc=$?
set -e
BENCH=
echo "soak: servebench exited $rc ($(tail -1 "$OUT/servebench.err"))"
[[ $rc -eq 0 ]] || { echo "soak: the run failed; see $OUT/servebench.err" >&2; exit 2; }

python3 - "$CSV" <<'PY'
import csv, statistics, sys
rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(open(sys.argv[1]))]
if len(rows) < 4:
    print(f"soak: only {len(rows)} samples; run at least 1 minute"); sys.exit(1)
# Per interval: CPU ms per request, RSS growth per request. The first interval (start-up,
# allocator warm-up) is left out of the judgement.
cpu_per_req, rss_per_req = [], []
for a, b in zip(rows[1:], rows[2:]):
    n = b["requests"] - a["requests"]
    if n <= 0: continue
    cpu_per_req.append((b["cpu_s"] - a["cpu_s"]) * 1e3 / n)
    rss_per_req.append((b["rss_kb"] - a["rss_kb"]) * 1024 / n)
third = max(1, len(cpu_per_req) // 3)
early, late = statistics.median(cpu_per_req[:third]), statistics.median(cpu_per_req[-third:])
cpu_flat = late <= early * 1.25 + 0.05        # 25% or 0.05 ms of noise
rss_growth = statistics.median(rss_per_req)  # bytes per request, after warm-up
# Memory: exact percentiles keep one value per request per metric (SummaryAccumulator: a few
# hundred bytes per request, docs/metrics.md), so RSS grows by design; what must not happen is
# keeping records (tens of KB each). Flat = the growth after warm-up per request stays within the
# summary's documented bound, or within allocator noise (2 MiB or 5% of its size) overall.
PER_REQUEST_BOUND = 1024
grown_kb = rows[-1]["rss_kb"] - rows[1]["rss_kb"]
grown_per_req = grown_kb * 1024 / max(1.0, rows[-1]["requests"] - rows[1]["requests"])
rss_flat = (grown_kb * 1024 <= max(2 * 2**20, 0.05 * rows[1]["rss_kb"] * 1024)
            or grown_per_req <= PER_REQUEST_BOUND)
print(f"soak: {int(rows[-1]['requests'])} requests, {len(rows)} samples; "
      f"RSS {rows[1]['rss_kb']/1024:.1f} -> {rows[-1]['rss_kb']/1024:.1f} MiB "
      f"(median growth {rss_growth:.0f} B/request, overall {grown_per_req:.0f} B/request, "
      f"bound {PER_REQUEST_BOUND}); CPU/request {early:.3f} -> {late:.3f} ms")
print(f"soak: memory {'within the per-request summary bound' if rss_flat else 'GROWING beyond it'}; CPU per request "
      f"{'flat' if cpu_flat else 'NOT flat'} within noise")
sys.exit(0 if cpu_flat and rss_flat else 1)
PY
