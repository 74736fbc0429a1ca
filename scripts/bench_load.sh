#!/usr/bin/env bash
# Load-engine benchmarks (issue 3, benchmarks 3-6) against servebench-mock on loopback.
#   3. timing error vs the mock's ground truth: 200 streams x 10 ms ITL, 2,000 streams x 50 ms ITL
#   4. schedule lag at 1,000 requests/s Poisson
#   5. peak RSS with 10,000 concurrent open streams
#   6. start-up to first request sent (builtin tokenizer)
# usage: scripts/bench_load.sh [timing|lag|rss|startup|all]
#   BIN=build/bin; RT=1 runs client and mock under SCHED_FIFO (chrt -f 10) so that other load on a
#   shared machine does not preempt them; MOCK_THREADS, N200, N2000, LAG_REQUESTS size the runs.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/bin}
WHAT=${1:-all}
OUT=$(mktemp -d /tmp/sb-bench-load-XXXXXX)
ulimit -n "$(ulimit -Hn)"
PRIO=()
[ "${RT:-0}" = 1 ] && PRIO=(chrt -f 10)
MOCK_PID=
trap '[ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null; true' EXIT

start_mock() {  # args...; sets PORT and MOCK_PID
  "${PRIO[@]}" "$BIN/servebench-mock" --port 0 "$@" > "$OUT/mock.out" 2> "$OUT/mock.err" &
  MOCK_PID=$!
  for _ in $(seq 100); do
    [ -s "$OUT/mock.out" ] && break
    sleep 0.05
  done
  PORT=$(head -1 "$OUT/mock.out" | sed 's/.*://')
}
stop_mock() { kill "$MOCK_PID" 2>/dev/null || true; wait "$MOCK_PID" 2>/dev/null || true; MOCK_PID=; }

echo "# $(date -u +%FT%TZ) $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg), RT=${RT:-0}"

timing() {  # streams itl_ms requests osl
  local streams=$1 itl=$2 n=$3 osl=$4
  echo "## timing error: $streams streams x $itl ms ITL ($n requests, $osl tokens each)"
  start_mock --ttft-ms 20 --itl-ms "$itl" --threads "${MOCK_THREADS:-1}" --ground-truth "$OUT/gt-$streams.jsonl"
  local cmd=("$BIN/servebench" profile -m mock-model --tokenizer simple -u "127.0.0.1:$PORT" --streaming
    --concurrency "$streams" --request-count "$n" --warmup-request-count "$streams" --osl "$osl" --isl 32 --extra-inputs ignore_eos:true
    --export-level raw --artifact-dir "$OUT/art-timing-$streams" -q)
  echo "\$ ${PRIO[*]} ${cmd[*]}"
  "${PRIO[@]}" "${cmd[@]}"
  stop_mock
  python3 bench/load/timing_vs_truth.py "$OUT"/art-timing-"$streams"/*/profile_export_raw.jsonl "$OUT/gt-$streams.jsonl"
}

lag() {
  local n=${LAG_REQUESTS:-20000}
  echo "## schedule lag: 1,000 requests/s Poisson ($n requests)"
  start_mock --ttft-ms 5 --itl-ms 2
  local cmd=("$BIN/servebench" profile -m mock-model --tokenizer simple -u "127.0.0.1:$PORT" --streaming
    --request-rate 1000 --arrival-pattern poisson --request-count "$n" --osl 8 --isl 32 --random-seed 1
    --artifact-dir "$OUT/art-lag" -q)
  echo "\$ ${PRIO[*]} ${cmd[*]}"
  "${PRIO[@]}" "${cmd[@]}"
  stop_mock
  python3 bench/load/lag.py "$OUT"/art-lag/*/profile_export.jsonl
}

rss() {
  echo "## peak RSS with 10,000 concurrent open streams"
  start_mock --ttft-ms 0 --itl-ms 1000 --threads "${MOCK_THREADS:-1}"
  local cmd=("$BIN/servebench" profile -m mock-model --tokenizer simple -u "127.0.0.1:$PORT" --streaming
    --concurrency 10000 --request-count 10000 --osl 30 --isl 32 --extra-inputs ignore_eos:true
    --artifact-dir "$OUT/art-rss" -q)
  echo "\$ /usr/bin/time -v ${cmd[*]}"
  /usr/bin/time -v "${cmd[@]}" 2> "$OUT/rss.txt" || true
  stop_mock
  grep -E "Maximum resident|Elapsed" "$OUT/rss.txt"
  python3 - "$OUT"/art-rss/*/profile_export_aiperf.json <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print("requests ok:", j["request_count"]["avg"], " peak concurrency:", j["servebench"]["peak_concurrency"])
PY
}

startup() {
  echo "## start-up to first request (builtin tokenizer, 100 prompts of 550 tokens)"
  start_mock
  for i in 1 2 3; do
    python3 bench/load/startup.py "$OUT/art-start$i" -- "$BIN/servebench" profile -m mock-model \
      --tokenizer builtin -u "127.0.0.1:$PORT" --request-count 1 --artifact-dir "$OUT/art-start$i" -q
  done
  stop_mock
}

case "$WHAT" in
  timing) timing 200 10 "${N200:-2000}" 50; timing 2000 50 "${N2000:-4000}" 40 ;;
  lag) lag ;;
  rss) rss ;;
  startup) startup ;;
  all) timing 200 10 "${N200:-2000}" 50; timing 2000 50 "${N2000:-4000}" 40; lag; rss; startup ;;
  *) echo "usage: $0 [timing|lag|rss|startup|all]" >&2; exit 2 ;;
esac
echo "(outputs in $OUT)"
