#!/usr/bin/env bash
# GPU check: runs the NVML collector on a machine with a real NVIDIA GPU (and driver) for a short
# profile against servebench-mock, and prints what it read, so docs/telemetry.md can record it.
#
#   scripts/gpu_check.sh [BUILD_DIR]     # default build/ (needs bin/servebench, bin/servebench-mock)
#
# What it does: nvidia-smi's view of the GPUs (for comparison), then a ~3 s profile with
# `--gpu-telemetry pynvml` against a local mock, then a summary of the artifacts: GPUs found
# (index, name, UUID), per-metric averages and sample counts, each GPU's energy and how it was
# obtained (energy counter or power integration), the energy metrics, and the first two lines of
# gpu_telemetry_export.jsonl. A second profile adds --network-latency-automatic. Nothing is
# installed; the real libnvidia-ml.so.1 comes from the driver. Dry run without a GPU (checks the
# script only): LD_LIBRARY_PATH=build/bin/fakes/nvml scripts/gpu_check.sh
# Exit: 0 the collector read at least one GPU; 1 it did not; 2 a prerequisite is missing.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$repo/build}"
bin="$build/bin"
for b in servebench servebench-mock; do
  [[ -x "$bin/$b" ]] || { echo "gpu_check: $bin/$b missing; build it first" >&2; exit 2; }
done
command -v python3 >/dev/null || { echo "gpu_check: python3 missing" >&2; exit 2; }

out="$(mktemp -d -t sb-gpu-check-XXXXXX)"
mock_pid=""
cleanup() { [[ -n "$mock_pid" ]] && kill "$mock_pid" 2>/dev/null || true; }
trap cleanup EXIT

echo "== nvidia-smi"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=index,name,uuid,power.draw,utilization.gpu,memory.used,temperature.gpu \
    --format=csv || true
else
  echo "(nvidia-smi not found)"
fi

"$bin/servebench-mock" --port 0 --ttft-ms 20 --itl-ms 5 >"$out/mock.out" 2>"$out/mock.err" &
mock_pid=$!
for _ in $(seq 100); do grep -q "^listening on " "$out/mock.out" 2>/dev/null && break; sleep 0.1; done
url="$(sed -n 's/^listening on //p' "$out/mock.out" | head -1)"
[[ -n "$url" ]] || { echo "gpu_check: the mock did not start" >&2; exit 2; }

run() {
  local name="$1" rc=0; shift
  "$bin/servebench" profile -m mock-model --tokenizer simple -u "$url" --streaming \
    --isl 32 --osl 16 --extra-inputs ignore_eos:true --concurrency 4 --request-count 120 \
    --gpu-telemetry pynvml --artifact-dir "$out/$name" "$@" >"$out/$name.console" 2>"$out/$name.err" || rc=$?
  echo "== $name: exit $rc; stderr:"
  cat "$out/$name.err"
}
run nvml
run nvml_rtt --network-latency-automatic

python3 - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
ok = False
for name in ("nvml", "nvml_rtt"):
    dirs = [d for d in glob.glob(os.path.join(out, name, "*")) if os.path.isdir(d)]
    if not dirs:
        print(f"== {name}: no artifact folder"); continue
    d = dirs[0]
    s = json.load(open(os.path.join(d, "profile_export_aiperf.json")))
    t = s.get("telemetry_data")
    print(f"== {name}: {d}")
    if not t:
        print("  no telemetry_data: the collector read nothing (see stderr above)"); continue
    print("  sources:", t["summary"]["endpoints_configured"], "reachable:",
          t["summary"]["endpoints_successful"])
    for ep, e in t["endpoints"].items():
        for gname, g in e["gpus"].items():
            ok = True
            print(f"  {ep} {gname}: {g['gpu_name']} {g['gpu_uuid']}")
            for tag, m in g["metrics"].items():
                print(f"    {tag:32s} avg {m['avg']:12.3f} {m['unit']:6s} n={m['count']}")
            if "servebench_energy" in g:
                en = g["servebench_energy"]
                print(f"    energy {en['joules']:.3f} J from {en['source']}, avg {en['avg_power_w']:.2f} W")
    for k, v in s.items():
        if k.startswith("nvidia_") and isinstance(v, dict):
            print(f"  {k:40s} {v['avg']:.6g} {v['unit']}")
    for k in ("network_rtt", "network_adjusted_request_latency"):
        if k in s:
            print(f"  {k:40s} avg {s[k]['avg']:.4f} {s[k]['unit']}")
    lines = open(os.path.join(d, "gpu_telemetry_export.jsonl")).read().splitlines()
    print(f"  gpu_telemetry_export.jsonl: {len(lines)} lines; first two:")
    for l in lines[:2]:
        print("   ", l)
print("RESULT:", "NVML read at least one GPU" if ok else "NVML read no GPU")
sys.exit(0 if ok else 1)
PY
