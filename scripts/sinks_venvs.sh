#!/usr/bin/env bash
# Pinned Python oracles for the result-sink tests (docs/sinks.md), each in its own venv outside
# the tree:
#   otel-venv:   opentelemetry-proto (the official OTLP definitions) decodes what --otel-url sends
#   mlflow-venv: a real MLflow tracking server (`mlflow server --serve-artifacts`) and its client
# Usage: scripts/sinks_venvs.sh [otel|mlflow|all]   (default all). Idempotent (a stamp per venv).
set -euo pipefail
ROOT="${XDG_CACHE_HOME:-$HOME/.cache}/servebench"
OTEL_VENV="${SERVEBENCH_OTEL_VENV:-$ROOT/otel-venv}"
MLFLOW_VENV="${SERVEBENCH_MLFLOW_VENV:-$ROOT/mlflow-venv}"
OTEL_PINS="opentelemetry-proto==1.45.2"
MLFLOW_PINS="mlflow==3.17.2"

source "$(dirname "$0")/lib/pinned_venv.sh"

what="${1:-all}"
# shellcheck disable=SC2086  # the pins are words
if [[ "$what" == otel || "$what" == all ]]; then pinned_venv "$OTEL_VENV" $OTEL_PINS; fi
# shellcheck disable=SC2086
if [[ "$what" == mlflow || "$what" == all ]]; then pinned_venv "$MLFLOW_VENV" $MLFLOW_PINS; fi
