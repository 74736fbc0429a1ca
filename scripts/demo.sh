#!/usr/bin/env bash
# make demo: start servebench-mock on a free port, profile it, print the table, stop it.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=build/bin
log=$(mktemp)
"$BIN/servebench-mock" --port 0 --ttft-ms 40 --itl-ms 8 --jitter-cv 0.1 --threads 1 >"$log" 2>&1 &
mock=$!
trap 'kill $mock 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
  url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$log" | head -1)
  [[ -n "$url" ]] && break
  sleep 0.05
done
if [[ -z "${url:-}" ]]; then echo "demo: servebench-mock did not start:" >&2; cat "$log" >&2; exit 1; fi
echo "demo: servebench-mock listening on $url"
set -x
"$BIN/servebench" profile -m demo-model -u "$url" --endpoint-type chat --streaming \
  --concurrency 8 --request-count 200 --warmup-request-count 8 \
  --synthetic-input-tokens-mean 128 --output-tokens-mean 64 --extra-inputs ignore_eos:true \
  --tokenizer builtin --random-seed 42 --artifact-dir artifacts/demo
