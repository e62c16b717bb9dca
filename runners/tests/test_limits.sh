#!/usr/bin/env bash
# The limits corpus (cases/limits): it loads, a plain run leaves it out and a
# path takes it in, its cases' real sizes are measured (the memory a case
# needs is named before anything is allocated), and a miniature copy (every
# size cut to at most 1000, strides, broadcasting, in place and generators
# kept) passes on the oracle backend. The real sizes run on a machine with
# the memory for them (reports/gpu/).
# Usage: test_limits.sh DMLCONF SOURCE_DIR WORK_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

dmlconf=$1
source_dir=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

limits="$source_dir/cases/limits"

"$dmlconf" validate "$limits" > validate.txt 2>&1; check "the limits corpus validates" 0 $?
expect "18 cases" grep -q "3 files, 18 valid cases, 0 errors" validate.txt

# A plain run's corpus leaves the limits out; a path takes them in.
(cd "$source_dir" && "$dmlconf" list) > plain.txt 2>&1; check "the default corpus lists" 0 $?
expect "no limits case in the default corpus" bash -c "! grep -q '^limits\\.' plain.txt"
"$dmlconf" list "$limits" > limits.txt 2>&1; check "the limits folder lists" 0 $?
expect "every limits case is tagged limits" test "$(grep -c '^limits\.' limits.txt)" -eq 18
expect "sizes 2^31 + 1 and 2^32 - 1" bash -c "grep -q '2p31p1' limits.txt && grep -q '2p32m1' limits.txt"

# The real sizes: the memory limit names what a case needs before anything
# is allocated (two 8 GiB buffers, in place one 16 GiB buffer).
"$dmlconf" run -q --backend oracle -j 1 -o mem --memory-limit 1G -f 'limits.float32.sum.1d.2p31p1' "$limits" \
    2>err.txt
check "a 2^31 + 1 element case over the memory limit" 2 $?
expect "it needs 17.7 GB (two buffers of 8.6 GB and the chunks)" \
    grep -q "needs about 17.7 GB of memory (an input buffer of 8.6 GB, an output buffer of 8.6 GB and" mem/results.jsonl
"$dmlconf" run -q --backend oracle -j 1 -o mem2 --memory-limit 1G -f 'limits.float32.sum.strided.2p32m1.in_place' \
    "$limits" 2>err.txt
check "an in-place 2^32 - 1 element case over the memory limit" 2 $?
expect "in place: one 17.2 GB buffer" grep -q "an input buffer of 17.2 GB, an output buffer of 0 bytes (in place" \
    mem2/results.jsonl

# The oracle as the backend copies a decreasing line twice: a 2^31 + 1
# element one needs those copies too, named before anything is allocated
# (it was admitted, then ended by the out-of-memory killer).
"$dmlconf" run -q --backend oracle -j 1 -o mem3 --memory-limit 1G -f 'limits.int32.product.1d.2p31p1.decreasing' \
    "$limits" 2>err.txt
check "a decreasing 2^31 + 1 element line on the oracle, over the memory limit" 2 $?
expect "it needs the oracle's line copies too" \
    grep -q "an input buffer of 8.6 GB, an output buffer of 8.6 GB, the oracle's line copies of 17.2 GB and" \
    mem3/results.jsonl

# The miniature: every size at most 1000.
mkdir -p mini
python3 - "$limits" mini <<'PY'
import os, re, sys
source, target = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(source)):
    if not name.endswith(".yaml"):
        continue
    text = open(os.path.join(source, name)).read()
    def shrink(match):
        sizes = [min(int(s), 1000) for s in match.group(1).split(",")]
        return "sizes: [" + ", ".join(str(s) for s in sizes) + "]"
    text = re.sub(r"sizes: \[([0-9, ]+)\]", shrink, text)
    open(os.path.join(target, name), "w").write(text.replace("id: limits.", "id: mini."))
PY
"$dmlconf" validate mini > mini-validate.txt 2>&1; check "the miniature validates" 0 $?
"$dmlconf" run -q --backend oracle -j 2 -o mini-run mini 2>err.txt; check "the miniature passes on the oracle" 0 $?
expect "every miniature case passed" \
    python3 -c "import json; s=json.load(open('mini-run/summary.json')); assert s['counts']['pass'] == 18, s['counts']"

finish
