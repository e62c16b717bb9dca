#!/usr/bin/env bash
# End-to-end tests of `dmlconf run --backend exec -- COMMAND`: the process
# protocol's reference adapter (dmlconf_test_adapter) correct and broken in
# every way the protocol names. Each fault must cost the case it hit (the
# exact status, the adapter's last words in the report), the cases after
# it must still run, and nothing of dmlconf may hang.
# Usage: test_exec.sh DMLCONF TEST_ADAPTER SOURCE_DIR WORK_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
dmlconf=$1
adapter=$2
source_dir=$3
work=$4
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# The status and message of a case in a results.jsonl, as "status|message".
outcome() {
    python3 - "$1" "$2" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    record = json.loads(line)
    if record.get("id") == sys.argv[2]:
        print("%s|%s%s" % (record["status"], record["message"], "|unsupported" if record.get("unsupported") else ""))
        break
else:
    print("missing|")
PY
}
# expect_case REPORT_DIR ID STATUS [TEXT]: the case has the status, and its
# message holds TEXT.
expect_case() {
    local got bad=false
    got=$(outcome "$1/results.jsonl" "$2")
    [ "${got%%|*}" != "$3" ] && bad=true
    [ -n "${4:-}" ] && [[ $got != *"$4"* ]] && bad=true
    if $bad; then
        echo "FAIL: $1: $2 is \"$got\", expected $3${4:+ with \"$4\"}"
        failures=$((failures + 1))
    else
        passed=$((passed + 1))
    fi
}

# Six float32 sums, one per batch position; exec.trigger has the 7 elements
# the broken adapter acts on, and cases follow it in its batch.
cat > cases.yaml <<'YAML'
defaults: {op: cumulative_summation, dtype: float32, axis: 0}
cases:
  - {id: exec.a, sizes: [5], input: [1, 2, 3, 4, 5]}
  - {id: exec.b, sizes: [3], input: [1, 2, 3], expected: [1, 3, 6]}
  - {id: exec.trigger, sizes: [7], input: [1, 2, 3, 4, 5, 6, 7]}
  - {id: exec.c, sizes: [2, 3], axis: 1, direction: decreasing, exclusive: true, input: [1, 2, 3, 4, 5, 6]}
  - {id: exec.d, op: cumulative_product, dtype: int64, sizes: [4], input: [2, 3, 4, 5]}
  - {id: exec.e, dtype: uint32, sizes: [1, 4], axis: 1, input_strides: [8, 2], output_strides: [4, 1], input: [4294967295, 1, 1, 1]}
YAML
others="exec.a exec.b exec.c exec.d exec.e"

# A correct adapter: every case passes, in forked workers, spawned workers
# (the Windows way) and in process; the reports name the implementation.
"$dmlconf" run -q --backend exec -j 2 -o good cases.yaml -- "$adapter"; check "a correct adapter" 0 $?
expect "the backend is exec:NAME" grep -q '"backend":"exec:test-adapter"' good/results.jsonl
expect "the command is recorded" grep -q "\"command_line\":\"[^\"]* -- $adapter\"" good/results.jsonl
expect "its time limit is recorded" grep -q '"environment":\["DMLCONF_EXEC_TIMEOUT=60"\]' good/results.jsonl
expect "the summary names it" grep -q '| Backend | exec:test-adapter |' good/summary.md
DMLCONF_WORKERS=spawn "$dmlconf" run -q --backend exec -j 2 -o spawned cases.yaml -- "$adapter" --name spawned
check "spawned workers" 0 $?
expect "spawned workers pass the command on" grep -q '"backend":"exec:spawned"' spawned/results.jsonl
"$dmlconf" run -q --backend exec -j 0 -o inprocess cases.yaml -- "$adapter"; check "in process" 0 $?

# Each fault costs exactly the trigger case: its status, what happened and
# the adapter's last words; the cases after it in its batch still pass.
run_fault() {
    # run_fault MODE STATUS TEXT LAST_WORDS [EXTRA dmlconf OPTIONS...]
    local mode=$1 status=$2 text=$3 words=$4
    shift 4
    local started=$SECONDS
    "$dmlconf" run -q --backend exec -j 1 --no-rerun --no-repro "$@" -o "fault-$mode" cases.yaml \
        -- "$adapter" --mode "$mode" >"fault-$mode.out" 2>"fault-$mode.err"
    local code=$?
    # A failure fails the run; a case declined when run is not covered,
    # which leaves the run incomplete.
    local expected_code=1
    [ "$status" = pass ] && expected_code=0
    [ "$status" = skip ] && expected_code=2
    check "mode $mode" $expected_code $code
    expect "mode $mode took less than 30 s" test $((SECONDS - started)) -lt 30
    expect_case "fault-$mode" exec.trigger "$status" "$text"
    [ -n "$words" ] && expect_case "fault-$mode" exec.trigger "$status" "$words"
    for id in $others; do
        expect_case "fault-$mode" "$id" pass
    done
    expect "mode $mode: the run finished" grep -q '"end":"finished","cases":6' "fault-$mode/results.jsonl"
}
run_fault crash error "the adapter was killed by signal 6 (Aborted) before it answered this job" \
    'its last words: "test adapter: about to crash on purpose"'
run_fault exit error "the adapter exited with status 3 before it answered this job" "giving up with status 3"
run_fault hang error "the adapter gave no answer to this job for 2 s (it was killed)" "stuck for ever" --timeout 4
run_fault stall error "the adapter stopped in the middle of its answer to this job for 2 s" \
    "half an answer is all there is" --timeout 4
run_fault garbage error \
    "the adapter broke the protocol: its answer does not start with \"DMLA\" but with bytes 74 68 69 73" \
    "answering in prose"
run_fault short error "its answer has 24 output bytes, fewer than the 28 of the output buffer" "miscounted the output"
run_fault long error "its answer has 32 output bytes, more than the 28 of the output buffer" "miscounted the output"
run_fault truncated error "the adapter exited with status 0 in the middle of its answer to this job" \
    "half an answer is all there is"
run_fault failed error "backend error: the adapter failed: the device fell over" ""
run_fault flood pass "" ""
expect "a flood stays out of dmlconf's own stderr" test "$(wc -c < fault-flood.err)" -lt 10000
run_fault wrong fail "elements outside tolerance" ""
run_fault untouched fail "elements outside tolerance" ""
run_fault unsupported skip "backend: the test adapter does not run this one|unsupported" ""
run_fault early skip "backend: answered early|unsupported" ""
expect "the last words are in the human report" grep -q "about to crash on purpose" fault-crash/summary.md
expect "and in junit.xml" grep -q "about to crash on purpose" fault-crash/junit.xml

# Stray bytes after an answer land on the next case (or on the last case of
# its batch): that case errors, the others pass.
"$dmlconf" run -q --backend exec -j 1 --no-rerun -o trailing cases.yaml -- "$adapter" --mode trailing
check "mode trailing" 1 $?
expect_case trailing exec.c error "its answer does not start with \"DMLA\" but with bytes 50 53 3a 20"
expect_case trailing exec.trigger pass

# The scheduler's own deadline stays the backstop: a time limit for the
# adapter longer than the run's makes a hang the worker's timeout.
started=$SECONDS
DMLCONF_EXEC_TIMEOUT=100 "$dmlconf" run -q --backend exec -j 1 --no-rerun --timeout 3 -o backstop cases.yaml \
    -- "$adapter" --mode hang
check "hang past the scheduler's deadline" 1 $?
expect "it took less than 30 s" test $((SECONDS - started)) -lt 30
expect_case backstop exec.trigger timeout "did not finish within 3 s; the worker was killed"
for id in $others; do
    expect_case backstop "$id" pass
done

# An adapter that cannot be restarted after a crash: the rest of its batch
# says why, the run goes on and finishes.
"$dmlconf" run -q --backend exec -j 1 --no-rerun -o restart cases.yaml \
    -- "$adapter" --mode restart-fails --marker "$work/marker"
check "restart fails" 1 $?
expect_case restart exec.a pass
expect_case restart exec.b pass
expect_case restart exec.trigger error "about to crash on purpose"
expect_case restart exec.c error "the adapter could not be restarted"
expect_case restart exec.c error "cannot start again after a crash"
expect "the run finished" grep -q '"end":"finished","cases":6' restart/results.jsonl

# An adapter that never gets going stops the run before any case, saying
# why: a setup error, in junit.xml too.
for mode in bad-handshake wrong-version exit-at-once chatty; do
    "$dmlconf" run -q --backend exec -o "start-$mode" cases.yaml -- "$adapter" --mode "$mode" 2>"start-$mode.err"
    check "mode $mode" 3 $?
    expect "mode $mode: unavailable" grep -q "dmlconf run: the exec backend is unavailable: " "start-$mode.err"
    expect "mode $mode: junit.xml says why" grep -q 'type="setup-error"' "start-$mode/junit.xml"
done
expect "bad handshake: the last words" grep -q 'its last words: "test adapter: greeting in prose"' \
    start-bad-handshake.err
expect "wrong version: both versions" grep -q \
    "the adapter speaks version 99 of the process protocol; this dmlconf speaks version 1" start-wrong-version.err
expect "exit at once: the last words" grep -q "cannot start: no device here" start-exit-at-once.err
"$dmlconf" run -q --backend exec -o missing cases.yaml -- "$work/no-such-adapter" 2>missing.err
check "a missing adapter" 3 $?
expect "a missing adapter: why" grep -q "cannot run $work/no-such-adapter: No such file or directory" missing.err
"$dmlconf" run -q --backend exec -o nocommand cases.yaml 2>nocommand.err; check "no command" 3 $?
expect "no command: how to give one" grep -q -- "--backend exec runs the adapter program given after --" nocommand.err
"$dmlconf" run -q --backend exec -a 1 -o adapterpicked cases.yaml -- "$adapter" 2>picked.err
check "an adapter picked" 3 $?
expect "an adapter picked: why" grep -q "the exec backend picks no adapter" picked.err

# Capabilities decide applicability: what the handshake leaves out is
# skipped with the reason and marked unsupported.
"$dmlconf" run -q --backend exec -o narrow cases.yaml -- "$adapter" --sums-only --types float32,uint32 --no-strides
check "a narrow adapter" 2 $?
expect_case narrow exec.d skip "the exec:test-adapter backend does not support cumulative products|unsupported"
expect_case narrow exec.e skip "the exec:test-adapter backend does not support strided tensors|unsupported"
expect_case narrow exec.a pass

# Negative cases: judged on an adapter that validates, skipped with the
# reason on one that does not.
"$dmlconf" run -q --backend exec -o validates "$source_dir/cases/negative" -- "$adapter" --validates
check "negative cases on a validating adapter" 0 $?
expect_case validates neg.axis.sum.r4.axis4 pass "rejected (axis_out_of_range)"
"$dmlconf" run -q --backend exec -o novalidation "$source_dir/cases/doc" "$source_dir/cases/negative" -- "$adapter"
check "negative cases on an adapter that does not validate" 2 $?
expect_case novalidation neg.axis.sum.r4.axis4 skip \
    "the exec:test-adapter backend does not support validation: it refuses no desc, so it cannot be asked to refuse this one|unsupported"
expect_case novalidation doc.sum.example1 pass

# An adapter that claims a feature level is run at it.
"$dmlconf" run -q --backend exec -o level cases.yaml -- "$adapter" --feature-level 4_1; check "a claimed level" 0 $?
expect "the target is the claimed level" grep -q '"target_level":"4_1"' level/results.jsonl

finish
