#!/usr/bin/env bash
# What server-metrics collection costs the load: `servebench profile` at a fixed request rate
# (default 1,000 req/s, constant arrivals) against servebench-mock (instant 2-token streams),
# alternating runs with collection on (the default: the mock's /metrics every 333 ms) and off
# (--no-server-metrics). Per run: CPU per request = user+sys of the whole servebench process
# (/usr/bin/time) / N, and schedule lag p50/p99 (profile_export_aiperf.json). Prints each run and
# the medians per mode.
#
#   bench/server_metrics_cost.sh [N=3000] [RUNS=3]
#   BIN=build/bin RATE=1000 INTERVAL=0.333 KEEP=1
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/bin}
N=${1:-3000}
RUNS=${2:-3}
RATE=${RATE:-1000}
INTERVAL=${INTERVAL:-0.333}
WORK=$(mktemp -d /tmp/sb-sm-cost-XXXXXX)
cleanup() {
  [[ -f $WORK/mock.pid ]] && kill "$(cat "$WORK/mock.pid")" 2>/dev/null
  [[ ${KEEP:-0} == 1 ]] || rm -rf "$WORK"
  true
}
trap cleanup EXIT
[[ -x $BIN/servebench && -x $BIN/servebench-mock ]] || { echo "missing $BIN/servebench(-mock): make build" >&2; exit 2; }
"$BIN/servebench-mock" --port 0 --ttft-ms 0 --itl-ms 0 --default-max-tokens 2 >"$WORK/mock.out" 2>"$WORK/mock.err" &
echo $! >"$WORK/mock.pid"
for _ in $(seq 100); do grep -q listening "$WORK/mock.out" && break; sleep 0.05; done
URL="http://127.0.0.1:$(head -1 "$WORK/mock.out" | sed 's/.*://')"
echo "# $(date -u +%FT%TZ) $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# N=$N rate=$RATE runs=$RUNS interval=$INTERVAL"

run() {  # run MODE INDEX -> "mode cpu_us_per_req lag_p50_us lag_p99_us scrapes"
  local mode=$1 i=$2 dir="$WORK/$1-$2" extra=()
  [[ $mode == off ]] && extra=(--no-server-metrics)
  [[ $mode == on ]] && extra=(--server-metrics-interval "$INTERVAL")
  /usr/bin/time -f "cpu_s=%U %S" -o "$dir.time" "$BIN/servebench" profile -m mock-model --tokenizer builtin \
    -u "$URL" --streaming --osl 2 --isl 16 --request-rate "$RATE" --request-count "$N" "${extra[@]}" \
    --artifact-dir "$dir" -q >/dev/null 2>"$dir.err" || { echo "run failed: $(tail -2 "$dir.err")" >&2; return; }
  python3 - "$mode" "$dir" "$dir.time" "$N" <<'PY'
import glob, json, re, sys
mode, d, tf, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
u, s = map(float, re.search(r"cpu_s=([0-9.]+) ([0-9.]+)", open(tf).read()).groups())
summ = json.load(open(glob.glob(d + "/*/profile_export_aiperf.json")[0]))
lag = summ["servebench"]["schedule_lag"]
scr = glob.glob(d + "/*/server_metrics_export.json")
fetches = sum(e["total_fetches"] for e in json.load(open(scr[0]))["summary"]["endpoint_info"].values()) if scr else 0
unit = lag.get("unit", "ms")
k = 1000.0 if unit == "ms" else 1.0
print(f"{mode} {(u + s) * 1e6 / n:.1f} {lag['p50'] * k:.1f} {lag['p99'] * k:.1f} {fetches}")
PY
}

: >"$WORK/results"
for i in $(seq "$RUNS"); do
  for mode in $([[ $((i % 2)) == 1 ]] && echo "on off" || echo "off on"); do
    r=$(run "$mode" "$i"); echo "run $i: $r (mode cpu_us/req lag_p50_us lag_p99_us scrapes)"; echo "$r" >>"$WORK/results"
  done
done
python3 - "$WORK/results" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
for mode in ("on", "off"):
    rs = [r for r in rows if r[0] == mode]
    if not rs: continue
    med = lambda i: statistics.median(float(r[i]) for r in rs)
    print(f"median {mode:3}: cpu {med(1):.1f} us/request, schedule lag p50 {med(2):.1f} us, p99 {med(3):.1f} us, scrapes {med(4):.0f}")
PY
