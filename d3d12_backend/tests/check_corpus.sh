#!/usr/bin/env bash
# Runs the conformance corpus on the D3D12 backend and checks the verdict.
# Usage: check_corpus.sh MODE DMLCONF SOURCE_DIR WORK_DIR
#   conformance   the run must pass and say "conformant at level 5_0"
#                 (test knobs such as DMLCONF_D3D12_KERNEL come from the
#                 environment and must appear in the report's runtime line)
#   fault=NAME    with DMLCONF_D3D12_FAULT=NAME the run must fail, the
#                 comparator reporting elements outside tolerance
#   fallback      with no Vulkan driver reachable the backend is unavailable
#                 with a sentence, and the default run falls back to the oracle
set -u
mode=$1
dmlconf=$2
source_dir=$3
work=$4
rm -rf "$work"
mkdir -p "$work"
corpus=("$source_dir/cases/doc" "$source_dir/cases/conformance" "$source_dir/cases/edge"
        "$source_dir/cases/negative" "$source_dir/cases/explore")

fail() {
    echo "FAIL: $*"
    exit 1
}

case "$mode" in
conformance)
    start=$(date +%s)
    "$dmlconf" run --backend d3d12 -l 5_0 -q -o "$work/out" "${corpus[@]}"
    status=$?
    echo "corpus on d3d12 in $(( $(date +%s) - start )) s, exit status $status"
    grep -E '^\| (Adapter|Runtime|Driver) ' "$work/out/summary.md"
    [ "$status" -eq 0 ] || { head -c 4000 "$work/out/failures.txt"; fail "the corpus run exited with $status"; }
    grep -q 'Verdict: conformant at level 5_0' "$work/out/summary.md" \
        || fail "the report does not say conformant at level 5_0: $(grep Verdict "$work/out/summary.md")"
    grep -q '^| Backend | d3d12 |' "$work/out/summary.md" || fail "the report does not name the d3d12 backend"
    for knob in DMLCONF_D3D12_KERNEL DMLCONF_D3D12_CHUNK DMLCONF_D3D12_VIEW_WORDS; do
        if [ -n "${!knob:-}" ]; then
            grep -q 'test knobs:' "$work/out/summary.md" || fail "$knob is set but the report does not say so"
        fi
    done
    ;;
fault=*)
    fault=${mode#fault=}
    DMLCONF_D3D12_FAULT=$fault "$dmlconf" run --backend d3d12 -l 5_0 -q --no-repro --no-rerun \
        -o "$work/out" "${corpus[@]}"
    status=$?
    [ "$status" -eq 1 ] || fail "with the $fault kernel the run exited with $status, expected 1 (failed)"
    grep -q "test knobs: fault=$fault" "$work/out/summary.md" || fail "the report does not name the $fault fault"
    failed=$(grep -E '^\| fail \|' "$work/out/summary.md" | tr -dc '0-9')
    [ "${failed:-0}" -gt 0 ] || fail "no case failed with the $fault kernel"
    grep -q 'elements outside tolerance' "$work/out/results.jsonl" \
        || fail "the failures are not the comparator's mismatches"
    echo "the $fault kernel: $failed cases failed, caught by the comparator"
    ;;
fallback)
    VK_ICD_FILENAMES=/nonexistent/icd.json "$dmlconf" adapters >"$work/adapters.txt" 2>&1
    cat "$work/adapters.txt"
    grep -A1 '^d3d12:' "$work/adapters.txt" | grep -q 'unavailable: ' \
        || fail "dmlconf adapters does not say why d3d12 is unavailable"
    VK_ICD_FILENAMES=/nonexistent/icd.json "$dmlconf" run -q -o "$work/out" "$source_dir/cases/doc" \
        || fail "the default run without a Vulkan device failed"
    grep -q '^| Backend | oracle |' "$work/out/summary.md" || fail "the default run did not fall back to the oracle"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
echo "ok: $mode"
