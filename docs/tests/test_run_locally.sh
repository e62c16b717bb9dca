#!/usr/bin/env bash
# docs/ci/run-locally.sh with the oracle backend:
#   - the whole corpus in 3 shards: each shard runs its part, the merge is the
#     whole reference corpus and says "self-check passed", exit status 0, and
#     the JUnit file is there;
#   - a filtered part with an empty baseline: "no regressions", exit 0;
#   - the same with a baseline whose known failure passes (out of date): 1;
#   - the comparison with an accepted run: made by `dmlconf compare` when this
#     dmlconf has it (exit 0 against itself); otherwise the step says that
#     dmlconf has no compare command and the script exits 3, after a merge
#     that passed;
#   - a folder with reports is refused without --overwrite; a backend that
#     cannot open is a setup error (3).
# Usage: test_run_locally.sh RUN_LOCALLY_SH DMLCONF WORK_DIR
set -uo pipefail

script=$1
dmlconf=$2
work=$3
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
run() {
    local name=$1
    shift
    bash "$script" --dmlconf "$dmlconf" "$@" >"$work/$name.txt" 2>&1
}

# The whole corpus, in 3 shards.
run whole -n 3 -o "$work/whole" -- --backend oracle -j 2
status=$?
[ "$status" -eq 0 ] || fail "the whole corpus in shards exited with $status: $(tail -n 5 "$work/whole.txt")"
for index in 0 1 2; do
    [ "$(summary "$work/whole/shard-$index" "s['verdict']['scope']['kind']")" = "subset" ] ||
        fail "shard $index: scope $(summary "$work/whole/shard-$index" "s['verdict']['scope']")"
done
[ "$(summary "$work/whole/merged" "s['verdict']['text']")" = "self-check passed" ] ||
    fail "merged verdict: $(summary "$work/whole/merged" "s['verdict']")"
[ "$(summary "$work/whole/merged" "s['verdict']['scope']['kind']")" = "corpus" ] ||
    fail "the merged shards are not the whole reference corpus: $(summary "$work/whole/merged" "s['verdict']['scope']")"
[ "$(summary "$work/whole/merged" "s['counts']['pass']")" -gt 4000 ] || fail "the merged run passed too few cases"
grep -q '<testcase[^>]*name="verdict"' "$work/whole/merged/junit.xml" 2>/dev/null ||
    fail "the merged junit.xml has no verdict testcase"
grep -q "== JUnit: $work/whole/merged/junit.xml" "$work/whole.txt" || fail "the script does not name the JUnit file"
grep -q "no --accepted run given, no comparison made" "$work/whole.txt" ||
    fail "without --accepted the script does not say that no comparison was made"

# A folder that holds reports is refused, and left alone.
run again -n 3 -o "$work/whole" -- --backend oracle -j 2
status=$?
[ "$status" -eq 3 ] || fail "a second run into the same folder exited with $status, not 3"
grep -q "already holds reports" "$work/again.txt" || fail "refusal: $(cat "$work/again.txt")"
[ "$(summary "$work/whole/merged" "s['verdict']['text']")" = "self-check passed" ] ||
    fail "the refused run changed the earlier reports"

# A baseline: empty (no regressions), then out of date (a known failure passes).
mkdir -p "$work/baseline-empty" "$work/baseline-stale"
: >"$work/baseline-empty/failures.txt"
echo "doc.sum.example1,fail" >"$work/baseline-stale/failures.txt"
run empty -n 2 -o "$work/empty" --baseline "$work/baseline-empty" -- --backend oracle -j 2 -f 'doc.*'
status=$?
[ "$status" -eq 0 ] || fail "an empty baseline exited with $status: $(tail -n 5 "$work/empty.txt")"
[ "$(summary "$work/empty/merged" "s['verdict']['baseline']['answer']")" = "no-regressions" ] ||
    fail "an empty baseline: $(summary "$work/empty/merged" "s['verdict']['baseline']")"
run stale -n 2 -o "$work/stale" --baseline "$work/baseline-stale" -- --backend oracle -j 2 -f 'doc.*'
status=$?
[ "$status" -eq 1 ] || fail "a baseline whose known failure passes exited with $status, not 1"
[ "$(summary "$work/stale/merged" "s['verdict']['baseline']['answer']")" != "no-regressions" ] ||
    fail "a baseline whose known failure passes said no regressions"

# The comparison with an accepted run.
run compare -n 2 -o "$work/compare" --accepted "$work/whole/merged" -- --backend oracle -j 2
status=$?
if "$dmlconf" --help | grep -qE '^ +compare '; then
    [ "$status" -eq 0 ] || fail "compared with itself, the run exited with $status: $(tail -n 5 "$work/compare.txt")"
    [ -d "$work/compare/compare" ] || fail "dmlconf compare wrote nothing into $work/compare/compare"
else
    [ "$status" -eq 3 ] || fail "without dmlconf compare, asking for the comparison exited with $status, not 3"
    grep -q "NOT MADE: dmlconf [0-9.]* has no 'dmlconf compare' command" "$work/compare.txt" ||
        fail "without dmlconf compare, the script does not say so: $(tail -n 3 "$work/compare.txt")"
    [ "$(summary "$work/compare/merged" "s['verdict']['text']")" = "self-check passed" ] ||
        fail "the merge before the missing comparison did not pass"
fi

# A backend that cannot open is a setup error.
run setup -n 2 -o "$work/setup" -- --backend plugin:"$work/no-such-plugin.so" -j 2
status=$?
[ "$status" -eq 3 ] || fail "a plugin that does not exist exited with $status, not 3"

echo "run-locally.sh: $failures failures"
[ "$failures" -eq 0 ]
