#!/usr/bin/env bash
# The chat-template reference (tests/data/chat_templates/make_reference.py): Hugging Face
# transformers' apply_chat_template with Python's jinja2, pinned, in a venv outside the tree.
set -euo pipefail
VENV="${SERVEBENCH_JINJA_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/servebench/jinja-venv}"
PINS="transformers==4.46.3 jinja2==3.1.4"
if [[ ! -f "$VENV/.stamp" || "$(cat "$VENV/.stamp")" != "$PINS" ]]; then
  echo "setup: installing $PINS into $VENV" >&2
  python3 -m venv "$VENV"
  # shellcheck disable=SC2086
  "$VENV/bin/pip" install --quiet --disable-pip-version-check $PINS
  echo "$PINS" >"$VENV/.stamp"
fi
