#!/usr/bin/env bash
# End-to-end tests of the dmlconf command: exit codes, reports, filters,
# shards and merge, show's layout, bless, baselines, bad case files.
# Usage: test_command.sh DMLCONF SOURCE_DIR WORK_DIR
set -u
dmlconf=$1
source_dir=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

failures=0
passed=0
check() {
    # check DESCRIPTION EXPECTED_STATUS ACTUAL_STATUS
    if [ "$2" = "$3" ]; then
        passed=$((passed + 1))
    else
        echo "FAIL: $1: exit status $3, expected $2"
        failures=$((failures + 1))
    fi
}
expect() {
    # expect DESCRIPTION COMMAND... : the command must succeed
    local description=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
    else
        echo "FAIL: $description"
        failures=$((failures + 1))
    fi
}

cat > good.yaml <<'YAML'
defaults: {op: cumulative_summation, dtype: int32}
cases:
  - {id: e2e.a, sizes: [4], axis: 0, input: [1, 2, 3, 4], expected: [1, 3, 6, 10]}
  - {id: e2e.b, sizes: [2, 2], axis: 1, direction: decreasing, input: [1, 2, 3, 4]}
  - {id: e2e.c, op: cumulative_product, dtype: float32, sizes: [3], axis: 0, exclusive: true, input: [2, 3, 4]}
  - {id: e2e.d, dtype: uint32, sizes: [1, 1, 1, 3], axis: 3, input: [4294967295, 1, 1]}
YAML
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
"$dmlconf" frobnicate 2>/dev/null; check "unknown command" 2 $?
"$dmlconf" run --no-such-option 2>/dev/null; check "unknown option" 2 $?
"$dmlconf" run --feature-level 9_9 good.yaml 2>/dev/null; check "bad feature level" 2 $?
"$dmlconf" run --backend nothing good.yaml 2>/dev/null; check "unknown backend" 2 $?

# A clean run writes every report.
"$dmlconf" run -q --backend oracle -j 2 -o out good.yaml; check "clean run" 0 $?
for report in results.jsonl summary.json junit.xml summary.md report.html failures.txt; do
    expect "report $report exists" test -s "out/$report" -o "$report" = failures.txt -a -f "out/$report"
done
expect "results.jsonl has a header and 4 cases" test "$(wc -l < out/results.jsonl)" -eq 5
expect "summary names the verdict" grep -q "conformant at level" out/summary.md

# A bad file is reported with its location, and the good file still runs.
"$dmlconf" run -q --backend oracle -o out2 good.yaml bad.yaml 2>err.txt; check "run with a bad file" 2 $?
expect "error has file:line:column" grep -q "bad.yaml:6:11: error" err.txt
expect "good cases still ran" test "$(wc -l < out2/results.jsonl)" -eq 5
"$dmlconf" validate good.yaml bad.yaml >/dev/null 2>&1; check "validate a bad file" 2 $?
"$dmlconf" validate good.yaml >/dev/null; check "validate a good file" 0 $?

# Filters, list and shards.
expect "list with a filter" test "$("$dmlconf" list -f 'e2e.*' -f '!e2e.c' good.yaml | wc -l)" -eq 3
"$dmlconf" run -q --backend oracle --shard 0/2 -o shard0 good.yaml; check "shard 0" 0 $?
TEST_SHARD_INDEX=1 TEST_TOTAL_SHARDS=2 TEST_SHARD_STATUS_FILE=$work/shard-status \
    "$dmlconf" run -q --backend oracle -o shard1 good.yaml; check "shard 1 from the environment" 0 $?
expect "shard status file touched" test -f shard-status
expect "shards split the cases" test "$(($(wc -l < shard0/results.jsonl) + $(wc -l < shard1/results.jsonl)))" -eq 6
"$dmlconf" merge -o merged shard0 shard1/results.jsonl >/dev/null; check "merge" 0 $?
expect "merged results" grep -q '"e2e.d"' merged/junit.xml

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

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
