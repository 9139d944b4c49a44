#!/usr/bin/env bash
# The checker's memory over a long run: Soak (sample-apps test classes) keeps a list of NODES nodes live
# (more addresses than the checker's memory bound holds at this heap) and walks it on new threads until
# about EVENTS events were made, printing the heap in use after a full collection every two seconds.
# Prints those samples, the first and last quarter's maximum, and the report's counts.
#   bench/soak.sh                          # EVENTS=200000000 NODES=400000 XMX=128m
#   EVENTS=50000000 XMX=96m bench/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
EVENTS=${EVENTS:-200000000}
NODES=${NODES:-400000}
XMX=${XMX:-128m}
OPTIONS=${OPTIONS:-}
if [ ! -f agent/target/mmcheck.jar ] || [ ! -d sample-apps/target/test-classes/dev/mmcheck/samples/soak ]; then
  mvn -q -DskipTests install && mvn -q -pl sample-apps test-compile
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp agent/target/mmcheck.jar "$tmp/mmcheck.jar"
start=$(date +%s)
java -Xmx"$XMX" -javaagent:"$tmp/mmcheck.jar"=report="$tmp/r.json"${OPTIONS:+,$OPTIONS} \
  -cp sample-apps/target/test-classes dev.mmcheck.samples.soak.Soak "$EVENTS" "$NODES" > "$tmp/out" 2>&1 || true
end=$(date +%s)
grep '^soak: t=' "$tmp/out" | awk '{print}' | tr '\n' ' ' | fold -w 120; echo
grep -o 'heapMB=[0-9]*' "$tmp/out" | cut -d= -f2 > "$tmp/heap"
n=$(wc -l < "$tmp/heap")
q=$(( n / 4 > 0 ? n / 4 : 1 ))
echo "samples $n, heap MB max in the first quarter $(head -n "$q" "$tmp/heap" | sort -n | tail -1)," \
  "in the last quarter $(tail -n "$q" "$tmp/heap" | sort -n | tail -1), over all $(sort -n "$tmp/heap" | tail -1) (-Xmx$XMX)"
grep -E '^mmcheck|^note|^no violations|INCOMPLETE|OutOfMemory' "$tmp/out" | cut -c1-200
echo "wall time $((end - start)) s"
