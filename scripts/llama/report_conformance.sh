#!/usr/bin/env bash
# The result views on a real llama-server run (conformance.sh runs it on the llama3 chat-stream
# artifacts; it also runs alone on any run folder):
#   - report.html was written by the profile;
#   - `servebench report DIR` rebuilds the folder's summary from its records and gets the same
#     headline metrics as the profile wrote;
#   - report.html passes the browser checks (tests/browser/check_report.js) and its server-metrics
#     panel has the llama-server data (llamacpp:* families in server_metrics_export.json);
#   - `servebench plot DIR` writes at least five SVG charts and valid PNGs.
# Prints one PASS/FAIL/SKIP line per check; exit 1 when one failed.
#   scripts/llama/report_conformance.sh ARTIFACT_DIR LABEL
set -uo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
artifacts="${1:?usage: report_conformance.sh ARTIFACT_DIR LABEL}"
label="${2:-run}"
servebench="${SERVEBENCH_BIN:-$repo/build/bin/servebench}"
npm_dir="${SERVEBENCH_NPM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/servebench/npm}"
failed=0
pass() { echo "PASS $label report $1"; }
fail() { echo "FAIL $label report $1"; failed=1; }

json=$(find "$artifacts" -name profile_export_aiperf.json 2>/dev/null | head -1)
if [[ -z $json ]]; then fail "no profile_export_aiperf.json under $artifacts"; exit 1; fi
run=$(dirname "$json")
[[ -s $run/report.html ]] && pass "report.html written" || fail "report.html missing in $run"

# The rebuilt summary from a copy of the folder (the original stays as the profile wrote it).
work=$(mktemp -d /tmp/sb-report-conf-XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -r "$run" "$work/run"
if "$servebench" report "$work/run" --quiet >"$work/report.out" 2>&1; then
  if python3 - "$json" "$work/run/profile_export_aiperf.json" <<'PY'
import json, math, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
tags = ["request_latency", "time_to_first_token", "inter_token_latency", "input_sequence_length",
        "output_sequence_length", "request_count", "output_token_throughput"]
bad = []
for t in tags:
    x, y = a.get(t), b.get(t)
    if not isinstance(x, dict):
        bad.append(f"{t} missing in the profile's export"); continue
    for stat in ("avg", "p50", "p99", "min", "max"):
        if stat in x and not (isinstance(y, dict) and math.isclose(x[stat], y.get(stat, math.nan), rel_tol=1e-6, abs_tol=1e-9)):
            bad.append(f"{t}.{stat} {x[stat]} != {None if not isinstance(y, dict) else y.get(stat)}")
if bad:
    print("; ".join(bad[:5])); sys.exit(1)
PY
  then pass "servebench report recomputes the same summary"
  else fail "servebench report summary differs from the profile's"
  fi
else
  fail "servebench report exited $? ($(tail -1 "$work/report.out"))"
fi

# llama-server runs with --metrics: the server-metrics panel's data must hold its families.
sm="$run/server_metrics_export.json"
if [[ -s $sm ]] && grep -q 'llamacpp:' "$sm"; then pass "server-metrics panel data (llamacpp:*)"
else fail "no llamacpp:* families in $sm"
fi

if command -v chromium >/dev/null && [[ -d $npm_dir/node_modules/puppeteer-core ]]; then
  if out=$(SERVEBENCH_NPM_DIR="$npm_dir" node "$repo/tests/browser/check_report.js" report "$run" \
    "$artifacts/report-screenshot.png" 2>&1); then
    pass "report.html in chromium ($(echo "$out" | grep -o 'load [0-9.]* *ms' | head -1))"
  else
    fail "report.html in chromium: $(echo "$out" | tail -3 | tr '\n' ' ')"
  fi
else
  echo "SKIP $label report chromium: chromium or puppeteer-core missing (scripts/setup.sh installs them)"
fi

if "$servebench" plot "$run" -o "$work/plots" --format both >"$work/plot.out" 2>&1; then
  svgs=$(find "$work/plots" -name '*.svg' | wc -l)
  pngs=$(find "$work/plots" -name '*.png' | wc -l)
  bad_png=0
  while IFS= read -r p; do
    [[ $(head -c 8 "$p" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || bad_png=1
  done < <(find "$work/plots" -name '*.png')
  if ((svgs >= 5 && pngs == svgs && bad_png == 0)); then pass "servebench plot: $svgs SVG and $pngs PNG charts"
  else fail "servebench plot: $svgs SVG, $pngs PNG, invalid PNG=$bad_png"
  fi
else
  fail "servebench plot exited $? ($(tail -1 "$work/plot.out"))"
fi
exit $failed
