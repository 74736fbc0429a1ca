#!/usr/bin/env bash
# The Containerfile built and run without a container engine (none runs on the CI machines):
# scripts/container/containerfile_chroot.py executes its stages in Debian 12 chroots made by
# debootstrap (cached under ~/.cache/servebench/container), then this script runs the image's
# ENTRYPOINT there: `servebench --version`, and a profile against the image's servebench-mock
# from the WORKDIR, and checks that the runtime stage holds no build-only (-dev) packages.
#
#   scripts/container/check_container.sh            both stages: compiles inside the chroot
#                                                    (`make container-check`; ~17 min cold on 2 cores)
#   scripts/container/check_container.sh --short     the runtime stage only, on the .deb that
#                                                    `make package` built here (`make test`)
# Needs root (chroot, mount) and debootstrap (scripts/setup.sh installs it); --short run by a
# normal user prints SKIPPED and exits 0, so make test works without root.
set -euo pipefail
cd "$(dirname "$0")/../.."
WORK=$(mktemp -d /tmp/sb-container-XXXXXX)
cleanup() {
  for m in "$WORK"/*/proc "$WORK"/*/dev; do mountpoint -q "$m" 2>/dev/null && umount "$m"; done
  [[ ${KEEP:-0} == 1 ]] || rm -rf "$WORK"
}
trap cleanup EXIT
if [[ $(id -u) != 0 ]]; then
  # make test as a normal user: chroot and mount need root, so the check is reported, not failed.
  echo "container check SKIPPED: chroot and mount need root (run make test-container as root)" >&2
  [[ ${1:-} == --short ]] && exit 0
  exit 2
fi
command -v debootstrap >/dev/null || { echo "debootstrap not found: scripts/setup.sh installs it" >&2; exit 2; }

prebuilt=()
if [[ ${1:-} == --short ]]; then
  debs=(build/servebench_*.deb)
  [[ -f ${debs[0]} ]] || { echo "no build/servebench_*.deb: run make package first" >&2; exit 2; }
  mkdir -p "$WORK/prebuilt/src/build"
  cp "${debs[@]}" "$WORK/prebuilt/src/build/"
  prebuilt=(--prebuilt "build=$WORK/prebuilt")
fi
python3 scripts/container/containerfile_chroot.py Containerfile . "$WORK" "${prebuilt[@]}" | tee "$WORK/build.log"
ROOT=$(sed -n 's/^final-root=//p' "$WORK/build.log")
WORKDIR=$(sed -n 's/^workdir=//p' "$WORK/build.log")
ENTRY=$(sed -n 's/^entrypoint=//p' "$WORK/build.log" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0])')

in_image() {  # run a command in the final image's root, in its WORKDIR
  mount --bind /dev "$ROOT/dev"; mount -t proc proc "$ROOT/proc"
  local rc=0
  chroot "$ROOT" /bin/sh -c "cd $WORKDIR || exit 1; $*" || rc=$?
  umount "$ROOT/proc" "$ROOT/dev"
  return $rc
}
fail() { echo "container check FAILED: $*" >&2; exit 1; }

version=$(in_image "$ENTRY --version") || fail "$ENTRY --version"
echo "$version" | head -3
grep -q "servebench" <<<"$version" || fail "--version printed: $version"
dev=$(in_image "dpkg-query -W -f='\${Package}\n'" | grep -E -- '-dev$|^cmake$|^g\+\+' || true)
[[ -z $dev ]] || fail "build-only packages in the runtime image: $(echo $dev)"
in_image "servebench-mock --port 0 --ttft-ms 1 --itl-ms 1 > /tmp/mock.out 2>&1 & echo \$! > /tmp/mock.pid; \
  for i in \$(seq 50); do grep -q listening /tmp/mock.out && break; sleep 0.1; done; \
  port=\$(head -1 /tmp/mock.out | sed 's/.*://'); \
  $ENTRY profile -m mock-model -u http://127.0.0.1:\$port --streaming --request-count 12 --concurrency 3 \
    --isl 16 --osl 8 --tokenizer builtin --artifact-dir artifacts/image-check > /tmp/profile.out 2>&1; rc=\$?; \
  kill \$(cat /tmp/mock.pid); exit \$rc" || { cat "$ROOT/tmp/profile.out" >&2; fail "profile inside the image"; }
summary=$(find "$ROOT$WORKDIR/artifacts/image-check" -name profile_export_aiperf.json | head -1)
[[ -f $summary ]] || fail "no profile_export_aiperf.json under $WORKDIR/artifacts/image-check"
count=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["request_count"]["avg"]))' "$summary")
[[ $count == 12 ]] || fail "request_count $count, expected 12"
echo "container check passed: $(echo "$version" | head -1), 12/12 requests inside the image ($(du -sh "$ROOT" | cut -f1) root)"
