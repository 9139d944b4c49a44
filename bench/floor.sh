#!/usr/bin/env bash
# The floor, per workload (issue 36, docs/performance.md "The floor"): what a plain access costs, what the
# application's threads pay per logged event, what the checker thread spends per event, and the resulting ratio,
# so that a user can predict the cost on their own code from how densely it accesses shared memory.
# Per workload, RUNS rounds of four runs, alternating: plain; every access logged and nothing checked
# (overhead=log,solo=off,repeatedLoads=log: the events are the accesses); default options with the checker stopped
# after the merge (overhead=log: the application's side); default options (a normal run). Medians of each.
# Columns:
#   ns/access         plain elapsed / accesses (the run's own timer: JVM start and report excluded)
#   logged            events of a default run / accesses (what solo periods and repeated loads leave out)
#   app ns/ev         (overhead=log elapsed - plain elapsed) / its events: the probes, the stripes, the ring
#   chk ns/ev         the default run's checker-thread CPU / its events ("-": fewer than 1% of the accesses logged)
#   app ns/acc        (overhead=log elapsed - plain elapsed) / accesses: the same per access, logged or left out
#   check ms, ratio   a default run's elapsed, and over plain
#   bench/floor.sh                       # W01-W08, SCALE=2, RUNS=3
#   SCALE=10 RUNS=5 bench/floor.sh W06_SpscArrayQueue
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
SCALE=${SCALE:-2}
AGENT=${AGENT:-agent/target/mmcheck.jar}
JAR=sample-apps/target/sample-apps.jar
for f in "$AGENT" "$JAR"; do
  [ -f "$f" ] || { echo "floor: $f is missing; build first (mvn -q -DskipTests package)" >&2; exit 2; }
done
WORKLOADS=${*:-W01_QueueContention W02_ArrayCompute W03_TreiberContention W04_QueueHandoff W05_ThreadLocalWork W06_SpscArrayQueue W07_MpscArrayQueue W08_SingleThreaded}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# runs the workload under the agent with options $2, appends "elapsed events checkerCpuMillis" to $3
agent_run() {
  local out
  out=$(java -Dworkload.scale="$SCALE" -javaagent:"$AGENT"=report="$tmp/r.json",failOnError=false,$2 -jar "$JAR" "$1" 2>/dev/null) \
    || true
  local ms
  ms=$(grep -o 'elapsed-ms=[0-9]*' <<< "$out" | cut -d= -f2)
  [ -n "$ms" ] && [ -f "$tmp/r.json" ] || { echo "floor: $1 with $2 gave no time or report" >&2; exit 1; }
  python3 - "$tmp/r.json" "$ms" >> "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(sys.argv[2], d["run"]["eventsConsumed"], d["run"]["checkerCpuMillis"])
PY
  rm -f "$tmp/r.json"
}
col() { awk -v c="$1" '{print $c}' "$2" | median; }
printf '%-22s %8s %10s %9s %7s %10s %10s %10s %9s %7s\n' workload "plain ms" accesses "ns/access" logged \
  "app ns/ev" "chk ns/ev" "app ns/acc" "check ms" ratio
for w in $WORKLOADS; do
  : > "$tmp/plain"; : > "$tmp/all"; : > "$tmp/log"; : > "$tmp/check"
  for i in $(seq "$RUNS"); do
    java -Dworkload.scale="$SCALE" -jar "$JAR" "$w" | grep -o 'elapsed-ms=[0-9]*' | cut -d= -f2 >> "$tmp/plain"
    agent_run "$w" overhead=log,solo=off,repeatedLoads=log "$tmp/all"
    agent_run "$w" overhead=log "$tmp/log"
    agent_run "$w" "" "$tmp/check"
  done
  python3 - "$w" "$(median < "$tmp/plain")" "$(col 2 "$tmp/all")" "$(col 1 "$tmp/log")" "$(col 2 "$tmp/log")" \
      "$(col 1 "$tmp/check")" "$(col 2 "$tmp/check")" "$(col 3 "$tmp/check")" <<'PY'
import sys
w, plain, accesses, log_ms, log_events, check_ms, check_events, check_cpu = sys.argv[1], *map(float, sys.argv[2:])
per_event = check_events >= accesses / 100  # per event only where a run logs more than a few of its accesses
app = (log_ms - plain) * 1e6 / log_events if per_event else None
checker = check_cpu * 1e6 / check_events if per_event else None
fmt = lambda v: "%10.0f" % v if v is not None else "%10s" % "-"
print("%-22s %8.0f %10.0f %9.1f %6.0f%% %s %s %10.1f %9.0f %6.1fx" % (w, plain, accesses, plain * 1e6 / accesses,
      100 * check_events / accesses, fmt(app), fmt(checker), (log_ms - plain) * 1e6 / accesses, check_ms,
      check_ms / max(plain, 1)))
PY
done
