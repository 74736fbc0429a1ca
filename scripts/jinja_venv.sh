#!/usr/bin/env bash
# The chat-template reference (tests/data/chat_templates/make_reference.py): Hugging Face
# transformers' apply_chat_template with Python's jinja2, pinned, in a venv outside the tree.
set -euo pipefail
source "$(dirname "$0")/lib/pinned_venv.sh"
pinned_venv "${SERVEBENCH_JINJA_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/servebench/jinja-venv}" \
  transformers==4.46.3 jinja2==3.1.4
