#!/usr/bin/env bash
# `dmlconf docgen render` against the project's own example pages
# (docgen/tests/pages): the cases beside each English page render to
# its example blocks byte for byte, the explanatory comments included; and
# whatever render writes, check finds up to date (the doc cases, and the edge
# and conformance corpus: every data type and rank).
# Usage: test_render.sh DMLCONF SOURCE_DIR PAGES_DIR WORK_DIR
set -u
dmlconf=$1
source_dir=$2
pages=$3
work=$4
. "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_dir "$work"

# The Markdown page: its fenced blocks, with and without the comments.
"$dmlconf" docgen render --explain --markdown "$pages/summation.en.yaml" >summation.md
status_is "render --explain --markdown the summation cases" 0 $?
fenced summation.md >rendered-blocks
fenced "$pages/summation.en.md" >page-blocks
same "render --explain writes the blocks of summation.en.md" page-blocks rendered-blocks
"$dmlconf" docgen render "$pages/summation.en.yaml" >summation.txt
status_is "render the summation cases" 0 $?
blocks "$pages/summation.en.md" >page-blocks
plain_blocks summation.txt >rendered-blocks
same "render without --explain writes the blocks without their comments" page-blocks rendered-blocks

# The plain text page: its blocks between paragraphs of prose.
"$dmlconf" docgen render --explain "$pages/product.en.yaml" >product.txt
status_is "render --explain the product cases" 0 $?
plain_blocks "$pages/product.en.txt" >page-blocks
same "render --explain writes the blocks of product.en.txt" page-blocks product.txt

# What render writes, check finds up to date: the doc cases with their
# comments in Markdown fences, and the edge and conformance corpus.
"$dmlconf" docgen render --explain --markdown "$source_dir/cases/doc" >doc.md
status_is "render the doc folder" 0 $?
"$dmlconf" docgen check doc.md >check.out 2>&1
status_is "check the rendered doc cases" 0 $?
expect "the rendered doc cases hold 8 example blocks" grep -qx "doc.md: 8 example blocks up to date" check.out
for file in edge/float_specials.yaml edge/integer_limits.yaml edge/size_one.yaml edge/float_range.yaml \
    conformance/sum_float16.yaml conformance/product_int64.yaml conformance/sum_uint64.yaml; do
    name=$(basename "$file" .yaml)
    "$dmlconf" docgen render --explain --max-elements 256 "$source_dir/cases/$file" >"$name.txt" 2>/dev/null
    status_is "render $file" 0 $?
    "$dmlconf" docgen check "$name.txt" >check.out 2>&1
    status_is "check what render wrote for $file" 0 $?
    expect "$file: example blocks rendered" grep -q "example blocks up to date" check.out
done

finish
