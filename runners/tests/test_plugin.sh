#!/usr/bin/env bash
# The dmlconf command with native plugins: every library that is not a
# usable plugin is one sentence and exit status 2 before anything runs; the
# example plugin passes every case of the corpus it supports, every other
# case is skipped as unsupported with the reason, and every report's
# verdict names what was not covered (never "conformant at level X" while
# cases required at X were not); forked, spawned and in-process workers
# alike; shards of a plugin run merge into the same verdict.
# Usage: test_plugin.sh DMLCONF EXAMPLE_PLUGIN FAULTY_PLUGIN NO_ENTRY_PLUGIN SOURCE_DIR WORK_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
dmlconf=$1
example=$2
faulty=$3
no_entry=$4
source_dir=$5
work=$6
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# A field of a report folder's summary.json, by a Python expression on `s`.
summary() {
    python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print($2)" "$1/summary.json"
}

cat > good.yaml <<'YAML'
defaults: {op: cumulative_summation, dtype: int32}
cases:
  - {id: g.a, sizes: [4], axis: 0, input: [1, 2, 3, 4], expected: [1, 3, 6, 10]}
  - {id: g.b, sizes: [2, 2], axis: 1, input: [1, 2, 3, 4]}
YAML
echo "not a library" > text.so
mkdir -p folder.so

# Libraries that are not usable plugins: one sentence, exit 2, and nothing
# run or written.
refuse() {
    # refuse DESCRIPTION FAULT PATH EXPECTED_TEXT
    local description=$1 fault=$2 path=$3 text=$4 command
    for command in run adapters; do
        if [ "$command" = run ]; then
            DMLCONF_TEST_PLUGIN_FAULT=$fault "$dmlconf" run --backend "plugin:$path" -q -o refused good.yaml \
                >out.txt 2>err.txt
        else
            DMLCONF_TEST_PLUGIN_FAULT=$fault "$dmlconf" adapters --backend "plugin:$path" >out.txt 2>err.txt
        fi
        check "$command: $description" 2 $?
        expect "$command: $description: says '$text'" grep -qF "dmlconf $command: $text" err.txt
        expect "$command: $description: in one line" test "$(wc -l < err.txt)" -eq 1
        expect "$command: $description: prints nothing else" test ! -s out.txt
    done
    expect "$description: no report folder" test ! -e refused
}
refuse "a missing file" "" "$work/missing.so" "cannot load the plugin $work/missing.so: there is no such file"
refuse "a text file" "" text.so "cannot load the plugin text.so: it is not a library this system can load ("
refuse "a folder" "" folder.so "cannot load the plugin folder.so: it is a folder, not a library"
refuse "no entry point" "" "$no_entry" \
    "the library $no_entry is not a dmlconf backend plugin: it does not export dmlconf_backend_entry"
refuse "an entry that returns NULL" null-entry "$faulty" \
    "the plugin $faulty gave no backend: its dmlconf_backend_entry returned NULL"
refuse "another ABI" abi-newer "$faulty" "the plugin $faulty is built for backend ABI 4; this dmlconf speaks 1 to 3"
refuse "an incomplete table" incomplete "$faulty" \
    "the plugin $faulty has an incomplete backend table: it lacks close and execute"
refuse "no path" "" "" "'plugin:' names no library: write plugin:PATH"
# A plugin built for ABI 1 (before `boundaries`) still loads and runs.
DMLCONF_TEST_PLUGIN_FAULT=abi-1 "$dmlconf" run --backend "plugin:$faulty" -q -o version-1 good.yaml 2>err.txt
check "a version 1 plugin" 0 $?
expect "its cases pass" grep -q '"status":"pass"' version-1/results.jsonl
"$dmlconf" run --backend nothing good.yaml 2>err.txt; check "an unknown backend" 2 $?
expect "it names plugin:PATH" grep -q "and plugin:PATH for a native plugin" err.txt

# A plugin that describes itself wrongly does not open: the run fails.
DMLCONF_TEST_PLUGIN_FAULT=bad-ranks "$dmlconf" run --backend "plugin:$faulty" -q -o bad good.yaml 2>err.txt
check "a plugin with ranks 0 to 9" 1 $?
expect "it says why" grep -qF "describes itself wrongly: it declares ranks 0 to 9; ranks go from 1 to 8" err.txt
# Jobs that end in no known way are errors, not passes.
DMLCONF_TEST_PLUGIN_FAULT=bad-outcome "$dmlconf" run --backend "plugin:$faulty" -q --no-rerun --no-repro \
    -o outcome good.yaml 2>/dev/null
check "a plugin that ends jobs with outcome 42" 1 $?
expect "its cases are errors" test "$(grep -c '"status":"error","message":"backend error: the plugin ended the job with outcome 42' outcome/results.jsonl)" -eq 2
# Their reproduce command names the plugin's library, and reruns the case.
expect "the reproduce line names the library" grep -qF \
    "reproduce: \`dmlconf run --backend plugin:$faulty --feature-level 5_0 --filter g.a good.yaml\`" outcome/summary.md
command=$(sed -n 's/^  - reproduce: `\(.*--filter g.a .*\)`$/\1/p' outcome/summary.md | head -n 1)
command=${command/dmlconf run/\"\$dmlconf\" run -q --no-rerun --no-repro -o reproduced}
DMLCONF_TEST_PLUGIN_FAULT=bad-outcome eval "$command" 2>/dev/null; check "the reproduce line, run" 1 $?
expect "it reran that case alone" test "$(grep -c '"id":"g.a".*"status":"error"' reproduced/results.jsonl)" -eq 1

# What the example plugin declares.
"$dmlconf" adapters --backend "plugin:$example" >adapters.txt; check "adapters of the example plugin" 0 $?
expect "adapters names it" grep -qF "plugin:$example: an example plugin" adapters.txt
expect "adapters says what it can" grep -qx "  can: summation product increasing decreasing inclusive exclusive strides broadcast in-place" adapters.txt
expect "adapters lists its types" grep -qx "  data types: FLOAT32 UINT32 INT32" adapters.txt
expect "adapters says it claims no level" grep -qx "  feature level: none claimed" adapters.txt

# The whole corpus on the example plugin.
"$dmlconf" run --backend "plugin:$example" -j 2 -o corpus >console.txt 2>err.txt
check "the corpus on the example plugin" 0 $?
expect "every report says what was covered" python3 - corpus <<'PY'
import json, sys
folder = sys.argv[1]
s = json.load(open(folder + "/summary.json"))
v = s["verdict"]
assert v["status"] == "partly-covered", v
assert v["text"] == "conformant at level 6_4 for what it supports", v
assert not v["conformant"] and not v["at_target"] and v["level"] is None, v
assert v["supported_level"] == "6_4", v
counts = s["counts"]
for status in ("fail", "error", "crash", "timeout", "unexpected-pass"):
    assert counts.get(status, 0) == 0, counts
assert counts["pass"] > 2000, counts
needs = {}
for line in open(folder + "/results.jsonl"):
    r = json.loads(line)
    if "status" not in r:
        continue
    assert r["status"] in ("pass", "skip"), r
    if r["status"] == "skip":
        if r.get("unsupported"):
            assert "does not support " + r["needs"] in r["message"], r
            needs[r["needs"]] = needs.get(r["needs"], 0) + 1
        else:
            # A negative case that checks a rejection below the target.
            assert r["negative"] and r["message"].startswith("valid at the target level 6_4"), r
assert set(needs) == {"FLOAT16", "INT64", "UINT64", "validation"}, needs
nc = v["not_covered"]
assert nc["cases"] == sum(needs.values()), (nc, needs)
assert {g["needs"]: g["cases"] for g in nc["groups"]} == needs, (nc, needs)
assert [g for g in nc["groups"] if g["needs"] == "validation"][0]["negative"] == needs["validation"]
for word in ("FLOAT16: %d" % needs["FLOAT16"], "validation: %d" % needs["validation"]):
    assert word in v["detail"], v["detail"]
md = open(folder + "/summary.md").read()
assert "**Verdict: conformant at level 6_4 for what it supports**" in md
assert "## Not covered (%d cases)" % nc["cases"] in md
assert "| validation | %d | %d | every level |" % (needs["validation"], needs["validation"]) in md
junit = open(folder + "/junit.xml").read()
assert '<failure type="partly-covered" message="conformant at level 6_4 for what it supports">' in junit
assert junit.count('<skipped type="unsupported"') == nc["cases"]
html = open(folder + "/report.html").read()
assert 'data-status="partly-covered"' in html and '<section id="not-covered">' in html
# Nowhere a bare "conformant at level X": every claim says for what.
import re
for text in (md, junit, html, open(folder + "/summary.json").read()):
    assert not re.search(r"conformant at level [0-9]_[0-9](?! for what it supports)", text)
PY
expect "the console claims no level in full" test -z "$(grep -E 'conformant at level [0-9]_[0-9]( |\)|$)' console.txt | grep -v 'for what it supports')"
expect "the console says it" grep -q "^verdict: conformant at level 6_4 for what it supports (all [0-9]* cases it supports" console.txt
expect "the console lists what was not covered" grep -q "^  validation  [0-9]* negative cases$" console.txt
expect "the reports name the plugin" grep -qF "\"backend\":\"plugin:example\"" corpus/results.jsonl
expect "and its library" grep -qF "plugin library $example" corpus/results.jsonl
expect "no case was judged wrongly" test ! -s corpus/failures.txt

# At a lower target level, the 64-bit cases are above it and the verdict
# names only what is left.
"$dmlconf" run --backend "plugin:$example" -j 2 -q -l 4_0 -o at4 "$source_dir/cases/doc" \
    "$source_dir/cases/negative"
check "a 4_0 run on the example plugin" 0 $?
expect "it targets 4_0" test "$(summary at4 "s['verdict']['target_level']")" = 4_0
expect "only validation is not covered" test "$(summary at4 "[g['needs'] for g in s['verdict']['not_covered']['groups']]")" = "['validation']"

# Spawned workers load the plugin themselves; in process, the same.
for mode in spawn process; do
    if [ "$mode" = spawn ]; then
        DMLCONF_WORKERS=spawn "$dmlconf" run --backend "plugin:$example" -j 2 -q -o $mode \
            "$source_dir/cases/doc" "$source_dir/cases/negative"
    else
        "$dmlconf" run --backend "plugin:$example" -j 0 -q -o $mode "$source_dir/cases/doc" \
            "$source_dir/cases/negative"
    fi
    check "the example plugin, $mode" 0 $?
    expect "$mode: partly covered" test "$(summary $mode "s['verdict']['status']")" = partly-covered
    expect "$mode: the doc examples passed" test "$(summary $mode "s['counts']['pass']")" -eq 8
done

# Shards of a plugin run merge into the same verdict: what each case needs
# survives results.jsonl.
"$dmlconf" run --backend "plugin:$example" -q --shard 0/2 -o shard0 "$source_dir/cases/doc" \
    "$source_dir/cases/negative"
check "shard 0" 0 $?
"$dmlconf" run --backend "plugin:$example" -q --shard 1/2 -o shard1 "$source_dir/cases/doc" \
    "$source_dir/cases/negative"
check "shard 1" 0 $?
"$dmlconf" merge -o merged shard0 shard1 >/dev/null; check "merge" 0 $?
expect "merged: the same verdict" test "$(summary merged "s['verdict']['text']")" = \
    "$(summary spawn "s['verdict']['text']")"
expect "merged: the same gaps" test "$(summary merged "s['verdict']['not_covered']")" = \
    "$(summary spawn "s['verdict']['not_covered']")"

finish
