#!/usr/bin/env bash
# A real library's own test suite through Surefire, without and with the agent, group by group, as a
# user attaching mmcheck to their CI would run it. Prints per group: the time plain and with the agent
# and their ratio, tests run/failed both ways, events checked, findings, and whether the run checked
# everything (the report's "complete", checker failures, produced = consumed).
#
# The library comes from Maven Central (LIB, the released jar the tests run against); its tests come
# from a source checkout you provide (TESTS: the test source directory). For jctools-core 4.0.5:
#
#   git clone --branch v4.0.5 https://github.com/JCTools/JCTools /tmp/JCTools
#   TESTS=/tmp/JCTools/jctools-core/src/test/java bench/library-suite.sh            # every group
#   TESTS=... bench/library-suite.sh spsc-linked mpsc-linked                          # some groups
#
# For Agrona 2.1.0 (SUITE=agrona: its concurrency tests, JUnit 5 and Mockito; the tests of commit
# a8e3d63e, 2.1.0-SNAPSHOT, against the released 2.1.0):
#
#   git clone https://github.com/real-logic/agrona /tmp/agrona && git -C /tmp/agrona checkout a8e3d63e
#   SUITE=agrona TESTS=/tmp/agrona/agrona/src/test/java bench/library-suite.sh
#
# For the LMAX Disruptor 4.0.0 (SUITE=disruptor: all its JUnit 5 tests, the tests of tag 4.0.0 against the
# released jar, run concurrently as its own build runs them):
#
#   git clone --branch 4.0.0 https://github.com/LMAX-Exchange/disruptor /tmp/disruptor
#   SUITE=disruptor TESTS=/tmp/disruptor/src/test/java bench/library-suite.sh
#
# For HdrHistogram 2.2.2 (SUITE=hdrhistogram: all its tests, JUnit 5 and 4, the tests of tag HdrHistogram-2.2.2
# against the released jar; the test resources next to TESTS are used too):
#
#   git clone --branch HdrHistogram-2.2.2 https://github.com/HdrHistogram/HdrHistogram /tmp/hdr
#   SUITE=hdrhistogram TESTS=/tmp/hdr/src/test/java bench/library-suite.sh
#
# Settings (environment):
#   TESTS    the test source directory (required)
#   SUITE    jctools (default), agrona, disruptor or hdrhistogram: the groups, the test dependencies and the JVM options
#   LIB      groupId:artifactId:version of the library under test (default org.jctools:jctools-core:4.0.5,
#            with SUITE=agrona org.agrona:agrona:2.1.0, with SUITE=disruptor com.lmax:disruptor:4.0.0, with
#            SUITE=hdrhistogram org.hdrhistogram:HdrHistogram:2.2.2)
#   OPTIONS  extra agent options (default none; the report and summary always go to the work directory)
#   LIMIT    a run with the agent is stopped after LIMIT times its plain time (default 10), at least 60 s
#   WORK     where the generated project, logs and reports go (default a new directory under /tmp; kept)
#   PLAIN_FROM  a WORK directory of an earlier run whose plain runs to reuse (the agent's runs are redone)
# Groups are Surefire -Dtest patterns: jctools-core's queue and map tests, or Agrona's concurrency tests. The
# Lincheck tests are left out (Lincheck is an agent of its own and needs Kotlin).
# docs/library-suite.md has a recorded run and what each column means.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
: "${TESTS:?set TESTS to the test source directory of the library (see the comment at the top)}"
[ -d "$TESTS" ] || { echo "library-suite: TESTS=$TESTS is not a directory" >&2; exit 2; }
TESTS=$(cd "$TESTS" && pwd)
SUITE=${SUITE:-jctools}
case "$SUITE" in
  jctools) LIB=${LIB:-org.jctools:jctools-core:4.0.5} ;;
  agrona) LIB=${LIB:-org.agrona:agrona:2.1.0} ;;
  disruptor) LIB=${LIB:-com.lmax:disruptor:4.0.0} ;;
  hdrhistogram) LIB=${LIB:-org.hdrhistogram:HdrHistogram:2.2.2} ;;
  *) echo "library-suite: SUITE=$SUITE is not jctools, agrona, disruptor or hdrhistogram" >&2; exit 2 ;;
esac
LIMIT=${LIMIT:-10}
OPTIONS=${OPTIONS:-}
WORK=${WORK:-$(mktemp -d /tmp/mmcheck-suite.XXXXXX)}
mkdir -p "$WORK"
IFS=: read -r LIB_G LIB_A LIB_V <<< "$LIB"
[ -n "$LIB_V" ] || { echo "library-suite: LIB=$LIB is not groupId:artifactId:version" >&2; exit 2; }

if [ "$SUITE" = jctools ]; then
  declare -A GROUP=(
    [spsc-array]='QueueSanityTestSpscArray*,MpqSanityTestSpscArray,SpscAtomicArrayQueueTest'
    [mpsc-array]='QueueSanityTestMpscArray*,MpqSanityTestMpscArray,MpscArrayQueueSnapshotTest,MpscAtomicArrayQueueOfferWithThresholdTest'
    [mpmc-array]='QueueSanityTestMpmcArray,MpqSanityTestMpmcArray'
    [spsc-linked]='QueueSanityTestSpscLinked,MpqSanityTestSpscLinked'
    [mpsc-linked]='QueueSanityTestMpscLinked,MpqSanityTestMpscLinked,ScQueueRemoveTestMpscLinked,MpscLinkedAtomicQueueRemoveTest'
    [mpsc-unbounded]='QueueSanityTestMpscUnboundedArray,MpqSanityTestMpscUnbounded,MpscUnboundedArrayQueueSnapshotTest'
    [nbhm]='NBHM*Test,KeyAtomicityTest,NBHMIdentityKeyAtomicityTest,NBHMLongKeyAtomicityTest'
  )
  ORDER=(spsc-array mpsc-array mpmc-array spsc-linked mpsc-linked mpsc-unbounded nbhm)
  DEPS='<dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version></dependency>
    <dependency><groupId>org.hamcrest</groupId><artifactId>hamcrest-all</artifactId><version>1.3</version></dependency>
    <dependency><groupId>com.google.guava</groupId><artifactId>guava-testlib</artifactId><version>31.1-jre</version></dependency>'
  MANAGED=''
  JVM_ARGS=''
elif [ "$SUITE" = disruptor ]; then
  declare -A GROUP=(
    [core]='com/lmax/disruptor/*Test,com/lmax/disruptor/util/*Test'
    [dsl]='com/lmax/disruptor/dsl/**/*Test'
  )
  ORDER=(core dsl)
  DEPS='<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId></dependency>
    <dependency><groupId>org.hamcrest</groupId><artifactId>hamcrest</artifactId><version>2.2</version></dependency>'
  MANAGED='<dependencyManagement><dependencies><dependency><groupId>org.junit</groupId><artifactId>junit-bom</artifactId><version>5.9.0</version><type>pom</type><scope>import</scope></dependency></dependencies></dependencyManagement>'
  # as the Disruptor's own build runs them: JUnit's parallel execution, tests concurrent
  JVM_ARGS='-Djunit.jupiter.execution.parallel.enabled=true -Djunit.jupiter.execution.parallel.mode.default=concurrent'
elif [ "$SUITE" = hdrhistogram ]; then
  declare -A GROUP=(
    [concurrent]='ConcurrentHistogramTest,RecorderTest'
    [histogram]='HistogramTest,HistogramAutosizingTest,HistogramShiftTest,HistogramDataAccessTest'
    [double]='DoubleHistogramTest,DoubleHistogramDataAccessTest'
    [encoding]='HistogramEncodingTest,HistogramLogReaderWriterTest'
  )
  ORDER=(concurrent histogram double encoding)
  DEPS='<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-params</artifactId></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-engine</artifactId></dependency>
    <dependency><groupId>org.junit.vintage</groupId><artifactId>junit-vintage-engine</artifactId></dependency>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version></dependency>'
  MANAGED='<dependencyManagement><dependencies><dependency><groupId>org.junit</groupId><artifactId>junit-bom</artifactId><version>5.11.4</version><type>pom</type><scope>import</scope></dependency></dependencies></dependencyManagement>'
  JVM_ARGS=''
else
  declare -A GROUP=(
    [queues]='ArrayQueuePeekTest,ArrayQueueSizeTest,ManyToOneConcurrentLinkedQueueTest,QueuedPipeTest'
    [agents]='AgentInvokerTest,AgentRunnerTest,CompositeAgentTest,DynamicCompositeAgentTest'
    [rings]='org/agrona/concurrent/ringbuffer/*Test,org/agrona/concurrent/broadcast/*Test'
    [status]='org/agrona/concurrent/status/*Test,org/agrona/concurrent/errors/*Test'
    [buffers]='UnsafeBufferTest,AtomicBufferTest'
    [clocks]='CachedClockTest,HighResolutionTimerTest,OffsetEpochNanoClockTest,SnowflakeIdGeneratorTest,ShutdownSignalBarrierTest,SigIntTest'
  )
  ORDER=(queues agents rings status buffers clocks)
  DEPS='<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-params</artifactId></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-engine</artifactId></dependency>
    <dependency><groupId>org.junit.vintage</groupId><artifactId>junit-vintage-engine</artifactId></dependency>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version></dependency>
    <dependency><groupId>org.hamcrest</groupId><artifactId>hamcrest</artifactId><version>3.0</version></dependency>
    <dependency><groupId>org.mockito</groupId><artifactId>mockito-core</artifactId><version>5.15.2</version></dependency>
    <dependency><groupId>com.google.guava</groupId><artifactId>guava-testlib</artifactId><version>31.1-jre</version></dependency>'
  MANAGED='<dependencyManagement><dependencies><dependency><groupId>org.junit</groupId><artifactId>junit-bom</artifactId><version>5.11.4</version><type>pom</type><scope>import</scope></dependency></dependencies></dependencyManagement>'
  # Agrona 2 calls jdk.internal.misc.Unsafe (its own build opens it the same way)
  JVM_ARGS='--add-exports java.base/jdk.internal.misc=ALL-UNNAMED --add-opens java.base/jdk.internal.misc=ALL-UNNAMED --add-opens java.base/java.util.zip=ALL-UNNAMED'
fi
CHOSEN=("$@")
[ ${#CHOSEN[@]} -gt 0 ] || CHOSEN=("${ORDER[@]}")
for g in "${CHOSEN[@]}"; do
  [ -n "${GROUP[$g]:-}" ] || { echo "library-suite: no group '$g' (groups: ${ORDER[*]})" >&2; exit 2; }
done

if [ ! -f agent/target/mmcheck.jar ]; then
  mvn -q -DskipTests package
fi
# a copy: a rebuild while the suite runs must not change the agent under a running JVM
cp "$ROOT/agent/target/mmcheck.jar" "$WORK/mmcheck.jar"
AGENT="$WORK/mmcheck.jar"
# test resources beside the test sources (src/test/resources), when there are any
RESOURCES=''
if [ -d "$TESTS/../resources" ]; then
  RESOURCES="<testResources><testResource><directory>$(cd "$TESTS/../resources" && pwd)</directory></testResource></testResources>"
fi
prop() { sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$ROOT/pom.xml" | head -1; }

# the user's project: the released library, its tests, Surefire from the parent pom's pins
cat > "$WORK/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>mmcheck.bench</groupId>
  <artifactId>library-suite</artifactId>
  <version>1</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  $MANAGED
  <dependencies>
    <dependency><groupId>$LIB_G</groupId><artifactId>$LIB_A</artifactId><version>$LIB_V</version></dependency>
    $DEPS
  </dependencies>
  <build>
    <testSourceDirectory>$TESTS</testSourceDirectory>
    $RESOURCES
    <plugins>
      <plugin>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>$(prop compiler.plugin.version)</version>
        <configuration>
          <testExcludes><testExclude>**/linearizability_test/**</testExclude></testExcludes>
          <failOnWarning>false</failOnWarning>
        </configuration>
      </plugin>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>$(prop surefire.plugin.version)</version>
        <configuration>
          <argLine>$JVM_ARGS \${mmcheck.argLine}</argLine>
          <trimStackTrace>true</trimStackTrace>
          <failIfNoSpecifiedTests>false</failIfNoSpecifiedTests>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
POM
echo "library-suite: $LIB, tests from $TESTS, work directory $WORK"
( cd "$WORK" && mvn -B -ntp -q test-compile > "$WORK/compile.log" 2>&1 ) \
  || { echo "library-suite: the tests do not compile; see $WORK/compile.log" >&2; tail -20 "$WORK/compile.log" >&2; exit 2; }

# tests run and failed (failures + errors) from Surefire's XML reports
tally() {
  local dir=$1
  if ! ls "$dir"/TEST-*.xml > /dev/null 2>&1; then echo "0 0"; return; fi
  cat "$dir"/TEST-*.xml | awk '/<testsuite /{
      for (i = 1; i <= NF; i++) { split($i, kv, "="); gsub(/"/, "", kv[2]);
        if (kv[1] == "tests") t += kv[2]; if (kv[1] == "failures" || kv[1] == "errors") f += kv[2] } }
    END { print t + 0, f + 0 }'
}
json() { grep -o "\"$2\" : [^,}]*" "$1" 2>/dev/null | head -1 | sed 's/.* : //; s/"//g' || true; }
run_group() { # name patterns mode(plain|agent) seconds-limit
  local name=$1 patterns=$2 mode=$3 limit=$4 arg=""
  local out="$WORK/$name-$mode"
  rm -rf "$out" "$WORK/target/surefire-reports"; mkdir -p "$out"
  if [ "$mode" = agent ]; then
    arg="-javaagent:$AGENT=report=$out/mmcheck-report.json${OPTIONS:+,$OPTIONS}"
  fi
  local start end rc=0
  start=$(date +%s%N)
  ( cd "$WORK" && timeout --kill-after=10 "$limit" mvn -B -ntp surefire:test -Dtest="$patterns" \
      -Dmmcheck.argLine="$arg" -DforkedProcessExitTimeoutInSeconds=600 > "$out/maven.log" 2>&1 ) || rc=$?
  end=$(date +%s%N)
  cp -r "$WORK/target/surefire-reports" "$out/" 2>/dev/null || true
  echo "$(( (end - start) / 1000000 )) $rc $(tally "$out/surefire-reports")" | tee "$out/result"
}

printf '%-15s %9s %9s %7s %11s %11s %13s %9s %9s  %s\n' group "plain s" "agent s" ratio "plain t/f" \
  "agent t/f" events findings complete "notes"
for g in "${CHOSEN[@]}"; do
  if [ -n "${PLAIN_FROM:-}" ] && [ -f "$PLAIN_FROM/$g-plain/result" ]; then
    read -r pms prc pt pf < "$PLAIN_FROM/$g-plain/result" # plain runs of an earlier work directory
  else
    read -r pms prc pt pf <<< "$(run_group "$g" "${GROUP[$g]}" plain 3600)"
  fi
  lim=$(( pms * LIMIT / 1000 )); [ "$lim" -ge 60 ] || lim=60
  read -r ams arc at af <<< "$(run_group "$g" "${GROUP[$g]}" agent "$lim")"
  r="$WORK/$g-agent/mmcheck-report.json"
  note=""
  [ "$arc" = 124 ] || [ "$arc" = 137 ] && note="stopped after ${lim}s (LIMIT=${LIMIT}x plain); "
  if [ -f "$r" ]; then
    ev=$(json "$r" eventsConsumed); pr=$(json "$r" eventsProduced)
    nf=$(grep -c '"kind" : "sc-violation"\|"kind" : "sc-serializability"\|"kind" : "tso-serializability"' "$r" || true)
    co=$(json "$r" complete)
    [ "$ev" = "$pr" ] || note+="produced $pr != consumed $ev; "
    failed=$(grep -o '"stage" : "[a-z-]*"' "$r" | sed 's/.* : //; s/"//g' | tr '\n' ' ' || true)
    [ -z "$failed" ] || note+="failed: $failed; "
    incomplete=$(grep -B1 -A2 '"severity" : "incomplete"' "$r" | grep -o '"kind" : "[a-z-]*"' | sed 's/.* : //; s/"//g' \
      | tr '\n' ' ' || true)
    [ -z "$incomplete" ] || note+="incomplete: $incomplete; "
  else
    ev="-"; nf="-"; co="no report"
    note+="no report: see $WORK/$g-agent/maven.log; "
  fi
  [ "$pf" = "$af" ] || note+="failed tests differ; "
  printf '%-15s %9.1f %9.1f %6.1fx %5s/%-5s %5s/%-5s %13s %9s %9s  %s\n' "$g" "$(echo "$pms/1000" | bc -l)" \
    "$(echo "$ams/1000" | bc -l)" "$(echo "$ams/($pms+1)" | bc -l)" "$pt" "$pf" "$at" "$af" "$ev" "$nf" "$co" \
    "${note%; }"
done
echo "library-suite: logs, Surefire reports and mmcheck reports under $WORK"
