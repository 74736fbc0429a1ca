#!/usr/bin/env bash
# Long fuzzing (`make fuzz-long`): builds every libFuzzer target of tests/fuzz with the clang
# `fuzz` preset and runs each for FUZZ_RUNS executions (default 10,000,000), one after the other.
# The grown corpus lives outside the tree (FUZZ_CORPUS_DIR, default
# ~/.cache/servebench/fuzz-corpus/<target>); the in-tree seed corpus is read, never written, so
# the short replays in `make test` stay small and reviewed. Promote an interesting new input by
# copying it into tests/fuzz/<dir>/corpus by hand.
#
#   make fuzz-long                        # 10 M executions per target
#   FUZZ_RUNS=20000 make fuzz-long        # a smoke run
#   FUZZ_TARGETS="fuzz_sse fuzz_config" make fuzz-long
#
# Prints one line per target: executions, seconds, executions/s, corpus size before → after,
# the coverage libFuzzer reached (edges),
# and whether libFuzzer found a crash (its reproducer is left in FUZZ_CORPUS_DIR/<target>-crash-*).
# Exit status: 1 if any target crashed, leaked, timed out or ran out of memory.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${FUZZ_RUNS:-10000000}"
CORPUS_ROOT="${FUZZ_CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/servebench/fuzz-corpus}"
JOBS="${JOBS:-$(nproc)}"
BUILD=build-fuzz

# Every library is instrumented too (FUZZ_CXXFLAGS): with -fsanitize=fuzzer on the fuzz
# executables alone, libFuzzer sees the coverage of the harness file only (a few dozen edges) and
# mutates blind; AddressSanitizer turns silent memory errors into findings.
FLAGS="${FUZZ_CXXFLAGS:--fsanitize=address,fuzzer-no-link}"
cmake --preset fuzz -DSERVEBENCH_WERROR=OFF -DCMAKE_CXX_FLAGS="$FLAGS" -DCMAKE_C_FLAGS="$FLAGS" >/dev/null
# Every fuzz_* executable target the fuzz folders define (replay tests excluded).
mapfile -t all < <(grep -ho 'servebench_libfuzzer(fuzz_[a-z0-9_${}]*' tests/fuzz/*/CMakeLists.txt | sed 's/servebench_libfuzzer(//' |
  while read -r t; do
    if [[ $t == *'${kind}'* ]]; then  # tokenizer: one per corpus kind
      for c in tests/fuzz/tokenizer/*_corpus; do k=$(basename "$c" _corpus); echo "${t//\$\{kind\}/$k}"; done
    else echo "$t"; fi
  done | sort -u)
read -r -a targets <<<"${FUZZ_TARGETS:-${all[*]}}"
cmake --build "$BUILD" -j "$JOBS" --target "${targets[@]}" >/dev/null

# Seed corpus of fuzz_<dir>[_<kind>]: tests/fuzz/<dir>/corpus, else tests/fuzz/<dir>/<kind>_corpus.
seed_dir() {
  local rest=${1#fuzz_} dir kind
  dir=${rest%%_*}
  kind=${rest#"$dir"}; kind=${kind#_}
  if [[ -d tests/fuzz/$rest/corpus ]]; then echo "tests/fuzz/$rest/corpus"
  elif [[ -n $kind && -d tests/fuzz/$dir/${kind}_corpus ]]; then echo "tests/fuzz/$dir/${kind}_corpus"
  else echo "tests/fuzz/$dir/corpus"; fi
}

status=0
printf '%-24s %12s %9s %10s %16s %7s  %s\n' target executions seconds exec/s "corpus (files)" edges result
for t in "${targets[@]}"; do
  bin="$BUILD/bin/$t"
  seeds=$(seed_dir "$t")
  grown="$CORPUS_ROOT/$t"
  mkdir -p "$grown"
  before=$(find "$grown" -type f | wc -l)
  log="$CORPUS_ROOT/$t.log"
  start=$(date +%s.%N)
  result=ok
  # The grown folder comes first: libFuzzer writes new inputs there and only reads the seeds.
  if ! "$bin" -runs="$RUNS" -print_final_stats=1 -timeout=10 -rss_limit_mb=4096 -max_len="${FUZZ_MAX_LEN:-65536}" -detect_leaks=0 \
      -artifact_prefix="$CORPUS_ROOT/$t-" "$grown" "$seeds" >"$log" 2>&1; then
    result="FAILED (see $log)"
    status=1
  fi
  end=$(date +%s.%N)
  after=$(find "$grown" -type f | wc -l)
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  rate=$(awk -v n="${execs:-0}" -v s="$secs" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
  # Edges covered: the last "cov:" libFuzzer printed.
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
  printf '%-24s %12s %9s %10s %16s %7s  %s\n' "$t" "${execs:-0}" "$secs" "$rate" "$before -> $after" "${cov:-?}" "$result"
done
echo "grown corpora and logs in $CORPUS_ROOT (seeds: $(find tests/fuzz -path '*corpus*' -type f | wc -l) files in tests/fuzz)"
exit $status
