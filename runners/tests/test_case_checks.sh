#!/usr/bin/env bash
# End-to-end checks of what the case loader promises the runner: a case's
# own tolerance on the oracle backend; expected values that disagree with the
# oracle, an error at the wrong value in every command; named pipes, devices and directories
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
# result_of ID [FOLDER]: "status message" of a case in FOLDER/results.jsonl (default: out)
result_of() {
    python3 - "$1" "${2:-out}" <<'PY'
import json, sys
for line in open(sys.argv[2] + "/results.jsonl"):
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
  - {id: peer.ulps, input: [1, 2, 3, 4], expected: [1, 3, 6, 0x1.400002p+3], tolerance: {ulp_count: axis_length_minus_1}}
  - {id: peer.oracle.only, input: [1, 2, 3, 4], tolerance: {atol: 1}}
YAML
run_dmlconf run.txt run -q --backend oracle -o out peer.yaml
expect_status "run with peer tolerances" 0 $?
expect_text "within atol + rtol" <(result_of peer.within) "pass"
expect_text "3 ulps allowed along an axis of 4" <(result_of peer.ulps) "pass"
expect_text "no expected values: the oracle's own bits" <(result_of peer.oracle.only) "pass"

# ---- expected values that disagree with the oracle: an invalid case, not a failure ---
# Each wrong value is an error at its own place in every command that loads the
# file; a run runs the rest and says it is incomplete, never that the backend failed.
cat > wrong.yaml <<'YAML'
defaults: {op: cumulative_summation, dtype: float32, sizes: [4], axis: 0}
cases:
  - {id: wrong.fine, input: [1, 2, 3, 4], expected: [1, 3, 6, 10]}
  - {id: peer.outside, input: [1, 2, 3, 4], expected: [1, 3, 6, 0x1.400002p+3], tolerance: {atol: 1e-7}}
  - {id: peer.no.tolerance, input: [1, 2, 3, 4], expected: [1, 3, 6, 0x1.400002p+3]}
  - {id: peer.ulps.short, sizes: [2], input: [1, 2], expected: [1, 0x1.800004p+1], tolerance: {ulp_count: axis_length_minus_1}}
  - id: wrong.block
    input: [1, 2, 3, 4]
    expected:
      - 1
      - 4
      - 6
      - 10
YAML
cp wrong.yaml wrong-original.yaml
for command in validate list run bless; do
    arguments=("$command")
    [ "$command" = run ] && arguments+=(--backend oracle -o out-wrong)
    run_dmlconf "$command-wrong.txt" "${arguments[@]}" wrong.yaml
    expect_status "$command with wrong expected values" 2 $?
    out="$command-wrong.txt"
    expect_text "$command: outside atol" "$out" "wrong.yaml:4:65: error: expected item 3: 10.000001 (0x41200001) given, but the oracle computes 10 (0x41200000); rule: atol + rtol |expected| = 1e-07; error 9.54e-07 (1 ulp) = 9.54x the bound; 1 of the 4 values disagrees with the oracle under the case's tolerance"
    expect_text "$command: no tolerance, 1 ulp off" "$out" "wrong.yaml:5:70: error: expected item 3: 10.000001 (0x41200001) given, but the oracle computes 10 (0x41200000); rule: bit-exact"
    expect_text "$command: bit for bit without a tolerance" "$out" "without a tolerance, expected values must be the oracle's own bits"
    expect_text "$command: 1 ulp allowed along an axis of 2" "$out" "wrong.yaml:6:68: error: expected item 1: 3.00000048 (0x40400002) given, but the oracle computes 3 (0x40400000); rule: at most 1 ulp apart, no accumulation allowance; error 2 ulp = 2x the bound"
    expect_text "$command: a block list's item" "$out" "wrong.yaml:11:9: error: expected item 1: 4 (0x40800000) given, but the oracle computes 3 (0x40400000)"
    expect_text "$command: the caret under the item" "$out" "$(printf '      - 4\n        ^')"
done
expect_text "validate counts the errors" validate-wrong.txt "1 file, 1 valid case, 4 errors"
expect_text "list lists the good case" list-wrong.txt "wrong.fine"
expect_text "run: incomplete" run-wrong.txt "verdict: incomplete"
expect_text "run: the case files are why" run-wrong.txt "4 errors in the case files"
if grep -q "peer\.\|wrong.block" out-wrong/results.jsonl; then
    fail "run ran a case whose expected values are wrong:"
    grep "peer\.\|wrong.block" out-wrong/results.jsonl | sed 's/^/    /'
else
    pass
fi
expect_text "run ran the good case" <(result_of wrong.fine out-wrong) "pass"
python3 - out-wrong <<'PY' > run-wrong-summary.txt
import json, sys
summary = json.load(open(sys.argv[1] + "/summary.json"))
print("exit_status", summary["verdict"]["exit_status"])
print("text", summary["verdict"]["text"])
print("failed", sum(v for k, v in summary["counts"].items() if k in ("fail", "error", "crash", "timeout")))
PY
expect_text "summary.json: exit status 2" run-wrong-summary.txt "exit_status 2"
expect_text "summary.json: incomplete" run-wrong-summary.txt "text incomplete"
expect_text "summary.json: nothing failed" run-wrong-summary.txt "failed 0"
if cmp -s wrong.yaml wrong-original.yaml; then pass; else fail "bless changed a file with errors"; fi
# bless --all recomputes the values without judging them first; then the file is valid.
run_dmlconf bless-all.txt bless --all wrong.yaml
expect_status "bless --all over wrong expected values" 0 $?
expect_text "bless --all blessed every case" bless-all.txt "5 cases blessed"
run_dmlconf validate-blessed.txt validate wrong.yaml
expect_status "validate after bless --all" 0 $?

# ---- validate checks expected values of every size; other commands up to 2^20 elements --
# 2 x 524289 int32 ones, summed along axis 1 (element [i, j] is j + 1), in a .npy
# file written here (no NumPy needed), with element [1, 7] wrong.
python3 - <<'PY'
import struct
n, lines = 524289, 2
header = "{'descr': '<i4', 'fortran_order': False, 'shape': (%d, %d), }" % (lines, n)
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
values = [j + 1 for j in range(n)] * lines
values[n + 7] = 0
with open("big.npy", "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%di" % len(values), *values))
PY
cat > big.yaml <<'YAML'
cases:
  - id: big.npy
    op: cumulative_summation
    dtype: int32
    sizes: [2, 524289]
    axis: 1
    input: {generate: constant, value: 1}
    expected: {npy: big.npy}
YAML
run_dmlconf validate-big.txt validate big.yaml
expect_status "validate checks a case above 2^20 elements" 2 $?
expect_text "validate names the element of the .npy file" validate-big.txt "big.yaml:8:21: error: expected: big.npy: element 524296 [1, 7]: 0 (0x00000000) given, but the oracle computes 8 (0x00000008); rule: integers are bit-exact; 8 apart; 1 of the 1048578 values disagrees with the oracle"
run_dmlconf list-big.txt list big.yaml
expect_status "list leaves a case above 2^20 elements to validate" 0 $?
expect_text "list lists it" list-big.txt "big.npy"

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
