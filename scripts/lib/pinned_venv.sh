# shellcheck shell=bash
# pinned_venv VENV PIN...: installs the pinned packages into the venv VENV (outside the source
# tree) unless its stamp file already records exactly these pins. Sourced by the setup scripts of
# the Python test oracles (scripts/setup_oracles.sh and the scripts it runs).
pinned_venv() {
  local venv="$1"; shift
  local want="$*"
  if [[ -f "$venv/.stamp" && "$(cat "$venv/.stamp")" == "$want" ]]; then return 0; fi
  echo "setup: installing $want into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$@"
  echo "$want" >"$venv/.stamp"
}
