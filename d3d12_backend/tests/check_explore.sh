#!/usr/bin/env bash
# `dmlconf explore` on the D3D12 backend (lavapipe in CI).
# Usage: check_explore.sh MODE DMLCONF SOURCE_DIR WORK_DIR
#   clean         random cases on the kernels as they are: no finding
#   fault=NAME    with DMLCONF_D3D12_FAULT=NAME, explore must find the fault
#                 within a small budget and say after how many cases and
#                 seconds; each reproducer must fail on the faulty kernels
#                 and pass on the oracle
#   missed=NAME   the fault sits where the corpus as it was before
#                 cases/explore does not reach: `run` over doc, conformance,
#                 edge and negative passes with it; the cases explore found
#                 (cases/explore) catch it
set -u
mode=$1
dmlconf=$2
source_dir=$3
work=$4
rm -rf "$work"
mkdir -p "$work"

fail() {
    echo "FAIL: $*"
    exit 1
}

# A field of the explore state (a plain scan of its JSON).
state_field() {
    grep -o "\"$2\":[0-9.]*" "$1/explore-state.json" | head -1 | cut -d: -f2
}

case "$mode" in
clean)
    "$dmlconf" explore --backend d3d12 --cases 1500 --no-corpus -q -o "$work/out"
    status=$?
    [ "$status" -eq 0 ] || { cat "$work/out/findings.md"; fail "explore found something on the kernels as they are"; }
    echo "1500 random cases on d3d12: no finding"
    ;;
fault=*)
    fault=${mode#fault=}
    DMLCONF_D3D12_FAULT=$fault "$dmlconf" explore --backend d3d12 --cases 1500 --shrink-seconds 20 --no-corpus -q \
        -o "$work/out"
    status=$?
    [ "$status" -eq 1 ] || fail "with the $fault fault explore exited with $status, expected 1 (findings)"
    grep -q "test knobs: fault=$fault" "$work/out/summary.md" || fail "the report does not name the $fault fault"
    findings=$(grep -c '^## ' "$work/out/findings.md")
    [ "$findings" -gt 0 ] || fail "no finding with the $fault fault"
    first=$(grep '^## ' "$work/out/findings.md" | sed 's/.*first at case \([0-9]*\), \([0-9.]*\) s.*/\1 \2/' |
        sort -n | head -1)
    echo "the $fault fault: $findings distinct finding(s); first detected at case ${first% *}, ${first#* } s into the run"
    [ "${first% *}" -le 500 ] || fail "the $fault fault was first detected only at case ${first% *}"
    repros=$(ls "$work"/out/repros/*.yaml 2>/dev/null | wc -l)
    [ "$repros" -eq "$findings" ] || fail "$findings findings but $repros reproducers"
    for repro in "$work"/out/repros/*.yaml; do
        name=$(basename "$repro" .yaml)
        DMLCONF_D3D12_FAULT=$fault "$dmlconf" run --backend d3d12 -q --no-repro --no-rerun -o "$work/$name.d3d12" \
            "$repro"
        [ $? -eq 1 ] || fail "the reproducer $name does not fail with the $fault fault"
        "$dmlconf" run --backend oracle -q -o "$work/$name.oracle" "$repro" ||
            fail "the reproducer $name does not pass on the oracle"
    done
    grep '^- reproducer' "$work/out/findings.md"
    ;;
missed=*)
    fault=${mode#missed=}
    DMLCONF_D3D12_FAULT=$fault "$dmlconf" run --backend d3d12 -l 5_0 -q --no-repro --no-rerun -o "$work/corpus" \
        "$source_dir/cases/doc" "$source_dir/cases/conformance" "$source_dir/cases/edge" \
        "$source_dir/cases/negative"
    status=$?
    [ "$status" -eq 0 ] || fail "the corpus before cases/explore catches the $fault fault (exit $status)"
    # Four of the corpus's five folders: files that are not the whole corpus,
    # which pass (and claim no conformance).
    grep -q 'Verdict: passed' "$work/corpus/summary.md" ||
        fail "the corpus run with the $fault fault did not pass: $(grep Verdict "$work/corpus/summary.md")"
    DMLCONF_D3D12_FAULT=$fault "$dmlconf" run --backend d3d12 -l 5_0 -q --no-repro --no-rerun -o "$work/explore" \
        "$source_dir/cases/explore"
    [ $? -eq 1 ] || fail "cases/explore does not catch the $fault fault"
    caught=$(grep -o '"status":"fail"' "$work/explore/results.jsonl" | wc -l)
    echo "the $fault fault: the corpus before cases/explore passes; cases/explore fails $caught case(s)"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
echo "ok: $mode"
