#!/usr/bin/env bash
# How reports/gpu/ was produced: runs on the GPU machine (Ubuntu, NVIDIA
# driver and Vulkan ICD, no Vulkan loader, no vkd3d) from the repository
# root, with .gpu/ carried: Debian 12 .deb files of the Vulkan loader, the GL
# vendor libraries, vkd3d 1.2, libyaml and jansson, and .gpu/bin/ holding
# dmlconf and dmlconf_d3d12_bench built on Debian 12. Results go to $OUT.
#
# Prepare (on the build machine, in the repository root):
#   mkdir -p .gpu/bin && cd .gpu && o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64'
#   apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 \
#       libvkd3d1 libvkd3d-utils1 libvkd3d-shader1 libxcb-keysyms1 libyaml-0-2 libjansson4
#   cp ../build/release/runners/dmlconf ../build/release/tools/dmlconf_d3d12_bench bin/
#
# Usage: bash reports/gpu/run-on-gpu.sh [corpus|bench|all]   (default all; the
# parts fit the GPU machine's 10-minute calls one at a time)
set -u
part=${1:-all}
out=${OUT:-/tmp/out}
mkdir -p "$out"
for f in .gpu/lib{vulkan1,egl1,glvnd0,opengl0,gl1,glx0,gles2}_*.deb; do dpkg -x "$f" /; done
ldconfig
mkdir -p /tmp/gpu
for f in .gpu/lib{vkd3d,xcb,yaml,jansson}*.deb; do dpkg -x "$f" /tmp/gpu; done
export LD_LIBRARY_PATH=/tmp/gpu/usr/lib/x86_64-linux-gnu
if [ -d /usr/local/nvidia/share/vulkan/icd.d ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
# vkd3d 1.2 prints "fixme" lines about queue flags newer than itself on
# NVIDIA's driver; they are harmless and would drown the output.
export VKD3D_DEBUG=${VKD3D_DEBUG:-err}
bin=.gpu/bin
corpus=(cases/doc cases/conformance cases/edge cases/negative cases/explore)
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    echo
    "$bin/dmlconf" adapters
} 2>&1 | tee "$out/adapters.txt"

if [ "$part" != bench ]; then
echo "== the corpus on the GPU"
start=$(date +%s%N)
"$bin/dmlconf" run --backend d3d12 -l 5_0 -q -o "$out/corpus" "${corpus[@]}"
status=$?
end=$(date +%s%N)
echo "corpus: exit status $status in $(( (end - start) / 1000000 )) ms ($(nproc) CPUs, dmlconf's default workers)" \
    | tee "$out/corpus-time.txt"
grep -E 'Verdict|^\| (pass|fail|skip|error|crash|timeout) ' "$out/corpus/summary.md"

echo "== the corpus three times with the driver's shader cache cleared before each (cold), three times warm"
for state in cold cold cold warm warm warm; do
    [ "$state" = cold ] && rm -rf "${XDG_CACHE_HOME:-$HOME/.cache}/nvidia"
    start=$(date +%s%N)
    "$bin/dmlconf" run --backend d3d12 -l 5_0 -q -o /tmp/timed "${corpus[@]}"
    timed_status=$?
    end=$(date +%s%N)
    echo "$state: exit status $timed_status in $(( (end - start) / 1000000 )) ms; $(grep -o 'the run took [0-9.]* s' /tmp/timed/summary.md)" \
        | tee -a "$out/corpus-cold-warm.txt"
done

echo "== the corpus with each kernel and the cutting paths forced"
for knob in DMLCONF_D3D12_KERNEL=tile DMLCONF_D3D12_KERNEL=rake DMLCONF_D3D12_KERNEL=serial "DMLCONF_D3D12_KERNEL=serial DMLCONF_D3D12_CHUNK=2" \
    DMLCONF_D3D12_KERNEL=lookback "DMLCONF_D3D12_KERNEL=lookback DMLCONF_D3D12_LOOKBACK=spans DMLCONF_D3D12_CHUNK=16" \
    DMLCONF_D3D12_KERNEL=chained "DMLCONF_D3D12_KERNEL=chained DMLCONF_D3D12_LOOKBACK=spans DMLCONF_D3D12_CHUNK=80" \
    "DMLCONF_D3D12_KERNEL=chained DMLCONF_D3D12_EPOCHS=2" DMLCONF_D3D12_EPOCHS=1 \
    DMLCONF_D3D12_LOOKBACK=0 "DMLCONF_D3D12_LOOKBACK_TILES=2 DMLCONF_D3D12_VIEW_WORDS=32768" \
    DMLCONF_D3D12_KERNEL=lines "DMLCONF_D3D12_KERNEL=lines DMLCONF_D3D12_TILE=32x16" DMLCONF_D3D12_VIEW_WORDS=32768 \
    DMLCONF_D3D12_VIEW_WORDS=131072 DMLCONF_D3D12_BUILD_AHEAD=0; do
    env $knob "$bin/dmlconf" run --backend d3d12 -l 5_0 -q -o "/tmp/knob" "${corpus[@]}"
    knob_status=$?
    echo "$knob: exit status $knob_status $(grep Verdict /tmp/knob/summary.md)" | tee -a "$out/corpus-time.txt"
    [ "$knob_status" = 0 ] || cp /tmp/knob/failures.txt "$out/failures-$(echo "$knob" | tr ' =' '__').txt"
done

echo "== long lines through chained passes whose every look-back jumps over spans, checked element by element"
DMLCONF_D3D12_LOOKBACK=spans "$bin/dmlconf_d3d12_bench" --elements 10000000 --no-small --no-torch --no-copy --repeat 1 \
    --only "1-D" 2>&1 | grep -E "^cum.*(verified|FAIL|WRONG)|rror" | tee "$out/chained-spans-long-lines.txt"

echo "== the self-test: broken kernels must be caught"
for fault in drop-element off-by-one-exclusive f16-accumulate; do
    DMLCONF_D3D12_FAULT=$fault "$bin/dmlconf" run --backend d3d12 -l 5_0 -q --no-repro --no-rerun \
        -o "/tmp/fault" "${corpus[@]}"
    echo "fault $fault: exit status $? (1 expected), $(grep -E '^\| fail \|' /tmp/fault/summary.md)" \
        | tee -a "$out/corpus-time.txt"
done

tar -czf "$out/corpus.tar.gz" -C "$out" corpus && rm -rf "$out/corpus"
fi
[ "$part" = corpus ] && exit 0

echo "== the benchmark"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu --format=csv \
    | tee "$out/clocks.txt"
"$bin/dmlconf_d3d12_bench" 2>&1 | tee "$out/bench.txt"
echo "== one long-lived process, without and with the warm-up; the GPU's clocks sampled every 100 ms"
nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,utilization.gpu --format=csv -lms 100 \
    >"$out/clocks-long-lived.csv" 2>&1 &
sampler=$!
for warm in 0 300; do
    "$bin/dmlconf_d3d12_bench" --no-small --no-torch --repeat 5 --same-process --warm-up-ms "$warm" \
        --only "cumsum float32 1-D" --only "cumsum int64 1-D" --only "cumsum float32 100x1000x1000 axis 1" \
        --only "cumsum float32 1000000x100 axis 1" 2>&1 | tee "$out/long-lived-warm-$warm.txt"
done
kill "$sampler"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu --format=csv,noheader \
    | tee -a "$out/clocks.txt"
