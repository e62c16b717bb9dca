#!/usr/bin/env bash
# How reports/gpu/*-limits.* were produced: the limits corpus (cases/limits)
# on the d3d12 backend on the GPU machine, one case at a time, with the
# machine's memory sampled every 2 s. Runs from a folder carried to the GPU
# machine that holds bin/dmlconf (built on Debian 12, RelWithDebInfo),
# deb/ (the Debian 12 packages of run-on-gpu.sh) and cases/limits/*.yaml.
# Results go to $OUT. Arguments (filters such as -f 'limits.int32.*') go to
# dmlconf run; LIMITS_SECONDS caps the run (default 330 s).
set -u
cd "$(dirname "$0")" || exit 1
out=${OUT:-/tmp/out}
mkdir -p "$out"
for f in deb/lib{vulkan1,egl1,glvnd0,opengl0,gl1,glx0,gles2}_*.deb; do dpkg -x "$f" /; done
ldconfig
mkdir -p /tmp/gpu
for f in deb/lib{vkd3d,xcb,yaml,jansson}*.deb; do dpkg -x "$f" /tmp/gpu; done
export LD_LIBRARY_PATH=/tmp/gpu/usr/lib/x86_64-linux-gnu
if [ -d /usr/local/nvidia/share/vulkan/icd.d ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
export VKD3D_DEBUG=err
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    echo "CPUs: $(nproc)"
    free -g
    echo "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
    bin/dmlconf adapters
} > "$out/machine.txt" 2>&1

# Memory in use (MiB, without the page cache) and the GPU's, every 2 s.
(
    while true; do
        echo "$(date +%s) host $(free -m | awk '/Mem:/ {print $3}') MiB used, GPU $(nvidia-smi \
            --query-gpu=memory.used --format=csv,noheader 2>/dev/null)"
        sleep 2
    done
) > "$out/memory.txt" 2>&1 &
sampler=$!

# One case at a time (a 2^32 - 1 element float32 case holds about 80 GiB
# with the backend's upload and read-back buffers), in the corpus' order
# (float32, int32, int64); a failure is not run again. The whole run is
# stopped (SIGINT: its reports say "interrupted") before the call's time is
# out.
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v)
start=$(date +%s)
timeout -s INT "${LIMITS_SECONDS:-330}" "${timer[@]}" bin/dmlconf run --backend d3d12 -l 5_0 -j 1 --timeout 200 \
    --no-rerun --no-repro -o /tmp/limits "$@" cases/limits > "$out/run.txt" 2>&1
status=$?
echo "exit status $status after $(($(date +%s) - start)) s" >> "$out/run.txt"
kill "$sampler"
for f in summary.md summary.json results.jsonl; do cp "/tmp/limits/$f" "$out/" 2>/dev/null; done
cat "$out/run.txt"
