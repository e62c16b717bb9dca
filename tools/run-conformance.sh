#!/usr/bin/env bash
# The main job: builds dmlconf and runs the whole conformance corpus on the
# default backend (the best one available here), writing the reports into
# dmlconf-results/ (results.jsonl, summary.json, junit.xml, summary.md,
# report.html, failures.txt). Extra arguments go to `dmlconf run`.
# Usage: bash tools/run-conformance.sh [dmlconf run options]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

# Only what running needs: no test tools, no tests built.
bash "$root/tools/install-deps.sh" run
cmake -S "$root" -B "$root/build/run" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF >/dev/null
cmake --build "$root/build/run" -j "$jobs" --target dmlconf
exec "$root/build/run/runners/dmlconf" run --report-dir "${DMLCONF_REPORT_DIR:-dmlconf-results}" "$@"
