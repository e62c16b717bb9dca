#!/usr/bin/env bash
# dmlconf explore on the GPU machine: 100 s of random cases on the d3d12
# backend, each deliberate fault with 1000 cases, and the two faults planted
# where the corpus before cases/explore did not reach run against the corpus
# and against cases/explore. Runs from the repository root with .gpu/
# carried, prepared as reports/gpu/run-on-gpu.sh says (the .deb files, and
# .gpu/bin/dmlconf built on Debian 12); results go to $OUT.
set -u
out=${OUT:-/tmp/out}
mkdir -p "$out"
if [ ! -f runners/cli/src/cmd_explore.c ] || [ ! -x .gpu/bin/dmlconf ]; then
    echo "not the explore tree: $(ls | head -20 | tr '\n' ' ')"
    exit 3
fi
for f in .gpu/lib{vulkan1,egl1,glvnd0,opengl0,gl1,glx0,gles2}_*.deb; do dpkg -x "$f" /; done
ldconfig
mkdir -p /tmp/gpu
for f in .gpu/lib{vkd3d,xcb,yaml,jansson}*.deb; do dpkg -x "$f" /tmp/gpu; done
export LD_LIBRARY_PATH=/tmp/gpu/usr/lib/x86_64-linux-gnu
if [ -d /usr/local/nvidia/share/vulkan/icd.d ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
export VKD3D_DEBUG=${VKD3D_DEBUG:-err}
bin=.gpu/bin
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    "$bin/dmlconf" adapters
} 2>&1 | tee "$out/adapters.txt"
start=$(date +%s)
"$bin/dmlconf" explore --backend d3d12 --seconds 100 --no-corpus -j 8 -o /tmp/x-clean >"$out/clean.txt" 2>&1
echo "exit status $? after $(( $(date +%s) - start )) s" >>"$out/clean.txt"
tail -5 "$out/clean.txt"
for fault in drop-element off-by-one-exclusive f16-accumulate chunk-carry broadcast-in-place; do
    DMLCONF_D3D12_FAULT=$fault "$bin/dmlconf" explore --backend d3d12 --cases 1000 --shrink-seconds 10 \
        --no-corpus -j 8 -q -o "/tmp/x-$fault"
    echo "explore with $fault: exit status $?" >>"$out/faults.txt"
    grep -E '^## |^- reproducer' "/tmp/x-$fault/findings.md" >>"$out/faults.txt"
done
for fault in chunk-carry broadcast-in-place; do
    DMLCONF_D3D12_FAULT=$fault "$bin/dmlconf" run --backend d3d12 -l 5_0 -q --no-repro --no-rerun -j 8 \
        -o "/tmp/c-$fault" cases/doc cases/conformance cases/edge cases/negative
    echo "run over the corpus before cases/explore with $fault: exit status $?, $(grep Verdict /tmp/c-$fault/summary.md)" >>"$out/faults.txt"
    DMLCONF_D3D12_FAULT=$fault "$bin/dmlconf" run --backend d3d12 -l 5_0 -q --no-repro --no-rerun -j 8 \
        -o "/tmp/e-$fault" cases/explore
    echo "run over cases/explore with $fault: exit status $?, $(grep -E '^\| fail \|' /tmp/e-$fault/summary.md)" >>"$out/faults.txt"
done
cat "$out/faults.txt"
cd /tmp && tar czf "$out/explore-gpu.tar.gz" x-clean/coverage.txt x-clean/coverage.csv x-clean/findings.md \
    x-clean/summary.md x-clean/explore-state.json x-clean/repros x-*/findings.md x-*/repros 2>/dev/null
ls -la "$out"
