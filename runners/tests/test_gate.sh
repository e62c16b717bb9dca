#!/usr/bin/env bash
# A gate's failure paths, end to end: nothing selected, everything skipped,
# an adapter no backend has, baselines that are missing, stale or spelled
# differently, a run interrupted by SIGINT or SIGTERM and resumed, a worker
# killed from outside, a case over the memory limit, and workers started as
# programs (the Windows way) on Linux.
# Usage: test_gate.sh DMLCONF SOURCE_DIR WORK_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

dmlconf=$1
source_dir=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# Waits (up to a minute) until a run has finished at least one case.
wait_for_a_result() {
    for _ in $(seq 300); do
        grep -q '"id":"slow' "$1/results.jsonl" 2>/dev/null && return 0
        sleep 0.2
    done
    return 1
}

summary() {
    python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print($2)" "$1/summary.json"
}

# Waits (up to 60 s) until a run's results.jsonl holds a case, so that a
# signal comes in the middle of the run however fast the machine is.
wait_for_a_result() {
    local waited=0
    until grep -q '"id":"slow' "$1/results.jsonl" 2>/dev/null || [ "$waited" -ge 600 ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
}

cat > small.yaml <<'YAML'
defaults: {op: cumulative_summation, dtype: int32, axis: 0}
cases:
  - {id: g.a, sizes: [4], input: [1, 2, 3, 4]}
  - {id: g.b, sizes: [3], input: [5, 6, 7]}
  - {id: g.level, dtype: int64, sizes: [2], input: [1, 2], min_feature_level: 5_0}
YAML
python3 - <<'PY'
lines = ["defaults: {op: cumulative_summation, dtype: float32, axis: 0}", "cases:"]
for i in range(160):
    lines.append("  - {id: slow.c%03d, sizes: [1048577], input: {generate: uniform, min: -1, max: 1, seed: %d}}" % (i, i))
open("slow.yaml", "w").write("\n".join(lines) + "\n")
PY
mkdir -p empty

# Nothing selected: a usage error with a sentence, never a pass.
"$dmlconf" run -q --backend oracle -o o1 -f 'nomatch.*' small.yaml 2>err.txt; check "a filter that matches nothing" 2 $?
expect "it says the filter matched nothing" grep -q "no id among the 3 cases loaded matches the filters" err.txt
"$dmlconf" run -q --backend oracle -o o2 empty 2>err.txt; check "an empty folder" 2 $?
expect "it says there is no case" grep -q "hold no case file with a case in it" err.txt
"$dmlconf" run -q --backend oracle -o o3 --shard 3/4 -f 'g.a' small.yaml 2>err.txt; check "an empty shard" 2 $?
expect "it says the shard is empty" grep -q "shard 3 of 4 is empty" err.txt
mkdir -p skipall && echo 'g.*' > skipall/skips.txt
"$dmlconf" run -q --backend oracle -o o4 --baseline skipall small.yaml 2>err.txt; check "a baseline that skips all" 2 $?
expect "it says the baseline skips everything" grep -q "skips every one of the 3 cases selected" err.txt
"$dmlconf" run -q --backend oracle -o o5 -l 4_0 -f 'g.level' small.yaml 2>err.txt; check "every case skipped" 2 $?
expect "it says nothing was judged" grep -q "was skipped (see the reasons in o5/): nothing was judged" err.txt

# An adapter belongs to one backend: the error names it, no falling back.
"$dmlconf" run -q -o o6 --adapter 57 small.yaml 2>err.txt; check "an adapter no backend has" 3 $?
expect "junit.xml says why the run could not start" grep -q 'type="setup-error"' o6/junit.xml
expect "no fallback to another backend" bash -c '! grep -q "trying the" err.txt'
expect "the backend that lacks it is named" grep -Eq "the (d3d12|oracle) backend" err.txt

# Baselines.
"$dmlconf" run -q --backend oracle -o o7 --baseline nowhere small.yaml 2>err.txt; check "a missing baseline folder" 3 $?
expect "it says the folder does not exist" grep -q "nowhere does not exist" err.txt
mkdir -p spelled && printf 'g.a, fail\n' > spelled/failures.txt
"$dmlconf" run -q --backend oracle -o o8 --baseline spelled small.yaml 2>err.txt; check "'id, fail' read (and passes unexpectedly)" 1 $?
expect "unexpected pass" grep -q '"unexpected-pass"' o8/results.jsonl
mkdir -p stale && printf 'no.such.case,fail\n' > stale/failures.txt && echo 'gone.*' > stale/flakes.txt
"$dmlconf" run -q --backend oracle -o o9 --baseline stale small.yaml 2>err.txt; check "stale lines alone" 0 $?
expect "stale lines listed on the console" grep -q "2 stale baseline lines" err.txt
expect "stale lines in summary.json" test "$(summary o9 "len(s['stale_baseline'])")" -eq 2
expect "stale lines in summary.md" grep -q "Stale baseline lines (2)" o9/summary.md
"$dmlconf" run -q --backend oracle -o o10 --baseline stale --strict-baseline small.yaml 2>err.txt
check "--strict-baseline with stale lines" 1 $?

# Interrupted runs: the workers go, the reports say "interrupted", and
# --resume finishes without running again what was finished.
for signal in INT TERM; do
    dir=intr-$signal
    "$dmlconf" run -q --backend oracle -j 2 -o "$dir" slow.yaml 2>err.txt &
    pid=$!
    wait_for_a_result "$dir"
    workers=$(pgrep -P "$pid" | tr '\n' ' ')
    kill -"$signal" "$pid"
    wait "$pid"
    check "SIG$signal stops the run" 2 $?
    sleep 0.3
    expect "SIG$signal: there were workers" test -n "$workers"
    for worker in $workers; do
        expect "SIG$signal: worker $worker is gone" bash -c "! kill -0 $worker 2>/dev/null"
    done
    expect "SIG$signal: the verdict is interrupted" test "$(summary "$dir" "s['verdict']['status']")" = interrupted
    expect "SIG$signal: the completion record says why" grep -q "\"end\":\"interrupted\".*\"reason\":\"SIG$signal\"" "$dir/results.jsonl"
    expect "SIG$signal: junit says interrupted" grep -q 'interrupted' "$dir/junit.xml"
    before=$(grep -c '"id":"slow' "$dir/results.jsonl")
    "$dmlconf" run -q --backend oracle -j 2 -o "$dir" --resume slow.yaml 2>err.txt
    check "SIG$signal: --resume finishes the run" 0 $?
    expect "SIG$signal: every case once" test "$(grep -c '"id":"slow' "$dir/results.jsonl")" -eq 160
    expect "SIG$signal: the resumed run is conformant" test "$(summary "$dir" "s['counts']['pass']")" -eq 160
    expect "SIG$signal: some cases had finished before ($before)" test "$before" -gt 0
done
"$dmlconf" run -q --backend oracle -j 2 -o intr-INT --resume slow.yaml 2>err.txt; check "nothing to resume" 3 $?
expect "nothing to resume: the reports are left as they were" test -s intr-INT/summary.json -a -s intr-INT/junit.xml
"$dmlconf" run -q --backend oracle -j 2 -o other slow.yaml 2>/dev/null &
pid=$!
wait_for_a_result other
kill -INT "$pid"
wait "$pid"
"$dmlconf" run -q --backend oracle -j 2 -o other --resume --seed 7 slow.yaml 2>err.txt
check "resuming with other options" 3 $?
expect "it says the folder holds another run" grep -q "holds another run" err.txt

# A worker killed from outside (a user, the out-of-memory killer): its case
# runs again, and the run goes on.
"$dmlconf" run -q --backend oracle -j 1 -o killed slow.yaml 2>err.txt &
pid=$!
wait_for_a_result killed
worker=$(pgrep -P "$pid" | head -n 1)
[ -n "$worker" ] && kill -KILL "$worker"
wait "$pid"
check "a run whose worker was killed once" 0 $?
expect "every case passed" test "$(summary killed "s['counts']['pass']")" -eq 160

# A case over the memory limit is an error that says how much it needs.
"$dmlconf" run -q --backend oracle -o mem --memory-limit 10M -f 'slow.c000' slow.yaml 2>err.txt
check "a case over the memory limit" 2 $?
expect "it is not judged (no-resources), not a failure" grep -q '"status":"no-resources"' mem/results.jsonl
expect "the run is incomplete" test "$(summary mem "s['verdict']['status']")" = incomplete
expect "it names the need and the limit" grep -q "needs about 12.6 MB of memory.*more than the limit of 10.0 MB" mem/results.jsonl
"$dmlconf" run -q --backend oracle -o mem2 --memory-limit lots small.yaml 2>err.txt; check "a bad --memory-limit" 3 $?

# Workers started as programs (as on Windows) run the corpus the same way.
DMLCONF_WORKERS=spawn "$dmlconf" run -q --backend oracle -j 2 -o spawned 2>err.txt
check "spawned workers over the corpus" 0 $?
expect "spawned workers: the self-check passed" test "$(summary spawned "s['verdict']['text']")" = "self-check passed"
expect "spawned workers: over the whole corpus" test "$(summary spawned "s['verdict']['scope']['kind']")" = corpus

finish
