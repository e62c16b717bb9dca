#!/bin/sh
# Tests of implementations/check_baseline.py with the protocol's reference
# adapter: a recorded baseline is met, a changed outcome fails and lists the
# lines, an implementation that is not installed is skipped with its reason
# (never passed), a failing probe fails, and usage errors are refused. Then
# the adapters' own probes say why they cannot run where their runtime is
# missing.
# Usage: test_check_baseline.sh DMLCONF TEST_ADAPTER PYTHON SOURCE_DIR WORK_DIR [NODE]
set -u
dmlconf=$1
adapter=$2
python=$3
source=$4
work=$5
node=${6:-}
check="$source/check_baseline.py"
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# expect STATUS PATTERN COMMAND...: the command exits with STATUS and prints
# a line matching PATTERN (grep -E).
expect() {
    want_status=$1
    pattern=$2
    shift 2
    output=$("$@" 2>&1)
    status=$?
    if [ "$status" -ne "$want_status" ]; then
        fail "$* exited with $status, not $want_status: $output"
    elif ! printf '%s\n' "$output" | grep -Eq -- "$pattern"; then
        fail "$* did not print /$pattern/: $output"
    fi
}

rm -rf "$work"
mkdir -p "$work"

# A wrapper that answers --probe (check_baseline.py adds it after the
# command's arguments) as an adapter does, else runs the reference adapter
# with the wrapper's arguments.
cat >"$work/wrapper.sh" <<WRAPPER
#!/bin/sh
for argument; do last=\$argument; done
if [ "\${last:-}" = --probe ]; then
    case "\${PROBE:-ok}" in
        ok) echo "the reference adapter"; exit 0 ;;
        missing) echo "the implementation is away on holiday"; exit 77 ;;
        *) echo "the probe broke"; exit 1 ;;
    esac
fi
exec "$adapter" "\$@"
WRAPPER
chmod +x "$work/wrapper.sh"
baseline="$work/outcomes.txt"

# Recording, then meeting the record: the documentation cases and a sample.
expect 0 "^recorded .*: cases [0-9]+: pass [0-9]+" \
    "$python" "$check" --update --sample 16 "$dmlconf" "$baseline" "$work/run" -- "$work/wrapper.sh" --name reference
grep -q '^# one in 16 of the rest' "$baseline" || fail "the baseline does not say what it sampled"
grep -q '^cases ' "$baseline" || fail "the baseline has no count"
expect 0 "the outcome is the baseline's" \
    "$python" "$check" --sample 16 "$dmlconf" "$baseline" "$work/run" -- "$work/wrapper.sh" --name reference

# Every documentation case is in the sample, and so are far fewer cases than the corpus.
sampled=$(sed -n 's/^cases \([0-9]*\):.*/\1/p' "$baseline")
all=$("$dmlconf" list | wc -l)
docs=$("$dmlconf" list -f 'doc.*' | wc -l)
if [ "$sampled" -lt "$docs" ] || [ "$sampled" -ge "$all" ] || [ "$sampled" -gt $((all / 8)) ]; then
    fail "the sample has $sampled cases of $all ($docs documentation cases)"
fi

# A wrong element in the 12-element documentation cases changes the outcome.
expect 1 "^  \+ doc\.sum\.example1 fail" \
    "$python" "$check" --sample 16 "$dmlconf" "$baseline" "$work/run" -- \
    "$work/wrapper.sh" --name reference --mode wrong --trigger-elements 12
# Unsupported cases are listed as such.
expect 1 "^  \+ doc\.prod\.example1 skip \(unsupported\)" \
    "$python" "$check" --sample 16 "$dmlconf" "$baseline" "$work/run" -- "$work/wrapper.sh" --name reference --sums-only
# Another sample is another outcome.
expect 1 "^  - cases " "$python" "$check" --sample 8 "$dmlconf" "$baseline" "$work/run" -- "$work/wrapper.sh" --name reference

# Not installed: skipped with the reason; a broken probe fails.
expect 77 "^SKIPPED: .*away on holiday" \
    env PROBE=missing "$python" "$check" "$dmlconf" "$baseline" "$work/run" -- "$work/wrapper.sh"
expect 1 "probe failed .*the probe broke" \
    env PROBE=broken "$python" "$check" "$dmlconf" "$baseline" "$work/run" -- "$work/wrapper.sh"
# A missing baseline fails.
expect 1 "no baseline to compare with" \
    "$python" "$check" --sample 16 "$dmlconf" "$work/none.txt" "$work/run" -- "$work/wrapper.sh" --name reference
# Usage errors.
expect 2 "Usage" "$python" "$check" --sample 0 "$dmlconf" "$baseline" "$work/run" -- "$work/wrapper.sh"
expect 2 "Usage" "$python" "$check" --sample "$dmlconf" "$baseline" "$work/run" -- "$work/wrapper.sh"
expect 2 "Usage" "$python" "$check" "$dmlconf" "$baseline" "$work/run" "$work/wrapper.sh"

# The adapters' probes where their runtime is missing: 77 and what to install.
expect 77 "PyTorch cannot be imported .*python3-torch" "$python" -S "$source/pytorch/adapter.py" --probe
expect 2 "usage" "$python" "$source/pytorch/adapter.py" --device tpu
if [ -n "$node" ]; then
    expect 77 "onnxruntime-node is not installed in $work/no-npm .*npm ci --prefix tools/npm --ignore-scripts" \
        env DMLCONF_NPM_PREFIX="$work/no-npm" "$node" "$source/onnxruntime/adapter.js" --probe
    for backend in cpu wasm; do
        expect 77 "tfjs-core is not installed in $work/no-npm" \
            env DMLCONF_NPM_PREFIX="$work/no-npm" "$node" "$source/tfjs/adapter.js" --backend $backend --probe
    done
    expect 2 "usage" "$node" "$source/tfjs/adapter.js" --backend webgl
    expect 2 "usage" "$node" "$source/tfjs/adapter.js" --probe
    expect 2 "usage" "$node" "$source/onnxruntime/adapter.js" --threads 4
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures failures"
    exit 1
fi
echo "check_baseline.py and the adapters' probes: all passed"
