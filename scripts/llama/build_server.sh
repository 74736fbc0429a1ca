#!/usr/bin/env bash
# Builds llama.cpp's llama-server for the real-server conformance suite, from the llama.cpp source
# that the pinned npm package node-llama-cpp carries as a git bundle (Debian has no llama.cpp and
# the wider internet is unreachable; npm is). Nothing from the llama.cpp tree enters our repo: the
# source, build and binary live in a cache folder outside it, keyed by the package version.
#
#   scripts/llama/build_server.sh            # prints the llama-server binary path
#   scripts/llama/build_server.sh --source   # only fetch/extract; prints the llama.cpp source dir
#   scripts/llama/build_server.sh --cached   # prints the binary path if already built, else exit 1
#
# Idempotent: once built, a second run prints the path without touching anything (well under a
# second). Concurrent runs serialize on a lock file. A cold build takes about 4-7 minutes on two
# cores (at -O1); it is niced so it does not starve interactive work.
#
# Environment:
#   SERVEBENCH_LLAMA_DIR  cache dir (default ${XDG_CACHE_HOME:-$HOME/.cache}/servebench/llama-server-<ver>)
#   SERVEBENCH_LLAMA_JOBS parallel compile jobs (default 2)
set -euo pipefail

readonly kVersion="3.21.1"
readonly kPackage="node-llama-cpp@${kVersion}"

mode="binary"
case "${1:-}" in
  "") ;;
  --source) mode="source" ;;
  --cached) mode="cached" ;;
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  *) echo "build_server.sh: unknown argument '$1' (use no argument, --source or --cached)" >&2; exit 2 ;;
esac

cache="${SERVEBENCH_LLAMA_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/servebench/llama-server-${kVersion}}"
jobs="${SERVEBENCH_LLAMA_JOBS:-2}"
src="$cache/src"
bin="$cache/build/bin/llama-server"
src_stamp="$cache/.source-ok"
bin_stamp="$cache/.build-ok"

# Fast path, lock-free: the stamps are written only after their step fully succeeded.
if [[ $mode == source && -f $src_stamp ]]; then echo "$src"; exit 0; fi
if [[ $mode != source && -f $bin_stamp && -x $bin ]]; then echo "$bin"; exit 0; fi
if [[ $mode == cached ]]; then exit 1; fi

for tool in npm git tar cmake; do
  command -v "$tool" >/dev/null || {
    echo "build_server.sh: '$tool' not found; run scripts/setup.sh first" >&2; exit 2; }
done

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9   # another run may be building right now: wait for it, then re-check the stamps.

log() { echo "build_server.sh: $*" >&2; }

if [[ ! -f $src_stamp ]]; then
  log "fetching $kPackage (npm pack) into $cache"
  rm -rf "$cache/pack" "$src"
  mkdir -p "$cache/pack"
  (cd "$cache/pack" && npm pack --silent "$kPackage" >/dev/null)
  tarball=$(ls "$cache/pack"/node-llama-cpp-"${kVersion}".tgz)
  tar -xzf "$tarball" -C "$cache/pack" package/llama/gitRelease.bundle
  git -c advice.detachedHead=false clone --quiet "$cache/pack/package/llama/gitRelease.bundle" "$src"
  # The tarball is ~40 MB and no longer needed once the tree is cloned.
  rm -rf "$cache/pack"
  touch "$src_stamp"
fi

if [[ $mode == source ]]; then echo "$src"; exit 0; fi

if [[ ! -f $bin_stamp || ! -x $bin ]]; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  log "configuring llama.cpp (server only) in $cache/build"
  # LLAMA_USE_PREBUILT_UI must be OFF or configure tries to download a web UI; CURL/OpenSSL are
  # off because the server only ever serves a local file on loopback here. -O1 instead of the
  # release's -O3: the tiny conformance model needs no speed, and the heaviest sources (arg.cpp:
  # 29.1 -> 17.7 CPU-s) compile in about 60% of the time, which CI pays on every cold run.
  nice -n 10 cmake -S "$src" -B "$cache/build" "${generator[@]}" "${launcher[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DBUILD_SHARED_LIBS=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON \
    -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_BUILD_UI=OFF \
    -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
    -DGGML_NATIVE=ON -DGGML_OPENMP=OFF >"$cache/configure.log" 2>&1 || {
      log "cmake configure failed; see $cache/configure.log"; tail -20 "$cache/configure.log" >&2; exit 1; }
  log "building llama-server with -j$jobs (several minutes on a cold cache)"
  start=$(date +%s)
  nice -n 10 cmake --build "$cache/build" -j"$jobs" --target llama-server >"$cache/build.log" 2>&1 || {
    log "build failed; see $cache/build.log"; tail -30 "$cache/build.log" >&2; exit 1; }
  log "built in $(( $(date +%s) - start )) s"
  [[ -x $bin ]] || { log "build finished but $bin is missing"; exit 1; }
  touch "$bin_stamp"
fi

echo "$bin"
