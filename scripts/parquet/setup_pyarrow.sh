#!/usr/bin/env bash
# The pinned pyarrow that writes and reads the Parquet reader's differential fixtures
# (tests/data/parquet, scripts/parquet/make_fixtures.py), in a venv outside the source tree.
# Idempotent: does nothing when the pinned version is already there.
set -euo pipefail
source "$(dirname "$0")/../lib/pinned_venv.sh"
pinned_venv "${SERVEBENCH_PYARROW_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/servebench/pyarrow-venv}" \
  pyarrow==17.0.0
