#!/usr/bin/env bash
# How this folder was produced: one call of the GPU machine that measures
# piece passes (DMLCONF_D3D12_PIECES: a dispatch a piece of a long line,
# rescanning the piece before it from the L2 cache while it reduces its
# own) against the default chained passes, alternating, and runs the whole
# benchmark of the code as it is by default.
#
# The piece passes lost and were taken out again: the binaries this script
# ran were built from commit 2f9294b ("d3d12_backend: the piece passes'
# prologue leaves every other kernel as it was, byte for byte"), whose
# default plan and kernels are those of the code after it (every kernel
# variant but the pieces ones byte for byte the same). Later binaries
# ignore DMLCONF_D3D12_PIECES and DMLCONF_D3D12_PIECE_TILES (steps 2 and 4
# would measure the default plan under other labels) and refuse
# DMLCONF_D3D12_KERNEL=pieces (step 6): build that commit to run it again.
#
# Runs from the root of the tree the GPU machine receives, with DIR (default
# .gpu-h28) carried: the Debian 12 .deb files run-on-gpu.sh lists, bin/
# with dmlconf and dmlconf_d3d12_bench built on Debian 12, and cases/ with
# the corpus folders. Results go to $OUT (at most 8 files come back).
#
# Steps, each bounded so that the whole call fits 10 minutes:
#   1. what cutting a copy into dispatches costs (dispatch-costs.txt);
#   2. float32 1-D: chained passes of 3 (the default), 2 and 4 tiles, and
#      piece passes of 8, 16 and 24 MiB in chunks of 4 tiles, and of 16 MiB
#      in chunks of 2 and 8, each in a process of its own, two rounds in
#      turn (ab.txt);
#   3. the whole benchmark with the default plan, against torch (bench.txt);
#   4. int64 sums and products in 1-D the same way, with the best piece
#      size of step 2 (ab.txt);
#   5. if piece passes won step 2: the 1-D matrix with them (pieces-1d.txt);
#   6. the corpus with piece passes forced (corpus.txt).
set -u
dir=${DIR:-.gpu-h28}
out=${OUT:-/tmp/out}
mkdir -p "$out"
exec > >(tee -a "$out/log.txt") 2>&1
# NO_UNPACK=1: the machine has the libraries already (a dry run elsewhere).
if [ -z "${NO_UNPACK:-}" ]; then
    for f in "$dir"/lib{vulkan1,egl1,glvnd0,opengl0,gl1,glx0,gles2}_*.deb; do dpkg -x "$f" /; done
    ldconfig
    mkdir -p /tmp/gpu
    for f in "$dir"/lib{vkd3d,xcb,yaml,jansson}*.deb; do dpkg -x "$f" /tmp/gpu; done
    export LD_LIBRARY_PATH=/tmp/gpu/usr/lib/x86_64-linux-gnu
fi
if [ -d /usr/local/nvidia/share/vulkan/icd.d ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
export VKD3D_DEBUG=${VKD3D_DEBUG:-err}
bin=$dir/bin
bench=$bin/dmlconf_d3d12_bench
# BENCH_ARGS: more arguments for every benchmark run (a dry run elsewhere:
# --elements 200000).
read -r -a bench_args <<<"${BENCH_ARGS:-}"
clocks() {
    nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu --format=csv,noheader \
        2>/dev/null || echo "no nvidia-smi"
}

echo "== the machine"
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>/dev/null
    echo "clocks at the start: $(clocks)"
    "$bin/dmlconf" adapters
} 2>&1 | tee "$out/adapters.txt"

echo "== 1. dispatch costs"
timeout 90 "$bench" "${bench_args[@]}" --dispatch-costs --only "=none" --no-small --no-torch --repeat 5 2>&1 | tee "$out/dispatch-costs.txt"

# one LABEL CASE [VAR=VALUE...]: the case in a process of its own, its line
# appended to ab.txt as "LABEL | line".
one() {
    local label=$1 name=$2
    shift 2
    local line
    line=$(env "$@" timeout 60 "$bench" "${bench_args[@]}" --no-small --no-torch --repeat 3 --only "=$name" 2>&1 \
        | grep -E "^$name +([0-9.]+ ms |failed|out of)" | head -1)
    echo "$label | ${line:-no result}" | tee -a "$out/ab.txt"
}
# best LABEL-PREFIX CASE: the lowest time of the lines whose label starts
# with the prefix, as "MS|LABEL".
best() {
    grep -E "^$1[^|]* \| $2 +[0-9]" "$out/ab.txt" | grep verified \
        | awk -F'|' '{ split($2, f, " ms"); n = split(f[1], w, " "); print w[n] "|" $1 }' \
        | sort -g | head -1
}

echo "== 2. float32 1-D: chained passes against piece passes, two rounds in turn"
f32="cumsum float32 1-D"
for round in 1 2; do
    one "chained 3 tiles (default), round $round" "$f32"
    one "chained 2 tiles, round $round" "$f32" DMLCONF_D3D12_LOOKBACK_TILES=2
    one "chained 4 tiles, round $round" "$f32" DMLCONF_D3D12_LOOKBACK_TILES=4
    one "pieces 8 MiB 4 tiles, round $round" "$f32" DMLCONF_D3D12_PIECES=8388608
    one "pieces 16 MiB 4 tiles, round $round" "$f32" DMLCONF_D3D12_PIECES=16777216
    one "pieces 24 MiB 4 tiles, round $round" "$f32" DMLCONF_D3D12_PIECES=25165824
    one "pieces 16 MiB 8 tiles, round $round" "$f32" DMLCONF_D3D12_PIECES=16777216 DMLCONF_D3D12_PIECE_TILES=8
    one "pieces 16 MiB 2 tiles, round $round" "$f32" DMLCONF_D3D12_PIECES=16777216 DMLCONF_D3D12_PIECE_TILES=2
done
best_pieces=$(best pieces "$f32")
best_chained=$(best chained "$f32")
echo "best: $best_pieces; $best_chained" | tee -a "$out/ab.txt"
# The winning piece size and chunk, as environment assignments.
pieces_env="DMLCONF_D3D12_PIECES=16777216"
case "${best_pieces#*|}" in
"pieces 8 MiB"*) pieces_env="DMLCONF_D3D12_PIECES=8388608" ;;
"pieces 24 MiB"*) pieces_env="DMLCONF_D3D12_PIECES=25165824" ;;
"pieces 16 MiB 8"*) pieces_env="DMLCONF_D3D12_PIECES=16777216 DMLCONF_D3D12_PIECE_TILES=8" ;;
"pieces 16 MiB 2"*) pieces_env="DMLCONF_D3D12_PIECES=16777216 DMLCONF_D3D12_PIECE_TILES=2" ;;
esac

echo "== 3. the whole benchmark, default plan (elapsed ${SECONDS} s)"
echo "clocks before: $(clocks)" | tee -a "$out/adapters.txt"
timeout 300 "$bench" "${bench_args[@]}" 2>&1 | tee "$out/bench.txt"
echo "clocks after: $(clocks)" | tee -a "$out/adapters.txt"

echo "== 4. 64-bit 1-D (elapsed ${SECONDS} s)"
i64="cumsum int64 1-D"
p64="cumprod int64 1-D"
for round in 1 2; do
    [ "$SECONDS" -lt 470 ] || break
    one "chained 4 tiles (default), round $round" "$i64"
    one "chained 3 tiles, round $round" "$i64" DMLCONF_D3D12_LOOKBACK_TILES=3
    one "chained 6 tiles, round $round" "$i64" DMLCONF_D3D12_LOOKBACK_TILES=6
    one "chained 32x16 8 tiles, round $round" "$i64" DMLCONF_D3D12_TILE=32x16 DMLCONF_D3D12_LOOKBACK_TILES=8
    # shellcheck disable=SC2086
    one "pieces ($pieces_env), round $round" "$i64" $pieces_env
    one "chained 4 tiles (default), round $round" "$p64"
    # shellcheck disable=SC2086
    one "pieces ($pieces_env), round $round" "$p64" $pieces_env
done

won=$(awk -v p="${best_pieces%%|*}" -v c="${best_chained%%|*}" 'BEGIN { print (p != "" && c != "" && p + 0 < c + 0) }')
if [ "$won" = 1 ] && [ "$SECONDS" -lt 450 ]; then
    echo "== 5. the 1-D matrix with piece passes ($pieces_env) (elapsed ${SECONDS} s)"
    # shellcheck disable=SC2086
    env $pieces_env timeout 140 "$bench" "${bench_args[@]}" --no-small --no-torch --only 1-D 2>&1 | tee "$out/pieces-1d.txt"
fi

echo "== 6. the corpus with piece passes forced (elapsed ${SECONDS} s)"
corpus=("$dir/cases/doc" "$dir/cases/conformance" "$dir/cases/edge" "$dir/cases/negative" "$dir/cases/explore")
for knobs in "DMLCONF_D3D12_KERNEL=pieces DMLCONF_D3D12_CHUNK=80" \
    "DMLCONF_D3D12_KERNEL=pieces DMLCONF_D3D12_CHUNK=80 DMLCONF_D3D12_PIECES=1024"; do
    [ "$SECONDS" -lt 560 ] || break
    # shellcheck disable=SC2086
    env $knobs timeout 30 "$bin/dmlconf" run --backend d3d12 -l 5_0 -q -o /tmp/pieces "${corpus[@]}"
    status=$?
    echo "$knobs: exit status $status $(grep Verdict /tmp/pieces/summary.md 2>/dev/null)" | tee -a "$out/corpus.txt"
done
echo "== done in ${SECONDS} s"
cat "$out/ab.txt"
