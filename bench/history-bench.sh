#!/bin/sh
# Reproduces the "History checking" figures of docs/performance.md:
#   bench/history-bench.sh            the tables (gradual vs plain enumeration, time pruning, a stale read)
#   bench/history-bench.sh --jmh ...  the JMH benchmark instead (extra arguments go to JMH, e.g. -p ops=10000)
# Run from the repository root; it builds the checker's test classes first.
set -e
cd "$(dirname "$0")/.."
mvn -q -pl checker -am test-compile
mvn -q -pl checker dependency:build-classpath -Dmdep.outputFile="$PWD/checker/target/bench.classpath" >/dev/null
CP="checker/target/test-classes:checker/target/classes:$(cat checker/target/bench.classpath)"
if [ "$1" = "--jmh" ]; then
  shift
  exec java -cp "$CP" org.openjdk.jmh.Main 'dev.mmcheck.checker.history.bench.HistoryBench' "$@"
fi
exec java -Xmx6g -cp "$CP" dev.mmcheck.checker.history.bench.HistoryBenchReport
