#!/usr/bin/env bash
# Case lists: --caselist FILE (ids and globs, comments, standard input,
# several lists), -f @FILE, how they combine with -f, a line that names no
# case (a warning with file:line, and an incomplete run), a list that
# cannot be read (a setup error), --rerun-failures DIR, and the verdict's
# scope: a list never claims the corpus unless it selects every case.
# Usage: test_caselist.sh DMLCONF ADAPTER WORK_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
dmlconf=$1
adapter=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

summary() {
    python3 -c "import json, sys; s = json.load(open('$1/summary.json')); print($2)"
}
ran() {
    python3 -c "
import json
ids = sorted(json.loads(l)['id'] for l in open('$1/results.jsonl') if '\"id\"' in l and '\"record\"' not in l)
print(' '.join(ids))"
}

cat > list.txt <<'LIST'
# doc examples for the smoke test
doc.sum.example1
doc.prod.example*     # every product example

   doc.sum.example3
LIST

# Ids, a glob, comments, blanks: exactly the cases listed run.
"$dmlconf" run -q --backend oracle -j 2 -o listed --caselist list.txt 2>err.txt
check "a case list" 0 $?
expect "the listed cases ran, and no other" test "$(ran listed)" = \
    "doc.prod.example1 doc.prod.example2 doc.prod.example3 doc.prod.example4 doc.sum.example1 doc.sum.example3"
expect "nothing on stderr" test ! -s err.txt
expect "the scope is a subset that names the list" test "$(summary listed "s['verdict']['scope']['kind']")" = subset
expect "the scope's detail names the list" grep -q "case list list.txt: 6 of [0-9]* cases loaded" listed/summary.md

# -f @FILE is --caselist FILE; - reads standard input.
"$dmlconf" run -q --backend oracle -j 2 -o at -f @list.txt; check "-f @FILE" 0 $?
expect "-f @FILE runs what --caselist runs" test "$(ran at)" = "$(ran listed)"
"$dmlconf" run -q --backend oracle -j 2 -o stdin --caselist - < list.txt; check "--caselist -" 0 $?
expect "a list on standard input runs the same" test "$(ran stdin)" = "$(ran listed)"
"$dmlconf" run -q --backend oracle -j 2 -o stdin2 -f @- --caselist - < list.txt 2>err.txt
check "standard input twice" 3 $?
expect "standard input twice is said" grep -q "standard input is given as a case list twice" err.txt

# Lists add up; the filters narrow what they list.
echo "doc.sum.example2" > more.txt
"$dmlconf" run -q --backend oracle -j 2 -o two --caselist list.txt --caselist more.txt; check "two lists" 0 $?
expect "two lists add up" test "$(ran two | wc -w)" -eq 7
"$dmlconf" run -q --backend oracle -j 2 -o narrowed --caselist list.txt -f 'doc.prod.*' -f '!*example4'
check "a list and filters" 0 $?
expect "the filters narrow the list" test "$(ran narrowed)" = "doc.prod.example1 doc.prod.example2 doc.prod.example3"
detail=$(summary narrowed "s['verdict']['scope']['detail']")
expect "the scope names both" test "${detail% of *}" = "filter 'doc.prod.*' '!*example4'; case list list.txt: 3"
"$dmlconf" run -q --backend oracle -j 2 -o disjoint --caselist more.txt -f 'doc.prod.*' 2>err.txt
check "a list and a filter with nothing in common" 2 $?
expect "nothing to run is said" grep -q "no id among the [0-9]* cases loaded matches the filters and case lists" err.txt

# A line that names no case: a warning with its file and line, and the
# run is incomplete (what the list asked for did not run).
printf 'doc.sum.example1\n# a comment\nno.such.case\ndoc.nothing.*\n' > stale.txt
"$dmlconf" run --backend oracle -j 2 -o stale --caselist stale.txt > out.txt 2>err.txt
check "a list with lines that name no case" 2 $?
expect "the id's line is named" grep -q "^dmlconf run: stale.txt:3: warning: the case list names no case loaded: 'no.such.case'" err.txt
expect "the glob's line is named" grep -q "^dmlconf run: stale.txt:4: warning: .*'doc.nothing.\*'" err.txt
expect "the listed case still ran" test "$(ran stale)" = "doc.sum.example1"
expect "the verdict is incomplete" test "$(summary stale "s['verdict']['status']")" = incomplete
expect "the verdict says why" grep -q "2 errors in the case files or case lists kept cases out" out.txt
expect "the reports name the line" grep -q "stale.txt:3:1" stale/summary.md
expect "junit.xml names the list" grep -q 'file="stale.txt"' stale/junit.xml

# A list that cannot be read is a setup error that names it, written
# into the reports.
"$dmlconf" run -q --backend oracle -o missing --caselist no-such-list.txt 2>err.txt
check "a missing list" 3 $?
expect "the missing list is named" grep -q "case list: no-such-list.txt: cannot open" err.txt
expect "the reports say why" test "$(summary missing "s['verdict']['status']")" = setup-error
mkdir -p folder
"$dmlconf" run -q --backend oracle -o folder-list --caselist folder 2>err.txt
check "a folder as a list" 3 $?
expect "a folder is not a list" grep -q "case list: folder: is a directory" err.txt

# Every case of the corpus listed is the corpus; all but one is a subset.
"$dmlconf" list > all-lines.txt 2>/dev/null; check "dmlconf list" 0 $?
cut -d' ' -f1 all-lines.txt > all.txt
"$dmlconf" run -q --backend oracle -j 2 -o everything --caselist all.txt; check "every case listed" 0 $?
expect "every case listed is the corpus" test "$(summary everything "s['verdict']['scope']['kind']")" = corpus
tail -n +2 all.txt > all-but-one.txt
"$dmlconf" run -q --backend oracle -j 2 -o all-but-one --caselist all-but-one.txt
check "every case but one listed" 0 $?
expect "all but one is a subset" test "$(summary all-but-one "s['verdict']['scope']['kind']")" = subset
"$dmlconf" run -q --backend oracle -j 2 -o all-but-one-sharded --shard 1/2 --caselist all-but-one.txt
check "a shard of a list" 0 $?
expect "a shard of a list has the list's digest" test \
    "$(grep -o '"digest":"[0-9a-f]*"' all-but-one-sharded/results.jsonl)" = \
    "$(grep -o '"digest":"[0-9a-f]*"' all-but-one/results.jsonl)"

# --rerun-failures: the cases that did not pass, and no other.
"$dmlconf" run -q --backend exec -j 2 -f 'doc.*' -f 'edge.*' -o broken -- "$adapter" --mode wrong --trigger-elements 12
check "a run with failures" 1 $?
expect "the broken run failed the 12-element cases" test "$(wc -l < broken/failures.txt)" -ge 8
"$dmlconf" run -q --backend exec -j 2 --rerun-failures broken -o rerun -- "$adapter"
check "the failures rerun on a fixed adapter" 0 $?
expect "exactly the cases that did not pass ran" test "$(ran rerun | tr ' ' '\n')" = "$(cut -d, -f1 broken/failures.txt)"
expect "the scope names the earlier run" grep -q "the cases that did not pass in broken:" rerun/summary.md
"$dmlconf" run -q --backend exec -j 2 --rerun-failures rerun -o rerun2 -- "$adapter" 2>err.txt
check "nothing to rerun" 2 $?
expect "nothing to rerun is said" grep -q "every case of the run in rerun/ passed or was skipped" err.txt
"$dmlconf" run -q --backend oracle --rerun-failures no-such-run -o rerun3 2>err.txt
check "--rerun-failures without a run" 3 $?
expect "the missing results are named" grep -q -- "--rerun-failures: no-such-run/results.jsonl: cannot open" err.txt

finish
