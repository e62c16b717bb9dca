#!/usr/bin/env bash
# Runs on one machine the steps of the CI templates beside it
# (github-actions.yml, gitlab-ci.yml), in the same order and with the same
# dmlconf commands, so a gate can be tried before it is pushed:
#   1. the corpus in N shards     dmlconf run --shard I/N [--baseline DIR] -o OUT/shard-I
#   2. their merge                dmlconf merge -o OUT/merged OUT/shard-*
#   3. the JUnit file             OUT/merged/junit.xml (what CI uploads)
#   4. with --accepted, the comparison with the last accepted run's merged
#      reports                    dmlconf compare ACCEPTED OUT/merged -o OUT/compare
#                                 (exit status 0: no regressions)
# A dmlconf without the compare command (an older build) cannot make step 4:
# the step says so and fails (exit status 3); nothing stands in for it.
#
# Usage: run-locally.sh [OPTIONS] [-- RUN_OPTIONS...]
#   -n, --shards N       how many shards (default 4)
#   -o, --output DIR     where the reports go (default dmlconf-ci); a folder
#                        that holds reports is refused unless --overwrite
#       --overwrite      replace the reports of an earlier run in DIR
#       --baseline DIR   the known failures (failures.txt ...), for every shard
#       --accepted DIR   the merged reports of the last accepted run (step 4)
#       --dmlconf PATH   the dmlconf to run (default: `dmlconf` on PATH)
#   RUN_OPTIONS          given to every `dmlconf run`, e.g. --backend oracle
#                        -j 2, -l 5_0, -f 'doc.*', or --backend exec -- ADAPTER
# Exit status: the merge's (dmlconf's: 0 passed or no regressions, 1 failed or
# regressions, 2 incomplete, 3 setup error); when the merge passed, the
# comparison's; 3 when the comparison was asked for and cannot be made.
set -uo pipefail

shards=4
output=dmlconf-ci
overwrite=()
baseline=()
accepted=
dmlconf=dmlconf
run_options=()

usage() {
    sed -n '/^# Usage:/,/^# Exit status/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' | sed '$d'
}
die() {
    echo "run-locally.sh: $*" >&2
    exit 3
}

while [ $# -gt 0 ]; do
    case "$1" in
        -n|--shards) [ $# -ge 2 ] || die "$1 needs a value"; shards=$2; shift 2 ;;
        -o|--output) [ $# -ge 2 ] || die "$1 needs a value"; output=$2; shift 2 ;;
        --overwrite) overwrite=(--overwrite); shift ;;
        --baseline) [ $# -ge 2 ] || die "$1 needs a value"; baseline=(--baseline "$2"); shift 2 ;;
        --accepted) [ $# -ge 2 ] || die "$1 needs a value"; accepted=$2; shift 2 ;;
        --dmlconf) [ $# -ge 2 ] || die "$1 needs a value"; dmlconf=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        --) shift; run_options=("$@"); break ;;
        *) die "unknown option '$1' (options for dmlconf run go after --; --help)" ;;
    esac
done
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || die "--shards takes a whole number from 1, not '$shards'"
command -v "$dmlconf" >/dev/null 2>&1 || die "no dmlconf to run ('$dmlconf'; --dmlconf PATH names one)"
if [ -n "$accepted" ] && [ ! -f "$accepted/summary.json" ]; then
    die "--accepted $accepted holds no merged reports (summary.json)"
fi
if [ -e "$output" ] && [ -n "$(ls -A "$output" 2>/dev/null)" ] && [ ${#overwrite[@]} -eq 0 ]; then
    die "$output already holds reports (--overwrite replaces them)"
fi
mkdir -p "$output" || die "cannot create $output"
rm -rf "$output/compare"
version=$("$dmlconf" --version 2>/dev/null || echo "dmlconf (unknown version)")
echo "== $version, $shards shards into $output"

# 1. The shards. Each one's status is kept; the merge decides the verdict.
setup_error=no
for ((index = 0; index < shards; index++)); do
    "$dmlconf" run --shard "$index/$shards" "${baseline[@]}" -q "${overwrite[@]}" -o "$output/shard-$index" \
        "${run_options[@]}"
    status=$?
    echo "== shard $index/$shards: exit status $status"
    [ "$status" -eq 3 ] && setup_error=yes
done

# 2. The merge, and 3. its JUnit file.
shard_folders=()
for ((index = 0; index < shards; index++)); do
    shard_folders+=("$output/shard-$index")
done
"$dmlconf" merge "${overwrite[@]}" -o "$output/merged" "${shard_folders[@]}"
merge_status=$?
echo "== merge: exit status $merge_status"
if [ -f "$output/merged/junit.xml" ]; then
    echo "== JUnit: $output/merged/junit.xml"
else
    echo "== JUnit: the merge wrote no junit.xml"
    [ "$merge_status" -ne 0 ] || merge_status=2
fi
[ "$setup_error" = no ] || echo "== a shard could not start (exit status 3)"

# 4. The comparison with the last accepted run.
compare_status=0
if [ -n "$accepted" ]; then
    if "$dmlconf" --help 2>/dev/null | grep -qE '^ +compare '; then
        "$dmlconf" compare "$accepted" "$output/merged" -o "$output/compare"
        compare_status=$?
        echo "== compare with $accepted: exit status $compare_status (0: no regressions)"
    else
        echo "== compare with $accepted: NOT MADE: $version has no 'dmlconf compare' command, so the" \
             "comparison with the last accepted run cannot be made; this step fails" >&2
        compare_status=3
    fi
else
    echo "== compare: no --accepted run given, no comparison made"
fi

if [ "$merge_status" -ne 0 ]; then
    # A shard that could not start is a setup error, whatever the merge made of it.
    [ "$setup_error" = no ] || exit 3
    exit "$merge_status"
fi
exit "$compare_status"
