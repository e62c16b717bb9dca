#!/usr/bin/env bash
# Progress that fits where it runs: the header (what runs, where the reports
# go) before any case; in a log, a status line every --progress-interval
# seconds with done/total, each status counted as itself (a timeout as a
# timeout), the ETA and the slowest case in flight; on a terminal (a
# pseudo-terminal here) one line redrawn in place; -q leaves the verdict's
# lines alone, for run, explore and merge.
# Usage: test_progress.sh DMLCONF ADAPTER WORK_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
dmlconf=$1
adapter=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# Three cases of 7 elements, which the adapter answers slowly, and two it
# answers at once.
cat > slow.yaml <<'YAML'
defaults: {op: cumulative_summation, dtype: int32, axis: 0}
cases:
  - {id: p.fast1, sizes: [3], input: [1, 2, 3]}
  - {id: p.slow1, sizes: [7], input: [1, 2, 3, 4, 5, 6, 7]}
  - {id: p.slow2, sizes: [7], input: [1, 1, 1, 1, 1, 1, 1]}
  - {id: p.fast2, sizes: [2], input: [5, 6]}
  - {id: p.slow3, sizes: [7], input: [2, 2, 2, 2, 2, 2, 2]}
YAML
status_line='^\[[0-9]+(m[0-9]{2})?s\] [0-9]+/5 done, [0-9]+ pass'

# A log: the header first, then a status line every 0.3 s while the cases
# run (about 2.4 s).
"$dmlconf" run --backend exec -j 1 -o log --progress-interval 0.3 slow.yaml -- "$adapter" --mode slow --delay 0.8 \
    > log.txt 2>&1
check "a slow run into a log" 0 $?
expect "the header's first line comes first" grep -q "^dmlconf [0-9.]* on exec:test-adapter: " <(head -n 1 log.txt)
expect "then the cases selected and the time limit" \
    grep -q "^5 cases selected; time limit: 10 x a batch's elements x the seconds an element took so far, at least 120 s$" \
    <(sed -n 2p log.txt)
expect "then where the reports go" grep -qx "reports: log/" <(sed -n 3p log.txt)
first_status=$(grep -n -E "$status_line" log.txt | head -n 1 | cut -d: -f1)
expect "status lines come, after the header" test "${first_status:-0}" -gt 3
expect "the verdict comes after them" test "$(grep -n '^verdict: ' log.txt | cut -d: -f1)" -gt "${first_status:-0}"
expect "never silent for long: at least 4 status lines in 2.4 s" test "$(grep -c -E "$status_line" log.txt)" -ge 4
expect "a status line names the slowest case in flight and how long it has run" \
    grep -q -E "$status_line.*, slowest in flight: p\.[a-z0-9]+ and 4 more of its batch \([0-9.]+s\)$" log.txt
expect "no status line is redrawn in a log" bash -c "! grep -q $'\r' log.txt"

# Timeouts are counted as timeouts (the adapter waits, the scheduler's
# one-second limit does not); the ETA and a case alone in flight.
DMLCONF_EXEC_TIMEOUT=30 "$dmlconf" run --backend exec -j 1 -o timeouts --timeout 1 --progress-interval 0.2 slow.yaml \
    -- "$adapter" --mode slow --delay 1.5 > timeouts.txt 2>&1
check "a run whose slow cases time out" 1 $?
expect "a status line counts timeouts as timeouts" grep -q -E "$status_line, [0-9]+ timeout" timeouts.txt
expect "never as crashes" bash -c "! grep -q -E '$status_line.*crash' timeouts.txt"
expect "an ETA once a case is done" grep -q -E "$status_line.*, ETA [0-9]+s" timeouts.txt
expect "a case alone in flight" grep -q -E "slowest in flight: p\.slow[0-9] \([0-9.]+s\)$" timeouts.txt
expect "the summary agrees" grep -q "5 cases: 2 pass, 3 timeout" timeouts.txt

# --progress-interval 0: no status lines in a log; a bad interval is a
# usage error.
"$dmlconf" run --backend exec -j 1 -o silent --progress-interval 0 slow.yaml -- "$adapter" --mode slow --delay 0.3 \
    > silent.txt 2>&1
check "a run without status lines" 0 $?
expect "no status line" bash -c "! grep -q -E '$status_line' silent.txt"
expect "the header still comes" grep -q "^5 cases selected" silent.txt
"$dmlconf" run --backend oracle --progress-interval -1 slow.yaml 2>err.txt; check "a negative interval" 3 $?
expect "it says what it takes" grep -q -- "--progress-interval takes 0 to 3600 seconds, not '-1'" err.txt

# -q: the verdict's lines, nothing else.
"$dmlconf" run -q --backend exec -j 1 -o quiet --progress-interval 0.2 slow.yaml -- "$adapter" --mode slow --delay 0.4 \
    > quiet.txt 2> quiet-err.txt
check "a quiet run" 0 $?
expect "-q prints the verdict and its scope" test "$(cut -d: -f1 quiet.txt | tr '\n' ' ')" = "verdict scope "
expect "-q prints nothing on stderr" test ! -s quiet-err.txt
"$dmlconf" merge -q -o merged quiet > merge.txt 2>&1; check "a quiet merge" 0 $?
expect "merge -q prints the verdict and its scope" test "$(cut -d: -f1 merge.txt | tr '\n' ' ')" = "verdict scope "
"$dmlconf" explore -q --backend oracle -j 1 --cases 200 -o explore-quiet > explore-quiet.txt 2>&1
check "a quiet exploration" 0 $?
expect "explore -q prints its verdict line" test "$(cut -d: -f1 explore-quiet.txt)" = verdict

# explore: the header first, then status lines.
"$dmlconf" explore --backend exec -j 1 --cases 1000 --progress-interval 0.3 -o explore -- "$adapter" --mode slow \
    --delay 0.02 --trigger-elements 1 > explore.txt 2>&1
check "an exploration into a log" 0 $?
expect "explore's header comes first" grep -q "^dmlconf [0-9.]* explore on exec:test-adapter: " <(head -n 1 explore.txt)
expect "explore's budget and reports next" grep -qx "budget: 1000 cases; reports: explore/" <(sed -n 2p explore.txt)
expect "explore's status lines" grep -q -E '^\[[0-9]+s\] [0-9]+ cases \([0-9]+/s\), [0-9]+ of [0-9]+ cells, [0-9]+ findings?' \
    explore.txt

# A terminal: one line, redrawn in place, under the header.
python3 - "$dmlconf" "$adapter" > terminal.txt <<'PY'
import os, pty, sys
dmlconf, adapter = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.execv(dmlconf, [dmlconf, "run", "--backend", "exec", "-j", "1", "-o", "terminal", "slow.yaml", "--",
                       adapter, "--mode", "slow", "--delay", "0.4"])
out = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.write(repr(out) + "\n" + str(os.waitstatus_to_exitcode(status)) + "\n")
PY
check "a run on a pseudo-terminal" 0 $?
expect "the terminal run passed" test "$(tail -n 1 terminal.txt)" = 0
expect "its line is redrawn in place" \
    grep -q -E '\\r\[[0-9]+s\] 0/5 done, 0 pass, slowest in flight: p\.fast1 and 4 more of its batch \(' terminal.txt
expect "each redraw erases the rest of the line" grep -q -F '\x1b[K\r[' terminal.txt
expect "the header comes before the line" python3 -c "
import ast, sys
text = ast.literal_eval(open('terminal.txt').readline())
assert text.index(b'5 cases selected') < text.index(b'\r['), text[:300]"
expect "the last state stays, on a line of its own" grep -q -F '5/5 done, 5 pass\x1b[K\r\n' terminal.txt

finish
