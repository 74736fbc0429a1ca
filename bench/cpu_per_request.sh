#!/usr/bin/env bash
# Whole-process CPU per request (issue 10): `servebench profile` at concurrency 64 against a
# server that answers a full streamed SSE chat completion instantly, next to `wrk -t1 -c64` on
# the same endpoint. Client pinned to CLIENT_CPU, server to SERVER_CPU (taskset).
#
#   bench/cpu_per_request.sh [N=300000] [RUNS=5]
#
# Server: nginx returning a fixed SSE body (role event, two tokens, usage, [DONE]: the mock's
# tiny stream) when /usr/sbin/nginx exists (`apt-get install nginx-light`, for the benchmark
# only), else servebench-mock with --ttft-ms 0 --itl-ms 0 and 2 output tokens (SERVER=mock
# forces the mock; it is slower than the client, so the throughput ratio is then ~1).
#
# Per run: servebench's CPU = user+sys of the whole process (/usr/bin/time: set-up, tokenizer,
# workers, record processing, export), divided by N; its throughput = request_throughput of
# profile_export_aiperf.json; wrk's = Requests/sec over WRK_SECS (default 5) and its CPU per
# request likewise. Runs alternate which tool goes first; the medians over RUNS are printed.
#   BIN=build/bin  CONCURRENCY=64  CLIENT_CPU=0  SERVER_CPU=1  TOKENIZER=builtin  KEEP=1
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/nginx_sse.sh  # start_nginx_sse, free_port, sb_profile_cmd
BIN=${BIN:-build/bin}
N=${1:-300000}
RUNS=${2:-5}
CONC=${CONCURRENCY:-64}
CLIENT_CPU=${CLIENT_CPU:-0}
SERVER_CPU=${SERVER_CPU:-1}
WRK_SECS=${WRK_SECS:-5}
TOKENIZER=${TOKENIZER:-builtin}
SERVER=${SERVER:-$([[ -x /usr/sbin/nginx ]] && echo nginx || echo mock)}
WORK=$(mktemp -d /tmp/sb-cpu-per-request-XXXXXX)
cleanup() {
  [[ -f $WORK/nginx.pid ]] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null
  [[ -f $WORK/mock.pid ]] && kill "$(cat "$WORK/mock.pid")" 2>/dev/null
  [[ ${KEEP:-0} == 1 ]] || rm -rf "$WORK"
  true
}
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)"
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 2; }
[[ -x $BIN/servebench ]] || { echo "missing $BIN/servebench: make build" >&2; exit 2; }

BODY='{"messages":[{"role":"user","content":"hello"}],"model":"mock-model","stream":true,"stream_options":{"include_usage":true},"max_completion_tokens":2}'
cat > "$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '$BODY'
LUA

if [[ $SERVER == nginx ]]; then
  PORT=$(free_port)
  start_nginx_sse "$WORK" "$PORT" "$SERVER_CPU" || exit 3
  sleep 0.5
else
  taskset -c "$SERVER_CPU" "$BIN/servebench-mock" --port 0 --ttft-ms 0 --itl-ms 0 \
    --default-max-tokens 2 > "$WORK/mock.out" 2> "$WORK/mock.err" &
  echo $! > "$WORK/mock.pid"
  for _ in $(seq 100); do grep -q listening "$WORK/mock.out" && break; sleep 0.05; done
  PORT=$(head -1 "$WORK/mock.out" | sed 's/.*://')
fi
URL="http://127.0.0.1:$PORT"

echo "# $(date -u +%FT%TZ) $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# server=$SERVER N=$N concurrency=$CONC runs=$RUNS client_cpu=$CLIENT_CPU server_cpu=$SERVER_CPU wrk=${WRK_SECS}s tokenizer=$TOKENIZER"

run_wrk() {  # prints "rps cpu_us_per_request"
  local out
  out=$( { /usr/bin/time -f "cpu_s=%U %S" taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONC" -d"${WRK_SECS}s" \
    -s "$WORK/post.lua" "$URL/v1/chat/completions"; } 2>&1)
  python3 - "$out" <<'PY'
import re, sys
o = sys.argv[1]
u, s = map(float, re.search(r'cpu_s=([0-9.]+) ([0-9.]+)', o).groups())
n = int(re.search(r'(\d+) requests in', o).group(1))
rps = float(re.search(r'Requests/sec:\s+([0-9.]+)', o).group(1))
bad = re.search(r'Non-2xx or 3xx responses: (\d+)', o)
if bad: print(f"wrk: {bad.group(1)} non-2xx responses", file=sys.stderr)
print(f"{rps:.0f} {(u + s) * 1e6 / n:.2f}")
PY
}

sb_profile_cmd "$CLIENT_CPU" "$BIN/servebench" "$URL" "$N" "$CONC" "$TOKENIZER" "$WORK/art"
echo "\$ /usr/bin/time ${SB_PROFILE_CMD[*]}"

run_sb() {  # prints "rps cpu_us_per_request user_s sys_s wall_s"
  local art=$WORK/art
  rm -rf "$art"
  /usr/bin/time -f "cpu_s=%U %S %e" "${SB_PROFILE_CMD[@]}" > "$WORK/sb.out" 2> "$WORK/sb.err" || {
    cat "$WORK/sb.err" >&2; exit 1; }
  python3 - "$N" "$art" "$WORK/sb.err" <<'PY'
import glob, json, re, sys
n = int(sys.argv[1])
u, s, e = map(float, re.search(r'cpu_s=([0-9.]+) ([0-9.]+) ([0-9.]+)', open(sys.argv[3]).read()).groups())
j = json.load(open(glob.glob(sys.argv[2] + '/**/profile_export_aiperf.json', recursive=True)[0]))
rps = j['request_throughput']['avg']
count = j.get('request_count', {}).get('avg', n)
errs = j.get('error_request_count', {}).get('avg', 0) if isinstance(j.get('error_request_count'), dict) else 0
if count != n or errs: print(f"servebench: request_count={count} errors={errs}", file=sys.stderr)
print(f"{rps:.0f} {(u + s) * 1e6 / n:.2f} {u:.2f} {s:.2f} {e:.2f}")
PY
}

: > "$WORK/results"
for i in $(seq "$RUNS"); do
  if (( i % 2 )); then w=$(run_wrk); s=$(run_sb); else s=$(run_sb); w=$(run_wrk); fi
  echo "run $i: servebench rps cpu_us user_s sys_s wall_s = $s | wrk rps cpu_us = $w | load $(cut -d' ' -f1 /proc/loadavg)"
  echo "$s $w" >> "$WORK/results"
done
python3 - "$WORK/results" <<'PY'
import statistics as st, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
sb_rps = [r[0] for r in rows]; sb_cpu = [r[1] for r in rows]
wrk_rps = [r[5] for r in rows]; wrk_cpu = [r[6] for r in rows]
ratio = [a / b for a, b in zip(sb_rps, wrk_rps)]
f = lambda xs, p=2: f"median {st.median(xs):.{p}f} (min {min(xs):.{p}f}, max {max(xs):.{p}f})"
print(f"servebench CPU/request (whole process): {f(sb_cpu)} us   target <= 10")
print(f"wrk CPU/request:                        {f(wrk_cpu)} us")
print(f"servebench throughput: {f(sb_rps, 0)} req/s; wrk: {f(wrk_rps, 0)} req/s")
print(f"throughput ratio servebench/wrk (per alternated pair): {f(ratio)}   target >= 0.8")
PY
echo "# end $(date -u +%FT%TZ) load average: $(cut -d' ' -f1-3 /proc/loadavg)"
