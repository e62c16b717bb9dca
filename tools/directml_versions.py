#!/usr/bin/env python3
"""Writes reports/directml/versions.md and versions.json from the runs of
`tools/directml-releases.sh matrix`: for every DirectML release, where it
came from, what it reports (level, data types), its verdict per feature level
on every path of reports/directml/paths.txt, and the findings (the
disagreements, grouped by what fails and how) with the first and last release
that has each.

Usage: directml_versions.py WORK PATHS_TXT VERSIONS_MD VERSIONS_JSON RELEASE_ENTRY...
  WORK holds RELEASE/PATH/{summary.json,results.jsonl} and RELEASE.adapters.txt;
  a RELEASE_ENTRY is "DirectML version|onnxruntime-node taken from|carried by".
"""
import json
import os
import re
import sys


def read_paths(path):
    paths = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, flags, graph, binding = line.split("|")
        paths.append({"name": name, "flags": flags, "graph": graph, "binding": binding})
    return paths


def version_key(version):
    return tuple(int(part) for part in version.split("."))


OPS = {"cumulative_summation": "sum", "cumulative_product": "product"}


def finding_of(record):
    """What a failing case found, in words that do not depend on the case."""
    status, message = record["status"], record.get("message", "")
    where = "%s %s" % (record.get("dtype", "?"), OPS.get(record.get("op"), record.get("op", "?")))
    if record.get("negative"):
        text = re.sub(r"\d+_\d+", "LEVEL", message)
        return "%s, invalid desc: %s" % (where, text[:160])
    if status == "error":
        text = re.sub(r"^backend error: ", "", message)
        text = re.sub(r"HRESULT 0x[0-9a-fA-F]+ \((\w+)\)", r"\1", text)
        text = re.sub(r"\d+", "N", text)
        return "%s: %s" % (where, text[:160])
    if status == "fail":
        if "never written" in message:
            kind = "elements never written"
        elif re.search(r"expected -?[0-9.e+]+ \(0x[0-9a-f]+\), actual -?inf", message):
            kind = "a finite result comes out infinite"
        elif re.search(r"actual -?nan", message):
            kind = "a NaN where a number is due"
        else:
            kind = "values outside tolerance"
        return "%s: %s" % (where, kind)
    return "%s: %s" % (where, status)


def load_run(work, release, path):
    folder = os.path.join(work, release, path)
    summary_path = os.path.join(folder, "summary.json")
    if not os.path.exists(summary_path):
        return None
    summary = json.load(open(summary_path))
    findings = {}
    runtime = ""
    for line in open(os.path.join(folder, "results.jsonl")):
        record = json.loads(line)
        if "run" in record:
            runtime = record["run"].get("runtime", "")
        if record.get("status") in ("fail", "error", "crash", "timeout"):
            findings.setdefault(finding_of(record), []).append(record["id"])
    columns = summary["matrix"]["columns"]
    return {
        "verdict": summary["verdict"]["text"],
        "counts": summary["counts"],
        "levels": {c["label"]: {"passed": c["passed"], "failed": c["failed"], "skipped": c["skipped"]}
                   for c in columns},
        "findings": {key: sorted(ids) for key, ids in findings.items()},
        "runtime": runtime,
    }


def adapters_line(work, release):
    path = os.path.join(work, release + ".adapters.txt")
    if not os.path.exists(path):
        return ""
    for line in open(path):
        if "feature levels up to" in line or "DirectML does not open" in line:
            return line.strip()
    return ""


def corner_rows(work, release):
    """(probe, type, path) -> DirectML's output bits, from the probe's table."""
    path = os.path.join(work, release + ".corners.md")
    rows = {}
    if not os.path.exists(path):
        return rows
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0] not in ("probe", "---"):
            rows[(cells[0], cells[1], cells[2])] = cells[5]
    return rows


def short_verdict(run):
    if run is None:
        return "not run"
    text = run["verdict"]
    text = text.replace("conformant at level ", "").replace(" for what it supports", "*")
    return "%s (%d/%d/%d)" % (text, run["counts"]["pass"], run["counts"]["fail"] + run["counts"]["error"],
                              run["counts"]["skip"])


def main():
    work, paths_txt, target_md, target_json = sys.argv[1:5]
    entries = [entry.split("|") for entry in sys.argv[5:]]
    paths = read_paths(paths_txt)
    releases = [e for e in entries if os.path.isdir(os.path.join(work, e[0]))]
    releases.sort(key=lambda e: version_key(e[0]))
    runs = {r[0]: {p["name"]: load_run(work, r[0], p["name"]) for p in paths} for r in releases}

    # Findings: which (release, path) has each, and how many cases.
    findings = {}
    for release, by_path in runs.items():
        for path, run in by_path.items():
            if run is None:
                continue
            for key, ids in run["findings"].items():
                entry = findings.setdefault(key, {"releases": {}, "example": ids[0]})
                entry["releases"].setdefault(release, {})[path] = len(ids)
    order = [r[0] for r in releases]

    out = []
    out.append("# DirectML releases, judged by dmlconf")
    out.append("")
    out.append("Generated by `bash tools/directml-releases.sh matrix` (tools/directml_versions.py); do not edit. "
               "Every DirectML release the npm registry carries (inside onnxruntime-node), through the whole "
               "corpus (%d paths of `paths.txt` each) under Wine 8.0 on lavapipe, the stack of README.md. "
               "CI runs the pinned release only." % len(paths))
    out.append("")
    # In one sentence: do the releases differ anywhere?
    def signature(release):
        return {name: (run["verdict"], tuple(sorted((k, tuple(v)) for k, v in run["findings"].items())))
                for name, run in runs[release].items() if run is not None}
    signatures = [signature(r) for r in order]
    levels = [re.search(r"feature levels up to (\S+),", adapters_line(work, r)) for r in order]
    levels = ", ".join("%s: %s" % (r, m.group(1)) for r, m in zip(order, levels) if m)
    if order and all(sig == signatures[0] for sig in signatures[1:]):
        out.append("**Every release gives the same verdict and the same findings, case for case, on every path**: "
                   "on this stack no DirectML release changed what the cumulative operators compute. They differ "
                   "in the highest feature level they report (%s)." % levels)
    else:
        differing = sorted({name for sig in signatures[1:] for name in sig if sig.get(name) != signatures[0].get(name)})
        out.append("**The releases differ** on the paths %s (below); highest feature levels: %s."
                   % (", ".join(differing), levels))
    out.append("")
    out.append("## The releases")
    out.append("")
    out.append("| DirectML | taken from | also in onnxruntime-node | what it reports here | operator path: verdict "
               "| 2_1 | 3_1 | 4_0 | 5_0+ |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for release, source, carried in releases:
        run = runs[release].get("operator")
        reported = adapters_line(work, release)
        reported = re.sub(r"^.*?; DirectML ", "DirectML ", reported)
        reported = re.sub(r" \([A-Z]:[^)]*\)", "", reported)
        levels = run["levels"] if run else {}
        cells = []
        for label in ("2_1", "3_1", "4_0", "5_0"):
            cell = levels.get(label) or next((v for k, v in levels.items() if k.startswith(label)), None)
            cells.append("%d/%d" % (cell["passed"], cell["failed"]) if cell else "-")
        out.append("| %s | onnxruntime-node %s | %s | %s | %s | %s |" % (
            release, source, carried, reported or "-", run["verdict"] if run else "not run", " | ".join(cells)))
    out.append("")
    out.append("Level cells: passed/failed of the cases required at that level (errors count as failed), "
               "on the operator path.")
    out.append("")
    out.append("## Every path on every release")
    out.append("")
    out.append("Cell: the highest level conformant (`*`: for what it supports), then passed/failed/skipped.")
    out.append("")
    out.append("| path | " + " | ".join(order) + " |")
    out.append("|---|" + "---|" * len(order))
    for p in paths:
        out.append("| %s | %s |" % (p["name"], " | ".join(short_verdict(runs[r].get(p["name"])) for r in order)))
    out.append("")
    out.append("## The corners, release by release")
    out.append("")
    out.append("`dmlconf_directml_corners` on each release (corners.md explains the probes): the rows where a "
               "release's answer differs from the newest release's.")
    out.append("")
    newest = order[-1] if order else None
    reference = corner_rows(work, newest) if newest else {}
    for release in order:
        rows = corner_rows(work, release)
        if not rows:
            out.append("- %s: the probe did not run" % release)
            continue
        differ = [k for k in rows if reference.get(k) != rows[k]]
        if release == newest:
            out.append("- %s: %d answers (the reference)" % (release, len(rows)))
        elif not differ:
            out.append("- %s: the same %d answers as %s" % (release, len(rows), newest))
        else:
            out.append("- %s: %d of %d answers differ: %s" % (release, len(differ), len(rows), "; ".join(
                "%s, %s, %s: `%s` (%s: `%s`)" % (k[0], k[1], k[2], rows[k], newest, reference.get(k))
                for k in differ[:6])))
    out.append("")
    out.append("## Findings")
    out.append("")
    out.append("Each finding is what fails and how, whatever the case; cases: on the operator path (or the "
               "first path that has it). A finding some releases have and others do not comes first.")
    out.append("")
    out.append("| finding | first release | last release | releases | paths | cases | example |")
    out.append("|---|---|---|---|---|---:|---|")

    def sort_key(item):
        key, entry = item
        return (len(entry["releases"]) == len(order), key)

    for key, entry in sorted(findings.items(), key=sort_key):
        having = [r for r in order if r in entry["releases"]]
        path_names = sorted({p for r in having for p in entry["releases"][r]},
                            key=[q["name"] for q in paths].index)
        all_paths = len(path_names) == len(paths)
        first_release = having[0]
        counts = entry["releases"][first_release]
        cases = counts.get("operator", next(iter(counts.values())))
        out.append("| %s | %s | %s | %s | %s | %d | `%s` |" % (
            key.replace("|", "\\|"), having[0], having[-1],
            "every one" if len(having) == len(order) else ", ".join(having),
            "every path" if all_paths else ", ".join(path_names), cases, entry["example"]))
    out.append("")
    open(target_md, "w").write("\n".join(out) + "\n")

    def compact(run):
        if run is None:
            return None
        result = dict(run)
        result["findings"] = {k: {"cases": len(v), "example": v[0]} for k, v in run["findings"].items()}
        return result

    json.dump({"releases": [{"directml": r, "from": s, "carried_by": c, "reported": adapters_line(work, r),
                             "paths": {name: compact(run) for name, run in runs[r].items()}}
                            for r, s, c in releases],
               "paths": paths}, open(target_json, "w"), indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
