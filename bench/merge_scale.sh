#!/usr/bin/env bash
# `servebench merge` at scale: N records in 4 shard folders, wall time and peak RSS.
#   bench/merge_scale.sh [RECORDS] [WORK_DIR]     (defaults 10000000 and /tmp/sb-merge-scale)
# Runs 4 real shards of one small plan against servebench-mock (streamed chat, 64 output tokens,
# so each record carries its chunk times), then grows each shard's profile_export.jsonl to
# RECORDS/4 lines by repeating its real records with fresh X-Request-IDs, and times
# `servebench merge` over the 4 folders with /usr/bin/time -v. Needs about 2 × 2.3 KB × RECORDS
# of disk (the shards and the merged copy); the work folder is removed at the end.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
records=${1:-10000000}
work=${2:-/tmp/sb-merge-scale}
bin="${SERVEBENCH_BIN_DIR:-$repo/build/bin}"
rm -rf "$work" && mkdir -p "$work/shards"
trap 'kill $mock 2>/dev/null || true; rm -rf "$work"' EXIT
"$bin/servebench-mock" --port 0 --ttft-ms 1 --itl-ms 0 >"$work/mock.log" 2>&1 &
mock=$!
for _ in $(seq 100); do grep -q listening "$work/mock.log" && break; sleep 0.05; done
url=$(sed -n 's/^listening on //p' "$work/mock.log" | head -1)
for i in 0 1 2 3; do
  "$bin/servebench" profile -m scale-model -u "$url" --endpoint-type chat --streaming \
    --tokenizer builtin --random-seed 5 --isl 32 --osl 64 --concurrency 8 --request-count 4000 \
    --shard "$i/4" --ui-type none --no-report --no-server-metrics --artifact-dir "$work/shards" -q \
    >"$work/shard$i.log" 2>&1
done
python3 - "$work/shards" "$records" <<'PY'
import glob, json, os, sys
root, total = sys.argv[1], int(sys.argv[2])
for d in sorted(glob.glob(os.path.join(root, "*-shard*of4"))):
    path = os.path.join(d, "profile_export.jsonl")
    lines = open(path).read().splitlines()
    want = total // 4
    key = '"x_request_id":"'
    assert key in lines[0], "records must carry x_request_id"
    with open(path, "w") as out:
        for n in range(want):  # past the real ones: the same record with a fresh id
            line = lines[n % len(lines)]
            out.write((line if n < len(lines) else line.replace(key, f'{key}r{n}-', 1)) + "\n")
    print(f"{d}: {want} records, {os.path.getsize(path) / 1e9:.2f} GB")
PY
/usr/bin/time -v "$bin/servebench" merge "$work"/shards/*-shard*of4 -o "$work/merged" -q --no-report \
  2>"$work/time.txt" >/dev/null
grep -E "Elapsed|Maximum resident|User time|System time" "$work/time.txt"
echo "records merged: $(wc -l <"$work/merged/profile_export.jsonl")"
