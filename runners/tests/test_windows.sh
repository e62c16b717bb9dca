#!/usr/bin/env bash
# dmlconf.exe under Wine on lavapipe, as CI runs it: one part per call.
#   oracle     the oracle backend's self-check over the whole corpus
#   d3d12      the d3d12 backend (d3d12.dll and DXGI under Wine) over the
#              whole corpus: conformant at 5_0, as on Linux
#   directml   DirectML.dll's own operators: the documentation's examples
#              pass bit for bit; the whole corpus matches the committed
#              baseline of findings (reports/directml/baseline), and a
#              corpus run really executed cases
#   directml_4_0  the same with DirectML's device created for level 4_0
#   explore    dmlconf explore on the oracle, its workers loading each round
#              from a case file
#   missing    DirectML that cannot be found: one sentence, no crash
#   adapters   `dmlconf adapters` names DirectML's version, level and types
#   exec       --backend exec with the process protocol's reference adapter
#              (dmlconf_test_adapter.exe, the 5th argument): correct, it
#              passes; crashing or hanging, it costs only the case it hit,
#              with its last words; dmlconf explore through it passes
#   docgen     `dmlconf docgen update` replaces an existing page (Windows'
#              rename does not replace a file: the update goes through
#              common's atomic replacement), twice, leaving no temporary
#              file beside it
#   plugin     the example plugin as a DLL (the 5th argument): it passes the
#              documentation's examples, the negative cases are not covered
#              (it does not validate), and a file that is not a DLL is one
#              sentence
# Usage: test_windows.sh PART DMLCONF_EXE SOURCE_DIR WORK_DIR [ADAPTER_EXE | EXAMPLE_PLUGIN_DLL]
set -uo pipefail

part=$1
exe=$2
source_dir=$3
work=$4
plugin=${5:-}
wine_run=(bash "$source_dir/tools/wine-run.sh" "$exe")
rm -rf "$work"
mkdir -p "$work"
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# A field of a report's summary.json, by a Python expression on `s`.
summary() {
    python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print($2)" "$1/summary.json"
}

expect_exit() {
    local expected=$1 actual=$2 what=$3
    [ "$actual" -eq "$expected" ] || fail "$what exited with $actual, expected $expected"
}

case "$part" in
oracle)
    "${wine_run[@]}" run --backend oracle -j 2 -q -o "$work/out"
    expect_exit 0 $? "the oracle self-check"
    [ "$(summary "$work/out" "s['counts']['pass']")" -gt 4000 ] || fail "the self-check passed too few cases"
    [ "$(summary "$work/out" "s['verdict']['text']")" = "self-check passed" ] || fail "oracle verdict"
    [ "$(summary "$work/out" "s['verdict']['scope']['kind']")" = "corpus" ] || fail "oracle scope"
    ;;
d3d12)
    "${wine_run[@]}" run --backend d3d12 -l 5_0 -j 2 -q -o "$work/out"
    expect_exit 0 $? "the d3d12 backend's corpus run"
    [ "$(summary "$work/out" "s['verdict']['text']")" = "conformant at level 5_0" ] ||
        fail "d3d12 verdict: $(summary "$work/out" "s['verdict']")"
    grep -q "Wine" "$work/out/summary.json" || fail "the report does not say the runtime is Wine's"
    ;;
directml)
    "${wine_run[@]}" run --backend directml -j 2 -q -o "$work/doc" "$source_dir/cases/doc"
    expect_exit 0 $? "DirectML on the documentation's examples"
    [ "$(summary "$work/doc" "s['verdict']['text']")" = "passed" ] || fail "DirectML on the examples: not passed"
    [ "$(summary "$work/doc" "s['counts']['pass']")" -eq 8 ] || fail "DirectML did not pass all 8 examples"
    "${wine_run[@]}" run --backend directml -j 2 -q --baseline "$source_dir/reports/directml/baseline" \
        -o "$work/corpus"
    status=$?
    expect_exit 0 $status "DirectML over the corpus against its baseline"
    # Known failures leave it not conformant; the baseline's answer is what
    # the exit status follows.
    [ "$(summary "$work/corpus" "s['verdict']['baseline']['answer']")" = "no-regressions" ] ||
        fail "DirectML: the baseline's answer is $(summary "$work/corpus" "s['verdict']['baseline']")"
    [ "$(summary "$work/corpus" "s['verdict']['conformant']")" = "False" ] ||
        fail "DirectML with known failures said conformant"
    if [ $status -ne 0 ]; then
        python3 - "$work/corpus/results.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("status") in ("fail", "error", "crash", "timeout", "unexpected-pass"):
        print("  ", r["id"], r["status"], r.get("message", "")[:200])
PY
    fi
    [ "$(summary "$work/corpus" "s['counts']['pass']")" -gt 2900 ] || fail "DirectML passed too few cases to have run"
    grep -q '"runtime":"DirectML 1.15.4.0' "$work/corpus/results.jsonl" || fail "the report does not name DirectML 1.15.4.0"
    ;;
directml_4_0)
    # A device created for feature level 4_0: the 64-bit types' positive
    # cases are above the target; the negative cases below 5_0 are judged.
    "${wine_run[@]}" run --backend directml -l 4_0 -j 2 -q --baseline "$source_dir/reports/directml/baseline-4_0" \
        -o "$work/corpus"
    expect_exit 0 $? "DirectML at 4_0 over the corpus against its baseline"
    [ "$(summary "$work/corpus" "s['run']['target_level']")" = "4_0" ] || fail "the run did not target 4_0"
    [ "$(summary "$work/corpus" "s['counts']['expected-fail']")" -eq 7 ] || fail "expected the 7 known failures"
    ;;
explore)
    # Random cases with spawned workers that load each round from a case
    # file: every case passes on the oracle, the same cases as on Linux.
    "${wine_run[@]}" explore --backend oracle --cases 1500 -j 2 -q --no-corpus -o "$work/out"
    expect_exit 0 $? "explore on the oracle"
    grep -q '^coverage: [0-9]* of the 24768 cells allowed here exercised' "$work/out/coverage.txt" ||
        fail "no coverage table: $(head -1 "$work/out/coverage.txt")"
    grep -q '"next_index":1500' "$work/out/explore-state.json" || fail "explore did not judge 1500 cases"
    [ ! -e "$work/out/explore-round.yaml" ] || fail "the last round's case file was left behind"
    ;;
missing)
    output=$(DMLCONF_DIRECTML_DLL='C:\nowhere\DirectML.dll' "${wine_run[@]}" run --backend directml -j 1 -q \
        -o "$work/out" "$source_dir/cases/doc" 2>&1)
    status=$?
    [ $status -eq 3 ] || fail "a missing DirectML exited with $status, expected 3 (a setup error)"
    echo "$output" | grep -q "DirectML cannot be loaded from DMLCONF_DIRECTML_DLL=C:.nowhere.DirectML.dll" ||
        fail "no clear sentence for a missing DirectML: $output"
    ;;
adapters)
    output=$("${wine_run[@]}" adapters 2>&1)
    expect_exit 0 $? "dmlconf adapters"
    echo "$output" | grep -q "DirectML 1.15.4.0" || fail "adapters does not show DirectML's version: $output"
    echo "$output" | grep -q "feature levels up to 6_4, data types FLOAT32 FLOAT16 INT32 UINT32 INT64 UINT64" ||
        fail "adapters does not show DirectML's level and types: $output"
    echo "$output" | grep -q "under Wine" || fail "adapters does not say the adapter is Wine's: $output"
    ;;
exec)
    # Wine's own path for the adapter (its Z: drive is the root).
    adapter="Z:${5//\//\\}"
    cat > "$work/cases.yaml" <<'YAML'
defaults: {op: cumulative_summation, dtype: float32, axis: 0}
cases:
  - {id: exec.a, sizes: [5], input: [1, 2, 3, 4, 5]}
  - {id: exec.trigger, sizes: [7], input: [1, 2, 3, 4, 5, 6, 7]}
  - {id: exec.b, dtype: int64, op: cumulative_product, sizes: [2, 2], axis: 1, direction: decreasing, input: [1, 2, 3, 4]}
YAML
    # The result of a case, "status|message".
    outcome() {
        python3 -c "import json,sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get('id') == sys.argv[2]: print(r['status'] + '|' + r['message'])" "$work/$1/results.jsonl" "$2"
    }
    "${wine_run[@]}" run --backend exec -j 2 -q -o "$work/good" "$source_dir/cases/doc" "$work/cases.yaml" -- "$adapter"
    expect_exit 0 $? "a correct adapter"
    [ "$(summary "$work/good" "s['counts']['pass']")" -eq 11 ] || fail "the correct adapter did not pass 11 cases"
    for mode in crash hang; do
        "${wine_run[@]}" run --backend exec -j 1 -q --no-rerun --timeout 8 -o "$work/$mode" "$work/cases.yaml" \
            -- "$adapter" --mode "$mode"
        expect_exit 1 $? "a $mode"
        case "$mode" in
        crash) words="about to crash on purpose" ;;
        hang) words="stuck for ever" ;;
        esac
        [[ "$(outcome "$mode" exec.trigger)" == error*"$words"* ]] ||
            fail "$mode: the trigger case is $(outcome "$mode" exec.trigger)"
        for id in exec.a exec.b; do
            [[ "$(outcome "$mode" "$id")" == pass* ]] || fail "$mode: $id is $(outcome "$mode" "$id")"
        done
    done
    # dmlconf explore through the adapter: spawned workers each start it.
    "${wine_run[@]}" explore --backend exec --cases 300 -j 2 -q --no-corpus -o "$work/explore" -- "$adapter"
    expect_exit 0 $? "explore through a correct adapter"
    grep -q '"next_index":300' "$work/explore/explore-state.json" || fail "explore through exec did not judge 300 cases"
    ;;
docgen)
    original="$source_dir/docgen/tests/pages/summation.en.md"
    page="$work/summation.en.md"
    for value in 11 12; do
        cp "$original" "$page"
        chmod u+w "$page"
        sed -i "s/^\\[\\[4, 3, 3, 10\\],/[[4, 3, 3, $value],/" "$page"
        cmp -s "$original" "$page" && fail "the page was not changed for the test"
        output=$("${wine_run[@]}" docgen update "$page" 2>&1)
        expect_exit 0 $? "docgen update of a page with a wrong value ($value)"
        echo "$output" | grep -q "1 of 7 example blocks updated" || fail "docgen update ($value): $output"
        cmp -s "$original" "$page" || fail "docgen update did not replace the page ($value): $(diff "$original" "$page")"
    done
    leftovers=$(ls -A "$work" | grep -v '^summation.en.md$')
    [ -z "$leftovers" ] || fail "docgen update left files beside the page: $leftovers"
    ;;
plugin)
    "${wine_run[@]}" run --backend "plugin:$plugin" -j 2 -q -o "$work/out" "$source_dir/cases/doc" \
        "$source_dir/cases/negative"
    expect_exit 2 $? "the example plugin's run (not covered: incomplete)"
    [ "$(summary "$work/out" "s['counts']['pass']")" -eq 8 ] || fail "the plugin did not pass the 8 examples"
    [ "$(summary "$work/out" "s['verdict']['text']")" = "passed for what it supports" ] ||
        fail "plugin verdict: $(summary "$work/out" "s['verdict']")"
    [ "$(summary "$work/out" "[g['needs'] for g in s['verdict']['not_covered']['groups']]")" = "['validation']" ] ||
        fail "not covered: $(summary "$work/out" "s['verdict']['not_covered']")"
    echo "not a library" >"$work/text.dll"
    output=$("${wine_run[@]}" run --backend "plugin:$work/text.dll" -q -o "$work/refused" "$source_dir/cases/doc" 2>&1)
    expect_exit 3 $? "a plugin that is not a DLL"
    echo "$output" | grep -q "cannot load the plugin .*text.dll: it is not a library this system can load" ||
        fail "no clear sentence for a file that is not a DLL: $output"
    ;;
*)
    echo "test_windows.sh: unknown part '$part'" >&2
    exit 2
    ;;
esac

if [ $failures -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
