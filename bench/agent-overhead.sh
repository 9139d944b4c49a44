#!/usr/bin/env bash
# The agent's overhead on sample workloads: each workload runs without and with the agent (TSO and
# PSO monitors on), alternating, RUNS times each; the workload reports its own elapsed time (JVM start
# and the exit report excluded) and the script prints the median times and their ratio side by side.
#   bench/agent-overhead.sh            # RUNS=3
#   RUNS=5 bench/agent-overhead.sh W02_ArrayCompute
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
WORKLOADS=${*:-W01_QueueContention W02_ArrayCompute}
if [ ! -f agent/target/mmcheck.jar ] || [ ! -f sample-apps/target/sample-apps.jar ]; then
  mvn -q -DskipTests package
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
elapsed() { grep -o 'elapsed-ms=[0-9]*' | cut -d= -f2; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-22s %12s %12s %8s   %s\n' workload "plain ms" "agent ms" ratio "agent events"
for w in $WORKLOADS; do
  : > "$tmp/plain"; : > "$tmp/agent"
  for i in $(seq "$RUNS"); do
    java -jar sample-apps/target/sample-apps.jar "$w" | elapsed >> "$tmp/plain"
    java -javaagent:agent/target/mmcheck.jar=report="$tmp/r.json" -jar sample-apps/target/sample-apps.jar "$w" 2>/dev/null \
      | elapsed >> "$tmp/agent"
  done
  p=$(median < "$tmp/plain"); a=$(median < "$tmp/agent")
  events=$(grep -o '"eventsConsumed" : [0-9]*' "$tmp/r.json" | grep -o '[0-9]*$')
  printf '%-22s %12s %12s %8s   %s\n' "$w" "$p" "$a" "$(awk -v a="$a" -v p="$p" 'BEGIN {printf "%.1fx", a / (p > 0 ? p : 1)}')" "$events"
done
