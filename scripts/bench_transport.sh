#!/usr/bin/env bash
# Transport benchmarks 1 and 2 (issue 3): servebench's transport (transport_loadgen: one
# EventLoop + HttpClient thread; native HTTP/1.1 client and libcurl) next to wrk on the same endpoint, body and connection
# count, client pinned to one core and the server to another with taskset.
#
#   scripts/bench_transport.sh [connections=64] [seconds=5]
#
# Servers: Debian's nginx returning a fixed SSE chat stream (if /usr/sbin/nginx exists: install
# it for the benchmark only with `apt-get install nginx-light`; it is not a servebench
# dependency) and servebench-mock with zero latency (build/bin/servebench-mock).
# Benchmark 2 (CPU per SSE event): nginx serving one response of 2,000 events, parsed by
# SseParser + the chat EventParser in the client; plus bench_sse_events (no network).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/nginx_sse.sh  # start_nginx_sse, SB_SSE_BODY, free_port
CONNS=${1:-64}
SECS=${2:-5}
BIN=build/bin
CLIENT_CPU=${CLIENT_CPU:-0}
SERVER_CPU=${SERVER_CPU:-1}
WORK=$(mktemp -d)
trap 'kill $(cat "$WORK"/*.pid 2>/dev/null) 2>/dev/null; rm -rf "$WORK"' EXIT

for b in transport_loadgen bench_sse_events; do
  [[ -x $BIN/$b ]] || { echo "missing $BIN/$b: cmake --build build --target $b" >&2; exit 2; }
done

BODY='{"messages":[{"role":"user","content":"hello"}],"model":"mock-model","stream":true,"stream_options":{"include_usage":true},"max_completion_tokens":4}'
printf '%s' "$BODY" > "$WORK/body.json"
cat > "$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '$BODY'
LUA


# Runs wrk, then transport_loadgen with the native HTTP/1.1 client (make_http_client's default
# for http://) and with libcurl (--curl), then native + SSE/JSON parsing, against $1. wrk's CPU
# per request comes from /usr/bin/time (user+system of the wrk process).
compare() {
  local url=$1 label=$2
  local wrk_out wrk_rps wrk_cpu native native_rps curl
  wrk_out=$( { /usr/bin/time -f "cpu_s=%U %S" taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNS" -d"${SECS}s" -s "$WORK/post.lua" "$url"; } 2>&1)
  wrk_rps=$(awk '/Requests\/sec/ {print $2}' <<<"$wrk_out")
  wrk_cpu=$(python3 -c "
import re,sys
o=sys.stdin.read(); u,s=map(float,re.search(r'cpu_s=([0-9.]+) ([0-9.]+)',o).groups()); n=int(re.search(r'(\d+) requests in',o).group(1))
print(f'{(u+s)*1e6/n:.2f}')" <<<"$wrk_out")
  native=$(taskset -c "$CLIENT_CPU" "$BIN/transport_loadgen" --url "$url" --connections "$CONNS" --duration-s "$SECS" --body "$WORK/body.json")
  native_rps=$(sed 's/.* rps=\([0-9.]*\).*/\1/' <<<"$native")
  curl=$(taskset -c "$CLIENT_CPU" "$BIN/transport_loadgen" --url "$url" --connections "$CONNS" --duration-s "$SECS" --body "$WORK/body.json" --curl)
  echo "[$label] wrk: rps=$wrk_rps cpu_us_per_request=$wrk_cpu"
  echo "[$label] servebench native HTTP/1.1: $native"
  echo "[$label] servebench libcurl:         $curl"
  echo "[$label] ratio native/wrk = $(python3 -c "print(f'{$native_rps/$wrk_rps:.2f}')")"
  echo "[$label] native + SSE/JSON parsing: $(taskset -c "$CLIENT_CPU" "$BIN/transport_loadgen" --url "$url" --connections "$CONNS" --duration-s "$SECS" --body "$WORK/body.json" --parse)"
}

if [[ -x /usr/sbin/nginx ]]; then
  PORT=$(free_port)
  mkdir -p "$WORK/www"
  python3 -c "
e='data: {\"id\":\"chatcmpl-0\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"mock-model\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" word\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n'
open('$WORK/www/big', 'w').write(e*2000 + 'data: [DONE]\n\n')"
  start_nginx_sse "$WORK" "$PORT" "$SERVER_CPU" "location /big { default_type text/event-stream; root $WORK/www; }" || exit 3
  sleep 0.5
  echo "== benchmark 1: nginx fixed SSE body, $CONNS keep-alive connections, ${SECS}s, client on CPU $CLIENT_CPU, server on CPU $SERVER_CPU"
  compare "http://127.0.0.1:$PORT/v1/chat/completions" nginx
  echo "== benchmark 2: CPU per SSE event, nginx /big (static file of 2000 events, GET), 8 connections"
  echo "native:  $(taskset -c "$CLIENT_CPU" "$BIN/transport_loadgen" --url "http://127.0.0.1:$PORT/big" --connections 8 --duration-s "$SECS" --method GET --parse)"
  echo "libcurl: $(taskset -c "$CLIENT_CPU" "$BIN/transport_loadgen" --url "http://127.0.0.1:$PORT/big" --connections 8 --duration-s "$SECS" --method GET --parse --curl)"
  kill "$(cat "$WORK/nginx.pid")" 2>/dev/null
else
  echo "(nginx not installed: apt-get install nginx-light to run the nginx comparison)"
fi

if [[ -x $BIN/servebench-mock ]]; then
  taskset -c "$SERVER_CPU" "$BIN/servebench-mock" --port 0 > "$WORK/mock.out" 2>&1 &
  echo $! > "$WORK/mock.pid"
  for _ in $(seq 50); do grep -q listening "$WORK/mock.out" && break; sleep 0.1; done
  MURL="$(head -1 "$WORK/mock.out" | sed 's/listening on //')/v1/chat/completions"
  echo "== benchmark 1: servebench-mock zero latency, $CONNS connections"
  compare "$MURL" mock
fi

if [[ -x $BIN/timer_lateness ]]; then
  echo "== EventLoop timer lateness (floor under schedule lag), pinned to CPU $CLIENT_CPU"
  taskset -c "$CLIENT_CPU" "$BIN/timer_lateness" 20000 100
fi

echo "== benchmark 2 without network: bench_sse_events"
"$BIN/bench_sse_events" --benchmark_min_time=0.3 2>&1 | grep BM_
