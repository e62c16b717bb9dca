#!/usr/bin/env python3
"""Runs an implementation's adapter over dmlconf's corpus and compares the
outcome with the implementation's recorded baseline, exactly.

Usage: check_baseline.py [--update] [--sample N] DMLCONF BASELINE_FILE WORK_DIR -- COMMAND [ARGS...]

COMMAND is the adapter (as given to `dmlconf run --backend exec --`). It is
first asked `COMMAND --probe`: an adapter whose implementation is not
installed here exits 77 there, saying why, and so does this script (CTest
reports the test as skipped, with that reason). Then dmlconf runs the
default corpus (the documentation cases, conformance, edge and negative
cases) on it, and the outcome is summarised: the count of cases per status,
and every case that did not pass with its status (a skip marked when the
implementation does not support the case). With --sample N the run covers
the documentation cases and about one case in N of the rest, chosen by a
hash of the id (CRC-32 of the id, modulo N, is 0), so that adding or
removing a case leaves the others' choice alone. That summary must equal
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
import zlib

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


def in_sample(case_id, sample):
    """Whether a case is in the sample of one in `sample` (every case when
    `sample` is 1): every documentation case, and those whose id's CRC-32
    is a multiple of `sample`."""
    return sample == 1 or case_id.startswith("doc.") or zlib.crc32(case_id.encode("utf-8")) % sample == 0


def sample_filters(dmlconf, sample):
    """The `dmlconf run` filters that select the sample: one -f per id of the
    default corpus in it (none when the sample is the whole corpus)."""
    if sample == 1:
        return []
    listed = subprocess.run([dmlconf, "list"], stdout=subprocess.PIPE, text=True, check=True)
    filters = []
    for line in listed.stdout.splitlines():
        words = line.split()
        if words and in_sample(words[0], sample):
            filters += ["-f", words[0]]
    if not filters:
        raise RuntimeError("dmlconf list gave no case to sample")
    return filters


def read_baseline(path):
    with open(path, encoding="utf-8") as baseline:
        return [line.rstrip("\n") for line in baseline if line.strip() and not line.startswith("#")]


def main(argv):
    update = False
    sample = 1
    while argv and argv[0] in ("--update", "--sample"):
        if argv[0] == "--update":
            update = True
            argv = argv[1:]
        elif len(argv) > 1 and argv[1].isdigit() and int(argv[1]) >= 1:
            sample = int(argv[1])
            argv = argv[2:]
        else:
            sys.stderr.write(__doc__)
            return 2
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
    os.makedirs(work, exist_ok=True)
    try:
        filters = sample_filters(dmlconf, sample)
    except (OSError, subprocess.CalledProcessError, RuntimeError) as error:
        print("cannot choose the sample: %s" % error)
        return 1
    run = subprocess.run([dmlconf, "run", "-q", "--no-repro", "--overwrite", "-o", report] + filters +
                         ["--backend", "exec", "--"] + command)
    # 0 passed, 1 failed, 2 incomplete: cases it does not support leave the
    # run incomplete, which the outcome records; a run that could not start
    # (3) has no outcome.
    if run.returncode not in (0, 1, 2):
        print("dmlconf run failed with exit status %d" % run.returncode)
        return 1
    try:
        info, summary = summarise(os.path.join(report, "results.jsonl"))
    except (OSError, ValueError, RuntimeError) as error:
        print("no outcome to compare: %s" % error)
        return 1
    covered = ["the default corpus,"] if sample == 1 else \
        ["the documentation cases and", "# one in %d of the rest of the default corpus (CRC-32 of the id)," % sample]
    option = "" if sample == 1 else " --sample %d" % sample
    header = ["# The outcome of `dmlconf run --backend exec` over %s" % covered[0]] + covered[1:] + [
              "# as implementations/check_baseline.py records and compares it: the cases per status,",
              "# then every case that did not pass. Recorded on %s (%s), %s." % (
                  info.get("backend", "?"), info.get("runtime", "?"), info.get("adapter", "?")),
              "# Record again: python3 implementations/check_baseline.py --update%s DMLCONF %s WORK -- COMMAND" % (
                  option, os.path.relpath(baseline_path, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
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
