#!/usr/bin/env bash
# How reports/implementations/pytorch-cuda.md (and the PyTorch 2 CPU run it
# compares with) was produced: runs on a GPU machine with a CUDA build of
# PyTorch as its `python3` and no Debian packages, from the repository root,
# with .gpu/ carried: dmlconf built on Debian 12 in .gpu/bin/, and the .deb
# files of libyaml and jansson, which it links. Reports go to $OUT.
#
# Prepare (on the build machine, in the repository root):
#   mkdir -p .gpu/bin && cp build/release/runners/dmlconf .gpu/bin/
#   (cd .gpu && apt-get -oAPT::Architecture=amd64 download libyaml-0-2 libjansson4)
set -u
out=${OUT:-/tmp/out}
mkdir -p "$out" /tmp/gpu
for f in .gpu/libyaml-0-2_*.deb .gpu/libjansson4_*.deb; do dpkg -x "$f" /tmp/gpu; done
export LD_LIBRARY_PATH=/tmp/gpu/usr/lib/x86_64-linux-gnu
bin=.gpu/bin/dmlconf
corpus=(cases/doc cases/conformance cases/edge cases/negative)
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    python3 -c 'import sys, torch; print("Python", sys.version.split()[0], "PyTorch", torch.__version__, "CUDA", torch.version.cuda, "available", torch.cuda.is_available())'
    python3 implementations/pytorch/adapter.py --probe --device cuda
} 2>&1 | tee "$out/machine.txt"

for device in cuda cpu; do
    start=$(date +%s%N)
    # SIGINT after 150 s: dmlconf then finishes its reports as "interrupted".
    timeout -s INT 150 "$bin" run -q -o "/tmp/pytorch-$device" "${corpus[@]}" --backend exec -- \
        python3 implementations/pytorch/adapter.py --device "$device"
    status=$?
    end=$(date +%s%N)
    echo "pytorch-$device: exit status $status in $(((end - start) / 1000000)) ms with $(nproc) worker processes" |
        tee -a "$out/machine.txt"
    grep -E 'Verdict|^\| (pass|fail|skip|error|crash|timeout) ' "/tmp/pytorch-$device/summary.md"
    tar -czf "$out/pytorch-$device.tar.gz" -C /tmp "pytorch-$device"
done
