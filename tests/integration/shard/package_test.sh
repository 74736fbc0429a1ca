#!/bin/bash
# make package's .deb: extracted into a scratch root (dpkg -x), its binaries run from /tmp with
# no source tree in reach: --version, and a profile against the packaged servebench-mock. As
# root with SERVEBENCH_CI_DPKG=1 (CI): dpkg -i and the same run from /usr/bin.
set -euo pipefail
BUILD=$1
WORK=$(mktemp -d /tmp/sb_pkg.XXXXXX)
# Only our own mock: `kill 0` (an unset PID) would signal the whole process group, ctest included.
trap 'if [[ -n ${MOCK_PID:-} ]]; then kill "$MOCK_PID" 2>/dev/null || true; fi; rm -rf "$WORK"' EXIT
(cd "$BUILD" && cpack -G DEB -B "$WORK/out" >/dev/null)
DEB=$(ls "$WORK"/out/servebench_*.deb)
# Whole outputs first: `cmd | grep -q` under pipefail fails when grep stops reading early.
DEPENDS=$(dpkg-deb -f "$DEB" Depends)
LISTING=$(dpkg-deb -c "$DEB")
grep -q libcurl4 <<<"$DEPENDS"
grep -q usr/share/man/man1/servebench.1 <<<"$LISTING"
grep -q usr/share/bash-completion/completions/servebench <<<"$LISTING"
grep -q usr/share/zsh/vendor-completions/_servebench <<<"$LISTING"
dpkg -x "$DEB" "$WORK/root"
run_from() {  # BIN_DIR: --version and a short profile with the cwd in an empty folder
  local bin=$1
  mkdir -p "$WORK/cwd" && cd "$WORK/cwd"
  local version
  version=$("$bin/servebench" --version)
  grep -q "^servebench " <<<"$version"
  grep -q "^git commit: " <<<"$version"
  "$bin/servebench-mock" --port 0 > mock.out 2>&1 &
  MOCK_PID=$!
  for _ in $(seq 50); do grep -q listening mock.out 2>/dev/null && break; sleep 0.1; done
  local url=$(head -1 mock.out | sed 's/listening on //')
  env -u SERVEBENCH_SOURCE_DIR "$bin/servebench" profile --url "$url" -m test-model --endpoint-type chat \
    --streaming --request-count 5 --concurrency 2 --ui-type none --artifact-dir out >/dev/null 2>&1
  ls out/*/profile_export_aiperf.json >/dev/null
  kill $MOCK_PID
  cd /
}
run_from "$WORK/root/usr/bin"
if [ "$(id -u)" = 0 ] && [ "${SERVEBENCH_CI_DPKG:-}" = 1 ]; then
  dpkg -i "$DEB"
  run_from /usr/bin
fi
echo "package_test: ok ($(basename "$DEB"))"
