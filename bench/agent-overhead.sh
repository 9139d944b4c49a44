#!/usr/bin/env bash
# The agent's overhead on sample workloads: each workload runs without and with the agent (TSO and
# PSO monitors on), alternating, RUNS times each; the workload reports its own elapsed time (JVM start
# and the exit report excluded) and the script prints the median times and their ratio side by side.
# The last columns are the last agent run's events and its checker thread's CPU time (run.checkerCpuMillis):
# a checker CPU time close to the agent's elapsed time means the checker set the pace.
# With TX=1 each workload also runs with transactions declared (the serializability checks on, every
# load logged: docs/serializability.md), and the last column is that time over the agent's without.
#   bench/agent-overhead.sh            # RUNS=3
#   RUNS=5 bench/agent-overhead.sh W02_ArrayCompute
#   TX=1 RUNS=5 bench/agent-overhead.sh
# AGENT_OPTIONS=... adds agent options to the agent's runs (e.g. AGENT_OPTIONS=schedule=os to measure
# without schedule=active's pauses).
# With LAYERS=1 each workload also runs with the agent stopped at each layer (the agent's overhead= option, RoadRunner's
# "empty tool" taken layer by layer): rewrite (the classes rewritten, every probe returning at its first test), log
# (every event logged and taken in order by the checker thread), ids (and every address given its id), check (a normal
# run), alternating within each round; it prints each layer's median and ratio, and the worst ratio per layer:
#   LAYERS=1 RUNS=3 bench/agent-overhead.sh
# SCALE=N makes each workload N times longer (-Dworkload.scale=N): at 1 a plain run takes tens of
# milliseconds, mostly before the JIT has compiled the loops; larger scales show the steady state.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
SCALE=${SCALE:-1}
WORKLOADS=${*:-W01_QueueContention W02_ArrayCompute W03_TreiberContention W04_QueueHandoff W05_ThreadLocalWork W06_SpscArrayQueue W07_MpscArrayQueue W08_SingleThreaded}
if [ ! -f agent/target/mmcheck.jar ] || [ ! -f sample-apps/target/sample-apps.jar ]; then
  mvn -q -DskipTests package
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TX=${TX:-0}
EXTRA=${AGENT_OPTIONS:+,$AGENT_OPTIONS}
# the transactions each workload declares: W01 the queue's operations, W02 (no methods to call atomic)
# the serializability checks chosen, so every event is a transaction of its own
tx_options() {
  case "$1" in
    W01_QueueContention) echo "atomic=dev.mmcheck.samples.S12_MichaelScottQueue#offer:dev.mmcheck.samples.S12_MichaelScottQueue#poll" ;;
    *) echo "models=tso:pso:scser:tsoser" ;;
  esac
}
elapsed() { grep -o 'elapsed-ms=[0-9]*' | cut -d= -f2; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v p="$2" 'BEGIN {printf "%.2fx", a / (p > 0 ? p : 1)}'; }
events() { grep -o '"eventsConsumed" : [0-9]*' "$1" | grep -o '[0-9]*$'; }
checker_cpu() { grep -o '"checkerCpuMillis" : -*[0-9]*' "$1" | grep -o '\-*[0-9]*$'; }
LAYERS=${LAYERS:-0}
if [ "$LAYERS" = 1 ]; then
  # overhead= checks nothing and says so with exit status 70: failOnError=false keeps the workload's own
  printf '%-22s %9s %17s %17s %17s %17s   %s\n' workload "plain ms" "rewrite ms" "log ms" "ids ms" "check ms" "events"
  declare -A worst_layer=()
  for w in $WORKLOADS; do
    : > "$tmp/plain"; for l in rewrite log ids check; do : > "$tmp/$l"; done
    for i in $(seq "$RUNS"); do
      java -Dworkload.scale="$SCALE" -jar sample-apps/target/sample-apps.jar "$w" | elapsed >> "$tmp/plain"
      for l in rewrite log ids check; do
        java -Dworkload.scale="$SCALE" -javaagent:agent/target/mmcheck.jar=report="$tmp/r.json",overhead=$l,failOnError=false$EXTRA \
          -jar sample-apps/target/sample-apps.jar "$w" 2>/dev/null | elapsed >> "$tmp/$l"
      done
    done
    p=$(median < "$tmp/plain")
    line=$(printf '%-22s %9s' "$w" "$p")
    for l in rewrite log ids check; do
      m=$(median < "$tmp/$l")
      r=$(awk -v a="$m" -v p="$p" 'BEGIN {printf "%.2f", a / (p > 0 ? p : 1)}')
      if awk -v r="$r" -v w="${worst_layer[$l]:-0}" 'BEGIN {exit !(r > w)}'; then worst_layer[$l]=$r; fi
      line+=$(printf ' %17s' "$m ($(ratio "$m" "$p"))")
    done
    echo "$line   $(events "$tmp/r.json")"
  done
  echo "worst: rewrite ${worst_layer[rewrite]}x, log ${worst_layer[log]}x, ids ${worst_layer[ids]}x, check ${worst_layer[check]}x"
  exit 0
fi
if [ "$TX" = 1 ]; then
  printf '%-22s %10s %10s %8s %12s %12s %10s %12s\n' workload "plain ms" "agent ms" ratio "agent events" \
    "agent+tx ms" "tx/agent" "tx events"
else
  printf '%-22s %12s %12s %8s   %-12s %s\n' workload "plain ms" "agent ms" ratio "agent events" "checker cpu ms"
fi
worst=""
worst_ratio=0
for w in $WORKLOADS; do
  : > "$tmp/plain"; : > "$tmp/agent"; : > "$tmp/tx"
  for i in $(seq "$RUNS"); do
    java -Dworkload.scale="$SCALE" -jar sample-apps/target/sample-apps.jar "$w" | elapsed >> "$tmp/plain"
    java -Dworkload.scale="$SCALE" -javaagent:agent/target/mmcheck.jar=report="$tmp/r.json"$EXTRA -jar sample-apps/target/sample-apps.jar "$w" 2>/dev/null \
      | elapsed >> "$tmp/agent"
    if [ "$TX" = 1 ]; then
      java -Dworkload.scale="$SCALE" -javaagent:agent/target/mmcheck.jar=report="$tmp/t.json",$(tx_options "$w")$EXTRA \
        -jar sample-apps/target/sample-apps.jar "$w" 2>/dev/null | elapsed >> "$tmp/tx"
    fi
  done
  p=$(median < "$tmp/plain"); a=$(median < "$tmp/agent")
  r=$(awk -v a="$a" -v p="$p" 'BEGIN {printf "%.2f", a / (p > 0 ? p : 1)}')
  if awk -v r="$r" -v w="$worst_ratio" 'BEGIN {exit !(r > w)}'; then worst_ratio=$r; worst=$w; fi
  if [ "$TX" = 1 ]; then
    t=$(median < "$tmp/tx")
    printf '%-22s %10s %10s %8s %12s %12s %10s %12s\n' "$w" "$p" "$a" "$(ratio "$a" "$p")" "$(events "$tmp/r.json")" \
      "$t" "$(ratio "$t" "$a")" "$(events "$tmp/t.json")"
  else
    printf '%-22s %12s %12s %8s   %-12s %s\n' "$w" "$p" "$a" "$(ratio "$a" "$p")" "$(events "$tmp/r.json")" \
      "$(checker_cpu "$tmp/r.json")"
  fi
done
echo "worst: $worst ${worst_ratio}x"
