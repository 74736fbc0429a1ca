#!/bin/bash
# The pinned Python oracle of the scale-out tests: jsonschema (with referencing) through
# kubernetes-validate, which validates `servebench launch k8s` output against the Kubernetes
# schemas pinned in tests/data/k8s.
set -euo pipefail
VENV=${SERVEBENCH_SCALEOUT_VENV:-$HOME/.cache/servebench/scaleout-venv}
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import kubernetes_validate, jsonschema' 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q kubernetes-validate==1.37.0 jsonschema==4.26.0 referencing==0.37.0
fi
