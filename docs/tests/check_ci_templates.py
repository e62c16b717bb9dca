#!/usr/bin/env python3
"""Checks the CI templates in docs/ci: each parses as YAML (PyYAML's
safe_load, python3-yaml in Debian), has the jobs and steps its comments and
README.md promise (sharded runs, the merge, the baseline, the JUnit report,
the comparison with the last accepted run), calls dmlconf with options that
dmlconf has, and every shell script in it parses with `bash -n`.

Usage: check_ci_templates.py DOCS_CI_DIR
Prints one line per failure and a count; exit status 1 on any failure."""

import os
import re
import subprocess
import sys

import yaml

failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message)


def check_shell(where, script):
    """bash -n on a script, with the CI system's own expressions (GitHub's
    ${{ ... }}) replaced by a word."""
    text = re.sub(r"\$\{\{[^}]*\}\}", "EXPRESSION", script)
    result = subprocess.run(["bash", "-n"], input=text, text=True, capture_output=True)
    if result.returncode != 0:
        fail("%s: the shell does not parse: %s" % (where, result.stderr.strip()))


def check_commands(where, scripts):
    """The dmlconf commands the steps must run, with the options they need."""
    text = re.sub(r"\\\n\s*", " ", "\n".join(scripts))  # continued lines as one
    wanted = {
        "a sharded run": r"dmlconf run\b[^\n]*--shard\s+\"?[^\"\n]*/",
        "the baseline": r"--baseline",
        "the merge": r"dmlconf merge\s+-o\s+\S+",
        "the comparison (dmlconf compare OLD NEW -o DIR)": r"dmlconf compare\s+\S+\s+\S+\s+-o\s+\S+",
        "the backend under test": r"--backend\s+\"\$DMLCONF_BACKEND\"",
        "the target level": r"-l\s+\"\$DMLCONF_LEVEL\"",
    }
    for what, pattern in wanted.items():
        if not re.search(pattern, text):
            fail("%s: no step runs %s" % (where, what))


def check_github(path):
    with open(path) as stream:
        workflow = yaml.safe_load(stream)
    # YAML 1.1 reads the key `on` as true.
    triggers = workflow.get("on", workflow.get(True))
    if not triggers or "pull_request" not in triggers:
        fail("%s: not run on pull requests" % path)
    jobs = workflow.get("jobs", {})
    missing = [name for name in ("shard", "merge", "compare") if name not in jobs]
    for name in missing:
        fail("%s: no %s job" % (path, name))
    if missing:
        return
    matrix = jobs["shard"].get("strategy", {}).get("matrix", {}).get("shard")
    if not isinstance(matrix, list) or matrix != list(range(len(matrix))) or len(matrix) < 2:
        fail("%s: the shard job's matrix is not shards 0 to N-1: %r" % (path, matrix))
    if jobs["merge"].get("needs") != "shard" or "cancelled()" not in str(jobs["merge"].get("if", "")):
        fail("%s: the merge does not run after the shards, failed or not" % path)
    if jobs["compare"].get("needs") != "merge":
        fail("%s: the comparison does not run after the merge" % path)
    scripts = []
    uploads = []
    for job_name, job in jobs.items():
        for index, step in enumerate(job.get("steps", [])):
            if "run" in step:
                scripts.append(step["run"])
                check_shell("%s: job %s, step %d" % (path, job_name, index + 1), step["run"])
            if str(step.get("uses", "")).startswith("actions/upload-artifact"):
                uploads.append((job_name, step.get("with", {}).get("path")))
    check_commands(path, scripts)
    if ("merge", "merged") not in uploads:
        fail("%s: the merge job does not upload the merged reports (junit.xml among them)" % path)
    if not any(job == "shard" for job, _ in uploads):
        fail("%s: the shard job does not upload its reports" % path)
    if "strategy.job-total" not in "\n".join(scripts):
        fail("%s: the shard count is not the matrix's length (strategy.job-total)" % path)
    if "gh run download" not in "\n".join(scripts):
        fail("%s: the last accepted run is not downloaded" % path)


def check_gitlab(path):
    with open(path) as stream:
        pipeline = yaml.safe_load(stream)
    missing = [name for name in ("dmlconf-shard", "dmlconf-merge", "dmlconf-compare") if name not in pipeline]
    for name in missing:
        fail("%s: no %s job" % (path, name))
    if missing:
        return
    stages = pipeline.get("stages", [])
    template = pipeline.get(".dmlconf", {})
    shard, merge, compare = pipeline["dmlconf-shard"], pipeline["dmlconf-merge"], pipeline["dmlconf-compare"]
    for name, job in (("dmlconf-shard", shard), ("dmlconf-merge", merge), ("dmlconf-compare", compare)):
        if job.get("stage") not in stages:
            fail("%s: %s's stage %r is not among the stages %r" % (path, name, job.get("stage"), stages))
    if not isinstance(shard.get("parallel"), int) or shard["parallel"] < 2:
        fail("%s: the shard job is not parallel" % path)
    if merge.get("when") != "always":
        fail("%s: the merge does not run when a shard failed" % path)
    if merge.get("artifacts", {}).get("reports", {}).get("junit") != "merged/junit.xml":
        fail("%s: the merge does not report merged/junit.xml as JUnit" % path)
    scripts = list(template.get("before_script", []))
    for name in ("dmlconf-shard", "dmlconf-merge", "dmlconf-compare"):
        lines = pipeline[name].get("script", [])
        check_shell("%s: job %s" % (path, name), "\n".join(lines))
        scripts.extend(lines)
    check_commands(path, scripts)
    text = "\n".join(scripts)
    if "CI_NODE_INDEX - 1" not in text or "CI_NODE_TOTAL" not in text:
        fail("%s: the shards are not numbered from GitLab's CI_NODE_INDEX and CI_NODE_TOTAL" % path)
    if "jobs/artifacts/$CI_DEFAULT_BRANCH/download?job=dmlconf-merge" not in text:
        fail("%s: the last accepted run is not downloaded" % path)


def check_local_script(path):
    """The local script runs what the templates run."""
    text = open(path).read()
    for command in ("run --shard", "merge", "compare"):
        if '"$dmlconf" ' + command not in text:
            fail("%s: does not run dmlconf %s" % (path, command))
    if not os.access(path, os.X_OK):
        fail("%s: not executable" % path)
    check_shell(path, text)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    folder = sys.argv[1]
    checks = [
        (check_github, "github-actions.yml"),
        (check_gitlab, "gitlab-ci.yml"),
        (check_local_script, "run-locally.sh"),
    ]
    for check, name in checks:
        path = os.path.join(folder, name)
        before = len(failures)
        try:
            check(path)
        except (OSError, yaml.YAMLError) as error:
            fail("%s: %s" % (path, error))
        if len(failures) == before:
            print("ok: %s" % path)
    print("%d templates, %d failures" % (len(checks), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
