#!/usr/bin/env bash
# Runs the conformance corpus on the D3D12 backend and checks the verdict.
# Usage: check_corpus.sh MODE DMLCONF SOURCE_DIR WORK_DIR
#   conformance   the run must pass and say "conformant at level 5_0"
#                 (test knobs such as DMLCONF_D3D12_KERNEL come from the
#                 environment and must appear in the report's runtime line)
#   fault=NAME    with DMLCONF_D3D12_FAULT=NAME the run must fail, the
#                 comparator reporting elements outside tolerance
#   groups=NAME   with DMLCONF_D3D12_FAULT=NAME on a part of the corpus (ranks
#                 1 to 3 and the edge cases, a few seconds), the failures
#                 must come out as one or a few groups, the first named for
#                 the planted cause and holding at least 4 in 5 failures, the
#                 same in summary.json, summary.md and report.html; and
#                 `dmlconf compare` with the same cases run without the fault
#                 finds every failure a regression, of that cause
#   build-ahead   one worker with pipelines built ahead on background
#                 threads (and the trace on): the run must pass, some
#                 kernels must have been built ahead, none twice; and
#                 `dmlconf adapters`, which runs no job, builds none
#   bad-knobs     each test knob given a bad value stops the backend with
#                 a sentence naming the knob and the value
#   fallback      with no Vulkan driver reachable the backend is unavailable
#                 with a sentence, and the default run falls back to the oracle
#   device-open   with no adapter asked for, the adapters are listed from the
#                 device's own Vulkan instance; asked for by index or through
#                 VKD3D_VULKAN_DEVICE, by an instance of their own; the same
#                 adapter either way, the docs' cases passing
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
    for knob in DMLCONF_D3D12_KERNEL DMLCONF_D3D12_CHUNK DMLCONF_D3D12_VIEW_WORDS DMLCONF_D3D12_TOTALS_TILE \
        DMLCONF_D3D12_TILE_GROUPS DMLCONF_D3D12_LOOKBACK_TILES DMLCONF_D3D12_EPOCHS; do
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
groups=*)
    fault=${mode#groups=}
    case "$fault" in
    drop-element)
        cause=element-left-out
        title="the second element of each scan is left out (taken as the identity): every result from there on lacks it"
        ;;
    off-by-one-exclusive)
        cause=other-mode
        title="exclusive scans return the inclusive result (the exclusive flag is ignored)"
        ;;
    f16-accumulate)
        cause=float16-accumulation
        title="float16 results carry the error of float16 accumulation (accumulated in float16, not float32)"
        ;;
    *) fail "no cause known for the fault $fault" ;;
    esac
    start=$(date +%s)
    DMLCONF_D3D12_FAULT=$fault "$dmlconf" run --backend d3d12 -l 5_0 -q --no-repro --no-rerun -o "$work/out" \
        -f 'conf.*.r[1-3].*' -f 'edge.*' "$source_dir/cases/conformance" "$source_dir/cases/edge"
    status=$?
    echo "the $fault kernel on ranks 1 to 3 and the edge cases in $(( $(date +%s) - start )) s, exit status $status"
    [ "$status" -eq 1 ] || fail "with the $fault kernel the run exited with $status, expected 1 (failed)"
    python3 - "$work/out/summary.json" "$cause" "$title" <<'PY' || fail "the failure groups do not name the $fault fault"
import json, sys
summary, cause, title = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
groups = summary["failure_groups"]
failing = sum(g["cases"] for g in groups)
for g in groups:
    print("  %5d  %-22s %s (shortest reproducer: %s)" % (g["cases"], g["cause"], g["title"],
                                                         g["shortest_reproducer"]["id"]))
first = groups[0]
assert first["cause"] == cause, "the first group is %s, not %s" % (first["cause"], cause)
assert first["title"] == title, "the first group is named %r" % first["title"]
assert first["cases"] >= 0.8 * failing, "the first group holds %d of %d failures" % (first["cases"], failing)
assert len(groups) <= 4, "%d groups" % len(groups)
assert all(groups[i]["cases"] >= groups[i + 1]["cases"] for i in range(len(groups) - 1)), "not the biggest first"
PY
    grep -qF "### 1. $title (" "$work/out/summary.md" || fail "summary.md does not name the first group the same way"
    grep -qF "<h3>1. $title (" "$work/out/report.html" || fail "report.html does not name the first group the same way"
    # The same part of the corpus without the fault, compared with the run
    # with it: every failure a regression, the first cause the same.
    "$dmlconf" run --backend d3d12 -l 5_0 -q --no-repro --no-rerun -o "$work/clean" \
        -f 'conf.*.r[1-3].*' -f 'edge.*' "$source_dir/cases/conformance" "$source_dir/cases/edge" \
        || fail "the same cases without the fault did not pass"
    "$dmlconf" compare -q -o "$work/compare" "$work/clean" "$work/out"
    status=$?
    [ "$status" -eq 1 ] || fail "dmlconf compare exited with $status, expected 1 (regressions)"
    python3 - "$work/compare/comparison.json" "$work/out/summary.json" "$title" <<'PY' \
        || fail "the comparison does not find the fault's failures as regressions of its cause"
import json, sys
comparison, summary, title = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
failing = sorted(summary["failing_ids"])
assert sorted(r["id"] for r in comparison["regressions"]) == failing, "the regressions are not the failures"
assert comparison["regression_causes"][0]["title"] == title, comparison["regression_causes"][0]
assert comparison["corpus"]["same"] and comparison["answer"]["token"] == "regressions"
print("  compared with the run without the fault: %d regressions, the first cause %r" % (len(failing), title))
PY
    ;;
build-ahead)
    DMLCONF_D3D12_BUILD_AHEAD=8 DMLCONF_D3D12_TRACE=1 "$dmlconf" run --backend d3d12 -j 1 -l 5_0 -q \
        -o "$work/out" "${corpus[@]}" 2>"$work/stderr.txt"
    status=$?
    [ "$status" -eq 0 ] || { tail -20 "$work/stderr.txt"; fail "the corpus run exited with $status"; }
    grep -q 'Verdict: conformant at level 5_0' "$work/out/summary.md" || fail "the run is not conformant"
    grep -E '^d3d12: kernel [^ ]+ \(' "$work/stderr.txt" | sed -E 's/^d3d12: kernel ([^ ]+) \(.* built (ahead|on use).*/\2 \1/' \
        | sort >"$work/builds.txt"
    ahead=$(grep -c '^ahead ' "$work/builds.txt")
    on_use=$(grep -c '^on use ' "$work/builds.txt")
    echo "pipelines built ahead: $ahead, on use: $on_use"
    [ "$ahead" -gt 0 ] || fail "no pipeline was built ahead"
    twice=$(sed -E 's/^(ahead|on use) //' "$work/builds.txt" | sort | uniq -d)
    [ -z "$twice" ] || fail "pipelines built twice by one backend: $twice"
    DMLCONF_D3D12_BUILD_AHEAD=8 DMLCONF_D3D12_TRACE=1 "$dmlconf" adapters --backend d3d12 \
        >"$work/adapters.txt" 2>"$work/adapters-stderr.txt" || fail "dmlconf adapters failed"
    grep -q 'opens by default' "$work/adapters.txt" || fail "dmlconf adapters did not open the backend"
    ! grep -E '^d3d12: kernel ' "$work/adapters-stderr.txt" || fail "dmlconf adapters built pipelines it never used"
    ;;
bad-knobs)
    for knob in DMLCONF_D3D12_BUILD_AHEAD=17 DMLCONF_D3D12_TOTALS_TILE=99x1 DMLCONF_D3D12_TILE_GROUPS=0 \
        DMLCONF_D3D12_TILE=1x1 DMLCONF_D3D12_CHUNK=0 DMLCONF_D3D12_VIEW_WORDS=5 DMLCONF_D3D12_LOOKBACK=2 \
        DMLCONF_D3D12_LOOKBACK_TILES=65 DMLCONF_D3D12_EPOCHS=0 DMLCONF_D3D12_KERNEL=clear \
        DMLCONF_D3D12_BUFFER_LIMIT=0 \
        DMLCONF_D3D12_FAULT=none-such; do
        env "$knob" "$dmlconf" run --backend d3d12 -q -o "$work/bad" "$source_dir/cases/doc" >"$work/bad.txt" 2>&1
        status=$?
        [ "$status" -ne 0 ] || fail "$knob was accepted"
        grep -q "$knob is not" "$work/bad.txt" || fail "$knob was refused without its sentence: $(cat "$work/bad.txt")"
        echo "$knob: $(grep -o "$knob is not.*" "$work/bad.txt" | head -1)"
    done
    ;;
device-open)
    opened() { # LABEL, then the environment and arguments of a docs' run
        local label=$1
        shift
        env DMLCONF_D3D12_TRACE=1 "$@" -j 1 -q -o "$work/$label" "$source_dir/cases/doc" 2>"$work/$label.txt"
        local status=$?
        [ "$status" -eq 0 ] || { tail -5 "$work/$label.txt"; fail "the docs' run ($label) exited with $status"; }
        grep -m1 '^d3d12: device on adapter' "$work/$label.txt" || fail "the $label run traced no device"
    }
    opened default "$dmlconf" run --backend d3d12 | grep -q "listed from the device's Vulkan instance" \
        || fail "with no adapter asked for, the adapters were not listed from the device's instance"
    opened index "$dmlconf" run --backend d3d12 --adapter 0 | grep -q 'listed by an instance of their own' \
        || fail "with --adapter 0, the adapters were not listed by an instance of their own"
    opened environment VKD3D_VULKAN_DEVICE=0 "$dmlconf" run --backend d3d12 | grep -q 'listed by an instance of their own' \
        || fail "with VKD3D_VULKAN_DEVICE=0, the adapters were not listed by an instance of their own"
    for label in index environment; do
        cmp -s <(grep '^| Adapter |' "$work/default/summary.md") <(grep '^| Adapter |' "$work/$label/summary.md") \
            || fail "the $label run opened another adapter: $(grep '^| Adapter |' "$work/$label/summary.md")"
    done
    grep '^| Adapter |' "$work/default/summary.md"
    ;;
no-memory)
    # A device with no memory for the cases' buffers (E_OUTOFMEMORY): the
    # cases are not judged, the run is incomplete, and no case fails.
    DMLCONF_D3D12_BUFFER_LIMIT=64 "$dmlconf" run --backend d3d12 -q -o "$work/out" "$source_dir/cases/doc" \
        >"$work/run.txt" 2>&1
    status=$?
    [ "$status" -eq 2 ] || fail "a device without memory: exit status $status, not 2 (incomplete)"
    grep -q '"status":"no-resources"' "$work/out/results.jsonl" || fail "no case says no-resources"
    ! grep -q '"status":"\(fail\|error\)"' "$work/out/results.jsonl" || fail "a case failed for the device's memory"
    grep -q '"status": "incomplete"' "$work/out/summary.json" || fail "the verdict is not incomplete"
    [ ! -s "$work/out/failures.txt" ] || fail "failures.txt lists cases: $(cat "$work/out/failures.txt")"
    grep -q "E_OUTOFMEMORY" "$work/out/results.jsonl" || fail "the messages do not say E_OUTOFMEMORY"
    ;;
fallback)
    VK_ICD_FILENAMES=/nonexistent/icd.json "$dmlconf" adapters >"$work/adapters.txt" 2>&1
    cat "$work/adapters.txt"
    grep -A1 '^d3d12:' "$work/adapters.txt" | grep -q 'unavailable: ' \
        || fail "dmlconf adapters does not say why d3d12 is unavailable"
    # The default run without a Vulkan device: a setup error that says why,
    # never the oracle judging itself in the GPU's place.
    VK_ICD_FILENAMES=/nonexistent/icd.json "$dmlconf" run -q -o "$work/out" "$source_dir/cases/doc" \
        >"$work/run.txt" 2>&1
    status=$?
    [ "$status" -eq 3 ] || fail "the default run without a Vulkan device exited with $status, not 3 (setup error)"
    grep -q 'the d3d12 backend is unavailable' "$work/run.txt" || fail "it does not say why: $(cat "$work/run.txt")"
    ! grep -qi 'oracle' "$work/run.txt" || fail "it mentions the oracle: $(cat "$work/run.txt")"
    [ ! -e "$work/out/results.jsonl" ] || fail "it ran cases"
    grep -q 'type="setup-error"' "$work/out/junit.xml" || fail "junit.xml does not say the run could not start"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
echo "ok: $mode"
