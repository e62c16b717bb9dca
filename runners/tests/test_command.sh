#!/usr/bin/env bash
# End-to-end tests of the dmlconf command: exit codes, reports, filters,
# shards and merge, show's layout, bless, baselines, bad case files, the
# verdict in every report, the report folder's lock, case times.
# Usage: test_command.sh DMLCONF SOURCE_DIR WORK_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
dmlconf=$1
source_dir=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

cat > good.yaml <<'YAML'
defaults: {op: cumulative_summation, dtype: int32}
cases:
  - {id: e2e.a, sizes: [4], axis: 0, input: [1, 2, 3, 4], expected: [1, 3, 6, 10]}
  - {id: e2e.b, sizes: [2, 2], axis: 1, direction: decreasing, input: [1, 2, 3, 4]}
  - {id: e2e.c, op: cumulative_product, dtype: float32, sizes: [3], axis: 0, exclusive: true, input: [2, 3, 4]}
  - {id: e2e.d, dtype: uint32, sizes: [1, 1, 1, 3], axis: 3, input: [4294967295, 1, 1]}
YAML
# A case the oracle fails: its expected values are wrong, and a run does not
# check them against the oracle as it loads, for the case is above 2^20
# elements (validate would refuse it). The values, ones summed, are written
# as a .npy file here (no NumPy needed), element 1 wrong.
python3 - <<'PY'
import struct
n = 1048577
header = "{'descr': '<i4', 'fortran_order': False, 'shape': (%d,), }" % n
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
values = list(range(1, n + 1))
values[1] = 4
with open("bad-run.npy", "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%di" % n, *values))
PY
cat > bad-run.yaml <<'YAML'
cases:
  - {id: e2e.fails, op: cumulative_summation, dtype: int32, sizes: [1048577], axis: 0,
     input: {generate: constant, value: 1}, expected: {npy: bad-run.npy}}
YAML
"$dmlconf" validate bad-run.yaml > validate-bad-run.txt 2>&1; check "validate refuses the failing case" 2 $?
expect "validate names its wrong value" grep -qF "element 1: 4 (0x00000004) given, but the oracle computes 2" \
    validate-bad-run.txt
cat > bad.yaml <<'YAML'
cases:
  - id: e2e.bad
    op: cumulative_summation
    dtype: int32
    sizes: [2]
    axis: 5
    input: [1, 2]
YAML

# Help and usage errors.
"$dmlconf" --help >/dev/null; check "dmlconf --help" 0 $?
for command in run list show validate bless merge adapters; do
    "$dmlconf" "$command" --help >/dev/null; check "dmlconf $command --help" 0 $?
done
"$dmlconf" frobnicate 2>/dev/null; check "unknown command" 3 $?
"$dmlconf" run --no-such-option 2>/dev/null; check "unknown option" 3 $?
"$dmlconf" run --feature-level 9_9 good.yaml 2>/dev/null; check "bad feature level" 3 $?
"$dmlconf" run --backend nothing -o unknown good.yaml 2>/dev/null; check "unknown backend" 3 $?

# A clean run writes every report.
"$dmlconf" run -q --backend oracle -j 2 -o out good.yaml; check "clean run" 0 $?
for report in results.jsonl summary.json junit.xml summary.md report.html failures.txt; do
    expect "report $report exists" test -s "out/$report" -o "$report" = failures.txt -a -f "out/$report"
done
expect "results.jsonl has a header, 4 cases and a completion record" test "$(wc -l < out/results.jsonl)" -eq 6
expect "results.jsonl ends finished" grep -q '^{"record":"end","end":"finished","cases":4,' out/results.jsonl
expect "summary names the verdict" grep -q "Verdict: self-check passed" out/summary.md
expect "summary names its scope" grep -q "Scope: the self-check (the oracle judged against itself, not an implementation under test): case files that are not the reference corpus (good.yaml: 4 of 4 cases loaded); no conformance claim" out/summary.md
expect "the JUnit verdict testcase passes" grep -q '<system-out>self-check passed (the self-check' out/junit.xml
expect "the header says what the run is" grep -q '"shard":{"index":0,"count":1},"corpus":{"digest":"[0-9a-f]\{16\}","cases":4},"planned_cases":4' out/results.jsonl

# A bad file is reported with its location, and the good file still runs;
# the run has no verdict: every report says "incomplete".
"$dmlconf" run --backend oracle -o out2 good.yaml bad.yaml >out2.txt 2>err.txt; check "run with a bad file" 2 $?
expect "error has file:line:column" grep -q "bad.yaml:6:11: error" err.txt
expect "good cases still ran" test "$(wc -l < out2/results.jsonl)" -eq 6
expect "incomplete on the console" grep -q "^verdict: incomplete (no verdict: 1 error in the case files" out2.txt
expect "incomplete in summary.md" grep -q '^\*\*Verdict: incomplete\*\*' out2/summary.md
expect "incomplete in summary.json" grep -q '"status": "incomplete"' out2/summary.json
expect "incomplete in report.html" grep -q 'data-status="incomplete"' out2/report.html
expect "incomplete in junit.xml" grep -q '<error type="incomplete" message="incomplete (' out2/junit.xml
expect "the bad file is a JUnit error" grep -q '<testcase name="bad.yaml" classname="dmlconf.corpus" file="bad.yaml" time="0">' out2/junit.xml
expect "with its location" grep -q 'bad.yaml:6:11: error: ' out2/junit.xml
expect "and no conformant anywhere" test -z "$(grep -l 'Verdict: conformant' out2/summary.md)"
"$dmlconf" validate good.yaml bad.yaml >/dev/null 2>&1; check "validate a bad file" 2 $?
"$dmlconf" validate good.yaml >/dev/null; check "validate a good file" 0 $?

# Filters, list and shards.
expect "list with a filter" test "$("$dmlconf" list -f 'e2e.*' -f '!e2e.c' good.yaml | wc -l)" -eq 3
"$dmlconf" run -q --backend oracle --shard 0/2 -o shard0 good.yaml; check "shard 0" 0 $?
TEST_SHARD_INDEX=1 TEST_TOTAL_SHARDS=2 TEST_SHARD_STATUS_FILE=$work/shard-status \
    "$dmlconf" run -q --backend oracle -o shard1 good.yaml; check "shard 1 from the environment" 0 $?
expect "shard status file touched" test -f shard-status
expect "shards split the cases" test "$(($(wc -l < shard0/results.jsonl) + $(wc -l < shard1/results.jsonl)))" -eq 8
expect "a shard says which it is" grep -q '"shard":{"index":1,"count":2}' shard1/results.jsonl
"$dmlconf" merge -o merged shard0 shard1/results.jsonl >/dev/null; check "merge" 0 $?
expect "merged results" grep -q '"e2e.d"' merged/junit.xml
expect "merged verdict" grep -q "Verdict: self-check passed" merged/summary.md
expect "merged run planned every case" grep -q '"planned_cases":4' merged/results.jsonl

# merge refuses what would give a wrong verdict, naming the file and why.
"$dmlconf" merge -o m1 shard0 2>err.txt; check "merge with a missing shard" 2 $?
expect "missing shard named" grep -q "shard 1 of 2 is missing" err.txt
expect "nothing written" test ! -e m1/summary.md
"$dmlconf" merge -o m2 shard0 shard0/results.jsonl shard1 2>err.txt; check "merge with a shard twice" 2 $?
expect "repeated shard named" grep -q "shard0/results.jsonl: shard 0 of 2 is given twice (also shard0/results.jsonl)" err.txt
mkdir -p cut
head -n -1 shard1/results.jsonl > cut/results.jsonl
"$dmlconf" merge -o m3 shard0 cut 2>err.txt; check "merge with an unfinished shard" 2 $?
expect "unfinished shard named" grep -q "cut/results.jsonl: shard 1 of 2 is not complete: it has no completion record" err.txt
"$dmlconf" run -q --backend oracle --shard 1/2 -l 4_0 -o other good.yaml; check "a shard at another level" 0 $?
"$dmlconf" merge -o m4 shard0 other 2>err.txt; check "merge of different runs" 2 $?
expect "mixed runs named" grep -q "are not shards of one run: target level 6_4 against 4_0" err.txt
"$dmlconf" merge --partial -o m4 shard0 other 2>err.txt; check "partial merge of different runs" 2 $?
"$dmlconf" run -q --backend oracle --shard 1/2 -f 'e2e.[ab]' -o fewer good.yaml; check "a shard of another selection" 0 $?
"$dmlconf" merge -o m5 shard0 fewer 2>err.txt; check "merge of different selections" 2 $?
expect "corpus digest named" grep -q "corpus digest" err.txt
"$dmlconf" merge --partial -o m6 shard0 cut >/dev/null 2>err.txt; check "partial merge" 2 $?
expect "partial merge incomplete" grep -q '^\*\*Verdict: incomplete\*\*' m6/summary.md
expect "partial merge says why" grep -q "a partial merge of shards: shard 1 not complete" m6/summary.md
expect "partial merge in junit" grep -q '<error type="incomplete"' m6/junit.xml
expect "partial merge record" grep -q '"end":"partial"' m6/results.jsonl

# --junit-max-bytes: junit.xml within the limit, with the same verdict,
# and a testcase saying what was left out; merge takes it too.
"$dmlconf" run -q --backend oracle -f 'conf.sum.int32.r[12].*' -o junit-whole "$source_dir/cases/conformance"
check "int32 sums of rank 1 and 2" 0 $?
whole=$(wc -c < junit-whole/junit.xml)
limit=$((whole / 2))
"$dmlconf" run -q --backend oracle -f 'conf.sum.int32.r[12].*' --junit-max-bytes "$limit" -o junit-half \
    "$source_dir/cases/conformance"
check "the same, junit.xml within half its size" 0 $?
expect "junit.xml within $limit bytes" test "$(wc -c < junit-half/junit.xml)" -le "$limit"
expect "the same verdict testcase" cmp -s <(grep -A1 '<testcase name="verdict"' junit-whole/junit.xml | tail -n 1) \
    <(grep -A1 '<testcase name="verdict"' junit-half/junit.xml | tail -n 1)
expect "a testcase says what was left out" grep -q "<skipped type=\"left-out\" message=\"[0-9]* of the [0-9]* case testcases left out to keep junit.xml within $limit bytes" junit-half/junit.xml
expect "the run's properties once" test "$(grep -c '<properties>' junit-half/junit.xml)" -eq 1
"$dmlconf" run -q --backend oracle --junit-max-bytes lots -o junit-bad good.yaml 2>err.txt
check "--junit-max-bytes with no number" 3 $?
expect "it says what it takes" grep -q "junit-max-bytes takes a number of bytes" err.txt
limit=$(($(wc -c < merged/junit.xml) - 100))
"$dmlconf" merge --junit-max-bytes "$limit" -o merged-small shard0 shard1 >/dev/null; check "merge within a limit" 0 $?
expect "merged junit.xml within $limit bytes" test "$(wc -c < merged-small/junit.xml)" -le "$limit"
expect "merged junit.xml says what was left out" grep -q 'name="left-out"' merged-small/junit.xml

# The report folder: checked before anything runs, and locked.
: > afile
"$dmlconf" run --backend oracle -o afile/reports good.yaml >out7.txt 2>err.txt; check "unwritable report folder" 3 $?
expect "it says so" grep -q "dmlconf run: reports: cannot create the folder afile/reports" err.txt
expect "before running anything" test ! -s out7.txt
mkdir -p locked
python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(60)' locked/.dmlconf.lock > lock.txt &
holder=$!
for _ in $(seq 100); do grep -q locked lock.txt && break; sleep 0.1; done
"$dmlconf" run -q --backend oracle -o locked good.yaml 2>err.txt; check "a second run into a locked folder" 3 $?
expect "the lock is named" grep -q "locked is in use by another dmlconf (process $holder holds locked/.dmlconf.lock)" err.txt
"$dmlconf" merge -o locked shard0 shard1 2>err.txt; check "merge into a locked folder" 3 $?
expect "merge names the lock" grep -q "in use by another dmlconf" err.txt
kill "$holder"; wait "$holder" 2>/dev/null
"$dmlconf" run -q --backend oracle -o locked good.yaml; check "the folder once free" 0 $?

# Every case's time is its own: over two workers, the cases' wall times
# add up to at most twice the run's elapsed time.
"$dmlconf" run -q --backend oracle -j 2 -o times "$source_dir/cases/doc"; check "timed run" 0 $?
expect "case times are the cases' own" python3 - times/results.jsonl <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
end = lines[-1]
total = sum(r["wall_seconds"] for r in lines[1:-1] if isinstance(r.get("wall_seconds"), float))
assert end["record"] == "end" and end["elapsed_seconds"] > 0, end
assert total <= 2 * end["elapsed_seconds"] + 0.05, (total, end["elapsed_seconds"])
PY

# show prints the documentation's layout.
"$dmlconf" show doc.sum.example1 "$source_dir/cases/doc" > show.txt; check "show" 0 $?
expect "show's input block" grep -qF "[[[[2, 1, 3, 5]," show.txt
expect "show's output block" grep -qF "[[[[2,  3,  6, 11]," show.txt
expect "show's parameters" grep -qF "HasExclusiveSum: FALSE" show.txt

# bless fills in expected values that parse back.
grep -v expected good.yaml > bless.yaml
"$dmlconf" bless bless.yaml >/dev/null; check "bless" 0 $?
expect "blessed values" grep -q "expected:" bless.yaml
"$dmlconf" run -q --backend oracle -o out3 bless.yaml; check "blessed file runs" 0 $?

# Baselines: a listed failure that passes fails the run.
mkdir -p baseline
echo "e2e.a,fail" > baseline/failures.txt
"$dmlconf" run -q --backend oracle --baseline baseline -o out4 good.yaml; check "unexpected pass" 1 $?
expect "unexpected pass recorded" grep -q unexpected-pass out4/results.jsonl
echo "e2e.[abc]" > baseline/skips.txt
: > baseline/failures.txt
"$dmlconf" run -q --backend oracle --baseline baseline -o out5 good.yaml; check "baseline skips" 0 $?
expect "skips recorded" test "$(grep -c '"skip"' out5/results.jsonl)" -eq 3

# The run's environment goes into the reproduce line.
DMLCONF_D3D12_TRACE=0 "$dmlconf" run -q --backend oracle --seed 5 -l 5_0 -o out6 bad-run.yaml 2>/dev/null
check "a failing run" 1 $?
expect "the reproduce line reruns it as it ran" grep -qF \
    "reproduce: `DMLCONF_D3D12_TRACE=0 dmlconf run --backend oracle --feature-level 5_0 --seed 5 --filter e2e.fails bad-run.yaml`" \
    out6/summary.md
command=$(sed -n 's/^  - reproduce: `\(.*\)`$/\1/p' out6/summary.md | head -n 1)
command=${command/dmlconf run/\"\$dmlconf\" run -q -o reproduced}
eval "$command" 2>/dev/null; check "the reproduce line, run" 1 $?
expect "it reran that case alone, the same way" test "$(grep -c '"id":"e2e.fails".*"status":"fail"' reproduced/results.jsonl)" -eq 1 \
    -a "$(wc -l < reproduced/results.jsonl)" -eq 3

finish
