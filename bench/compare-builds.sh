#!/usr/bin/env bash
# Checks that two builds of mmcheck give the same results (for refactorings that must not change
# behaviour): records a binary trace of each sample under the NEW agent, then replays every recorded
# trace and every trace file in the repository with both builds' command lines (all five analyses) and
# compares the JSON reports, the version field aside. Prints one line per trace and a count of
# differences; exit 1 when any report differs.
#   bench/compare-builds.sh OLD_MMCHECK_JAR [NEW_MMCHECK_JAR]     (default new: agent/target/mmcheck.jar)
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=${1:?usage: bench/compare-builds.sh OLD_MMCHECK_JAR [NEW_MMCHECK_JAR]}
NEW=${2:-agent/target/mmcheck.jar}
SAMPLES=${SAMPLES:-S01_DekkerPlain S04_PetersonPlain S06_MessagePassingPlain S08_UnsafePublication S10_BakeryPlain S12_MichaelScottQueue S13_LazySetMistake S19_TaskPoolPlain S21_CheckThenActCounter S22_SynchronizedCounter}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$OLD" "$tmp/old.jar"
cp "$NEW" "$tmp/new.jar"
traces=()
for s in $SAMPLES; do
  java -javaagent:"$tmp/new.jar"=report="$tmp/$s.agent.json",trace="$tmp/$s.mmct" -jar sample-apps/target/sample-apps.jar "$s" \
    > /dev/null 2>&1 || true
  traces+=("$tmp/$s.mmct")
done
while IFS= read -r f; do traces+=("$f"); done < <(find checker/src/test/resources/traces sample-apps/traces -name '*.trace' | sort)
diffs=0
for t in "${traces[@]}"; do
  for b in old new; do
    java -jar "$tmp/$b.jar" replay "$t" --models tso,pso,sober,scser,tsoser --report "$tmp/$b.json" --quiet > /dev/null 2>&1 || true
    grep -v '"version"' "$tmp/$b.json" > "$tmp/$b.cmp" 2>/dev/null || echo "no report" > "$tmp/$b.cmp"
  done
  if cmp -s "$tmp/old.cmp" "$tmp/new.cmp"; then
    echo "same     $(basename "$t") ($(grep -c '"kind" : "s' "$tmp/new.cmp" || true) violations)"
  else
    echo "DIFFERS  $(basename "$t")"
    diff "$tmp/old.cmp" "$tmp/new.cmp" | head -20
    diffs=$((diffs + 1))
  fi
done
echo "compare-builds: ${#traces[@]} traces, $diffs reports differ"
[ "$diffs" = 0 ]
