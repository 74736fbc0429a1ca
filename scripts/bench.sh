#!/usr/bin/env bash
# make bench: runs every benchmark suite that is present and prints its numbers. Results are
# recorded by hand in docs/performance.md together with the command that produced them.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
for b in build/bin/bench_*; do
  [[ -x "$b" ]] || continue
  echo "== $b"
  "$b" --benchmark_min_time=0.2 || status=1
done
for s in scripts/mock_bench.sh scripts/bench_transport.sh scripts/bench_load.sh scripts/bench_replay.sh; do
  [[ -x "$s" ]] || continue
  echo "== $s"
  "$s" || status=1
done
exit $status
