#!/usr/bin/env bash
# End-to-end tests of `dmlconf explore` on the oracle backend: usage errors,
# the reports and coverage files, the same seed giving the same cases
# whatever the workers (forked, spawned or none), a run stopped by SIGINT
# and resumed giving what an unbroken run gives, refusals to resume another
# run, and --replay writing a case file that loads and runs; then an
# implementation behind the process protocol (the protocol's reference
# adapter, correct and then wrong on purpose) and a native plugin that
# declares boundaries.
# Usage: test_explore.sh DMLCONF WORK_DIR TEST_ADAPTER FAULTY_PLUGIN
set -u
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
dmlconf=$1
work=$2
adapter=$3
plugin=$4
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# The cases a state file says were judged.
judged() {
    grep -o '"next_index":[0-9]*' "$1/explore-state.json" | cut -d: -f2
}

explore=("$dmlconf" explore --backend oracle --no-corpus -q)

# Help and usage errors.
"$dmlconf" explore --help | grep -q -- '--replay INDEX'; check "explore --help" 0 $?
"${explore[@]}" --seconds 0 -o u 2>usage.txt; check "--seconds 0" 3 $?
expect "--seconds 0 says why" grep -q -- "--seconds takes" usage.txt
"${explore[@]}" --negative-rate 101 -o u 2>/dev/null; check "--negative-rate 101" 3 $?
"${explore[@]}" --cases 10 some.yaml -o u 2>/dev/null; check "a case file argument" 3 $?
"$dmlconf" explore --backend nosuch --cases 10 -o u 2>usage.txt; check "an unknown backend" 3 $?
expect "an unknown backend is named" grep -q "no backend 'nosuch'" usage.txt
"${explore[@]}" --cases 10 --resume -o never-ran 2>usage.txt; check "--resume with nothing to resume" 3 $?
expect "--resume says what is missing" grep -q "explore-state.json" usage.txt

# A run: every case passes on the oracle, and the folder holds the reports.
"${explore[@]}" --cases 3000 -j 2 -o a >a.txt 2>&1; check "explore on the oracle" 0 $?
for file in results.jsonl summary.json junit.xml summary.md report.html coverage.txt coverage.csv findings.md \
    explore-state.json; do
    expect "explore writes $file" test -s "a/$file"
done
expect "3000 cases judged" test "$(judged a)" = 3000
expect "the coverage table" grep -q '^coverage: [0-9]* of the [0-9]* cells allowed here exercised' a/coverage.txt
expect "the coverage has every dimension" grep -q '^  layout ' a/coverage.txt
expect "results end finished" grep -q '"end":"finished"' a/results.jsonl
expect "one result per exercised cell" grep -q '"id":"explore.float32.sum.r' a/results.jsonl
expect "the verdict is the oracle's self-check" grep -q 'Verdict: self-check passed' a/summary.md
expect "of random cases, no conformance claim" grep -q 'random cases drawn by explore (seed 1, [0-9]* random cases); no conformance claim' a/summary.md
expect "no finding" grep -q 'no finding' a/findings.md
invalid=$(grep -c '^explore.invalid.' a/coverage.csv)
expect "invalid descs of several reasons ($invalid)" test "$invalid" -ge 5

# The same seed gives the same cases, however the cases are run; another
# seed gives others.
"${explore[@]}" --cases 3000 -j 0 -o b 2>/dev/null; check "the same seed in process" 0 $?
expect "the same seed, the same coverage" cmp -s a/coverage.csv b/coverage.csv
DMLCONF_WORKERS=spawn "${explore[@]}" --cases 3000 -j 2 -o s 2>/dev/null; check "spawned workers" 0 $?
expect "spawned workers, the same coverage" cmp -s a/coverage.csv s/coverage.csv
"${explore[@]}" --cases 3000 --seed 2 -o c 2>/dev/null; check "another seed" 0 $?
expect "another seed, another coverage" test "$(cmp -s a/coverage.csv c/coverage.csv; echo $?)" = 1

# Stopped by SIGINT, then resumed: what an unbroken run of as many cases
# gives.
"${explore[@]}" --cases 10000000 -j 2 -o r 2>r.txt &
pid=$!
for _ in $(seq 1 100); do
    [ -s r/explore-state.json ] && break
    sleep 0.1
done
sleep 1
kill -INT $pid
wait $pid
check "an interrupted run" 2 $?
expect "the interrupted run says how to go on" grep -q -- "--resume" r.txt
expect "its results say interrupted" grep -q '"end":"interrupted"' r/results.jsonl
done_before=$(judged r)
total=$((done_before + 2500))
"${explore[@]}" --cases "$total" -j 2 --resume -o r 2>/dev/null; check "the resumed run" 0 $?
expect "the resumed run judged $total cases" test "$(judged r)" = "$total"
"${explore[@]}" --cases "$total" -j 1 -o u 2>/dev/null; check "an unbroken run of $total cases" 0 $?
expect "resumed and unbroken runs cover the same cells" cmp -s r/coverage.csv u/coverage.csv
"${explore[@]}" --cases $((total + 10)) --seed 9 --resume -o r 2>other.txt; check "resuming another seed" 3 $?
expect "resuming another run says so" grep -q "holds another run" other.txt

# --replay writes the case as it was drawn: it loads, and passes.
"${explore[@]}" --replay 1234 >replay.yaml; check "--replay" 0 $?
expect "the replayed case is case 1234" grep -q 'id: explore.1234' replay.yaml
"$dmlconf" validate replay.yaml >/dev/null; check "the replayed case loads" 0 $?
"$dmlconf" run --backend oracle -q -o replayed replay.yaml; check "the replayed case passes" 0 $?

# Outside implementations. exec takes its adapter after --, and only exec.
"$dmlconf" explore --backend exec --cases 10 -o u 2>usage.txt; check "exec without a command" 3 $?
expect "exec without a command says how" grep -q -- "--backend exec \[OPTIONS\] -- COMMAND" usage.txt
"${explore[@]}" --cases 10 -o u -- "$adapter" 2>usage.txt; check "a command for the oracle" 3 $?
expect "a command for another backend is refused" grep -q "only --backend exec takes a command" usage.txt
"$dmlconf" explore --backend exec --cases 600 -j 2 --no-corpus -q -o exec-good -- "$adapter"
check "explore through exec, the reference adapter" 0 $?
expect "exec: 600 cases judged" test "$(judged exec-good)" = 600
expect "exec: the results name the adapter's command" grep -qF "\"backend_command\":\"$adapter\"" exec-good/results.jsonl
# Wrong on purpose for tensors of 7 elements: found, shrunk to a case of 7
# elements, and the reproducer's own commands carry the adapter.
"$dmlconf" explore --backend exec --cases 600 -j 2 --no-corpus -q -o exec-wrong -- "$adapter" --mode wrong
check "explore through exec, a wrong adapter" 1 $?
repro=$(ls exec-wrong/repros/*.yaml 2>/dev/null | head -1)
expect "a reproducer of the wrong answers" test -n "$repro"
expect "the reproducer says how to run it through the adapter" \
    grep -qF -- "--backend exec $repro -- $adapter --mode wrong" "$repro"
expect "the reproducer says how to regenerate its case" grep -qF -- "--replay " "$repro"
"$dmlconf" run --backend exec -q -o exec-repro "$repro" -- "$adapter" --mode wrong
check "the reproducer fails through the wrong adapter" 1 $?
"$dmlconf" run --backend exec -q -o exec-fixed "$repro" -- "$adapter"
check "and passes through the correct one" 0 $?
# A plugin: int32 inclusive increasing sums of rank 1 and 2, packed, with
# two declared boundaries (1000 and 2000 elements along the axis).
DMLCONF_TEST_PLUGIN_FAULT=boundaries "$dmlconf" explore --backend "plugin:$plugin" --cases 400 -j 2 --no-corpus \
    -o plugin-run >plugin.txt 2>&1
check "explore through a plugin" 0 $?
expect "the plugin's cells only: int32 sums" grep -q "data type    int32" plugin-run/coverage.txt
expect "its boundaries make an axis-length class" grep -q "boundary" plugin-run/coverage.txt

# A plugin that declines every job when run: nothing was judged, which is
# neither a pass nor "every case passed", and no cell counts as judged.
DMLCONF_TEST_PLUGIN_FAULT=decline "$dmlconf" explore --backend "plugin:$plugin" --cases 200 -j 2 --no-corpus \
    -o declined >declined.txt 2>&1
check "explore of a plugin that declines every job" 2 $?
expect "declined: the verdict is incomplete" grep -q '^\*\*Verdict: incomplete\*\*' declined/summary.md
expect "declined: nothing was judged" grep -q "nothing was judged" declined/summary.md
expect "declined: never 'every case passed'" bash -c '! grep -q "every case" declined/findings.md declined.txt'
expect "declined: junit errors" grep -q '<error type="incomplete"' declined/junit.xml
expect "declined: no cell counts as exercised" grep -q "^coverage: 0 of the [0-9]* cells allowed here exercised (0.0%) by 0 cases" declined/coverage.txt

# --seconds bounds the run even when the backend hangs: the round in flight
# is stopped at the budget (the timeout alone would take each case in turn).
start=$(date +%s)
DMLCONF_TEST_PLUGIN_FAULT=hang timeout 120 "$dmlconf" explore --backend "plugin:$plugin" --seconds 4 --timeout 2 \
    -j 2 --no-corpus -q -o hanging 2>hanging.txt
status=$?
took=$(( $(date +%s) - start ))
expect "a hanging backend: the run ends near its budget (${took} s)" test "$took" -lt 30
expect "a hanging backend: not killed by the outer timeout ($status)" test "$status" -ne 124
expect "a hanging backend: never a pass ($status)" test "$status" -ne 0
expect "a hanging backend: never 'every case passed'" bash -c '! grep -q "every case judged passed" hanging/findings.md'

# --replay of an index it would take hours to reach is refused at once,
# with the estimate, instead of drawing for hours.
start=$(date +%s)
"${explore[@]}" --replay 1000000000000 >/dev/null 2>replay-far.txt
check "--replay far away" 3 $?
expect "--replay far away: at once" test $(( $(date +%s) - start )) -lt 30
expect "--replay far away: says how long it would take" grep -q "hours at this machine's" replay-far.txt

# --corpus that names nothing is refused, not ignored.
"${explore[@]}" --cases 10 --corpus no/such/folder -o u2 2>corpus.txt; check "--corpus that does not exist" 3 $?
expect "--corpus names the path" grep -q -- "--corpus no/such/folder" corpus.txt

# A folder that holds an exploration is refused unless resumed or
# overwritten; a refused or mistyped --resume leaves it as it was.
"${explore[@]}" --cases 50 -o kept 2>/dev/null; check "an exploration to keep" 0 $?
cp kept/summary.json kept-summary.json
"${explore[@]}" --cases 50 -o kept 2>kept.txt; check "a new exploration into it" 3 $?
expect "it says the folder holds one" grep -q "holds" kept.txt
"${explore[@]}" --cases 50 --seed 5 --resume -o kept 2>/dev/null; check "--resume with another seed" 3 $?
expect "the reports are left as they were" cmp -s kept/summary.json kept-summary.json
"${explore[@]}" --cases 50 --overwrite -o kept 2>/dev/null; check "--overwrite replaces it" 0 $?

# Interrupted in its first round, a run can still be resumed: its state is
# saved before it draws anything.
DMLCONF_TEST_PLUGIN_FAULT=hang "$dmlconf" explore --backend "plugin:$plugin" --cases 100 --timeout 60 -j 1 \
    --no-corpus -q -o first-round 2>/dev/null &
pid=$!
for _ in $(seq 100); do [ -f first-round/explore-state.json ] && break; sleep 0.1; done
sleep 1
kill -INT "$pid"
wait "$pid"
check "interrupted in its first round" 2 $?
expect "its state was saved" test -f first-round/explore-state.json
expect "its reports say interrupted" grep -q '"end":"interrupted"' first-round/results.jsonl

finish
