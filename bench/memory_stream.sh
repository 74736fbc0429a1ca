#!/usr/bin/env bash
# Peak RSS of a long streamed run (issue 10): N streamed requests x OSL output tokens against
# servebench-mock at zero latency, records written to profile_export.jsonl as they complete.
# Runs N/2 and then N requests, reports each run's peak RSS (/usr/bin/time -v) and the growth
# per 100,000 requests between the two, projected to one hour at 200 requests/s (720,000).
#
# usage: bench/memory_stream.sh [N] [OSL]        (defaults: 200000 1000; target peak < 1 GiB)
#   BIN=build/bin  CONCURRENCY=64  EXPORT_LEVEL=records  KEEP=1 keeps the artifacts
#   (a 1,000-token line is ~10 KB: 200,000 requests write ~2 GB of JSONL under /tmp).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/bin}
N=${1:-200000}
OSL=${2:-1000}
CONCURRENCY=${CONCURRENCY:-64}
OUT=$(mktemp -d /tmp/sb-memory-stream-XXXXXX)
MOCK_PID=
cleanup() {
  [ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null
  [ "${KEEP:-0}" = 1 ] || rm -rf "$OUT"
  true
}
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)"

"$BIN/servebench-mock" --port 0 --ttft-ms 0 --itl-ms 0 > "$OUT/mock.out" 2> "$OUT/mock.err" &
MOCK_PID=$!
for _ in $(seq 100); do
  [ -s "$OUT/mock.out" ] && break
  sleep 0.05
done
PORT=$(head -1 "$OUT/mock.out" | sed 's/.*://')

echo "# $(date -u +%FT%TZ) $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $N streamed requests x $OSL tokens, concurrency $CONCURRENCY, export level ${EXPORT_LEVEL:-records}"

run() {  # requests; prints "requests peak_kib wall_s"
  local n=$1
  local cmd=("$BIN/servebench" profile -m mock-model --tokenizer simple -u "127.0.0.1:$PORT" --streaming
    --concurrency "$CONCURRENCY" --request-count "$n" --osl "$OSL" --isl 32 --extra-inputs ignore_eos:true
    --random-seed 1 --export-level "${EXPORT_LEVEL:-records}" --artifact-dir "$OUT/art-$n" -q)
  echo "\$ /usr/bin/time -v ${cmd[*]}" >&2
  /usr/bin/time -v "${cmd[@]}" 2> "$OUT/time-$n.txt" || { cat "$OUT/time-$n.txt" >&2; exit 1; }
  local kib wall ok jsonl
  kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$OUT/time-$n.txt")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$OUT/time-$n.txt")
  ok=$(grep -o '[0-9]* ok' "$OUT/time-$n.txt" | head -1)
  jsonl=$(du -sh "$OUT"/art-"$n"/*/profile_export.jsonl 2>/dev/null | cut -f1)
  echo "requests=$n ($ok) peak_rss=$((kib / 1024)) MiB wall=$wall jsonl=${jsonl:-none}" >&2
  [ "${KEEP:-0}" = 1 ] || rm -rf "$OUT/art-$n"
  echo "$n $kib"
}

read -r n1 k1 < <(run $((N / 2)))
read -r n2 k2 < <(run "$N")
awk -v n1="$n1" -v k1="$k1" -v n2="$n2" -v k2="$k2" 'BEGIN {
  per100k = (k2 - k1) / (n2 - n1) * 100000 / 1024;
  printf "peak RSS: %d requests %.0f MiB, %d requests %.0f MiB (target < 1024 MiB: %s)\n",
         n1, k1 / 1024, n2, k2 / 1024, (k2 / 1024 < 1024) ? "met" : "MISSED";
  printf "growth: %.1f MiB per 100,000 requests (%.0f bytes/request); one hour at 200 req/s ",
         per100k, (k2 - k1) * 1024 / (n2 - n1);
  printf "(720,000 requests): ~%.0f MiB\n", k2 / 1024 + per100k * (720000 - n2) / 100000;
}'
