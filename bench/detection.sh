#!/usr/bin/env bash
# Detection per run: runs each sample RUNS times under each agent setting and prints, side by side,
# in how many runs it got its declared verdict (a buggy sample: every expected analysis reported; a
# clean one: no store-buffer or serializability report at all) and the mean wall time of a run.
# This is the figure that matters to a user who attaches the agent once: did this run find the bug?
# By default it sets the defaults ("-") beside each mechanism that leaves something out switched off
# (solo periods, repeated loads, the store buffers' bound, the jmm analysis's address bound and validated reads, synthetic
# fields) and all of them off together: a default that
# finds a buggy sample in fewer runs than "everything off" is printed as a DIFFERENCE at the end.
#   bench/detection.sh                                   # all samples, RUNS=10, defaults vs each mechanism off
#   RUNS=3 SETTINGS="- ALL_OFF" bench/detection.sh       # defaults vs everything off (ALL_OFF names that setting)
#   SETTINGS="schedule=os schedule=active" bench/detection.sh   # the schedules side by side
#   RUNS=20 bench/detection.sh S23_DekkerLoop S25_DoubleCheckedLocking
#   SETTINGS="schedule=os schedule=active,seed=7" bench/detection.sh S25_DoubleCheckedLocking
#   AGENT=/tmp/old/mmcheck.jar SETTINGS=- bench/detection.sh   # another build, its default options
#   SETTINGS="sample=1 sample=0.1 sample=0.05 sample=0.01" bench/detection.sh   # detection per sampling rate
# Under sample=R below 1 only PSO runs (docs/sampling.md): a buggy sample counts as found when PSO
# reports; one whose bug only the serializability checks see is n/a.
# A sample that declares a JMM verdict (S48 on) runs with models=tso:pso:jmm: the access-mode analysis
# is not in the default models yet (docs/jmm-model.md says why).
# Exit status 1 when a clean sample reported under any setting (a false report); with jmmValidatedReads=false a
# clean sample's jmm-only report is the torn read a validation throws away (docs/jmm-model.md, "Seqlocks"): counted
# and printed apart, not as a false report.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-10}
AGENT=${AGENT:-agent/target/mmcheck.jar}
# jmmAddresses=4096: the jmm analysis's address bound raised as far as its memory allows (it only matters to the
# samples that run the jmm analysis, S48 on; it cannot be switched off: views are dense over the addresses)
# synthetic=true: the plain synthetic fields a compiler makes (this$0, $assertionsDisabled, $VALUES) logged too
# (docs/agent.md, "Synthetic members and other agents", says why leaving them out cannot lose a finding)
# jmmValidatedReads=false: the jmm analysis reports the stale reads a re-read validates too (a seqlock's torn reads)
# jmmWriteLog=none: the jmm analysis keeps every write of each address (by default its latest 1024 at least)
ALL_OFF="solo=off,repeatedLoads=log,bufferBound=none,jmmAddresses=4096,jmmValidatedReads=false,jmmWriteLog=none,synthetic=true"
SETTINGS=${SETTINGS:-"- solo=off repeatedLoads=log bufferBound=none jmmAddresses=4096 jmmValidatedReads=false jmmWriteLog=none synthetic=true $ALL_OFF"}
# ALL_OFF in SETTINGS names every mechanism off at once (SETTINGS="- ALL_OFF"); every setting is options, or "-"
SETTINGS=$(echo " $SETTINGS " | sed "s/ ALL_OFF / $ALL_OFF /g; s/^ *//; s/ *$//")
JAR=sample-apps/target/sample-apps.jar
for f in "$AGENT" "$JAR"; do
  [ -f "$f" ] || { echo "detection: $f is missing; build first (mvn -o -q install -DskipTests)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# copies: a rebuild while this runs must not change the jars under the runs
cp "$AGENT" "$tmp/mmcheck.jar"
cp "$JAR" "$tmp/sample-apps.jar"
AGENT=$tmp/mmcheck.jar
JAR=$tmp/sample-apps.jar
# the samples and their declared verdicts, from the samples' own listing
{ java -jar "$JAR" 2>&1 || true; } | sed -n 's/^  \(S[0-9][0-9]_[A-Za-z]*\)  (expected: \(.*\))$/\1|\2/p' > "$tmp/verdicts"
if [ $# -gt 0 ]; then
  printf '%s\n' "$@" > "$tmp/wanted"
  grep -F -f "$tmp/wanted" "$tmp/verdicts" > "$tmp/v2" || true
  mv "$tmp/v2" "$tmp/verdicts"
fi
expected() { # analyses the verdict says must report, space separated
  local v=$1 out=""
  [[ $v == *"TSO violation"* ]] && out+=" tso"
  [[ $v == *"PSO violation"* ]] && out+=" pso"
  [[ $v == *"not SC-serializable"* ]] && out+=" scser"
  [[ $v == *"not TSO-serializable"* ]] && out+=" tsoser"
  [[ $v == *"JMM violation"* ]] && out+=" jmm"
  echo "$out"
}
printf '%-28s %-8s' sample verdict
for s in $SETTINGS; do printf ' | %-24s' "$s"; done
printf '\n'
false_reports=0
unvalidated=0
failed_runs=0
KEEP=${KEEP:-/tmp/mmcheck-detection-reports}
declare -A hits
declare -A found
buggy_names=()
for line in $(tr ' ' '_' < "$tmp/verdicts"); do
  name=${line%%|*}
  verdict=$(echo "${line#*|}" | tr '_' ' ')
  want=$(expected "$verdict")
  kind=$([ -n "$want" ] && echo buggy || echo clean)
  [ "$kind" = buggy ] && buggy_names+=("$name")
  printf '%-28s %-8s' "$name" "$kind"
  for s in $SETTINGS; do
    want_s=$want
    rate=$(echo "$s" | sed -n 's/.*sample=\([0-9.eE-]*\).*/\1/p')
    if [ -n "$rate" ] && awk -v r="$rate" 'BEGIN {exit !(r < 1)}'; then
      # sample=R checks PSO only (docs/sampling.md): a TSO or PSO bug is found when PSO reports it
      if [[ $verdict == *"JMM"* ]]; then
        printf ' | %-24s' "n/a (PSO only)"
        continue
      elif [[ " $want " == *" tso "* || " $want " == *" pso "* ]]; then
        want_s=" pso"
      elif [ -n "$want" ]; then
        printf ' | %-24s' "n/a (PSO only)"
        continue
      fi
    fi
    opts="report=$tmp/r.json"
    # a sample that declares a JMM verdict runs with the access-mode analysis beside TSO and PSO
    [[ $verdict == *"JMM"* ]] && opts="$opts,models=tso:pso:jmm"
    [ "$s" != "-" ] && opts="$opts,$s"
    ok=0
    total_ms=0
    for i in $(seq "$RUNS"); do
      rm -f "$tmp/r.json"
      start=$(date +%s%N)
      java -javaagent:"$AGENT"="$opts" -jar "$JAR" "$name" > /dev/null 2>&1 || true
      total_ms=$(( total_ms + ($(date +%s%N) - start) / 1000000 ))
      got=$(jq -r '[.violations[] | (.analyses // [.analysis])[]] | unique | join(" ")' "$tmp/r.json" 2>/dev/null \
        || echo "NO-REPORT")
      if [ "$got" = NO-REPORT ]; then
        failed_runs=$((failed_runs + 1)) # the run wrote no report: counted apart, not as a verdict
        echo "detection: $name ($s) wrote no report" >&2
      elif [ "$kind" = buggy ]; then
        all=1
        for a in $want_s; do [[ " $got " == *" $a "* ]] || all=0; done
        [ $all = 1 ] && ok=$((ok + 1))
      else
        if [ -z "$got" ]; then
          ok=$((ok + 1))
        elif [ "$got" = jmm ] && [[ ",$s," == *",jmmValidatedReads=false,"* ]]; then
          unvalidated=$((unvalidated + 1)) # validated reads off: what they keep out, not a false report
        else
          false_reports=$((false_reports + 1))
          mkdir -p "$KEEP"
          cp "$tmp/r.json" "$KEEP/$name-$(echo "$s" | tr ',=:' '___')-$i.json"
          echo "detection: $name ($s) reported $got; the report is kept in $KEEP" >&2
        fi
      fi
    done
    hits[$s]=$(( ${hits[$s]:-0} + (ok * 10 >= RUNS * 9 ? 1 : 0) ))
    found["$name|$s"]=$ok
    printf ' | %3d/%-3d %6.2f s/run     ' "$ok" "$RUNS" "$(echo "$total_ms / $RUNS / 1000" | bc -l)"
  done
  printf '\n'
done
count=$(wc -l < "$tmp/verdicts")
for s in $SETTINGS; do
  echo "detection: $s: ${hits[$s]} of $count samples got their verdict in at least 90% of the $RUNS runs"
done
# a default that finds less than everything switched off: what a shortcut costs, shown
first=${SETTINGS%% *}
last=${SETTINGS##* }
if [ "$first" != "$last" ]; then
  for name in "${buggy_names[@]}"; do
    d=${found["$name|$first"]:-0}
    a=${found["$name|$last"]:-0}
    if [ "$d" -lt "$a" ]; then
      echo "detection: DIFFERENCE: $name found in $d of $RUNS runs with '$first', $a with '$last'"
    fi
  done
fi
if [ $unvalidated -gt 0 ]; then
  echo "detection: $unvalidated runs of clean samples reported stale reads with jmmValidatedReads=false that validated reads drop (docs/jmm-model.md, \"Seqlocks\")"
fi
if [ $failed_runs -gt 0 ]; then
  echo "detection: $failed_runs runs wrote no report (crashed, or stopped): counted as neither found nor clean" >&2
fi
if [ $false_reports -gt 0 ]; then
  echo "detection: $false_reports runs of clean samples reported something (false reports)" >&2
  exit 1
fi
if [ $failed_runs -gt 0 ]; then
  exit 2 # a run that wrote no report is a failure of the tool, not a verdict
fi
