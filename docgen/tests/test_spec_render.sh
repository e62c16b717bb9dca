#!/usr/bin/env bash
# `dmlconf docgen render` against the reference pages (shared/spec beside the
# clone): the doc cases (cases/doc) render to the pages' example blocks byte
# for byte, comments aside, with one documented exception; --explain writes
# the pages' "i.e." comments. Without the reference pages the test is skipped
# (exit status 77), saying why; a folder that lacks one of them fails.
# Usage: test_spec_render.sh DMLCONF SOURCE_DIR SPEC_DIR WORK_DIR
set -u
dmlconf=$1
source_dir=$2
spec=$3
work=$4
. "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"

if [ ! -d "$spec" ]; then
    echo "SKIP: no reference pages at $spec (shared/spec beside the clone); they are not part of the repository"
    exit $SKIP_STATUS
fi
for page in 000_f403df339ca56213.txt 001_a193b59b2ad891bc.txt 003_ee016944bcc019da.txt 004_6b995c4412c88580.txt \
    cumulative_product.en.md; do
    if [ ! -f "$spec/$page" ]; then
        echo "FAIL: $spec/$page is missing from the reference pages"
        exit 1
    fi
done
fresh_dir "$work"

"$dmlconf" docgen render "$source_dir/cases/doc/summation.yaml" >summation.txt
status_is "render the summation examples" 0 $?
"$dmlconf" docgen render "$source_dir/cases/doc/product.yaml" >product.txt
status_is "render the product examples" 0 $?

# The product pages: every block byte for byte.
for page in cumulative_product.en.md 003_ee016944bcc019da.txt; do
    blocks "$spec/$page" >"page-$page"
    same "render reproduces the blocks of $page" "page-$page" product.txt
done

# The summation pages: every block byte for byte but one. Example 3 pads its
# last column (5, 3, 4) to two characters; the rule (each column as wide as
# its widest value), which every other block of the pages follows, gives one,
# and so does the product page's Example 3 for the very same column. The
# exception is checked to be exactly that.
for page in 004_6b995c4412c88580.txt 001_a193b59b2ad891bc.txt 000_f403df339ca56213.txt; do
    blocks "$spec/$page" >"page-$page"
    exception=0
    for line in "[[[[11,  9,  8,  5]," "   [21, 18, 10,  3]," "   [21, 12,  6,  4]]]]"; do
        grep -qxF -- "$line" "page-$page" && exception=$((exception + 1))
    done
    status_is "$page pads the last column of example 3 (3 rows)" 3 "$exception"
    sed -e 's/^\[\[\[\[11,  9,  8,  5\],$/[[[[11,  9,  8, 5],/' \
        -e 's/^   \[21, 18, 10,  3\],$/   [21, 18, 10, 3],/' \
        -e 's/^   \[21, 12,  6,  4\]\]\]\]$/   [21, 12,  6, 4]]]]/' "page-$page" >"expected-$page"
    same "render reproduces the blocks of $page (but for example 3's padding)" "expected-$page" summation.txt
done

# --explain: the pages' comments of examples 1, 3 and 4 (example 2's is prose).
comments() {
    grep -oE '//.*$' | sed -E 's/[[:space:]]+$//'
}
for pair in "summation 004_6b995c4412c88580.txt" "product cumulative_product.en.md"; do
    set -- $pair
    "$dmlconf" docgen render --explain "$source_dir/cases/doc/$1.yaml" >"explained-$1.txt"
    status_is "render --explain the $1 examples" 0 $?
    fenced "$spec/$2" | comments | sed -e '4,5d' >"page-comments-$1"
    comments <"explained-$1.txt" | sed -e '4,6d' >"render-comments-$1"
    same "--explain writes the comments of $2" "page-comments-$1" "render-comments-$1"
    blocks_without_comments=$(sed -E 's|[[:space:]]*//.*$||' "explained-$1.txt")
    expect "--explain changes nothing but the comments ($1)" test "$blocks_without_comments" = "$(cat "$1.txt")"
done

finish
