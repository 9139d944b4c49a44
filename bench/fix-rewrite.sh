#!/usr/bin/env bash
# The fix made to the source itself (issue 35, docs/fix.md "The samples rewritten"): per buggy sample, FIX_RUNS runs
# recorded with trace= are fixed together (`mmcheck fix --sarif`), which gives the fewest changes and, for each change
# that can be written as edits of its file (SARIF's artifactChanges: a fence line inserted, one call replaced, volatile
# written into a declaration, a VarHandle declared and the access written through it), those edits. When every change
# has its edits, they are made to a copy of the sample's sources, the copy is compiled against the samples' jar, and
# the rewritten sample runs RUNS times under the agent with default options: it should report nothing in every run. A
# change with no edit (an array element given a mode, a line with the access in no form the edits know) is named and
# the sample skipped. When a rewritten run still reports (a race none of the fixed runs reached), a next round, up to
# ROUNDS, does the same with FIX_RUNS runs of the rewritten program, as a user fixes what the next test run shows;
# each round's changes and result are printed.
#   bench/fix-rewrite.sh                                   # every buggy sample, FIX_RUNS=5, RUNS=10, ROUNDS=2
#   RUNS=3 bench/fix-rewrite.sh S13_LazySetMistake S48_CarelessReader
# Build first: mvn -q -DskipTests package
set -uo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-10}
FIX_RUNS=${FIX_RUNS:-5}
ROUNDS=${ROUNDS:-2}
jar=sample-apps/target/sample-apps.jar
agent=agent/target/mmcheck.jar
src=sample-apps/src/main/java
for f in "$jar" "$agent" checker/target/mmcheck-checker.jar; do
  [ -f "$f" ] || { echo "fix-rewrite: $f is missing; build with: mvn -q -DskipTests package" >&2; exit 2; }
done
listing=$(java -jar "$jar" 2>&1 || true)   # the usage lists every sample with its expected verdicts
samples=("$@")
if [ ${#samples[@]} -eq 0 ]; then
  mapfile -t samples < <(grep -E '^  S[0-9]+_' <<< "$listing" | grep -E 'TSO violation|PSO violation|JMM violation' \
    | awk '{print $1}')
fi
# inside the repository: the SARIF file names a source file only under the repository's root (docs/build.md)
mkdir -p target
tmp=$(mktemp -d "$PWD/target/fix-rewrite.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
not_clean=0
for s in "${samples[@]}"; do
  models=""
  grep -E "^  $s " <<< "$listing" | grep -q 'JMM' && models=",models=tso:pso:jmm"
  fixModels=tso,pso
  [ -n "$models" ] && fixModels=tso,pso,jmm
  rm -rf "$tmp/$s"; mkdir -p "$tmp/$s/src" "$tmp/$s/classes"
  cp="$jar"   # round 1 runs the sample as built; later rounds its rewritten classes first
  outcome=""
  for round in $(seq "$ROUNDS"); do
    fixed=()
    for i in $(seq "$FIX_RUNS"); do
      java -javaagent:"$agent=trace=$tmp/$s/r$round-$i.mmct,report=$tmp/$s/rec.json$models" -cp "$cp" \
        dev.mmcheck.samples.Samples "$s" > /dev/null 2>&1
      fixed+=("$tmp/$s/r$round-$i.mmct")
    done
    # the files an earlier round rewrote are found first, so a later round's lines are the rewritten file's
    ./mmcheck fix --models "$fixModels" "${fixed[@]}" --report "$tmp/$s/fix.json" --sarif "$tmp/$s/fix.sarif" \
      --source-root "$tmp/$s/src" --source-root "$src" > "$tmp/$s/fix.out" 2>&1
    rm -f "${fixed[@]}"
    # the edits, once each, made to copies of the files they touch; exit 3 when a change has none
    python3 - "$tmp/$s" "$src" > "$tmp/$s/edits" 2>&1 <<'PY'
import json, os, sys
work, src = sys.argv[1], sys.argv[2]
roots = [os.path.join(work, "src"), src]
report = json.load(open(os.path.join(work, "fix.json")))
fix = report.get("fix") or {}
changes = ["%s:%s: %s" % (c["file"], c["line"], c["text"]) for c in fix.get("changes", [])]
if not changes:
    print("NOFIX " + ("no finding" if not report.get("violations") else "no fix found"))
    sys.exit(4)
edits = {}   # file -> {(line, col, endLine, endCol, text)}
described = set()
for run in json.load(open(os.path.join(work, "fix.sarif")))["runs"]:
    for result in run.get("results", []):
        for f in result.get("fixes", []):
            described.add(f["description"]["text"])
            for ch in f["artifactChanges"]:
                uri = ch["artifactLocation"]["uri"]
                for r in ch["replacements"]:
                    d = r["deletedRegion"]
                    edits.setdefault(uri, set()).add((d["startLine"], d.get("startColumn", 1), d.get("endLine", d["startLine"]),
                                                      d.get("endColumn", d.get("startColumn", 1)), r["insertedContent"]["text"]))
missing = [c for c in changes if c not in described]
for c in changes:
    print("CHANGE " + c)
if missing:
    for c in missing:
        print("NOEDIT " + c)
    sys.exit(3)
for uri, es in edits.items():
    lines = open(uri).read().split("\n")
    for (line, col, end_line, end_col, text) in sorted(es, reverse=True):   # bottom to top: positions stay valid
        assert line == end_line, "an edit over several lines: " + uri
        l = lines[line - 1]
        lines[line - 1] = l[:col - 1] + text + l[end_col - 1:]
    root = next(r for r in roots if os.path.abspath(uri).startswith(os.path.abspath(r) + os.sep))
    out = os.path.join(work, "src", os.path.relpath(uri, root))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    open(out, "w").write("\n".join(lines))
PY
    status=$?
    if [ $status -eq 4 ]; then
      outcome="${outcome}its $FIX_RUNS runs had nothing to fix (no finding, or no fix found)"
      if [ "$round" -eq 1 ]; then outcome="skipped: $outcome"; else not_clean=$((not_clean + 1)); fi
      break
    fi
    if [ $status -ne 0 ]; then
      outcome="${outcome}skipped, a change has no edit: $(grep '^NOEDIT ' "$tmp/$s/edits" | sed 's/^NOEDIT //' | paste -sd';')"
      [ "$round" -gt 1 ] && not_clean=$((not_clean + 1))
      break
    fi
    sed -n "s/^CHANGE /  round $round: /p" "$tmp/$s/edits"
    rm -rf "$tmp/$s/classes"; mkdir -p "$tmp/$s/classes"
    if ! javac -nowarn -cp "$jar" -d "$tmp/$s/classes" $(find "$tmp/$s/src" -name '*.java') > "$tmp/$s/javac.out" 2>&1; then
      outcome="${outcome}the rewritten source does not compile: $(head -3 "$tmp/$s/javac.out" | paste -sd' ')"
      not_clean=$((not_clean + 1)); break
    fi
    cp="$tmp/$s/classes:$jar"
    clean=0
    left=""
    for i in $(seq "$RUNS"); do
      java -javaagent:"$agent=report=$tmp/$s/r.json$models" -cp "$cp" dev.mmcheck.samples.Samples "$s" \
        > "$tmp/$s/run.out" 2>&1
      n=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['violations']) if d.get('complete') else -1)" \
        "$tmp/$s/r.json" 2>/dev/null || echo -1)
      if [ "$n" = 0 ]; then
        clean=$((clean + 1))
      elif [ -z "$left" ]; then
        # the first finding a rewritten run still has: a race the fixed runs did not reach, usually
        left=$(python3 -c "import json,sys; v=json.load(open(sys.argv[1]))['violations']; print(v[0]['key'] if v else 'incomplete')" \
          "$tmp/$s/r.json" 2>/dev/null || echo "no report")
      fi
      rm -f "$tmp/$s/r.json"
    done
    outcome="${outcome}round $round: clean in $clean of $RUNS runs${left:+ (left, first: $left)}"
    if [ "$clean" -eq "$RUNS" ] || [ "$round" -eq "$ROUNDS" ]; then
      [ "$clean" -eq "$RUNS" ] || not_clean=$((not_clean + 1))
      break
    fi
    outcome="$outcome; "   # the next round fixes runs of the rewritten program
  done
  echo "== $s: $outcome"
done
echo "rewritten samples not clean in every run: $not_clean"
[ "$not_clean" -eq 0 ]
