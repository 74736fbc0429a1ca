#!/bin/bash
# 4 shards (--shard i/4 --start-at) per load mode against servebench-mock; the merged
# profile_export.jsonl must hold exactly the single-process plan's requests (X-Request-ID /
# session and turn, intended offset from t0, body size), the mock must have seen each request
# once, and the merged summary must equal `servebench report` over the concatenated records.
# Then 4 shards with --rendezvous, and a merge of shards of different seeds (refused, exit 2).
set -euo pipefail
BIN=$1
WORK=$(mktemp -d /tmp/sb_shard_e2e.XXXXXX)
trap 'rc=$?; kill $MOCK_PID 2>/dev/null || true; if [ $rc -ne 0 ]; then tail -n 3 "$WORK"/*.log; fi; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
cd "$WORK"
"$BIN/servebench-mock" --port 0 --ttft-ms 2 > mock.out 2>&1 &
MOCK_PID=$!
for _ in $(seq 50); do grep -q listening mock.out 2>/dev/null && break; sleep 0.1; done
URL=$(head -1 mock.out | sed 's/listening on //')
COMMON=(-m test-model --endpoint-type chat --streaming --random-seed 11 --ui-type none
        --no-report --no-server-metrics --synthetic-input-tokens-mean 64 --output-tokens-mean 8)

run_mode() {  # name, then the mode's flags
  local name=$1; shift
  "$BIN/servebench" profile "${COMMON[@]}" "$@" --url "$URL" --shard 0/1 --artifact-dir "$name/one" >/dev/null 2>&1
  # The shards' own server, so its request record holds exactly what they sent.
  "$BIN/servebench-mock" --port 0 --record-requests "$name.shards.rec" --ttft-ms 2 > "$name.mock" 2>&1 &
  local mock=$!
  for _ in $(seq 50); do grep -q listening "$name.mock" 2>/dev/null && break; sleep 0.1; done
  local url=$(head -1 "$name.mock" | sed 's/listening on //')
  local start=$(( $(date +%s) + 2 ))
  local pids=()
  mkdir -p "$name/shards"  # made once: concurrent first-time creation of one folder races
  for i in 0 1 2 3; do
    "$BIN/servebench" profile "${COMMON[@]}" "$@" --url "$url" --shard $i/4 --start-at $start \
      --artifact-dir "$name/shards" >"$name.$i.log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait $p; done
  kill $mock; wait $mock 2>/dev/null || true
  "$BIN/servebench" merge "$name"/shards/* -o "$name/merged" -q --no-report
  mkdir -p "$name/concat"
  cat "$name"/shards/*/profile_export.jsonl > "$name/concat/profile_export.jsonl"
  cp "$name/merged/profile_export_aiperf.json" "$name/concat/"
  "$BIN/servebench" report "$name/concat" -q --no-report
  python3 - "$name" <<'PY'
import glob, json, sys
name = sys.argv[1]
def load(p): return [json.loads(l) for l in open(p) if l.strip()]
def key(r):
    m = r["metadata"]
    # Sessions: the conversation and turn (their request indices follow completion order).
    return (m["x_correlation_id"], m["turn_index"]) if m["turn_index"] > 0 or "-s" in m["x_correlation_id"] else m["x_request_id"]
def plan(dirs):
    out = {}
    for d in dirs:
        t0 = json.load(open(d + "/shard.json"))["start"]["load_start_wall_ns"]
        for r in load(d + "/profile_export.jsonl"):
            m = r["metadata"]
            k = key(r)
            assert k not in out, f"{name}: {k} sent twice"
            fixed = m["turn_index"] == 0  # later turns' intended times follow completions
            out[k] = (m["intended_ns"] - t0 if fixed and m["benchmark_phase"] == "profiling" else None,
                      # Later turns carry the server's replies in their history: only first turns are
            # the plan's alone.
            r["metrics"].get("input_sequence_length", {}).get("value") if fixed else None)
    return out
one = plan(glob.glob(f"{name}/one/*"))
shards = plan(sorted(glob.glob(f"{name}/shards/*")))
assert len(one) > 0
assert set(one) == set(shards), f"{name}: request sets differ: {set(one) ^ set(shards)}"
# Closed loop and rate-mode sessions: intended times follow completions (continuations take
# arrivals), so only the set of requests is the plan's.
closed = "concurrency" in name or "sessions" in name
for k in one:
    a, b = one[k], shards[k]
    assert a[1] == b[1], f"{name}: {k} input length {a[1]} vs {b[1]}"
    if not closed and a[0] is not None:
        assert abs(a[0] - b[0]) <= 2, f"{name}: {k} intended offset {a[0]} vs {b[0]}"
ids = [r["x_request_id"] for r in load(f"{name}.shards.rec")]
assert len(ids) == len(set(ids)) == sum(1 for _ in load(glob.glob(f"{name}/merged/profile_export.jsonl")[0])), f"{name}: mock saw duplicates or a different count"
merged = json.load(open(f"{name}/merged/profile_export_aiperf.json"))
concat = json.load(open(f"{name}/concat/profile_export_aiperf.json"))
for k in ("request_latency", "time_to_first_token", "request_count", "input_sequence_length"):
    assert merged.get(k) == concat.get(k), f"{name}: {k} differs between merge and report"
print(f"{name}: {len(one)} requests; union of 4 shards == single-process plan")
PY
}

run_mode rate --request-rate 100 --request-count 41
run_mode rate_warmup --request-rate 100 --request-count 30 --warmup-request-count 6
run_mode concurrency --concurrency 6 --request-count 37
run_mode sessions --request-rate 50 --num-sessions 9 --session-turns-mean 3 --session-turns-stddev 0

# The rendezvous barrier: shard 0 listens, the others join; every shard records its offset.
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
pids=()
mkdir -p rdv
for i in 3 2 1 0; do
  "$BIN/servebench" profile "${COMMON[@]}" --url "$URL" --request-rate 100 --request-count 20 --shard $i/4 \
    --rendezvous 127.0.0.1:$PORT --rendezvous-timeout 60 --artifact-dir rdv >rdv.$i.log 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait $p; done
"$BIN/servebench" merge rdv/* -o rdv-merged --no-report > rdv-merge.txt
grep -q "profiling start spread" rdv-merge.txt
python3 - <<'PY'
import glob, json
starts = []
for d in glob.glob("rdv/*"):
    m = json.load(open(d + "/shard.json"))
    assert m["start"]["clock_offset_ns"] is not None, d
    starts.append(m["start"]["load_start_wall_ns"])
spread_ms = (max(starts) - min(starts)) / 1e6
assert spread_ms < 1000, spread_ms
print(f"rendezvous: 4 shards, start spread {spread_ms:.3f} ms")
PY

# mpirun (Open MPI): rank and size from the environment. With --rendezvous: the TCP barrier and a
# separate merge. Without: MPI_Barrier before t0 (libmpi loaded at run time) and rank 0 gathers
# the shard folders (over MPI when it cannot see them) and writes the merged run itself.
if command -v mpirun >/dev/null; then
  ROOT_FLAG=(); [ "$(id -u)" = 0 ] && ROOT_FLAG=(--allow-run-as-root)
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  mkdir -p mpi mpi-barrier mpi-apart/rank0
  mpirun "${ROOT_FLAG[@]}" --oversubscribe -n 4 "$BIN/servebench" profile "${COMMON[@]}" --url "$URL" \
    --request-rate 100 --request-count 24 --rendezvous 127.0.0.1:$PORT --artifact-dir mpi >mpi.log 2>&1
  "$BIN/servebench" merge mpi/* -o mpi-merged -q --no-report
  mpirun "${ROOT_FLAG[@]}" --oversubscribe -n 4 "$BIN/servebench" profile "${COMMON[@]}" --url "$URL" \
    --request-rate 100 --request-count 24 --artifact-dir mpi-barrier >mpi-barrier.log 2>&1
  # Each rank its own folder: rank 0 cannot see the others' and receives them over MPI.
  mpirun "${ROOT_FLAG[@]}" --oversubscribe -n 4 -x SERVEBENCH_MPI_ALWAYS_SEND=1 sh -c "exec '$BIN/servebench' profile ${COMMON[*]} \
    --url '$URL' --request-rate 100 --request-count 24 --artifact-dir mpi-apart/rank\$OMPI_COMM_WORLD_RANK" \
    >mpi-apart.log 2>&1
  python3 - <<'PY'
import glob, json, os
def ids(path):
    return [json.loads(l)["metadata"]["x_request_id"] for l in open(path)]
ms = [json.load(open(d + "/shard.json")) for d in glob.glob("mpi/*")]
assert sorted(m["shard"]["index"] for m in ms) == [0, 1, 2, 3]
assert all(m["shard"]["launcher"] == "mpi" and m["shard"]["count"] == 4 for m in ms)
rdv = ids("mpi-merged/profile_export.jsonl")
assert len(rdv) == len(set(rdv)) == 24, len(rdv)
for top in ("mpi-barrier", "mpi-apart/rank0"):
    merged = [d for d in glob.glob(top + "/*") if "-shard" not in d]
    shards = sorted(glob.glob(top + "/*-shard*of4"))
    assert len(merged) == 1 and len(shards) == 4, (top, os.listdir(top))
    got = ids(merged[0] + "/profile_export.jsonl")
    # The plan's requests, each once: the same IDs as the rendezvous run of the same plan.
    assert sorted(got) == sorted(rdv), (top, len(got))
    assert os.path.exists(merged[0] + "/profile_export_aiperf.json")
    assert json.load(open(merged[0] + "/shards.json"))
    offsets = [json.load(open(d + "/shard.json"))["start"]["clock_offset_ns"] for d in shards]
    assert all(o is not None for o in offsets), offsets
    assert offsets[0] == 0, offsets
apart = sorted(os.path.basename(d) for d in glob.glob("mpi-apart/rank[123]/*"))
assert len(apart) == 3, apart  # ranks 1-3 wrote their own folders; rank 0 received copies
print("mpirun: rendezvous + merge, MPI barrier + gather (shared and separate folders): 24 requests each")
PY
fi

# Shards of different plans are refused with one line and exit 2.
"$BIN/servebench" profile "${COMMON[@]/11/12}" --url "$URL" --request-rate 100 --request-count 8 \
  --shard 1/4 --artifact-dir other >/dev/null 2>&1
set +e
"$BIN/servebench" merge rate/shards/*shard0of4 other/* -o bad 2>err.txt
rc=$?
set -e
[ $rc -eq 2 ] || { echo "merge of different plans: exit $rc"; exit 1; }
[ "$(wc -l < err.txt)" -eq 1 ] && grep -q "random seeds differ" err.txt
echo "shard_e2e: ok"
