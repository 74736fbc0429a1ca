#!/bin/bash
# `servebench launch k8s` output validated against the pinned Kubernetes Service and Job schemas
# with the scale-out venv's jsonschema (scripts/setup_scaleout_venv.sh). Skips (exit 77) only
# when the venv is missing and SERVEBENCH_REQUIRE_ORACLES is unset.
set -euo pipefail
BIN=$1; SRC=$2
PY=${SERVEBENCH_SCALEOUT_VENV:-$HOME/.cache/servebench/scaleout-venv}/bin/python
if [ ! -x "$PY" ]; then
  [ -n "${SERVEBENCH_REQUIRE_ORACLES:-}" ] && { echo "scale-out venv missing: run scripts/setup_scaleout_venv.sh"; exit 1; }
  echo "skipped: scale-out venv missing (scripts/setup_scaleout_venv.sh)"; exit 77
fi
OUT=$(mktemp /tmp/sb_k8s.XXXXXX.json)
trap 'rm -f "$OUT"' EXIT
"$BIN/servebench" launch k8s --shards 16 --name bench-x --image servebench:0.1.0 -- \
  --url http://vllm:8000 -m Qwen/Qwen3-0.6B --endpoint-type chat --streaming --concurrency 1600 > "$OUT"
"$PY" "$SRC/tests/integration/shard/validate_k8s.py" "$SRC/tests/data/k8s/v1.31.0-local-strict" "$OUT"
"$PY" "$SRC/tests/integration/shard/validate_k8s.py" "$SRC/tests/data/k8s/v1.31.0-local-strict" "$SRC/deploy/k8s/servebench-indexed-job.json"
