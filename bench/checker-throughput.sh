#!/usr/bin/env bash
# Checker throughput with JMH: a synthetic stream (4 threads, 70% loads, 4096 or 65536 addresses, some
# fences) replayed through monitor_TSO and monitor_PSO (and each alone, and with Sober). The score is
# events per second on one core; -prof gc adds gc.alloc.rate.norm, the bytes allocated per event.
# Extra arguments go to JMH, e.g.:  bench/checker-throughput.sh -p models=tso+pso
# BENCH=SerializabilityBenchmark runs the serializability checks instead (a W02-like stream, SerialStream).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -pl checker -am test-compile
mvn -q -pl checker dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
CP="checker/target/test-classes:checker/target/classes:$(cat checker/target/bench.cp)"
BENCH=${BENCH:-MonitorBenchmark}
exec java -cp "$CP" org.openjdk.jmh.Main "dev.mmcheck.checker.bench.$BENCH" -prof gc "$@"
