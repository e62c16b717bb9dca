#!/usr/bin/env bash
# End-to-end tests of `dmlconf suite`: suite files of several runs (the
# oracle, the protocol's reference adapter right and wrong on purpose, a
# backend that does not exist, a case list naming no case), their folders,
# logs and combined reports, the exit status as the worst run's, relative
# paths from the suite file's folder, defaults, --check, a folder of an
# earlier suite, every error of a malformed file at its line and column,
# and an interrupt passed on to the run in progress.
# Usage: test_suite.sh DMLCONF ADAPTER WORK_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
dmlconf=$1
adapter=$2
work=$3
rm -rf "$work"
mkdir -p "$work/suites"
cd "$work" || exit 1

json() { # FILE EXPRESSION: prints EXPRESSION over the JSON object `s`
    python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(($2))" "$1"
}

# The cases lie beside the suite files; the suites run from the folder
# above (a relative path is taken from the suite file's folder).
cat > suites/cases.yaml <<'YAML'
defaults: {op: cumulative_summation, dtype: int32}
cases:
  - {id: st.four, sizes: [4], axis: 0, input: [1, 2, 3, 4]}
  - {id: st.three, sizes: [3], axis: 0, input: [5, 6, 7]}
YAML
printf 'st.four\nno.such.case\n' > suites/list.txt

cat > suites/good.yaml <<YAML
# Two runs that pass: the self-check on the docs' examples, and the
# reference adapter on the cases beside this file.
defaults:
  jobs: 1
  rerun: false
runs:
  - name: docs
    backend: oracle
    filters: "doc.*"
  - name: adapter
    backend: exec
    paths: [cases.yaml]
    command: ["$adapter"]
YAML
"$dmlconf" suite -o good suites/good.yaml >good.txt 2>&1; check "a suite of two passing runs" 0 $?
for file in suite.json suite.md junit.xml docs.log adapter.log docs/summary.json adapter/summary.json adapter/junit.xml; do
    expect "good/$file written" test -s "good/$file"
done
expect "suite.json: passed, two runs" test "$(json good/suite.json "s['status'], s['exit_status'], len(s['runs'])")" = "('passed', 0, 2)"
expect "suite.json: each run's verdict and scope, from its own summary" test "$(json good/suite.json "s['runs'][0]['verdict'], s['runs'][1]['verdict'], 'self-check' in s['runs'][0]['scope'], 'not the reference corpus' in s['runs'][1]['scope']")" = "('self-check passed', 'passed', True, True)"
expect "the console: one line per run and the suite's" grep -q '^suite: passed (2 runs: 2 passed)$' good.txt
expect "the console: the runs' own output" grep -q '^verdict: self-check passed' good.txt
expect "a run's log holds its console" grep -q '^verdict: passed' good/adapter.log
expect "junit.xml: a testcase per run, none failing" python3 - good/junit.xml <<'PY'
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find('testsuite')
cases = suite.findall('testcase')
assert [c.get('name') for c in cases] == ['docs', 'adapter'], cases
assert suite.get('failures') == '0' and suite.get('errors') == '0'
assert not any(c.find('failure') is not None or c.find('error') is not None for c in cases)
PY
expect "suite.md: the table" grep -q '^| `adapter` | 0 | passed | ' good/suite.md

# The same folder again: refused, the earlier suite kept; --overwrite replaces it.
"$dmlconf" suite -o good suites/good.yaml >again.txt 2>&1; check "a folder holding an earlier suite" 3 $?
expect "it says so" grep -q 'holds the reports of an earlier suite (--overwrite replaces them)' again.txt
expect "the earlier suite is kept" test "$(json good/suite.json "s['status']")" = "passed"
"$dmlconf" suite -o good --overwrite -q suites/good.yaml >over.txt 2>&1; check "--overwrite" 0 $?
expect "-q: the runs print their verdicts only" test "$(grep -c '^verdict: ' over.txt)" = 2
expect "-q: no progress" bash -c "! grep -q 'cases selected\|run 1 of 2' over.txt"

# A passing, a failing, an incomplete run and one that cannot start: the
# suite's status is the worst, every run still runs and is reported.
cat > suites/mixed.yaml <<YAML
defaults: {backend: exec, paths: [cases.yaml], command: ["$adapter"], jobs: 1, rerun: false, repro: false}
runs:
  - name: right
  - name: wrong
    command: ["$adapter", --mode, wrong, --trigger-elements, "4"]
  - name: listed
    caselists: [list.txt]
  - name: nowhere
    backend: no-such-backend
YAML
"$dmlconf" suite -o mixed suites/mixed.yaml >mixed.txt 2>&1; check "a suite with a run that cannot start" 3 $?
expect "suite.json: every run's exit status" test "$(json mixed/suite.json "[r['exit_status'] for r in s['runs']], s['status']")" = "([0, 1, 2, 3], 'setup error')"
expect "suite.json: the failing run's verdict" test "$(json mixed/suite.json "s['runs'][1]['verdict']")" = "failed"
expect "the console counts them" grep -q '^suite: setup error (4 runs: 1 passed, 1 failed, 1 incomplete, 1 setup error)$' mixed.txt
expect "junit.xml: a failure, two errors" python3 - mixed/junit.xml <<'PY'
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find('testsuite')
assert (suite.get('failures'), suite.get('errors')) == ('1', '2'), suite.attrib
cases = {c.get('name'): c for c in suite.findall('testcase')}
assert cases['right'].find('failure') is None and cases['right'].find('error') is None
assert cases['wrong'].find('failure').get('message') == 'failed'
assert cases['listed'].find('error') is not None
assert cases['nowhere'].find('error').get('type') == 'setup-error', cases['nowhere'].find('error').attrib
PY
sed -i '/name: nowhere/,$d' suites/mixed.yaml
"$dmlconf" suite -o mixed2 suites/mixed.yaml >/dev/null 2>&1; check "a suite with an incomplete run" 2 $?
sed -i '/name: listed/,$d' suites/mixed.yaml
"$dmlconf" suite -o mixed3 suites/mixed.yaml >/dev/null 2>&1; check "a suite with a failing run" 1 $?

# Known flakes (flakes: a file, as run --flakes takes it): the case the
# adapter gets wrong is accepted as a known flake; the verdict still says
# failed, the baseline's answer no regressions, and the exit status follows
# the answer.
printf '# flaky on this adapter\nst.four\n' > suites/flakes.txt
cat > suites/flaky.yaml <<YAML
runs:
  - name: flaky
    backend: exec
    paths: [cases.yaml]
    flakes: flakes.txt
    repro: false
    command: ["$adapter", --mode, wrong, --trigger-elements, "4"]
YAML
"$dmlconf" suite -o flaky suites/flaky.yaml >flaky.txt 2>&1; check "a run whose failure is a known flake" 0 $?
expect "suite.json: failed, no regressions" test "$(json flaky/suite.json "s['runs'][0]['verdict'], s['runs'][0]['baseline'].startswith('no regressions')")" = "('failed', True)"
expect "the flake's message names its file and line" grep -q 'listed as a known flake (suites/flakes.txt:2)' flaky/flaky/results.jsonl
"$dmlconf" run --backend oracle -q --flakes no-such-flakes.txt -o no-flakes suites/cases.yaml >noflakes.txt 2>&1
check "run --flakes with a file that does not exist" 3 $?
expect "it says so" grep -q -- '--flakes: no-such-flakes.txt does not exist' noflakes.txt

# --check: each run's command line, from the file's folder; nothing runs.
"$dmlconf" suite --check -o checked suites/good.yaml >check.txt 2>&1; check "--check" 0 $?
expect "--check: the adapter run's command line" grep -q "^adapter: dmlconf run -o DIR/adapter --backend exec --jobs 1 --no-rerun suites/cases.yaml -- $adapter\$" check.txt
expect "--check: nothing ran" test ! -e checked

# A malformed suite file: every error at its line and column, nothing runs.
cat > suites/bad.yaml <<'YAML'
defaults:
  name: not-here
runs:
  - name: a
    jobs: many
    feature_level: 9_9
    colour: red
  - name: a
  - name: "b/c"
    rerun: maybe
  - filters: []
extra: 1
YAML
"$dmlconf" suite -o bad suites/bad.yaml >bad.txt 2>&1; check "a malformed suite file" 3 $?
for place in "2:3: error: unknown key 'name' in the defaults" "5:11: error: 'jobs' takes a whole number" \
    "6:20: error: '9_9' is not a feature level" "7:5: error: unknown key 'colour' in a run" \
    "8:11: error: two runs are named 'a'" "9:11: error: a run's name is 1 to 64" "10:12: error: 'rerun' takes true or false" \
    "11:5: error: a run needs a name" "11:14: error: 'filters' takes one or more values" "12:1: error: unknown key 'extra'"; do
    expect "suites/bad.yaml:$place" grep -qF "suites/bad.yaml:$place" bad.txt
done
expect "the count of errors" grep -q '^dmlconf suite: 10 errors in suites/bad.yaml; nothing ran$' bad.txt
expect "nothing ran" test ! -e bad
printf 'runs: [\n' > suites/broken.yaml
"$dmlconf" suite -o broken suites/broken.yaml >broken.txt 2>&1; check "YAML that does not parse" 3 $?
expect "its place" grep -q '^suites/broken.yaml:2:1: error: YAML syntax error' broken.txt
printf 'runs: []\n' > suites/empty.yaml
"$dmlconf" suite suites/empty.yaml >empty.txt 2>&1; check "no runs" 3 $?
expect "it says so" grep -q "'runs' is a list of one or more runs, not an empty list" empty.txt
"$dmlconf" suite >/dev/null 2>&1; check "no suite file" 3 $?

# An interrupt while a run hangs: passed on to the run (which says it was
# interrupted), the later run not run, the suite incomplete, nothing left.
cat > suites/hang.yaml <<YAML
defaults: {backend: exec, paths: [cases.yaml], jobs: 1, rerun: false, repro: false}
runs:
  - name: hanging
    command: ["$adapter", --mode, hang, --trigger-elements, "4"]
  - name: later
    command: ["$adapter"]
YAML
"$dmlconf" suite -o hang suites/hang.yaml >hang.txt 2>&1 &
suite_pid=$!
for _ in $(seq 1 100); do
    grep -q 'cases selected\|selected' hang/hanging.log 2>/dev/null && break
    sleep 0.1
done
sleep 1
kill -INT "$suite_pid"
wait "$suite_pid"; check "an interrupted suite" 2 $?
expect "suite.json: interrupted" test "$(json hang/suite.json "s['status'], s['interrupted_by']")" = "('interrupted', 'SIGINT')"
expect "the hanging run was interrupted" test "$(json hang/suite.json "s['runs'][0]['status'], s['runs'][0]['exit_status']")" = "('interrupted', 2)"
expect "the later run did not run" test "$(json hang/suite.json "s['runs'][1]['status'], s['runs'][1]['exit_status']")" = "('not-run', 2)"
# A killed adapter may take a moment to be gone.
for _ in $(seq 1 50); do
    pgrep -f -- "$adapter --mode hang" >/dev/null || break
    sleep 0.1
done
expect "no adapter is left" test -z "$(pgrep -f -- "$adapter --mode hang")"

finish
