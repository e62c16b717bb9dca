#!/usr/bin/env bash
# How reports/directml/ is produced: dmlconf.exe (tools/build-windows.sh)
# runs DirectML's own operators under Wine on lavapipe, from the repository
# root, writing into reports/directml/ (or $OUT):
#   adapters.txt           `dmlconf adapters`: the stack, DirectML's version, level and types
#   corpus-6_4.{md,json}   the whole corpus at DirectML's own level (6_4)
#   corpus-4_0.{md,json}   the same with the device created for level 4_0
#   repros.txt             the minimal reproducers in repros/, run one by one
# Usage: bash reports/directml/run-under-wine.sh
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/reports/directml}
exe="$root/build/windows/runners/dmlconf.exe"
run=(bash "$root/tools/wine-run.sh" "$exe")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"${run[@]}" adapters > "$out/adapters.txt" 2>&1
for level in 6_4 4_0; do
    "${run[@]}" run --backend directml -l "$level" -j 2 -q --no-repro -o "$work/$level" "$root/cases"/{doc,conformance,edge,negative,explore}
    cp "$work/$level/summary.md" "$out/corpus-$level.md"
    cp "$work/$level/summary.json" "$out/corpus-$level.json"
done
{
    for file in "$root"/reports/directml/repros/*.yaml; do
        level=6_4
        case "$file" in *below-5_0*) level=4_0 ;; esac
        echo "== $(basename "$file") (target level $level)"
        "${run[@]}" run --backend directml -l "$level" -j 1 -q --no-repro -o "$work/repro" "$file"
        echo "exit status $?"
        python3 - "$work/repro/results.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    record = json.loads(line)
    if "id" in record and "status" in record:
        print("  %s: %s %s" % (record["id"], record["status"], record.get("message", "")))
PY
    done
} > "$out/repros.txt" 2>&1
