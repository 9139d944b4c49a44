#!/usr/bin/env bash
# The fewest changes found on a few runs of each buggy sample, made to RUNS other runs of it (issue 35, docs/fix.md):
# per sample, FIX_RUNS runs recorded with trace= are fixed together (`mmcheck fix`), then RUNS more runs are recorded
# and the same changes are made to each (`mmcheck fix --also`): a fix that holds must leave every one of them with no
# finding. Prints, per sample, the changes (File.java:LINE: what to write), whether the proof on the fixed runs holds,
# and in how many of the other runs no finding is left.
#   bench/fix-samples.sh                       # every sample whose expectation names a violation; FIX_RUNS=5 RUNS=10
#   FIX_RUNS=1 RUNS=3 bench/fix-samples.sh S01_DekkerPlain S13_LazySetMistake
# Build first: mvn -q -DskipTests package
set -uo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-10}
FIX_RUNS=${FIX_RUNS:-5}
jar=sample-apps/target/sample-apps.jar
agent=agent/target/mmcheck.jar
for f in "$jar" "$agent" checker/target/mmcheck-checker.jar; do
  [ -f "$f" ] || { echo "fix-samples: $f is missing; build with: mvn -q -DskipTests package" >&2; exit 2; }
done
listing=$(java -jar "$jar" 2>&1 || true)   # the usage lists every sample with its expected verdicts
samples=("$@")
if [ ${#samples[@]} -eq 0 ]; then
  mapfile -t samples < <(grep -E '^  S[0-9]+_' <<< "$listing" | grep -E 'TSO violation|PSO violation|JMM violation' \
    | awk '{print $1}')
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
for s in "${samples[@]}"; do
  models=tso,pso
  grep -E "^  $s " <<< "$listing" | grep -q 'JMM' && models=tso,pso,jmm
  fixed=()
  also=()
  for i in $(seq $((FIX_RUNS + RUNS))); do
    java -javaagent:"$agent=trace=$tmp/$s-$i.mmct,report=$tmp/r.json,models=${models//,/:}" -jar "$jar" "$s" \
      > /dev/null 2>&1
    if [ "$i" -le "$FIX_RUNS" ]; then fixed+=("$tmp/$s-$i.mmct"); else also+=(--also "$tmp/$s-$i.mmct"); fi
  done
  ./mmcheck fix --models "$models" "${fixed[@]}" "${also[@]}" > "$tmp/out" 2>&1
  status=$?
  clean=$(grep -cE '^made to .*, 0 after$' "$tmp/out")
  proof=$(grep -q '^proof by replay' "$tmp/out" && echo proven || (grep -q '^no finding' "$tmp/out" && echo "no finding" || echo "NOT proven"))
  echo "== $s ($models): $proof on $FIX_RUNS recorded run(s); clean in $clean of $RUNS other runs (exit $status)"
  grep -E '^  [^ ].*: ' "$tmp/out"
  grep -E '^made to .*[1-9][0-9]* after' "$tmp/out" | sed 's/^/  LEFT: /'
  [ "$status" -eq 0 ] || failed=$((failed + 1))
done
echo "samples whose fix did not hold on every run: $failed"
