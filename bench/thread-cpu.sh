#!/usr/bin/env bash
# Where one run's CPU goes, by thread: runs a workload (with an agent build, or plain given - for the jar) and samples
# /proc/PID/task/*/stat every 0.2 s; prints, from the last full sample, each thread name's user+system CPU time
# (threads of one name summed: "G1 Refine", the workers), the total, and the workload's elapsed-ms. It shows what a
# per-thread profile of the checker hides: the JVM's own threads (G1's refinement and marking, the JIT compilers)
# working for the agent. Linux only; CPU is counted in ticks of 10 ms, and threads that end before a sample (a plain
# run of a few tenths of a second) are missed.
#   bench/thread-cpu.sh agent/target/mmcheck.jar W01_QueueContention
#   SCALE=10 bench/thread-cpu.sh - W01_QueueContention        # plain
#   bench/thread-cpu.sh agent/target/mmcheck.jar W02_ArrayCompute sample=0.05
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: bench/thread-cpu.sh AGENT.jar|- WORKLOAD [agent options]" >&2
  exit 2
fi
AGENT=$1; W=$2; OPTS=${3:-}
SCALE=${SCALE:-10}
JAR=sample-apps/target/sample-apps.jar
[ -f "$JAR" ] || { echo "thread-cpu: $JAR is missing: build with mvn -q -DskipTests package" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(-Dworkload.scale="$SCALE")
if [ "$AGENT" != "-" ]; then
  [ -f "$AGENT" ] || { echo "thread-cpu: no agent jar at $AGENT" >&2; exit 2; }
  args+=(-javaagent:"$AGENT"=report="$tmp/report.json"${OPTS:+,$OPTS})
fi
java "${args[@]}" -jar "$JAR" "$W" > "$tmp/out" 2>&1 &
pid=$!
best=0
last=""
while kill -0 "$pid" 2>/dev/null; do
  snap=$(for t in /proc/"$pid"/task/*; do
    awk -v n="$(cat "$t"/comm 2>/dev/null)" '{ s = $0; sub(/^.*\) /, "", s); split(s, a, " "); printf "%s\t%d\n", n, a[12] + a[13] }' "$t"/stat 2>/dev/null || true
  done)  # a thread may end between the listing and the read
  total=$(printf '%s\n' "$snap" | awk -F'\t' '{ s += $2 } END { print s + 0 }')
  if [ "$total" -ge "$best" ]; then
    best=$total
    last=$snap
  fi
  sleep 0.2
done
wait "$pid" || { echo "thread-cpu: the run failed:" >&2; tail -5 "$tmp/out" >&2; exit 1; }
printf '%s\n' "$last" | awk -F'\t' '{ a[$1] += $2 } END { for (k in a) printf "%8.2f s  %s\n", a[k] / 100, k }' | sort -rn | head -15
printf '%8.2f s  all threads\n' "$(echo "$best / 100" | bc -l)"
grep -o 'elapsed-ms=[0-9]*' "$tmp/out" || true
