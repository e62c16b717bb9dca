#!/usr/bin/env bash
# Translates every generated kernel variant from DXBC to SPIR-V with
# vkd3d-compiler and validates the result with spirv-val. Any error, any
# "fixme:" or "err:" line from vkd3d-shader, or any invalid module fails.
# Usage: check_kernels.sh DUMP_KERNELS WORK_DIR
set -u
dump=$1
work=$2
for tool in vkd3d-compiler spirv-val; do
    if ! command -v "$tool" >/dev/null; then
        echo "FAIL: $tool is not installed (Debian: vkd3d-compiler, spirv-tools)"
        exit 1
    fi
done
rm -rf "$work"
mkdir -p "$work"
"$dump" "$work" || exit 1
failures=0
count=0
for blob in "$work"/*.dxbc; do
    name=$(basename "$blob" .dxbc)
    spv="$work/$name.spv"
    count=$((count + 1))
    if ! vkd3d-compiler -x dxbc-tpf -b spirv-binary "$blob" -o "$spv" 2>"$work/$name.log"; then
        echo "FAIL: $name: vkd3d-compiler failed"
        cat "$work/$name.log"
        failures=$((failures + 1))
        continue
    fi
    if grep -E '^(fixme|err):' "$work/$name.log"; then
        echo "FAIL: $name: vkd3d-shader reported the lines above"
        failures=$((failures + 1))
        continue
    fi
    if ! spirv-val "$spv" >"$work/$name.val" 2>&1; then
        echo "FAIL: $name: spirv-val rejects the SPIR-V"
        cat "$work/$name.val"
        failures=$((failures + 1))
    fi
done
if [ "$count" -eq 0 ]; then
    echo "FAIL: no kernel was generated"
    exit 1
fi
echo "$count kernel variants translated, $failures failed"
[ "$failures" -eq 0 ]
