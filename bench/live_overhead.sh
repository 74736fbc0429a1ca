#!/usr/bin/env bash
# What the live display and the live API cost the load: schedule lag (p50/p99 from
# profile_export_aiperf.json) and whole-process CPU per request (/usr/bin/time user+sys / N) at
# 1,000 req/s Poisson against servebench-mock, alternating runs:
#   none       --ui none
#   dashboard  --ui dashboard under a pseudo-terminal (script -qfc), redrawn at 4 Hz
#   api        --ui none --api-port 0, polled 10 times a second (/api/metrics and /metrics)
#
#   bench/live_overhead.sh [N] [RUNS]     (defaults 10000 requests, 3 runs of each)
#   BIN=build/bin
set -euo pipefail
N=${1:-10000}
RUNS=${2:-3}
BIN=${BIN:-build/bin}
OUT=$(mktemp -d /tmp/sb-live-overhead-XXXXXX)
"$BIN/servebench-mock" --port 0 --ttft-ms 1 --itl-ms 1 --default-max-tokens 8 > "$OUT/mock.out" 2>&1 &
MOCK=$!
trap 'kill $MOCK 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$OUT/mock.out" ] && break; sleep 0.05; done
PORT=$(head -1 "$OUT/mock.out" | sed 's/.*://')
ARGS=(profile -m mock-model --tokenizer builtin -u "127.0.0.1:$PORT" --streaming --request-rate 1000
      --request-count "$N" --random-seed 1 --isl 16 --osl 8)

report() {  # mode dir timefile
  python3 - "$1" "$2" "$3" "$N" <<'PY'
import glob, json, sys
mode, d, tf, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
j = json.load(open(glob.glob(d + "/*/profile_export_aiperf.json")[0]))
lag = j["servebench"]["schedule_lag"]
user, sys_ = (float(x) for x in open(tf).read().split()[-2:])
print(f"{mode:10s} lag p50 {lag['p50']*1000:7.1f} us  p99 {lag['p99']*1000:8.1f} us  "
      f"CPU/request {(user + sys_) / n * 1e6:6.1f} us  (user {user:.2f} s, sys {sys_:.2f} s)")
PY
}

for run in $(seq "$RUNS"); do
  for mode in none dashboard api; do
    d="$OUT/$mode-$run"
    case $mode in
      none)
        /usr/bin/time -f "%U %S" -o "$d.time" "$BIN/servebench" "${ARGS[@]}" --ui none \
          --artifact-dir "$d" -q 2> /dev/null ;;
      dashboard)
        script -qfc "/usr/bin/time -f '%U %S' -o '$d.time' '$BIN/servebench' ${ARGS[*]} --ui dashboard --artifact-dir '$d' -q" \
          /dev/null > "$d.tty" ;;
      api)
        /usr/bin/time -f "%U %S" -o "$d.time" "$BIN/servebench" "${ARGS[@]}" --ui none --api-port 0 \
          --artifact-dir "$d" -q 2> "$d.err" &
        pid=$!
        while kill -0 $pid 2>/dev/null; do
          api=$(grep -o 'http://127.0.0.1:[0-9]*' "$d.err" 2>/dev/null | head -1 || true)
          [ -n "$api" ] && { curl -s "$api/api/metrics" > /dev/null || true; curl -s "$api/metrics" > /dev/null || true; }
          sleep 0.1
        done
        wait $pid ;;
    esac
    report "$mode" "$d" "$d.time"
  done
done
echo "(outputs in $OUT)"
