#!/usr/bin/env bash
# Parse time of a 1M-row Baseten Parquet trace (docs/performance.md). Writes the file with the
# pinned pyarrow (scripts/parquet/setup_pyarrow.sh) into a temp folder, then runs
# bench_baseten_parse on it.
#
#   bench/baseten_parse.sh [ROWS]        # default 1,000,000
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS="${1:-1000000}"
PY="${SERVEBENCH_PYARROW_VENV:-$HOME/.cache/servebench/pyarrow-venv}/bin/python"
BIN="${BIN:-build/bin}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PY" scripts/parquet/make_baseten_fixtures.py bench "$ROWS" "$tmp/trace.parquet"
"$BIN/bench_baseten_parse" "$tmp/trace.parquet" 3
