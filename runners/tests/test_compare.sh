#!/usr/bin/env bash
# End-to-end tests of `dmlconf compare`: two runs of the protocol's
# reference adapter, correct and deliberately wrong (dmlconf_test_adapter's
# modes), compared both ways; each category of change, the exit statuses,
# the corpus refusal, changed cases, different scopes, the noise rule on
# device times, and results that cannot be read (a truncated line, a
# missing folder) with their file:line.
# Usage: test_compare.sh DMLCONF ADAPTER WORK_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
dmlconf=$1
adapter=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# Six cases; the adapter's faults act on the jobs of 4 input elements
# (cmp.four, cmp.four.excl) and leave the others right.
cat > cases.yaml <<'YAML'
defaults: {op: cumulative_summation, dtype: int32}
cases:
  - {id: cmp.four, sizes: [4], axis: 0, input: [1, 2, 3, 4]}
  - {id: cmp.four.excl, sizes: [2, 2], axis: 1, exclusive: true, input: [1, 2, 3, 4]}
  - {id: cmp.three, sizes: [3], axis: 0, input: [5, 6, 7]}
  - {id: cmp.six, sizes: [2, 3], axis: 1, direction: decreasing, input: [1, 2, 3, 4, 5, 6]}
  - {id: cmp.product, op: cumulative_product, dtype: float32, sizes: [5], axis: 0, input: [1, 2, 3, 4, 5]}
  - {id: cmp.eight, dtype: uint32, sizes: [8], axis: 0, input: [1, 1, 1, 1, 1, 1, 1, 1]}
YAML
# The same ids, one of them another case (FLOAT32 now).
sed 's/{id: cmp.three, sizes: \[3\], axis: 0,/{id: cmp.three, dtype: float32, sizes: [3], axis: 0,/' cases.yaml > changed.yaml

json() { # FILE EXPRESSION: prints EXPRESSION over comparison.json's object `c`
    python3 -c "import json,sys; c=json.load(open(sys.argv[1])); x=($2); print(x)" "$1"
}
run_exec() { # DIR [ADAPTER ARGUMENTS...]
    local dir=$1
    shift
    "$dmlconf" run --backend exec -q --no-rerun --no-repro -o "$dir" cases.yaml -- "$adapter" "$@" 2>/dev/null
}

run_exec good; check "the correct adapter" 0 $?
run_exec wrong --mode wrong --trigger-elements 4; check "the adapter wrong on 4 elements" 1 $?
run_exec crash --mode crash --trigger-elements 4; check "the adapter crashing on 4 elements" 1 $?

# Regressions: the two cases of 4 elements, one cause; the exit status 1.
"$dmlconf" compare -o cmp-wrong good wrong >out.txt 2>err.txt; check "compare good wrong" 1 $?
expect "the console says the result" grep -q '^result: 2 regressions (0 fixes, 0 other status changes) (exit status 1)$' out.txt
expect "the console names a regression" grep -q '^  regressions: cmp.four: pass -> fail (values): ' out.txt
for file in comparison.md comparison.html comparison.json; do
    expect "$file written" test -s "cmp-wrong/$file"
done
expect "comparison.json: the regressions" test "$(json cmp-wrong/comparison.json "','.join(r['id'] for r in c['regressions'])")" = "cmp.four,cmp.four.excl"
expect "comparison.json: the answer" test "$(json cmp-wrong/comparison.json "c['answer']['token'], c['answer']['exit_status']")" = "('regressions', 1)"
expect "comparison.json: nothing else changed" test "$(json cmp-wrong/comparison.json "[c['counts'][k] for k in ('fixes', 'status_changes', 'added', 'removed', 'changed_cases')]")" = "[0, 0, 0, 0, 0]"
# Every case needs level 4_0: the columns below it hold none.
expect "comparison.json: the verdict per level, before and after" test "$(json cmp-wrong/comparison.json "c['old']['verdict']['text'], c['new']['verdict']['text'], [l['conformant'] for l in c['old']['verdict']['levels']][2], [l['conformant'] for l in c['new']['verdict']['levels']][2]")" = "('passed', 'failed', 'yes', 'no')"
expect "comparison.json: the regressions by cause" test "$(json cmp-wrong/comparison.json "len(c['regression_causes']), c['regression_causes'][0]['cases']")" = "(1, 2)"
expect "comparison.md: the result" grep -q '^\*\*Result: 2 regressions (0 fixes, 0 other status changes)\*\* (exit status 1)$' cmp-wrong/comparison.md
expect "comparison.md: the regressions" grep -q '^| `cmp.four` | pass | fail (values' cmp-wrong/comparison.md
expect "comparison.md: the verdict per level" grep -q '^| 4_0 | yes | no | changed |$' cmp-wrong/comparison.md
expect "comparison.html: the answer" grep -q 'id="answer" data-answer="regressions"' cmp-wrong/comparison.html
expect "comparison.html: no script" bash -c '! grep -qi "<script" cmp-wrong/comparison.html'
expect "comparison.html is well-formed" python3 -c "import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])" cmp-wrong/comparison.html

# Fixes, the other way round; no regressions: exit status 0.
"$dmlconf" compare -o cmp-fixed wrong/results.jsonl good >out.txt; check "compare wrong good" 0 $?
expect "two fixes" test "$(json cmp-fixed/comparison.json "c['counts']['fixes'], c['counts']['regressions']")" = "(2, 0)"
expect "the console says no regressions" grep -q '^result: no regressions (2 fixes, 0 other status changes) (exit status 0)$' out.txt
"$dmlconf" compare -q good good; check "a run against itself" 0 $?

# A failure that is now an error (the adapter died): another status
# change, no regression.
"$dmlconf" compare -o cmp-crash wrong crash >out.txt; check "compare wrong crash" 0 $?
expect "two other status changes" test "$(json cmp-crash/comparison.json "[(r['id'], r['old']['status'], r['new']['status']) for r in c['status_changes']]")" = "[('cmp.four', 'fail', 'error'), ('cmp.four.excl', 'fail', 'error')]"

# Different corpora are refused, saying how they differ; allowed, the
# cases only in one run are listed.
"$dmlconf" run --backend exec -q --no-rerun -f 'cmp.[ft]*' -o fewer cases.yaml -- "$adapter" 2>/dev/null
check "a subset of the cases" 0 $?
"$dmlconf" compare -o cmp-refused good fewer >out.txt 2>err.txt; check "different corpora refused" 2 $?
expect "the digests named" grep -q '^  the corpus digest is [0-9a-f]* in OLD, [0-9a-f]* in NEW$' err.txt
expect "the cases only in OLD named" grep -q '^  3 cases only in OLD: cmp.eight, cmp.product, cmp.six$' err.txt
expect "how to compare anyway" grep -q 'refused; --allow-different-corpus compares them anyway' err.txt
expect "nothing written when refused" test ! -e cmp-refused/comparison.json
"$dmlconf" compare --allow-different-corpus -o cmp-allowed good fewer >out.txt 2>err.txt
check "different corpora allowed" 0 $?
expect "the cases removed listed" test "$(json cmp-allowed/comparison.json "[r['id'] for r in c['removed']]")" = "['cmp.eight', 'cmp.product', 'cmp.six']"
expect "the corpus difference said" test "$(json cmp-allowed/comparison.json "c['corpus']['same'], c['corpus']['allowed']")" = "(False, True)"
expect "the scope differs (a subset) and it is said" grep -q '^THE SCOPES DIFFER: the scope: OLD is ' out.txt

# A case that changed under the same id.
"$dmlconf" run --backend exec -q --no-rerun -o changed changed.yaml -- "$adapter" 2>/dev/null; check "the changed cases" 0 $?
"$dmlconf" compare good changed >out.txt 2>err.txt; check "a changed case refused" 2 $?
expect "the changed case named" grep -q '^  1 case in both but not the same case: cmp.three (dtype INT32, now FLOAT32)$' err.txt

# Another scope: the self-check against the adapter is said, not refused.
"$dmlconf" run --backend oracle -q -o oracle cases.yaml; check "the self-check" 0 $?
"$dmlconf" compare -o cmp-scope oracle good >out.txt 2>err.txt; check "the self-check against the adapter" 0 $?
expect "the scope difference on the console" grep -q '^THE SCOPES DIFFER: the scope: OLD is the self-check' out.txt
expect "the scope difference in comparison.md" grep -q '^\*\*The scopes differ\*\*' cmp-scope/comparison.md
expect "the scope difference in comparison.json" test "$(json cmp-scope/comparison.json "c['scope_differs']")" = "True"

# Device times: slower or faster only beyond both thresholds, and only
# where both runs measured them.
python3 - good/results.jsonl timed-old.jsonl timed-new.jsonl <<'PY'
import json, sys
times = {  # id: (OLD, NEW) seconds on the device
    "cmp.four": (1e-3, 3e-3),       # 3x and 2 ms apart: slower
    "cmp.three": (1e-3, 1.2e-3),    # 1.2x: noise
    "cmp.six": (1e-6, 9e-6),        # 9x but 8 us apart: noise
    "cmp.product": (4e-4, 1e-4),    # 4x and 300 us apart: faster
    "cmp.eight": (-1.0, 5e-3),      # OLD did not measure it: not compared
}
lines = open(sys.argv[1]).read().splitlines()
for side, path in ((0, sys.argv[2]), (1, sys.argv[3])):
    with open(path, "w") as out:
        for line in lines:
            record = json.loads(line)
            if record.get("id") in times:
                record["backend_seconds"] = times[record["id"]][side]
            out.write(json.dumps(record) + "\n")
PY
"$dmlconf" compare -o cmp-time timed-old.jsonl timed-new.jsonl >out.txt; check "device times" 0 $?
expect "one slower, one faster" test "$(json cmp-time/comparison.json "[r['id'] for r in c['slower']], [r['id'] for r in c['faster']]")" = "(['cmp.four'], ['cmp.product'])"
expect "timed in both" test "$(json cmp-time/comparison.json "c['counts']['timed_in_both']")" = "4"
expect "the rule on the console" grep -q '^device time: 1 slower, 1 faster of 4 cases timed in both (ratio >= 1.5 and >= 20 us apart)$' out.txt
"$dmlconf" compare --time-ratio 1.1 --time-min-us 5 -o cmp-time2 timed-old.jsonl timed-new.jsonl >/dev/null
check "device times, tighter thresholds" 0 $?
expect "the tighter rule counts more, the largest ratio first" test "$(json cmp-time2/comparison.json "[r['id'] for r in c['slower']]")" = "['cmp.six', 'cmp.four', 'cmp.three']"

# An unfinished run makes the comparison incomplete: a run that died in
# the middle of a line (its last line dropped, said), an interrupted one.
mkdir -p died
head -n 4 wrong/results.jsonl > died/results.jsonl
sed -n 5p wrong/results.jsonl | head -c 40 >> died/results.jsonl
"$dmlconf" compare -o cmp-died good died >out.txt 2>err.txt; check "a run that died" 2 $?
expect "the dropped line said" grep -q "^dmlconf compare: NEW: died/results.jsonl: a truncated last line was dropped" err.txt
expect "the answer says incomplete" grep -q '^result: incomplete: NEW: it has no completion record' out.txt
expect "the cases it did not run" test "$(json cmp-died/comparison.json "c['answer']['token'], c['counts']['not_run_in_new'], c['counts']['removed']")" = "('incomplete', 3, 0)"

# Results that cannot be read: file:line, exit status 2.
mkdir -p cut
head -n 2 good/results.jsonl > cut/results.jsonl
sed -n 3p good/results.jsonl | head -c 30 >> cut/results.jsonl
printf '\n' >> cut/results.jsonl
sed -n '4,$p' good/results.jsonl >> cut/results.jsonl
"$dmlconf" compare good cut >out.txt 2>err.txt; check "a truncated line" 2 $?
expect "the truncated line's file:line" grep -q '^dmlconf compare: NEW: cut/results.jsonl:3: not JSON' err.txt
"$dmlconf" compare no-such-folder good 2>err.txt; check "a missing folder" 2 $?
expect "the missing folder named" grep -q "^dmlconf compare: OLD: no-such-folder: no such report folder or results file$" err.txt
mkdir -p empty
"$dmlconf" compare good empty 2>err.txt; check "a folder with no results" 2 $?
expect "the folder without results named" grep -q "^dmlconf compare: NEW: empty is not a report folder: it holds no results.jsonl$" err.txt
"$dmlconf" compare no-such-folder cut 2>err.txt; check "two bad inputs" 2 $?
expect "both said" test "$(grep -c '^dmlconf compare: \(OLD\|NEW\): ' err.txt)" -eq 2

# Usage errors and a report folder that cannot be written: 3.
"$dmlconf" compare good 2>/dev/null; check "one run" 3 $?
"$dmlconf" compare --time-ratio 1 good wrong 2>/dev/null; check "a ratio of 1" 3 $?
"$dmlconf" compare --time-min-us -5 good wrong 2>/dev/null; check "a negative difference" 3 $?
: > a-file
"$dmlconf" compare -o a-file good wrong >/dev/null 2>err.txt; check "a report folder that is a file" 3 $?
"$dmlconf" compare --help | grep -q '^usage: dmlconf compare'; check "compare --help" 0 $?

finish
