#!/usr/bin/env bash
# The pinned Python packages the tests use as oracles, each in a venv outside the source tree
# (~/.cache/servebench). scripts/setup.sh runs this after the Debian packages and npm fixtures;
# `make test` runs it beside the release build (make setup-tests), since it mostly waits on
# PyPI: about 2.5 min cold. Idempotent: stamp files record the pins.
#
#   scripts/setup_oracles.sh          # the tests' reference packages
#   SERVEBENCH_WITH_AIPERF=1 ...      # and NVIDIA AIPerf (scripts/parity/setup_aiperf.sh)
#   SERVEBENCH_SKIP_PY=1 ...          # only prometheus_client and jinja (the other tests skip)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/pinned_venv.sh
# Python reference packages for differential tests (the JMESPath subset against the `jmespath`
# package), pinned, in a venv outside the tree. SERVEBENCH_SKIP_PY=1 skips them; the tests that
# use them skip when they are absent.
if [[ "${SERVEBENCH_SKIP_PY:-0}" != "1" ]]; then
  pinned_venv "${SERVEBENCH_PY_DIR:-$HOME/.cache/servebench/pyvenv}" jmespath==1.1.0
fi
# prometheus_client (pinned) in a venv outside the tree: the Prometheus/OpenMetrics parser's
# differential test (tests/unit/telemetry/prom_reference.py) writes and parses expositions with it.
pinned_venv "${SERVEBENCH_PROM_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/servebench/prom-venv}" \
  prometheus_client==0.21.1
# pyarrow (pinned) in a venv outside the tree: the Parquet reader's differential fixtures.
if [[ "${SERVEBENCH_SKIP_PY:-0}" != "1" ]]; then
  scripts/parquet/setup_pyarrow.sh
fi
# transformers + jinja2 (pinned): the chat-template renderer's reference renderings.
scripts/jinja_venv.sh
# Scale-out oracle: the Kubernetes Job schema validator (scripts/setup_scaleout_venv.sh).
if [ "${SERVEBENCH_SKIP_PY:-}" != 1 ]; then
  scripts/setup_scaleout_venv.sh
fi
# Result-sink oracles (docs/sinks.md): opentelemetry-proto decodes what --otel-url sends; a real
# MLflow tracking server for `make sinks-test`. SERVEBENCH_SKIP_PY=1 skips them.
if [[ "${SERVEBENCH_SKIP_PY:-0}" != "1" ]]; then
  # The MLflow server (hundreds of MB) is installed by `make sinks-test`, which alone uses it.
  scripts/sinks_venvs.sh otel
fi
# NVIDIA AIPerf (pinned) in its own venv: the flag-parity list generator and the side-by-side
# parity suite (scripts/parity/). About 140 packages; `make test` installs them beside the
# release build (make test-prefetch), so here only with SERVEBENCH_WITH_AIPERF=1.
if [[ "${SERVEBENCH_SKIP_PY:-0}" != "1" && "${SERVEBENCH_WITH_AIPERF:-0}" == "1" ]]; then
  scripts/parity/setup_aiperf.sh
fi
echo "setup: oracles ok" >&2
