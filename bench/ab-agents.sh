#!/usr/bin/env bash
# Two agent builds side by side on the benchmark workloads, alternating run by run (A, B, A, B...), so
# that a change's cost or gain is measured under the same conditions: prints each build's median
# elapsed-ms per workload and B's time over A's. For "measure each step before and after" (issue 13).
#   cp agent/target/mmcheck.jar /tmp/before.jar; (change, rebuild)
#   RUNS=5 bench/ab-agents.sh /tmp/before.jar agent/target/mmcheck.jar W05_ThreadLocalWork W06_SpscArrayQueue
# AGENT_OPTIONS=... is passed to both (e.g. AGENT_OPTIONS=sample=0.05); SCALE=N as in agent-overhead.sh.
# The last columns are each build's median checker CPU per event (run.checkerCpuMillis over eventsConsumed), in ns:
# steadier than the elapsed time on two cores, where CPU the checker saves may go to spinning threads.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 3 ]; then
  echo "usage: bench/ab-agents.sh A.jar B.jar WORKLOAD..." >&2
  exit 2
fi
A=$1; B=$2; shift 2
RUNS=${RUNS:-5}
SCALE=${SCALE:-1}
EXTRA=${AGENT_OPTIONS:+,$AGENT_OPTIONS}
JAR=sample-apps/target/sample-apps.jar
for f in "$A" "$B" "$JAR"; do
  [ -f "$f" ] || { echo "ab-agents: $f is missing" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$A" "$tmp/a.jar"; cp "$B" "$tmp/b.jar"
elapsed() { grep -o 'elapsed-ms=[0-9]*' | cut -d= -f2; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
per_event() { # the checker's CPU per event of report $1, in ns
  awk -v c="$(grep -o '"checkerCpuMillis" : -*[0-9]*' "$1" | grep -o '\-*[0-9]*$')" \
    -v e="$(grep -o '"eventsConsumed" : [0-9]*' "$1" | grep -o '[0-9]*$')" 'BEGIN {printf "%d\n", (e > 0 ? c * 1e6 / e : 0)}'
}
printf '%-22s %10s %10s %8s   %-40s %s\n' workload "A ms" "B ms" "B/A" "runs (A | B)" "checker ns/event (A | B)"
for w in "$@"; do
  : > "$tmp/a"; : > "$tmp/b"; : > "$tmp/ca"; : > "$tmp/cb"
  for i in $(seq "$RUNS"); do
    for x in a b; do
      java -Dworkload.scale="$SCALE" -javaagent:"$tmp/$x.jar"=report="$tmp/r.json"$EXTRA -jar "$JAR" "$w" 2>/dev/null \
        | elapsed >> "$tmp/$x"
      per_event "$tmp/r.json" >> "$tmp/c$x"
    done
  done
  ma=$(median < "$tmp/a"); mb=$(median < "$tmp/b")
  printf '%-22s %10s %10s %8s   %-40s %s | %s\n' "$w" "$ma" "$mb" "$(awk -v a="$ma" -v b="$mb" 'BEGIN {printf "%.2f", b / (a > 0 ? a : 1)}')" \
    "$(tr '\n' ' ' < "$tmp/a")| $(tr '\n' ' ' < "$tmp/b")" "$(median < "$tmp/ca")" "$(median < "$tmp/cb")"
done
