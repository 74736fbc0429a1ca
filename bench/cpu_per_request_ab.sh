#!/usr/bin/env bash
# Two servebench binaries side by side on bench/cpu_per_request.sh's command (nginx answering a
# short SSE chat stream instantly, concurrency 64, client pinned to one core, server to another),
# in paired rounds whose order alternates: on a VM whose runs move by ±15 % from one minute to
# the next, the per-round difference says more than two separate medians.
#
#   bench/cpu_per_request_ab.sh OLD_BINARY NEW_BINARY [N=300000] [ROUNDS=10]
#
# Per run: whole-process user+sys CPU / N (µs), minor page faults, request_throughput and peak
# RSS (MiB).
# Prints each round and the medians, the median per-round difference and how often NEW was ahead.
#   CONCURRENCY=64  CLIENT_CPU=0  SERVER_CPU=1
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/nginx_sse.sh  # start_nginx_sse, free_port, sb_profile_cmd
[[ $# -ge 2 ]] || { echo "usage: $0 OLD_BINARY NEW_BINARY [N] [ROUNDS]" >&2; exit 2; }
OLD=$1
NEW=$2
N=${3:-300000}
ROUNDS=${4:-10}
CONC=${CONCURRENCY:-64}
CLIENT_CPU=${CLIENT_CPU:-0}
SERVER_CPU=${SERVER_CPU:-1}
for b in "$OLD" "$NEW"; do [[ -x $b ]] || { echo "not an executable: $b" >&2; exit 2; }; done
[[ -x /usr/sbin/nginx ]] || { echo "needs nginx (apt-get install nginx-light)" >&2; exit 2; }
WORK=$(mktemp -d /tmp/sb-cpu-ab-XXXXXX)
cleanup() {
  [[ -f $WORK/nginx.pid ]] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)"
PORT=$(free_port)
start_nginx_sse "$WORK" "$PORT" "$SERVER_CPU" || exit 3
sleep 0.5

run_one() {  # BINARY -> "cpu_us faults rps rss_mib"
  rm -rf "$WORK/art"
  sb_profile_cmd "$CLIENT_CPU" "$1" "http://127.0.0.1:$PORT" "$N" "$CONC" builtin "$WORK/art"
  /usr/bin/time -f "cpu_s=%U %S %R %M" "${SB_PROFILE_CMD[@]}" > /dev/null 2> "$WORK/err" || {
    cat "$WORK/err" >&2; exit 1; }
  python3 - "$N" "$WORK" <<'PY'
import glob, json, re, sys
n, work = int(sys.argv[1]), sys.argv[2]
u, s, f, m = re.search(r'cpu_s=([0-9.]+) ([0-9.]+) (\d+) (\d+)', open(work + '/err').read()).groups()
j = json.load(open(glob.glob(work + '/art/**/profile_export_aiperf.json', recursive=True)[0]))
print(f"{(float(u) + float(s)) * 1e6 / n:.2f} {f} {j['request_throughput']['avg']:.0f} {int(m) // 1024}")
PY
}

echo "# $(date -u +%FT%TZ) N=$N rounds=$ROUNDS old=$OLD new=$NEW"
: > "$WORK/rows"
for r in $(seq "$ROUNDS"); do
  if (( r % 2 )); then o=$(run_one "$OLD"); n=$(run_one "$NEW"); else n=$(run_one "$NEW"); o=$(run_one "$OLD"); fi
  echo "round $r: old cpu_us faults rps rss_mib = $o | new = $n"
  echo "$o $n" >> "$WORK/rows"
done
python3 - "$WORK/rows" <<'PY'
import statistics as st, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
col = lambda i: [r[i] for r in rows]
d = [b - a for a, b in zip(col(0), col(4))]
print(f"CPU/request µs: old median {st.median(col(0)):.2f}, new {st.median(col(4)):.2f}; "
      f"per-round new-old median {st.median(d):+.2f}, new ahead in {sum(x < 0 for x in d)}/{len(d)}")
print(f"minor faults: old {st.median(col(1)):.0f}, new {st.median(col(5)):.0f}; "
      f"throughput req/s: old {st.median(col(2)):.0f}, new {st.median(col(6)):.0f}; "
      f"peak RSS MiB: old {st.median(col(3)):.0f}, new {st.median(col(7)):.0f}")
PY
