#!/usr/bin/env bash
# Runs samples under the agent RUNS times each and counts, per analysis, the runs that reported, so a
# sample's verdict can be seen to be stable before its expectation is committed (a verdict that
# depends on an interleaving that a loaded 2-core machine may not produce fails CI now and then).
#   bench/sample-stability.sh S19_TaskPoolPlain            # RUNS=10
#   RUNS=20 OPTIONS=selfCheck=true bench/sample-stability.sh S21_CheckThenActCounter S22_SynchronizedCounter
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-10}
if [ $# -eq 0 ]; then
  echo "usage: bench/sample-stability.sh SAMPLE..." >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-26s %5s %5s %5s %6s %6s   (runs that reported, of %s)\n' sample tso pso sober scser tsoser "$RUNS"
for s in "$@"; do
  : > "$tmp/counts"
  for i in $(seq "$RUNS"); do
    java -javaagent:agent/target/mmcheck.jar=report="$tmp/r.json"${OPTIONS:+,$OPTIONS} \
      -jar sample-apps/target/sample-apps.jar "$s" > /dev/null 2>&1
    for a in tso pso sober scser tsoser; do
      if jq -e --arg a "$a" '[.violations[].analyses[]] | index($a) != null' "$tmp/r.json" > /dev/null; then
        echo "$a" >> "$tmp/counts"
      fi
    done
  done
  c() { grep -cx "$1" "$tmp/counts" || true; }
  printf '%-26s %5s %5s %5s %6s %6s\n' "$s" "$(c tso)" "$(c pso)" "$(c sober)" "$(c scser)" "$(c tsoser)"
done
