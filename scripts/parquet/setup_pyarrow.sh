#!/usr/bin/env bash
# The pinned pyarrow that writes and reads the Parquet reader's differential fixtures
# (tests/data/parquet, scripts/parquet/make_fixtures.py), in a venv outside the source tree.
# Idempotent: does nothing when the pinned version is already there.
set -euo pipefail
VENV="${SERVEBENCH_PYARROW_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/servebench/pyarrow-venv}"
PIN="pyarrow==17.0.0"
if [[ ! -f "$VENV/.stamp" || "$(cat "$VENV/.stamp")" != "$PIN" ]]; then
  echo "setup: installing $PIN into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "$PIN"
  echo "$PIN" >"$VENV/.stamp"
fi
