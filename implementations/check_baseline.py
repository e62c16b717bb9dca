#!/usr/bin/env python3
"""Runs an implementation's adapter over dmlconf's corpus and compares the
outcome with the implementation's recorded baseline, exactly.

Usage: check_baseline.py [--update] DMLCONF BASELINE_FILE WORK_DIR -- COMMAND [ARGS...]

COMMAND is the adapter (as given to `dmlconf run --backend exec --`). It is
first asked `COMMAND --probe`: an adapter whose implementation is not
installed here exits 77 there, saying why, and so does this script (CTest
reports the test as skipped, with that reason). Then dmlconf runs the
default corpus (the documentation cases, conformance, edge and negative
cases) on it, and the outcome is summarised: the count of cases per status,
and every case that did not pass with its status (a skip marked when the
implementation does not support the case). That summary must equal
BASELINE_FILE line for line, its comments aside: a change in dmlconf (its
corpus, its judging) or in the implementation shows as a difference. With
--update the summary is written to BASELINE_FILE instead.

Exit status: 0 when the outcome is the baseline's (or was recorded), 1 when
it differs or dmlconf failed to run, 77 when the implementation is not
installed, 2 on a usage error.
"""

import collections
import json
import os
import subprocess
import sys

SKIPPED = 77
STATUSES = ["pass", "fail", "skip", "error", "crash", "timeout", "expected-fail", "unexpected-pass", "flake"]


def summarise(results_path):
    """The outcome of a run: its header's description and summary lines."""
    counts = collections.Counter()
    lines = []
    run = {}
    finished = False
    with open(results_path, encoding="utf-8") as results:
        for text in results:
            record = json.loads(text)
            if "run" in record:
                run = record["run"]
            elif record.get("record") == "end":
                finished = record.get("end") == "finished"
            elif "id" in record:
                status = record["status"]
                counts[status] += 1
                if status != "pass":
                    note = " (unsupported)" if record.get("unsupported") else ""
                    lines.append("%s %s%s" % (record["id"], status, note))
    if not finished:
        raise RuntimeError("%s has no completion record: the run did not finish" % results_path)
    summary = ["cases %d: %s" % (sum(counts.values()),
                                 ", ".join("%s %d" % (s, counts[s]) for s in STATUSES if counts[s]))]
    summary += sorted(lines)
    return run, summary


def read_baseline(path):
    with open(path, encoding="utf-8") as baseline:
        return [line.rstrip("\n") for line in baseline if line.strip() and not line.startswith("#")]


def main(argv):
    update = False
    if argv and argv[0] == "--update":
        update = True
        argv = argv[1:]
    if len(argv) < 5 or argv[3] != "--":
        sys.stderr.write(__doc__)
        return 2
    dmlconf, baseline_path, work, command = argv[0], argv[1], argv[2], argv[4:]

    probe = subprocess.run(command + ["--probe"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if probe.returncode == SKIPPED:
        print("SKIPPED: the implementation is not installed here: %s" % probe.stdout.strip())
        return SKIPPED
    if probe.returncode != 0:
        print("the adapter's probe failed (exit status %d): %s" % (probe.returncode, probe.stdout.strip()))
        return 1
    print("implementation: %s" % probe.stdout.strip())

    report = os.path.join(work, "baseline-run")
    if os.path.isdir(report):
        for name in os.listdir(report):
            path = os.path.join(report, name)
            if os.path.isfile(path):
                os.remove(path)
    os.makedirs(work, exist_ok=True)
    run = subprocess.run([dmlconf, "run", "-q", "--no-repro", "-o", report, "--backend", "exec", "--"] + command)
    if run.returncode not in (0, 1):
        print("dmlconf run failed with exit status %d" % run.returncode)
        return 1
    try:
        info, summary = summarise(os.path.join(report, "results.jsonl"))
    except (OSError, ValueError, RuntimeError) as error:
        print("no outcome to compare: %s" % error)
        return 1
    header = ["# The outcome of `dmlconf run --backend exec` over the default corpus, as",
              "# implementations/check_baseline.py records and compares it: the cases per status,",
              "# then every case that did not pass. Recorded on %s (%s), %s." % (
                  info.get("backend", "?"), info.get("runtime", "?"), info.get("adapter", "?")),
              "# Record again: python3 implementations/check_baseline.py --update DMLCONF %s WORK -- COMMAND" % (
                  os.path.relpath(baseline_path, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
              ]
    if update:
        with open(baseline_path, "w", encoding="utf-8") as baseline:
            baseline.write("\n".join(header + summary) + "\n")
        print("recorded %s: %s" % (baseline_path, summary[0]))
        return 0
    try:
        expected = read_baseline(baseline_path)
    except OSError as error:
        print("no baseline to compare with: %s" % error)
        return 1
    if expected == summary:
        print("the outcome is the baseline's: %s" % summary[0])
        return 0
    gone = [line for line in expected if line not in summary]
    new = [line for line in summary if line not in expected]
    print("the outcome differs from %s (reports: %s):" % (baseline_path, report))
    for line in gone:
        print("  - %s" % line)
    for line in new:
        print("  + %s" % line)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
