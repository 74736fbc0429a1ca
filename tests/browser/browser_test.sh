#!/usr/bin/env bash
# The report in a real browser: profiles servebench-mock three times (the second run slower, with
# failures and telemetry files; the third against a server that fails every request), writes
# report.html for each and compare.html for the first two, and checks them in headless Chromium
# (check_report.js). Screenshots land in the build folder (CI keeps them):
#   report-screenshot.png, report-screenshot-dark.png, compare-screenshot.png
#
#   tests/browser/browser_test.sh BIN_DIR OUT_DIR
#
# Exits 77 (ctest: skipped) with a message when chromium, node or puppeteer-core is missing;
# scripts/setup.sh installs all three.
set -euo pipefail
BIN=${1:?bin dir}
OUT=${2:?output dir}
HERE=$(cd "$(dirname "$0")" && pwd)
NPM_DIR="${SERVEBENCH_NPM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/servebench/npm}"
CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
if [[ -z "$CHROMIUM" ]] || ! command -v node >/dev/null || [[ ! -d "$NPM_DIR/node_modules/puppeteer-core" ]]; then
  echo "SKIPPED: the browser test needs chromium, node and puppeteer-core in $NPM_DIR (run scripts/setup.sh)"
  exit 77
fi
export CHROMIUM SERVEBENCH_NPM_DIR="$NPM_DIR"
work=$(mktemp -d /tmp/sb-browser-XXXXXX)
mocks=()
cleanup() { for p in "${mocks[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

start_mock() {  # $1 = log file; the rest = mock options. Sets $url.
  local log=$1; shift
  "$BIN/servebench-mock" --port 0 --threads 1 "$@" >"$log" 2>&1 &
  mocks+=($!)
  url=""
  for _ in $(seq 1 200); do
    url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$log" | head -1)
    [[ -n "$url" ]] && return 0
    sleep 0.05
  done
  echo "servebench-mock did not start:"; cat "$log"; exit 1
}

profile() {  # $1 = artifact dir (the run's folder is linked there), $2 = url, rest = flags
  local dir=$1 u=$2; shift 2
  "$BIN/servebench" profile -m mock-model -u "$u" --endpoint-type chat --streaming \
    --tokenizer builtin --random-seed 7 --synthetic-input-tokens-mean 64 --output-tokens-mean 24 \
    --artifact-dir "$dir.parent" "$@" >"$dir.log" 2>&1 || true
  local json
  json=$(find "$dir.parent" -name profile_export_aiperf.json | head -1)
  [[ -n "$json" && -f "$(dirname "$json")/report.html" ]] || { echo "no report.html under $dir.parent:"; cat "$dir.log"; exit 1; }
  mv "$(dirname "$json")" "$dir"
}

start_mock "$work/mock_a.log" --ttft-ms 15 --itl-ms 2 --jitter-cv 0.2 --seed 1
profile "$work/run_a" "$url" --concurrency 8 --request-count 400
start_mock "$work/mock_b.log" --ttft-ms 25 --itl-ms 2 --jitter-cv 0.2 --seed 2 --error-rate 0.05
profile "$work/run_b" "$url" --concurrency 8 --request-count 400

# Telemetry files in the shapes their writers use (server-metrics aggregates, raw GPU samples):
# the report rebuilt from the folder must draw both panels without a console error.
now=$(date +%s%N)
cat >"$work/run_b/server_metrics_export.json" <<JSON
{"endpoints": {"$url/metrics": {"metrics": {
  "vllm:num_requests_running": {"type": "gauge", "series": [{"labels": {"model_name": "mock-model"}, "stats": {"avg": 7.2, "min": 0, "max": 8, "p50": 8, "p99": 8}}]},
  "vllm:generation_tokens": {"type": "counter", "series": [{"labels": {"model_name": "mock-model"}, "stats": {"total": 4800, "rate": 2000.5}}]}}}}}
JSON
for i in $(seq 0 20); do
  for g in 0 1; do
    echo "{\"timestamp_ns\": $((now - 3000000000 + i * 150000000)), \"gpu_index\": $g, \"gpu_uuid\": \"GPU-$g\", \"metrics\": {\"gpu_utilization\": $((40 + i + g * 5)), \"gpu_power_usage\": $((250 + i))}}"
  done
done >"$work/run_b/gpu_telemetry_export.jsonl"
"$BIN/servebench" report "$work/run_b" --quiet

# A server that fails every request: the report still draws (errors, timeline, no distributions).
start_mock "$work/mock_c.log" --error-rate 100 --error-kind http500
profile "$work/run_c" "$url" --concurrency 2 --request-count 20

node "$HERE/check_report.js" report "$work/run_a" "$OUT/report-screenshot.png"
node "$HERE/check_report.js" report "$work/run_c" "$work/report-screenshot-failed.png"
node "$HERE/check_report.js" report "$work/run_b" "$OUT/report-screenshot-b.png"
set +e
"$BIN/servebench" compare "$work/run_a" "$work/run_b" -o "$work/compare.html" \
  --fail-on-regression time_to_first_token.p50:10% >"$work/compare.txt" 2>&1
rc=$?
set -e
cat "$work/compare.txt"
[[ $rc -eq 1 ]] || { echo "FAIL: compare exit $rc, want 1 (TTFT p50 15 ms -> 25 ms is a regression)"; exit 1; }
node "$HERE/check_report.js" compare "$work/compare.html" "$OUT/compare-screenshot.png" 2
# Three runs, the failed one first: overlays hold the runs that have values.
"$BIN/servebench" compare "$work/run_c" "$work/run_a" "$work/run_b" -o "$work/compare3.html" >/dev/null
node "$HERE/check_report.js" compare "$work/compare3.html" "$work/compare3-screenshot.png" 3
echo "browser test: ok"
