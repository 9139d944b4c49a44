#!/usr/bin/env bash
# What the jmm analysis costs beside TSO and PSO, analyses alone: records each workload's trace (SCALE=2, with jmm's
# logging: every load, no solo period), then feeds its first 800,000 events to a fresh checker with tso+pso and with
# tso+pso+jmm (JMH, TraceBenchmark) and prints ns/event for each and their ratio (issue 32's bound: 1.5x).
#   bench/jmm-cost.sh                       # W01-W08
#   bench/jmm-cost.sh W01_QueueContention   # one workload
# The live checker thread also spends time on identities and the merge, the same with or without jmm, so its ratio
# (bench/thread-cpu.sh) is lower than this one's.
set -euo pipefail
cd "$(dirname "$0")/.."
AGENT=${AGENT:-agent/target/mmcheck.jar}
JAR=sample-apps/target/sample-apps.jar
for f in "$AGENT" "$JAR"; do
  [ -f "$f" ] || { echo "jmm-cost: $f is missing; build first (mvn -q -DskipTests package)" >&2; exit 2; }
done
WORKLOADS=${*:-"W01_QueueContention W02_ArrayCompute W03_TreiberContention W04_QueueHandoff W05_ThreadLocalWork W06_SpscArrayQueue W07_MpscArrayQueue W08_SingleThreaded"}
# one invocation: the checker's classpath names the runtime module's classes (nothing is installed)
mvn -q -o -pl checker -am test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
CP="checker/target/test-classes:checker/target/classes:$(cat checker/target/bench.cp)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-24s %14s %18s %7s\n' workload "tso+pso ns/ev" "tso+pso+jmm ns/ev" ratio
for w in $WORKLOADS; do
  java -Dworkload.scale=2 -javaagent:"$AGENT"=report="$tmp/r.json",models=tso:pso,solo=off,repeatedLoads=log,trace="$tmp/$w.trace" \
    -jar "$JAR" "$w" > "$tmp/out" 2>&1 || { echo "jmm-cost: $w failed:" >&2; tail -5 "$tmp/out" >&2; exit 1; }
  java -cp "$CP" org.openjdk.jmh.Main dev.mmcheck.checker.bench.TraceBenchmark -p trace="$tmp/$w.trace" \
    -rf csv -rff "$tmp/$w.csv" > "$tmp/jmh.out" 2>&1 || { echo "jmm-cost: JMH failed on $w:" >&2; tail -20 "$tmp/jmh.out" >&2; exit 1; }
  # columns: benchmark, mode, threads, samples, score, error, unit, models, trace
  a=$(awk -F, '$8 == "tso+pso" {print $5}' "$tmp/$w.csv")
  b=$(awk -F, '$8 == "tso+pso+jmm" {print $5}' "$tmp/$w.csv")
  if [ -z "$a" ] || [ -z "$b" ]; then
    echo "jmm-cost: JMH gave no score for $w:" >&2; grep -i -m3 'exception\|error' "$tmp/jmh.out" >&2; exit 1
  fi
  printf '%-24s %14.1f %18.1f %6.2fx\n' "$w" "$a" "$b" "$(echo "$b / $a" | bc -l)"
  rm -f "$tmp/$w.trace"
done
