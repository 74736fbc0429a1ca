#!/usr/bin/env bash
# Benchmarks of servebench-mock (run by hand; never part of the tests).
#
#   scripts/mock_bench.sh [precision|p200|p2000|wrk|all]      (default: all)
#
# precision: timing accuracy with the project's own epoll SSE driver (servebench-mock-driver,
#   no src/transport) and the mock's --ground-truth file:
#     A. 200 streams x 10 ms ITL  (20k SSE events/s; target: p99 within 100 us)
#     B. 2,000 streams x 50 ms ITL (40k SSE events/s; reported)
#   Server side: lateness = write time - due time of every token event (bench/mock/truth_stats.py).
#   Client side: observed TTFT and token gaps minus the configured values.
# wrk: zero-latency small non-streaming chat completions, one server thread, wrk -t1 -c64
#   (target >= 50k req/s), plus the server's CPU time per request.
#
# Environment: BUILD_DIR (default build), OUT_DIR (default /tmp/mock_bench.<time>),
#   DURATION_S (measured seconds per precision run, default 10), WRK_DURATION_S (default 10),
#   MOCK_THREADS=N (default 1) server threads for the precision runs,
#   RT=1 runs server and driver under SCHED_FIFO (chrt -f 20) to separate the mock's own
#   precision from CPU contention on a shared machine.
# Note: the machine should be otherwise idle; on a 2-core machine the driver, the server and
# everything else share the cores, so report the load average with the numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
OUT_DIR=${OUT_DIR:-/tmp/mock_bench.$(date +%Y%m%d-%H%M%S)}
DURATION_S=${DURATION_S:-10}
WRK_DURATION_S=${WRK_DURATION_S:-10}
MODE=${1:-all}
MOCK=$BUILD_DIR/bin/servebench-mock
DRIVER=$BUILD_DIR/bin/servebench-mock-driver
PRE=()
[[ "${RT:-0}" == 1 ]] && PRE=(chrt -f 20)
mkdir -p "$OUT_DIR"
for b in "$MOCK" "$DRIVER"; do
  [[ -x $b ]] || { echo "mock_bench: $b missing; run: cmake --build $BUILD_DIR --target servebench-mock servebench-mock-driver" >&2; exit 2; }
done

MOCK_PID=""
cleanup() { [[ -n $MOCK_PID ]] && kill "$MOCK_PID" 2>/dev/null && wait "$MOCK_PID" 2>/dev/null; MOCK_PID=""; }
trap cleanup EXIT

# start_mock OUTFILE ARGS...: starts the mock, waits for its listening line, sets PORT.
start_mock() {
  local out=$1; shift
  "${PRE[@]}" "$MOCK" "$@" > "$out" &
  MOCK_PID=$!
  for _ in $(seq 100); do
    PORT=$(sed -n 's/^listening on http:\/\/.*:\([0-9]*\)$/\1/p' "$out")
    [[ -n $PORT ]] && return 0
    sleep 0.05
  done
  echo "mock_bench: servebench-mock did not start" >&2; exit 3
}

precision() {  # precision NAME CONNECTIONS ITL_MS TOKENS
  local name=$1 conns=$2 itl=$3 tokens=$4
  local truth=$OUT_DIR/$name.truth.jsonl
  start_mock "$OUT_DIR/$name.mock.out" --threads "${MOCK_THREADS:-1}" --ttft-ms "$itl" --itl-ms "$itl" \
      --ground-truth "$truth"
  echo "== $name: $conns streams x $itl ms ITL, $tokens tokens each, ${DURATION_S}s measured (load: $(cut -d' ' -f1-3 /proc/loadavg))"
  echo "   cmd: $MOCK --threads ${MOCK_THREADS:-1} --ttft-ms $itl --itl-ms $itl --ground-truth $truth"
  echo "   cmd: $DRIVER --port \$PORT --connections $conns --duration-s $DURATION_S --max-tokens $tokens --ttft-ms $itl --itl-ms $itl"
  "${PRE[@]}" "$DRIVER" --port "$PORT" --connections "$conns" --duration-s "$DURATION_S" \
      --max-tokens "$tokens" --ttft-ms "$itl" --itl-ms "$itl" > "$OUT_DIR/$name.client.json" || true
  cleanup
  # Skip the ramp-up: one response time plus a second.
  local skip
  skip=$(python3 -c "print($itl * $tokens / 1000.0 + 1)")
  python3 bench/mock/truth_stats.py "$truth" "$skip" > "$OUT_DIR/$name.server.json"
  python3 - "$OUT_DIR/$name.client.json" "$OUT_DIR/$name.server.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1])); s = json.load(open(sys.argv[2]))
print("   client: %d token events/s (incl. ramp), errors %d" % (c["events_per_s"], c["errors"]))
for k in ("ttft_error", "gap_error"):
    d = c[k]
    print("   client %-10s n=%-7d median %+8.1f us   |err| p50 %7.1f  p90 %7.1f  p99 %8.1f  p99.9 %8.1f us"
          % (k, d["n"], d["p50_us"], d["abs_p50_us"], d["abs_p90_us"], d["abs_p99_us"], d["abs_p999_us"]))
for k in ("ttft_lateness", "itl_lateness"):
    d = s[k]
    print("   server %-13s n=%-7d p50 %7.1f  p90 %7.1f  p99 %8.1f  p99.9 %8.1f  max %8.1f us"
          % (k, d["n"], d["p50_us"], d["p90_us"], d["p99_us"], d["p999_us"], d["max_us"]))
PY
}

wrk_bench() {
  command -v wrk > /dev/null || { echo "mock_bench: wrk not installed (apt-get install wrk)" >&2; return; }
  /usr/bin/time -f "%U %S" -o "$OUT_DIR/wrk.server.time" "${PRE[@]}" "$MOCK" --threads 1 > "$OUT_DIR/wrk.mock.out" &
  local tpid=$!
  for _ in $(seq 100); do
    PORT=$(sed -n 's/^listening on http:\/\/.*:\([0-9]*\)$/\1/p' "$OUT_DIR/wrk.mock.out")
    [[ -n $PORT ]] && break
    sleep 0.05
  done
  echo "== wrk: zero latency, non-streaming chat (8 tokens), 1 server thread (load: $(cut -d' ' -f1-3 /proc/loadavg))"
  echo "   cmd: $MOCK --threads 1 ; wrk -t1 -c64 -d${WRK_DURATION_S}s -s bench/mock/wrk_chat.lua http://127.0.0.1:\$PORT/v1/chat/completions"
  wrk -t1 -c64 -d"${WRK_DURATION_S}s" -s bench/mock/wrk_chat.lua "http://127.0.0.1:$PORT/v1/chat/completions" | tee "$OUT_DIR/wrk.txt" | sed 's/^/   /'
  kill "$(pgrep -P "$tpid")" 2>/dev/null || true
  wait "$tpid" 2>/dev/null || true
  local reqs
  reqs=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$OUT_DIR/wrk.txt")
  read -r user sys < "$OUT_DIR/wrk.server.time"
  python3 -c "r=$reqs; u=$user; s=$sys; print('   server CPU per request: %.2f us (user %.2f + sys %.2f) -> %.0f req/s per fully used core' % ((u+s)*1e6/r, u*1e6/r, s*1e6/r, r/(u+s)))"
}

case $MODE in
  precision) precision p200x10ms 200 10 100; precision p2000x50ms 2000 50 100 ;;
  p200) precision p200x10ms 200 10 100 ;;
  p2000) precision p2000x50ms 2000 50 100 ;;
  wrk) wrk_bench ;;
  all) precision p200x10ms 200 10 100; precision p2000x50ms 2000 50 100; wrk_bench ;;
  *) echo "usage: scripts/mock_bench.sh [precision|p200|p2000|wrk|all]" >&2; exit 2 ;;
esac
echo "results in $OUT_DIR"
