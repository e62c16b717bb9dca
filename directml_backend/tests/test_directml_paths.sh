#!/usr/bin/env bash
# The directml backend's paths under Wine on lavapipe, as CI runs them: one
# part per call.
#   path NAME FLAGS GRAPH BINDING
#            the documentation's examples pass bit for bit on the path; the
#            whole corpus matches the path's baseline
#            (reports/directml/baselines/NAME, or baseline/ where the path
#            disagrees as the operator path does; strictly: a stale line
#            fails too); the run's identity names the path, and a failure's
#            reproduce line carries it
#   plumbing every fault planted in a path's plumbing (DMLCONF_DIRECTML_FAULT)
#            is seen: a tensor bound at the wrong offset, a byte written into
#            the canary after an output, an owned input never bound, an edge
#            that is not exact, late bindings never made, a repeat whose
#            input changed; and a word the options do not know is one
#            sentence
#   corners  dmlconf_directml_corners.exe gives, on every path, the answers
#            recorded in reports/directml/corners-table.md
# Usage: test_directml_paths.sh PART DMLCONF_EXE SOURCE_DIR WORK_DIR [ARGS...]
#        (corners: the probe's .exe in place of DMLCONF_EXE)
set -uo pipefail

part=$1
exe=$2
source_dir=$3
work=$4
shift 4
wine_run=(bash "$source_dir/tools/wine-run.sh" "$exe")
rm -rf "$work"
mkdir -p "$work"
failures=0

# The program under Wine; xvfb-run exits with 5 when it cannot remove its
# own temporary folder (seen under heavy load), whatever the program did,
# and such a run is tried once more.
wine() {
    local status attempt
    for attempt in 1 2; do
        "${wine_run[@]}" "$@"
        status=$?
        [ $status -eq 5 ] || break
    done
    return $status
}

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# A field of a report's summary.json, by a Python expression on `s`.
summary() {
    python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print($2)" "$1/summary.json"
}

# The cases of a run that are not as expected: "id status message".
unexpected() {
    python3 - "$1/results.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("status") in ("fail", "error", "crash", "timeout", "unexpected-pass"):
        print("  ", r["id"], r["status"], r.get("message", "")[:240])
PY
}

case "$part" in
path)
    name=$1 flags=$2 graph=$3 binding=$4
    options=(--backend directml --directml-flags "$flags" --directml-graph "$graph" --directml-binding "$binding")
    rm -rf "$work/doc"
    wine run "${options[@]}" -j 2 -q -o "$work/doc" "$source_dir/cases/doc"
    status=$?
    [ $status -eq 0 ] || fail "the documentation's examples on $name: exit status $status"
    [ "$(summary "$work/doc" "s['counts']['pass']")" -eq 8 ] || fail "$name did not pass all 8 examples"
    described="path: flags $flags, graph $graph, binding $binding"
    grep -q "$described" "$work/doc/results.jsonl" || fail "the run's runtime does not name the path ($described)"
    grep -q "\"DMLCONF_DIRECTML_GRAPH=$graph\"" "$work/doc/results.jsonl" ||
        fail "the run's identity does not record DMLCONF_DIRECTML_GRAPH"

    # The path's own baseline where its disagreements differ from the
    # operator path's, else the operator path's.
    baseline="$source_dir/reports/directml/baselines/$name"
    [ -d "$baseline" ] || baseline="$source_dir/reports/directml/baseline"
    wine run "${options[@]}" -j 2 -q --no-repro --strict-baseline --baseline "$baseline" -o "$work/corpus"
    status=$?
    [ $status -eq 0 ] || {
        fail "the corpus on $name against its baseline: exit status $status"
        unexpected "$work/corpus"
    }
    [ "$(summary "$work/corpus" "s['counts']['pass']")" -gt 2900 ] || fail "$name passed too few cases to have run"
    [ "$(summary "$work/corpus" "len(s['stale_baseline'])")" -eq 0 ] || fail "stale baseline lines"
    # A failure's reproduce line carries the path (the float16 overflow
    # fails on every path but half precision; INT64 on every one).
    grep -q "DMLCONF_DIRECTML_BINDING=$binding" "$work/corpus/summary.md" ||
        fail "summary.md's reproduce lines do not carry DMLCONF_DIRECTML_BINDING=$binding"
    ;;
plumbing)
    # One fault at a time, on the examples (float32): the run must fail,
    # saying what the plumbing saw.
    checks=0
    check_fault() {
        local fault=$1 words=$2 status
        shift 2
        checks=$((checks + 1))
        local run="$work/$checks.$fault"
        # In process (-j 0): the fault is the backend's, and no worker
        # process needs starting (Wine refused one under heavy load).
        DMLCONF_DIRECTML_FAULT=$fault wine run --backend directml "$@" -j 0 -q --no-repro --no-rerun -o "$run" \
            "$source_dir/cases/doc" >"$run.log" 2>&1
        status=$?
        [ $status -eq 1 ] || fail "the fault $fault ($*): exit status $status, expected 1 ($(tail -n 3 "$run.log"))"
        [ "$(summary "$run" "s['counts']['pass']")" -eq 0 ] ||
            fail "the fault $fault ($*) let $(summary "$run" "s['counts']['pass']") example(s) pass"
        grep -q -- "$words" "$run/results.jsonl" || fail "the fault $fault ($*): no result says '$words'"
    }
    check_fault ignore-offset "canary byte(s) around the tensors" --directml-binding offset-minimum
    check_fault ignore-offset "canary byte(s) around the tensors" --directml-binding offset-aligned+repeat
    check_fault stray-write "1 canary byte(s) around the tensors and 0 input byte(s) had changed; the first at byte [0-9]*[^,]*, after the output" \
        --directml-binding offset-aligned
    check_fault stray-write "after the output" --directml-binding offset-minimum --directml-graph output-edge
    check_fault owned-unbound "backend error" --directml-binding owned-input
    check_fault inexact-edge "outside tolerance" --directml-graph input-edge
    check_fault inexact-edge "outside tolerance" --directml-graph output-edge --directml-binding offset-minimum
    check_fault late-binding-skipped "never written" --directml-flags descriptors-volatile
    check_fault repeat-changed-input "differs from dispatch 1 of execution 1" --directml-binding repeat
    # Without a fault the same paths pass (the failures above are the faults').
    DMLCONF_DIRECTML_FAULT=none wine run --backend directml --directml-binding offset-minimum+repeat \
        --directml-graph input-edge -j 1 -q -o "$work/clean" "$source_dir/cases/doc"
    [ $? -eq 0 ] || fail "the paths without a fault did not pass"
    # A buffer the device has no memory for (DMLCONF_D3D12_BUFFER_LIMIT, a
    # smaller device's stand-in) leaves the cases not judged, never failed:
    # the run is incomplete.
    DMLCONF_D3D12_BUFFER_LIMIT=1 wine run --backend directml -j 0 -q --no-repro --no-rerun -o "$work/no-memory" \
        "$source_dir/cases/doc" >"$work/no-memory.log" 2>&1
    status=$?
    [ $status -eq 2 ] || fail "no memory for the buffers: exit status $status, expected 2 ($(tail -n 3 "$work/no-memory.log"))"
    [ "$(summary "$work/no-memory" "s['counts'].get('no-resources', 0)")" -eq 8 ] ||
        fail "no memory for the buffers: not every example was no-resources"
    [ "$(summary "$work/no-memory" "s['verdict']['status']")" = incomplete ] ||
        fail "no memory for the buffers: the verdict is not incomplete"
    # Words the options do not know, and a fault the path cannot plant.
    refuse() {
        local words=$1
        shift
        output=$(wine run --backend directml "$@" -j 1 -q -o "$work/refused.$RANDOM" "$source_dir/cases/doc" 2>&1)
        [ $? -ne 0 ] || fail "$* was accepted"
        echo "$output" | grep -q -- "$words" || fail "$*: no sentence with '$words': $output"
    }
    refuse "DMLCONF_DIRECTML_FLAGS=half: 'half' is not one of none, half-precision" --directml-flags half
    refuse "DMLCONF_DIRECTML_GRAPH=fused: not one of none, alone, input-edge or output-edge" --directml-graph fused
    refuse "offset-aligned and offset-minimum are two placements" --directml-binding offset-aligned+offset-minimum
    DMLCONF_DIRECTML_FAULT=stray-write refuse "which this path does not use" --directml-binding repeat
    ;;
corners)
    # The probe prints its table; compare it with the recorded one.
    wine >"$work/corners.md" 2>"$work/corners.log"
    [ $? -eq 0 ] || fail "the corners probe failed: $(cat "$work/corners.log")"
    diff -u "$source_dir/reports/directml/corners-table.md" "$work/corners.md" >"$work/corners.diff" ||
        fail "DirectML's answers for the corners changed: $(head -c 3000 "$work/corners.diff")"
    ;;
*)
    echo "test_directml_paths.sh: unknown part '$part'" >&2
    exit 2
    ;;
esac

if [ $failures -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
