#!/usr/bin/env bash
# Runs DirectML under Wine on the GPU machine (no Wine, no X server there)
# from the bundle make-bundle.sh packs (carried in .gpu-h25/), from the
# repository root: unpacks it into /tmp/wine-root, starts the bundled Xvfb
# (no GLX) for Wine's DXGI, points Vulkan at NVIDIA's ICD, makes wined3d use
# its Vulkan renderer, and runs dmlconf.exe: `adapters`, the documentation's
# examples, then in the order given the whole corpus on each path (names of
# reports/directml/paths.txt) and the corners probe (the name "corners").
# Results go to $OUT. Usage: bash reports/directml/gpu/run-on-gpu.sh [NAME...]
# (default: operator corners)
set -u
bundle=${BUNDLE:-.gpu-h25}
out=${OUT:-/tmp/out}
R=/tmp/wine-root/R
rm -rf /tmp/wine-root /tmp/results
mkdir -p "$out" /tmp/wine-root /tmp/results
tar -C /tmp/wine-root -xJf "$bundle/wine.tar.xz"
tar -C /tmp/wine-root -xJf "$bundle/bin.tar.xz"
bin=/tmp/wine-root/bin
# Xvfb runs xkbcomp from /usr/bin; the image has none.
[ -x /usr/bin/xkbcomp ] || cp "$R/usr/bin/xkbcomp" /usr/bin/xkbcomp
export LD_LIBRARY_PATH="$R/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
"$R/usr/bin/Xvfb" :77 -screen 0 640x480x24 -nolisten tcp -extension GLX -xkbdir "$R/usr/share/X11/xkb" \
    >"$out/xvfb.log" 2>&1 &
xvfb=$!
sleep 2
export DISPLAY=:77
export WINEPREFIX="$R/prefix" WINELOADER="$R/usr/lib/wine/wine64" WINESERVER="$R/usr/lib/wine/wineserver64"
export WINEDEBUG=${WINEDEBUG:--all} WINEDLLOVERRIDES="mscoree,mshtml="
mkdir -p "$WINEPREFIX/dosdevices"
ln -sfn ../drive_c "$WINEPREFIX/dosdevices/c:"
ln -sfn / "$WINEPREFIX/dosdevices/z:"
if [ -d /usr/local/nvidia/share/vulkan/icd.d ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
wine=("$R/usr/lib/wine/wine64")
export DMLCONF_DIRECTML_DLL="Z:$bin/DirectML.dll"
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1
    echo "== dmlconf adapters"
    timeout 120 "${wine[@]}" "$bin/dmlconf.exe" adapters 2>&1
    echo "exit status $?"
} | tee "$out/adapters.txt"
corpus=(cases/doc cases/conformance cases/edge cases/negative cases/explore)
# The paths' options: the bundle's copy of paths.txt where it has one.
paths=reports/directml/paths.txt
[ -f "$bundle/paths.txt" ] && paths="$bundle/paths.txt"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(operator corners)
echo "== the documentation's examples"
timeout 120 "${wine[@]}" "$bin/dmlconf.exe" run --backend directml -q -o /tmp/doc cases/doc 2>&1 | tail -n 5
grep -E 'Verdict' /tmp/doc/summary.md 2>/dev/null
for name in "${names[@]}"; do
    if [ "$name" = corners ]; then
        echo "== corners"
        timeout 200 "${wine[@]}" "$bin/dmlconf_directml_corners.exe" >"$out/corners-table.md" 2>"$out/corners.log"
        echo "corners: exit status $?" | tee -a "$out/paths.txt"
        continue
    fi
    IFS='|' read -r _ flags graph binding < <(grep "^$name|" "$paths")
    start=$(date +%s%N)
    timeout 300 "${wine[@]}" "$bin/dmlconf.exe" run --backend directml --directml-flags "$flags" \
        --directml-graph "$graph" --directml-binding "$binding" -q --no-repro -o "/tmp/$name" "${corpus[@]}" \
        >"/tmp/$name.log" 2>&1
    status=$?
    end=$(date +%s%N)
    echo "$name: exit status $status in $(( (end - start) / 1000000 )) ms; $(grep -m1 Verdict "/tmp/$name/summary.md" 2>/dev/null)" |
        tee -a "$out/paths.txt"
    mkdir -p /tmp/results/$name
    cp "/tmp/$name/summary.json" "/tmp/$name/summary.md" "/tmp/$name/failures.txt" "/tmp/$name.log" \
        "/tmp/results/$name/" 2>/dev/null
    # A call brings back 8 files at most: the runs' reports travel as one,
    # rewritten after each run so that a call cut short keeps what ran.
    tar -C /tmp/results -czf "$out/runs.tar.gz" .
done
"$R/usr/lib/wine/wineserver64" -k 2>/dev/null
kill "$xvfb" 2>/dev/null
