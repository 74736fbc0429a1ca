#!/usr/bin/env bash
# Media inputs: preparation cost and memory, and send-path CPU per byte against text.
#
#   bench/media_cost.sh prep N W H FORMAT [SOURCE [POOL [TURNS]]]
#                                           N dataset entries × 4 images of W×H (png|jpeg) from
#                                           --image-source SOURCE (noise, assets, a folder;
#                                           default noise), with --media-pool-size POOL (default
#                                           0: fresh media for every entry), as N single-turn
#                                           entries or, with TURNS > 1, N/TURNS sessions of TURNS
#                                           turns; one request: prints wall seconds, user+sys CPU
#                                           seconds, peak RSS (KiB) of `servebench profile` and
#                                           the largest size its file-backed body store reached
#                                           (bytes, sampled every 0.2 s; 0 = no store).
#   bench/media_cost.sh send                marginal CPU per request and per body byte on the
#                                           send path: 20 entries, runs of 1,000 and 3,000
#                                           requests (the difference excludes preparation), for
#                                           bodies with 4 PNG images of 256×256 and for text-only
#                                           bodies of a similar size (--isl).
#   bench/media_cost.sh files SESSIONS UNIQUE [W]
#                                           an input file of SESSIONS multi_turn sessions × 4
#                                           turns × 4 images, each a path drawn (seeded) from
#                                           UNIQUE noise JPEGs of W×W (default 1024) written by
#                                           PIL; one request: same columns as prep.
#   BIN=build/bin
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/bin}
OUT=$(mktemp -d /tmp/sb-media-cost-XXXXXX)
MOCK_PID=
cleanup() {
  [ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null
  rm -rf "$OUT"
  true
}
trap cleanup EXIT
"$BIN/servebench-mock" --port 0 --ttft-ms 0 --itl-ms 0 > "$OUT/mock.out" 2> "$OUT/mock.err" &
MOCK_PID=$!
for _ in $(seq 100); do
  [ -s "$OUT/mock.out" ] && break
  sleep 0.05
done
PORT=$(head -1 "$OUT/mock.out" | sed 's/.*://')
echo "# $(date -u +%FT%TZ) $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# name, extra flags...: prints "wall_s cpu_s peak_kib body_bytes store_bytes"
run() {
  local name=$1
  shift
  local cmd=("$BIN/servebench" profile -m mock-model --tokenizer simple -u "127.0.0.1:$PORT" --osl 4
    --random-seed 1 --artifact-dir "$OUT/art-$name" -q "$@")
  echo "\$ /usr/bin/time -v ${cmd[*]}" >&2
  /usr/bin/time -v "${cmd[@]}" 2> "$OUT/time-$name.txt" > /dev/null &
  local time_pid=$! store=0 sb size fd
  # The store is an unlinked file (load/body_store.h): its size is read through the descriptor.
  while kill -0 "$time_pid" 2> /dev/null; do
    for sb in $(pgrep -P "$time_pid"); do
      for fd in /proc/"$sb"/fd/*; do
        case $(readlink "$fd" 2> /dev/null) in
          *servebench-bodies-*)
            size=$(stat -L -c %s "$fd" 2> /dev/null || echo 0)
            [ "$size" -gt "$store" ] && store=$size ;;
        esac
      done
    done
    sleep 0.2
  done
  wait "$time_pid" || { cat "$OUT/time-$name.txt" >&2; exit 1; }
  echo "$store" > "$OUT/store-$name.txt"
  python3 - "$OUT/time-$name.txt" "$OUT/art-$name" "$OUT/store-$name.txt" <<'PY'
import glob, json, sys
t = dict(l.strip().split(": ", 1) for l in open(sys.argv[1]) if ": " in l)
wall = t["Elapsed (wall clock) time (h:mm:ss or m:ss)"].split(":")
secs = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall)))
cpu = float(t["User time (seconds)"]) + float(t["System time (seconds)"])
body = 0
for f in glob.glob(sys.argv[2] + "/**/inputs.json", recursive=True):
    d = json.load(open(f))["data"]
    sizes = [len(json.dumps(p, separators=(",", ":"))) for s in d for p in s["payloads"]]
    body = sum(sizes) / len(sizes)
store = int(open(sys.argv[3]).read())
print(f"{secs:.2f} {cpu:.2f} {t['Maximum resident set size (kbytes)']} {body:.0f} {store}")
PY
}

case "${1:-send}" in
  prep)
    N=${2:-100}; W=${3:-1024}; H=${4:-1024}; F=${5:-png}; SRC=${6:-noise}; POOL=${7:-0}; TURNS=${8:-1}
    echo "# prep: $N entries x 4 images ${W}x${H} $F, --image-source $SRC, --media-pool-size $POOL," \
      "$TURNS turn(s) per session, 1 request"
    echo "# wall_s cpu_s peak_kib body_bytes store_bytes"
    shape=(--num-dataset-entries "$N")
    [ "$TURNS" -gt 1 ] && shape=(--num-dataset-entries $((N / TURNS)) --session-turns-mean "$TURNS")
    run prep "${shape[@]}" --request-count 1 --concurrency 1 --isl 16 \
      --image-width-mean "$W" --image-height-mean "$H" --image-batch-size 4 --image-format "$F" \
      --image-source "$SRC" --media-pool-size "$POOL"
    ;;
  files)
    S=${2:-1000}; U=${3:-50}; W=${4:-1024}
    echo "# files: $S sessions x 4 turns x 4 image paths drawn from $U JPEGs of ${W}x${W}, 1 request"
    echo "# wall_s cpu_s peak_kib body_bytes store_bytes"
    /usr/bin/python3 - "$OUT" "$S" "$U" "$W" <<'PY'
import json, os, random, sys
from PIL import Image
out, sessions, unique, w = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(1)
paths = []
for i in range(unique):
    p = f"{out}/pic{i}.jpg"
    Image.frombytes("RGB", (w, w), os.urandom(w * w * 3)).save(p, quality=90)
    paths.append(p)
with open(f"{out}/sessions.jsonl", "w") as f:
    for s in range(sessions):
        turns = [{"text": f"turn {t}", "images": [rng.choice(paths) for _ in range(4)]} for t in range(4)]
        f.write(json.dumps({"session_id": f"s{s}", "turns": turns}) + "\n")
PY
    run files --input-file "$OUT/sessions.jsonl" --custom-dataset-type multi_turn --request-count 1 --concurrency 1
    ;;
  send)
    media=(--image-width-mean 256 --image-height-mean 256 --image-batch-size 4 --isl 16)
    text=(--isl 200000)
    for kind in media text; do
      declare -n flags=$kind
      a=$(run "$kind-1000" --num-dataset-entries 20 --request-count 1000 --concurrency 4 "${flags[@]}")
      b=$(run "$kind-3000" --num-dataset-entries 20 --request-count 3000 --concurrency 4 "${flags[@]}")
      python3 - "$kind" "$a" "$b" <<'PY'
import sys
a = [float(x) for x in sys.argv[2].split()]; b = [float(x) for x in sys.argv[3].split()]
per_req = (b[1] - a[1]) / 2000
print(f"{sys.argv[1]}: body {a[3]:.0f} B, CPU per request {per_req * 1e6:.0f} us, "
      f"per MB sent {per_req / a[3] * 1e6 * 1e3:.2f} ms")
PY
    done
    ;;
esac
