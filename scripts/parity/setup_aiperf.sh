#!/usr/bin/env bash
# Installs NVIDIA AIPerf (pinned) into a venv outside the source tree for the side-by-side parity
# suite (tests/parity/) and the flag-list generator (scripts/parity/gen_flag_list.py).
# Its ~140 dependencies are pinned too (aiperf-constraints.txt). `make test` runs it (test-parity):
# about 2 min from PyPI without a pip cache here. Idempotent: a stamp file records the pins.
#   SERVEBENCH_AIPERF_VENV   venv folder (default ~/.cache/servebench/aiperf-venv)
set -euo pipefail
VENV="${SERVEBENCH_AIPERF_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/servebench/aiperf-venv}"
PIN="aiperf==0.13.0"
CONSTRAINTS="$(cd "$(dirname "$0")" && pwd)/aiperf-constraints.txt"
STAMP="$PIN $(sha256sum "$CONSTRAINTS" | cut -c1-16)"
if [[ -f "$VENV/.stamp" && "$(cat "$VENV/.stamp")" == "$STAMP" ]]; then exit 0; fi
echo "setup: installing $PIN into $VENV" >&2
python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check -c "$CONSTRAINTS" "$PIN"
"$VENV/bin/aiperf" profile --help >/dev/null
echo "$STAMP" >"$VENV/.stamp"
