#!/usr/bin/env bash
# End-to-end checks of what the case loader promises the runner: a case's
# own tolerance on the oracle backend; named pipes, devices and directories
# where files belong; control characters in case files. Every command runs under a time limit, so a hang fails
# the test instead of stalling it.
# Usage: test_case_checks.sh DMLCONF WORK_DIR
set -u
dmlconf=$(realpath "$1")
work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

failures=0
passed=0
pass() {
    passed=$((passed + 1))
}
fail() {
    echo "FAIL: $1"
    failures=$((failures + 1))
}
# run_dmlconf OUTPUT ARGS...: runs dmlconf for at most 20 seconds, output
# (stdout and stderr) into OUTPUT; the status is dmlconf's (124: it hung).
run_dmlconf() {
    local output=$1
    shift
    timeout 20 "$dmlconf" "$@" > "$output" 2>&1
}
# expect_status DESCRIPTION EXPECTED ACTUAL
expect_status() {
    if [ "$2" = "$3" ]; then pass; else fail "$1: exit status $3, expected $2"; fi
}
# expect_text DESCRIPTION FILE TEXT: FILE holds TEXT (a fixed string)
expect_text() {
    if grep -qF -- "$3" "$2"; then pass; else fail "$1: '$3' not in $2:"; sed 's/^/    /' "$2"; fi
}
# result_of ID: "status message" of a case in out/results.jsonl
result_of() {
    python3 - "$1" <<'PY'
import json, sys
for line in open("out/results.jsonl"):
    record = json.loads(line)
    if record.get("id") == sys.argv[1]:
        print(record["status"], record["message"])
PY
}

# ---- a peer suite's golden values on the oracle backend ------------------------------
cat > peer.yaml <<'YAML'
defaults: {op: cumulative_summation, dtype: float32, sizes: [4], axis: 0}
cases:
  # 10 + 1 ulp where the oracle says 10: a golden value printed short.
  - {id: peer.within, input: [1, 2, 3, 4], expected: [1, 3, 6, 0x1.400002p+3], tolerance: {atol: 1e-5, rtol: 1e-3}}
  - {id: peer.outside, input: [1, 2, 3, 4], expected: [1, 3, 6, 0x1.400002p+3], tolerance: {atol: 1e-7}}
  - {id: peer.no.tolerance, input: [1, 2, 3, 4], expected: [1, 3, 6, 0x1.400002p+3]}
  - {id: peer.ulps, input: [1, 2, 3, 4], expected: [1, 3, 6, 0x1.400002p+3], tolerance: {ulp_count: axis_length_minus_1}}
  - {id: peer.ulps.short, sizes: [2], input: [1, 2], expected: [1, 0x1.800004p+1], tolerance: {ulp_count: axis_length_minus_1}}
  - {id: peer.oracle.only, input: [1, 2, 3, 4], tolerance: {atol: 1}}
YAML
run_dmlconf run.txt run -q --backend oracle -o out peer.yaml
expect_status "run with peer tolerances" 1 $?
expect_text "within atol + rtol" <(result_of peer.within) "pass"
expect_text "outside atol" <(result_of peer.outside) "fail"
expect_text "outside atol names its rule" <(result_of peer.outside) "rule: atol + rtol |expected| = 1e-07; error 9.54e-07 (1 ulp) = 9.54x the bound"
expect_text "hand-written values without a tolerance: bit for bit" <(result_of peer.no.tolerance) "rule: bit-exact"
expect_text "3 ulps allowed along an axis of 4" <(result_of peer.ulps) "pass"
expect_text "1 ulp allowed along an axis of 2" <(result_of peer.ulps.short) "rule: at most 1 ulp apart, no accumulation allowance; error 2 ulp = 2x the bound"
expect_text "no expected values: the oracle's own bits" <(result_of peer.oracle.only) "pass"

# ---- named pipes, devices and directories where files belong ------------------------
mkfifo pipe.yaml pipe.npy
mkdir folder.npy
cat > special.yaml <<'YAML'
defaults: {op: cumulative_summation, dtype: float32, sizes: [4], axis: 0}
cases:
  - {id: special.pipe, input: {npy: pipe.npy}}
  - {id: special.folder, input: {npy: folder.npy}}
  - {id: special.device, input: {npy: /dev/null}}
  - {id: special.fine, input: [1, 2, 3, 4]}
YAML
for command in validate list run; do
    arguments=("$command")
    [ "$command" = run ] && arguments+=(-q --backend oracle -o "out-$command")
    run_dmlconf "$command-pipe.txt" "${arguments[@]}" pipe.yaml
    expect_status "$command on a named pipe (124: it hung)" 2 $?
    expect_text "$command names the pipe" "$command-pipe.txt" "pipe.yaml: error: is a named pipe (FIFO), not a regular file"
    run_dmlconf "$command-device.txt" "${arguments[@]}" /dev/zero
    expect_status "$command on a device" 2 $?
    expect_text "$command names the device" "$command-device.txt" "/dev/zero: error: is a character device, not a regular file"
    run_dmlconf "$command-npy.txt" "${arguments[@]}" special.yaml
    expect_status "$command on .npy paths that are not files (124: it hung)" 2 $?
    expect_text "$command: npy pipe" "$command-npy.txt" "special.yaml:3:37: error: input: pipe.npy: is a named pipe (FIFO), not a regular file"
    expect_text "$command: npy folder" "$command-npy.txt" "special.yaml:4:39: error: input: folder.npy: is a directory, not a regular file"
    expect_text "$command: npy device" "$command-npy.txt" "special.yaml:5:39: error: input: /dev/null: is a character device, not a regular file"
done
expect_text "list still lists the good case" list-npy.txt "special.fine"

# ---- overlapping output strides are an error before anything runs --------------------
cat > overlap.yaml <<'YAML'
cases:
  - {id: overlap.rows, op: cumulative_summation, dtype: float32, sizes: [2, 3], axis: 1, output_strides: [2, 1], input: [1, 2, 3, 4, 5, 6]}
YAML
for command in validate run; do
    arguments=("$command")
    [ "$command" = run ] && arguments+=(-q --backend oracle -o "out-overlap")
    run_dmlconf "$command-overlap.txt" "${arguments[@]}" overlap.yaml
    expect_status "$command with overlapping output strides" 2 $?
    expect_text "$command names two elements" "$command-overlap.txt" "overlap.yaml:2:106: error: output_strides [2, 1] put output elements [0, 2] and [1, 0] in the same place"
done

# ---- control characters from a case file never reach the terminal raw ---------------
cat > escapes.yaml <<'YAML'
cases:
  - {id: escapes.op, op: "cumulative\e]0;owned\a_summation", dtype: float32, sizes: [2], axis: 0, input: [1, 2]}
YAML
for command in validate list; do
    run_dmlconf "$command-escapes.txt" "$command" escapes.yaml
    expect_status "$command with escapes in a scalar" 2 $?
    expect_text "$command shows the escape" "$command-escapes.txt" "unknown op 'cumulative\x1b]0;owned\x07_summation'"
    if LC_ALL=C grep -q "$(printf '[\033\007]')" "$command-escapes.txt"; then
        fail "$command printed a raw control character"
    else
        pass
    fi
done

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
