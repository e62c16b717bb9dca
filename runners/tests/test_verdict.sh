#!/usr/bin/env bash
# The verdict claims exactly what was tested, and nothing more: end to end,
# with implementations that misbehave on purpose (the process protocol's
# reference adapter and the faulty plugin). Each block names what it keeps
# from coming back: a baseline that turns failures into "conformant", a
# baseline line that matches another status, a broken GPU stack judged as
# the oracle, a subset that claims conformance, a backend call in this
# process that never returns, reports deleted by a refused run or replaced
# silently, an adapter's children that outlive the run, a case defined
# twice that runs twice, exit statuses that mix setup errors with failures,
# merge overwriting its own shard or reading a named pipe, half a shard.
# Usage: test_verdict.sh DMLCONF SOURCE_DIR WORK_DIR TEST_ADAPTER FAULTY_PLUGIN
set -u
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
dmlconf=$1
source_dir=$2
work=$3
adapter=$4
plugin=$5
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# A field of a report folder's summary.json, by a Python expression on `s`.
summary() {
    python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print($2)" "$1/summary.json"
}
# The verdict testcase's element in junit.xml: pass, failure or error.
junit_verdict() {
    python3 - "$1/junit.xml" "${2:-verdict}" <<'PY'
import sys, xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).iter("testcase"):
    if case.get("name") == sys.argv[2] and case.get("classname") == "dmlconf.run":
        kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        print(kinds[0] if kinds else "pass")
        break
else:
    print("missing")
PY
}
# Every report of a folder agrees: summary.json's verdict text and exit
# status, summary.md, report.html and the JUnit verdict testcase.
agree() {
    # agree DESCRIPTION DIR TEXT EXIT_STATUS JUNIT_KIND
    local description=$1 dir=$2 text=$3 status=$4 kind=$5
    expect "$description: summary.json says '$text'" test "$(summary "$dir" "s['verdict']['text']")" = "$text"
    expect "$description: summary.json's exit status is $status" \
        test "$(summary "$dir" "s['verdict']['exit_status']")" = "$status"
    expect "$description: summary.md says it" grep -qF "**Verdict: $text**" "$dir/summary.md"
    expect "$description: report.html says it" grep -qF "<div class=\"text\">$text</div>" "$dir/report.html"
    expect "$description: the JUnit verdict is $kind" test "$(junit_verdict "$dir")" = "$kind"
}

# ---- a baseline never makes a failing run conformant (1) ---------------------------

# The reference adapter answers every job of 12 elements wrongly: over the
# whole corpus, some cases fail.
"$dmlconf" run --backend exec -q -o wrong -- "$adapter" --validates --mode wrong --trigger-elements 12
check "a wrong adapter over the whole corpus" 1 $?
agree "the wrong adapter" wrong "not conformant" 1 failure
mkdir -p base
cp wrong/failures.txt base/failures.txt
expect "the wrong adapter failed some cases" test -s base/failures.txt
# Every failure listed as known: no regressions (exit 0), and still not
# conformant, in every report.
"$dmlconf" run --backend exec -q --baseline base -o known -- "$adapter" --validates --mode wrong \
    --trigger-elements 12
check "every failure known to the baseline: no regressions" 0 $?
agree "known failures" known "not conformant" 0 failure
expect "known failures: never conformant" test "$(summary known "s['verdict']['conformant']")" = False
expect "known failures: the baseline's own answer" \
    test "$(summary known "s['verdict']['baseline']['answer']")" = no-regressions
expect "known failures: its own JUnit testcase passes" test "$(junit_verdict known no-regressions)" = pass
expect "known failures: the detail counts them" grep -q "of them known failures of the baseline" known/summary.md
# The same run with a correct adapter: every known failure passes, which
# the baseline must hear of (it is out of date).
"$dmlconf" run --backend exec -q --baseline base -o fixed -- "$adapter" --validates
check "known failures that now pass: the baseline is out of date" 1 $?
expect "out of date: regressions" test "$(summary fixed "s['verdict']['baseline']['answer']")" = regressions
expect "out of date: the JUnit testcase fails" test "$(junit_verdict fixed no-regressions)" = failure
expect "out of date: conformant all the same" test "$(summary fixed "s['verdict']['text']")" = "conformant at level 6_4"

# ---- a baseline line matches only its recorded status (2) --------------------------

cat > one.yaml <<'YAML'
defaults: {op: cumulative_summation, dtype: float32, axis: 0}
cases:
  - {id: one.a, sizes: [5], input: [1, 2, 3, 4, 5]}
  - {id: one.trigger, sizes: [7], input: [1, 2, 3, 4, 5, 6, 7]}
YAML
mkdir -p known-fail
printf 'one.trigger,fail\n' > known-fail/failures.txt
for mode in crash hang; do
    "$dmlconf" run --backend exec -q --no-rerun --timeout 4 --baseline known-fail -o "status-$mode" one.yaml \
        -- "$adapter" --mode "$mode" 2>/dev/null
    check "a known failure that now ends in a $mode: a regression" 1 $?
    expect "$mode: not expected" test "$(grep -c '"status":"expected-fail"' "status-$mode/results.jsonl")" -eq 0
    expect "$mode: it says what the baseline expected" grep -q "the baseline expects fail" "status-$mode/results.jsonl"
    expect "$mode: regressions" test "$(summary "status-$mode" "s['verdict']['baseline']['answer']")" = regressions
done
"$dmlconf" run --backend exec -q --no-rerun --baseline known-fail -o status-fail one.yaml -- "$adapter" --mode wrong
check "a known failure that still fails: no regressions" 0 $?
expect "still fails: expected, with the status it had" grep -q '"status":"expected-fail","failure":"values","known_status":"fail"' status-fail/results.jsonl

# ---- a backend that cannot open is a setup error, never the oracle (4) -------------

# No Vulkan driver at all: the default backend (d3d12) cannot open.
env VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json "$dmlconf" run -q -o nogpu one.yaml \
    >nogpu.txt 2>&1
check "no usable GPU stack: a setup error" 3 $?
expect "no GPU: never the oracle in its place" bash -c '! grep -qi "oracle" nogpu.txt'
expect "no GPU: nothing was judged" test ! -e nogpu/results.jsonl
expect "no GPU: junit.xml says the run could not start" test "$(junit_verdict nogpu)" = error
expect "no GPU: summary.json too" test "$(summary nogpu "s['verdict']['status']")" = setup-error
# The oracle asked for by name is the self-check, never "conformant".
"$dmlconf" run --backend oracle -q -j 2 -o self
check "the self-check over the whole corpus" 0 $?
agree "the self-check" self "self-check passed" 0 pass
expect "the self-check claims no conformance" \
    test "$(summary self "s['verdict']['scope']['claims_conformance']")" = False

# ---- a subset never claims conformance (5) -----------------------------------------

"$dmlconf" run --backend exec -q -f 'doc.*' -o subset -- "$adapter" --validates
check "a filtered subset" 0 $?
agree "a filtered subset" subset passed 0 pass
expect "subset: its scope names the filter" test "$(summary subset "s['verdict']['scope']['text']")" = \
    "a subset of the reference corpus (filter 'doc.*': 8 of $(summary self "s['counts']['cases']") cases loaded); no conformance claim"
"$dmlconf" run --backend exec -q --shard 1/3 -o shard -- "$adapter" --validates
check "one shard of three" 0 $?
agree "one shard" shard passed 0 pass
expect "shard: its scope names the shard" test "$(summary shard "s['verdict']['scope']['detail']")" = "shard 1/3"
"$dmlconf" run --backend exec -q -o own one.yaml -- "$adapter" --validates
check "a file of one's own" 0 $?
agree "a file of one's own" own passed 0 pass
# The whole corpus named folder by folder is the whole corpus.
"$dmlconf" run --backend exec -q -o named "$source_dir/cases/doc" "$source_dir/cases/conformance" \
    "$source_dir/cases/edge" "$source_dir/cases/negative" "$source_dir/cases/explore" -- "$adapter" --validates
check "the corpus named folder by folder" 0 $?
agree "the corpus named folder by folder" named "conformant at level 6_4" 0 pass
# Its shards merged are the whole corpus again.
for index in 0 1 2; do
    "$dmlconf" run --backend exec -q --shard $index/3 -o "part$index" -- "$adapter" --validates
done
"$dmlconf" merge -o merged part0 part1 part2 >/dev/null
check "every shard merged" 0 $?
agree "every shard merged" merged "conformant at level 6_4" 0 pass
"$dmlconf" merge --partial -o two-of-three part0 part1 >/dev/null 2>&1
check "two shards of three, merged partly" 2 $?
agree "a partial merge" two-of-three incomplete 2 error

# ---- half a shard is refused, not the whole corpus (23) -----------------------------

TEST_SHARD_INDEX=1 "$dmlconf" run --backend oracle -q -o half one.yaml 2>half.txt
check "TEST_SHARD_INDEX without TEST_TOTAL_SHARDS" 3 $?
expect "half a shard: says which is missing" grep -q "TEST_SHARD_INDEX is set but TEST_TOTAL_SHARDS is not" half.txt
TEST_TOTAL_SHARDS=2 "$dmlconf" run --backend oracle -q -o half one.yaml 2>half.txt
check "TEST_TOTAL_SHARDS without TEST_SHARD_INDEX" 3 $?

# ---- a backend call in this process that never returns (10) ------------------------

# Cases the faulty plugin runs: int32 inclusive increasing sums.
cat > int.yaml <<'YAML'
defaults: {op: cumulative_summation, dtype: int32, axis: 0}
cases:
  - {id: int.a, sizes: [5], input: [1, 2, 3, 4, 5]}
  - {id: int.b, sizes: [2, 3], axis: 1, input: [1, 2, 3, 4, 5, 6]}
YAML
start=$SECONDS
DMLCONF_TEST_PLUGIN_FAULT=hang timeout 60 "$dmlconf" run --backend "plugin:$plugin" -j 0 --timeout 3 -q \
    -o stuck int.yaml 2>stuck.txt
status=$?
expect "-j 0, a call that never returns: ended by --timeout ($status, $((SECONDS - start)) s)" \
    test $((SECONDS - start)) -lt 30
check "-j 0, a call that never returns" 2 $status
expect "-j 0: it says why" grep -q "the backend did not return within 3 s" stuck.txt
expect "-j 0: the reports say interrupted" test "$(summary stuck "s['verdict']['status']")" = interrupted
start=$SECONDS
DMLCONF_TEST_PLUGIN_FAULT=hang timeout 60 "$dmlconf" run --backend "plugin:$plugin" -j 0 --timeout 0 -q \
    -o stuck-term int.yaml 2>stuck-term.txt &
pid=$!
# Once the run has begun its reports it is in the hanging call, its
# handlers set (however loaded the machine).
for _ in $(seq 1 300); do
    test -s stuck-term/results.jsonl && break
    sleep 0.1
done
sleep 1
start=$SECONDS
kill -TERM "$pid"
wait "$pid"
status=$?
expect "-j 0: one SIGTERM ends it ($status, $((SECONDS - start)) s after it)" test $((SECONDS - start)) -lt 15
check "-j 0: one SIGTERM" 2 $status
expect "-j 0 SIGTERM: the reports say interrupted" test "$(summary stuck-term "s['verdict']['status']")" = interrupted
# The same signal twice at once (as `timeout` sends it to the process and to
# its group) is one request, not the second that ends the run unreported.
DMLCONF_TEST_PLUGIN_FAULT=hang "$dmlconf" run --backend "plugin:$plugin" -j 0 --timeout 0 -q \
    -o stuck-twice int.yaml 2>stuck-twice.txt &
pid=$!
for _ in $(seq 1 300); do
    test -s stuck-twice/results.jsonl && break
    sleep 0.1
done
sleep 1
kill -TERM "$pid"
kill -TERM "$pid"
wait "$pid"
check "-j 0: SIGTERM twice at once" 2 $?
expect "-j 0 SIGTERM twice at once: the reports say interrupted" \
    test "$(summary stuck-twice "s['verdict']['status']")" = interrupted

# ---- a refused run deletes nothing, and no run replaces another silently (12, 13) ---

"$dmlconf" run --backend oracle -q -o keep one.yaml; check "a run to keep" 0 $?
cp keep/summary.json keep-summary.json
"$dmlconf" run --backend oracle -q -o keep one.yaml 2>again.txt
check "a second run into its folder" 3 $?
expect "refused: it says the folder holds a run" grep -q "holds the reports of an earlier run" again.txt
expect "refused: --overwrite is named" grep -q -- "--overwrite" again.txt
"$dmlconf" run --backend oracle -q --resume -o keep one.yaml 2>/dev/null
check "--resume of a finished run" 3 $?
"$dmlconf" run --backend oracle -q --overwrite -f 'no.such.*' -o keep one.yaml 2>/dev/null
check "a filter that matches nothing" 2 $?
"$dmlconf" run --backend nosuch -q --overwrite -o keep one.yaml 2>/dev/null
check "an unknown backend" 3 $?
for file in results.jsonl summary.json junit.xml summary.md report.html failures.txt; do
    expect "refused runs left $file" test -f "keep/$file"
done
expect "refused runs left summary.json as it was" cmp -s keep/summary.json keep-summary.json
"$dmlconf" run --backend oracle -q --overwrite -o keep one.yaml; check "--overwrite replaces it" 0 $?

# ---- an adapter's children end with it (14) ----------------------------------------

cat > wrapper.sh <<SH
#!/usr/bin/env bash
# A wrapper that does not exec: the adapter is its child.
"$adapter" --mode orphan "\$@"
SH
chmod +x wrapper.sh
start=$SECONDS
# A CI step waits for the end of the output: every process holding it must go.
timeout 60 bash -c "'$dmlconf' run --backend exec -q -j 1 -o orphans one.yaml -- ./wrapper.sh | cat >/dev/null"
check "an adapter behind a wrapper, with a helper of its own" 0 $?
expect "the pipe closed when dmlconf ended ($((SECONDS - start)) s)" test $((SECONDS - start)) -lt 30
sleep 0.5
expect "no process of the adapter is left" bash -c "! pgrep -f -- '--mode [o]rphan' >/dev/null"
pkill -f -- '--mode [o]rphan' 2>/dev/null

# ---- a case defined twice runs once (18) -------------------------------------------

cp one.yaml one.orig.yaml
"$dmlconf" run --backend oracle -q -o twice one.yaml one.orig.yaml 2>twice.txt
check "a stray copy of a case file" 2 $?
expect "twice: the duplicates are errors" grep -q "duplicate id 'one.a'" twice.txt
expect "twice: each case ran once" test "$(grep -c '"id":"one.a"' twice/results.jsonl)" -eq 1
expect "twice: incomplete" test "$(summary twice "s['verdict']['status']")" = incomplete

# ---- exit statuses say what happened (20) ------------------------------------------

"$dmlconf" run --backend exec -q -o missing-adapter one.yaml -- ./no-such-adapter 2>/dev/null
check "a missing adapter script: a setup error" 3 $?
expect "a missing adapter: junit.xml says why" grep -q "no-such-adapter" missing-adapter/junit.xml
"$dmlconf" run --backend oracle -q -f 'nothing.*' -o nothing one.yaml 2>/dev/null
check "no case matches: incomplete, not a usage error" 2 $?
expect "no case matches: junit.xml says nothing was judged" test "$(junit_verdict nothing)" = error
"$dmlconf" run --backend oracle -q --frobnicate 2>/dev/null
check "a usage error" 3 $?
# Conformant only for what it supports: every output agrees it is not a pass.
"$dmlconf" run --backend exec -q -o narrow -- "$adapter" --validates --types float32,int32,uint32
check "a backend that does not support every type" 2 $?
agree "not covered" narrow "conformant at level 6_4 for what it supports" 2 error

# ---- merge never overwrites its own shards, and never blocks on a pipe (22, 8) -----

"$dmlconf" merge -o part0 part0 part1 part2 2>merge-self.txt
check "merge into one of its own shards" 2 $?
expect "merge into a shard: says so" grep -q "is where the shard" merge-self.txt
expect "merge into a shard: the shard is whole" test "$(summary part0 "s['verdict']['scope']['detail']")" = "shard 0/3"
mkdir -p piped
mkfifo piped/results.jsonl
timeout 20 "$dmlconf" merge -o from-pipe piped part1 2>pipe.txt
check "merge of a shard whose results.jsonl is a named pipe (124: it hung)" 2 $?
expect "merge of a pipe: says so" grep -q "is a named pipe (FIFO), not a regular file" pipe.txt

finish
