#!/usr/bin/env bash
# Cost of synthetic video inputs: `servebench profile` against servebench-mock with N dataset
# entries and N requests, each carrying one video, for AIPerf's default video (webm, libvpx-vp9,
# 5 s at 4 fps, moving_shapes) at WIDTHxHEIGHT and a few variants; the same run without video is
# the baseline. Prints, per variant: user+sys CPU per video (run minus baseline, over N), the
# encoded bytes per video as servebench-mock received them, the request body size and peak RSS.
#
# usage: bench/video_prepare.sh [N] [WIDTH] [HEIGHT]     (defaults: 20 640 480)
#   BIN=build/bin  KEEP=1 keeps the artifacts
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/bin}
N=${1:-20}
W=${2:-640}
H=${3:-480}
OUT=$(mktemp -d /tmp/sb-video-prepare-XXXXXX)
MOCK_PID=
cleanup() {
  [ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null
  [ "${KEEP:-0}" = 1 ] || rm -rf "$OUT"
  true
}
trap cleanup EXIT

"$BIN/servebench-mock" --port 0 --ttft-ms 0 --itl-ms 0 --record-requests "$OUT/rec.jsonl" \
  > "$OUT/mock.out" 2> "$OUT/mock.err" &
MOCK_PID=$!
for _ in $(seq 100); do
  [ -s "$OUT/mock.out" ] && break
  sleep 0.05
done
PORT=$(head -1 "$OUT/mock.out" | sed 's/.*://')

echo "# $(date -u +%FT%TZ) $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $N entries x 1 video, ${W}x${H}, requests $N, concurrency 1"

run() {  # name, extra flags...; prints "cpu_s peak_kib video_bytes body_bytes"
  local name=$1
  shift
  local skip
  skip=$(wc -l < "$OUT/rec.jsonl" 2>/dev/null || echo 0)
  local cmd=("$BIN/servebench" profile -m mock-model --tokenizer simple -u "127.0.0.1:$PORT"
    --concurrency 1 --request-count "$N" --num-dataset-entries "$N" --isl 32 --osl 4
    --random-seed 1 --artifact-dir "$OUT/art-${name// /_}" -q "$@")
  echo "\$ /usr/bin/time -v ${cmd[*]}" >&2
  /usr/bin/time -v "${cmd[@]}" 2> "$OUT/time-${name// /_}.txt" > /dev/null ||
    { cat "$OUT/time-${name// /_}.txt" >&2; exit 1; }
  sleep 0.2  # the mock's record lines
  local user sys kib
  user=$(awk -F': ' '/User time/ {print $2}' "$OUT/time-${name// /_}.txt")
  sys=$(awk -F': ' '/System time/ {print $2}' "$OUT/time-${name// /_}.txt")
  kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$OUT/time-${name// /_}.txt")
  python3 - "$OUT/rec.jsonl" "$user" "$sys" "$kib" "$skip" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]).readlines()[int(sys.argv[5]):] if l.strip()]
vids = [m["bytes"] for r in rows for m in r.get("media", []) if m["kind"] == "video"]
body = [r.get("body_bytes", 0) for r in rows]
print(float(sys.argv[2]) + float(sys.argv[3]), sys.argv[4],
      sum(vids) / len(vids) if vids else 0, sum(body) / len(body) if body else 0)
PY
}

read -r base_cpu base_kib _ _ < <(run base)
printf "%-34s %12s %14s %12s %10s\n" variant "cpu/video" "bytes/video" "body bytes" "peak RSS"
printf "%-34s %12s %14s %12s %10s\n" "no video (baseline)" "-" "-" "-" "$((base_kib / 1024)) MiB"
variant() {  # name, flags...
  local name=$1
  shift
  read -r cpu kib vbytes body < <(run "$name" --video-width "$W" --video-height "$H" "$@")
  awk -v n="$name" -v c="$cpu" -v b="$base_cpu" -v N="$N" -v v="$vbytes" -v body="$body" -v k="$kib" \
    'BEGIN { printf "%-34s %9.1f ms %14.0f %12.0f %6d MiB\n", n, (c - b) / N * 1000, v, body, k / 1024 }'
}
variant "webm vp9 moving_shapes (default)"
variant "webm vp9 grid_clock" --video-synth-type grid_clock
variant "webm vp9 noise" --video-synth-type noise
variant "mp4 x264 moving_shapes" --video-format mp4 --video-codec libx264
variant "mp4 x264 noise" --video-format mp4 --video-codec libx264 --video-synth-type noise
variant "webm vp9 moving_shapes + vorbis" --video-audio-num-channels 1
