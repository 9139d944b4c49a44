#!/usr/bin/env bash
# Checks that two builds of mmcheck give the same results (for refactorings that must not change
# behaviour): records a binary trace of each sample under the NEW agent, then replays every recorded
# trace and every trace file in the repository with both builds' command lines (all five analyses) and
# compares the JSON reports, the version field aside, and the exit statuses. Prints one line per trace
# and a count of differences; exit 1 when any report differs or anything failed: a recording that did
# not exit 0 with its trace written, or a replay that wrote no report or exited with a status other than
# 0 (no violation), 1 (violations) or 3 (incomplete). Two builds that both fail never compare equal.
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
failed=0
for s in $SAMPLES; do
  if java -javaagent:"$tmp/new.jar"=report="$tmp/$s.agent.json",trace="$tmp/$s.mmct" -jar sample-apps/target/sample-apps.jar "$s" \
      > "$tmp/$s.log" 2>&1 && [ -s "$tmp/$s.mmct" ]; then
    traces+=("$tmp/$s.mmct")
  else
    echo "FAILED   recording $s under the new build (exit status or no trace):"
    tail -5 "$tmp/$s.log"
    failed=$((failed + 1))
  fi
done
while IFS= read -r f; do traces+=("$f"); done < <(find checker/src/test/resources/traces sample-apps/traces -name '*.trace' | sort)
diffs=0
for t in "${traces[@]}"; do
  broken=""
  for b in old new; do
    rm -f "$tmp/$b.json"
    status=0
    java -jar "$tmp/$b.jar" replay "$t" --models tso,pso,sober,scser,tsoser --report "$tmp/$b.json" --quiet > "$tmp/$b.log" 2>&1 || status=$?
    echo "$status" > "$tmp/$b.status"
    if [ ! -s "$tmp/$b.json" ] || { [ "$status" != 0 ] && [ "$status" != 1 ] && [ "$status" != 3 ]; }; then
      broken="$broken $b(exit $status$([ -s "$tmp/$b.json" ] || echo ", no report"))"
    else
      grep -v '"version"' "$tmp/$b.json" > "$tmp/$b.cmp"
    fi
  done
  if [ -n "$broken" ]; then
    echo "FAILED   $(basename "$t"): replay failed with$broken"
    for b in old new; do tail -3 "$tmp/$b.log" | sed "s/^/    $b: /"; done
    failed=$((failed + 1))
  elif cmp -s "$tmp/old.status" "$tmp/new.status" && cmp -s "$tmp/old.cmp" "$tmp/new.cmp"; then
    echo "same     $(basename "$t") ($(grep -c '"kind" : "s' "$tmp/new.cmp" || true) violations, exit $(cat "$tmp/new.status"))"
  else
    echo "DIFFERS  $(basename "$t") (exit $(cat "$tmp/old.status") old, $(cat "$tmp/new.status") new)"
    diff "$tmp/old.cmp" "$tmp/new.cmp" | head -20 || true
    diffs=$((diffs + 1))
  fi
done
echo "compare-builds: ${#traces[@]} traces, $diffs reports differ, $failed failed"
[ "$diffs" = 0 ] && [ "$failed" = 0 ]
