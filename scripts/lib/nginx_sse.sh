# Sourced by the client benchmarks (scripts/bench_transport.sh, bench/cpu_per_request.sh,
# bench/cpu_per_request_ab.sh): nginx answering /v1/chat/completions with the mock's tiny stream
# (role chunk, two tokens, usage, [DONE]) as a fixed body, so the server costs next to nothing and
# the client is what is measured; a free port; the servebench command the CPU benchmarks time.

SB_SSE_BODY='data: {"id":"chatcmpl-0","object":"chat.completion.chunk","created":1,"model":"mock-model","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-0","object":"chat.completion.chunk","created":1,"model":"mock-model","choices":[{"index":0,"delta":{"content":" the"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-0","object":"chat.completion.chunk","created":1,"model":"mock-model","choices":[{"index":0,"delta":{"content":" line"},"logprobs":null,"finish_reason":"stop"}]}\n\ndata: {"id":"chatcmpl-0","object":"chat.completion.chunk","created":1,"model":"mock-model","choices":[],"usage":{"prompt_tokens":1,"total_tokens":3,"completion_tokens":2}}\n\ndata: [DONE]\n\n'

# start_nginx_sse WORK PORT CPU [EXTRA_LOCATIONS]: one nginx worker pinned to CPU, keep-alive for
# the whole run, config and pid under WORK/nginx; EXTRA_LOCATIONS is pasted into the server block.
start_nginx_sse() {
  local work=$1 port=$2 cpu=$3 extra=${4:-}
  chmod 755 "$work"
  mkdir -p "$work/nginx/logs"
  cat > "$work/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx/logs/error.log crit;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 100000000;
  keepalive_timeout 300s;
  client_body_temp_path $work/nginx/body;
  server {
    listen 127.0.0.1:$port;
    location /v1/chat/completions { default_type text/event-stream; return 200 '$SB_SSE_BODY'; }
    $extra
  }
}
CONF
  taskset -c "$cpu" /usr/sbin/nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon on;'
}

# A free TCP port on 127.0.0.1.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# sb_profile_cmd CPU BINARY URL N CONCURRENCY TOKENIZER ARTIFACT_DIR: sets the array SB_PROFILE_CMD
# to the run bench/cpu_per_request.sh and bench/cpu_per_request_ab.sh time: N short streamed chat
# requests (ISL 1, OSL 2) at CONCURRENCY against URL, pinned to CPU, quiet.
sb_profile_cmd() {
  SB_PROFILE_CMD=(taskset -c "$1" "$2" profile -m mock-model -u "$3" --endpoint-type chat
    --streaming --concurrency "$5" --request-count "$4" --isl 1 --osl 2 --tokenizer "$6"
    --random-seed 1 --artifact-dir "$7" -q)
}
