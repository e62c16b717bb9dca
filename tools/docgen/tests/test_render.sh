#!/usr/bin/env bash
# `dmlconf docgen render` against the specification's pages: the doc cases
# (cases/doc) render to the pages' example blocks byte for byte, comments
# aside, with one documented exception; --explain writes the pages' "i.e."
# comments; whatever render writes, check finds up to date (doc cases, and
# the edge and conformance corpus: every data type and rank).
# Usage: test_render.sh DMLCONF SOURCE_DIR SPEC_DIR WORK_DIR
set -u
dmlconf=$1
source_dir=$2
spec=$3
work=$4

for page in 000_f403df339ca56213.txt 001_a193b59b2ad891bc.txt 003_ee016944bcc019da.txt 004_6b995c4412c88580.txt \
    cumulative_product.en.md; do
    if [ ! -f "$spec/$page" ]; then
        echo "FAIL: $spec/$page is missing: the specification's pages (shared/spec) must sit beside the clone"
        exit 1
    fi
done
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

failures=0
passed=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
status_is() {
    if [ "$2" = "$3" ]; then passed=$((passed + 1)); else fail "$1: exit status $3, expected $2"; fi
}
same() {
    # same DESCRIPTION EXPECTED_FILE ACTUAL_FILE
    if cmp -s "$2" "$3"; then
        passed=$((passed + 1))
    else
        fail "$1"
        diff "$2" "$3" | head -20
    fi
}

# fenced PAGE: the page's example blocks (its plain ``` fences that hold an
# InputTensor or an Axis line), separated by a blank line.
fenced() {
    awk '
        /^```/ {
            if (inside) {
                if (keep && plain) {
                    if (printed)
                        print ""
                    printf "%s", block
                    printed = 1
                }
                inside = 0
            } else {
                inside = 1
                plain = $0 == "```"
                block = ""
                keep = 0
            }
            next
        }
        inside {
            block = block $0 "\n"
            if ($0 ~ /^(InputTensor|Axis):/)
                keep = 1
        }
    ' "$1"
}

# blocks PAGE: the same without the comments.
blocks() {
    fenced "$1" | sed -E 's|[[:space:]]*//.*$||'
}

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
    if [ "$blocks_without_comments" = "$(cat "$1.txt")" ]; then
        passed=$((passed + 1))
    else
        fail "--explain changes nothing but the comments ($1)"
    fi
done

# What render writes, check finds up to date: the doc cases with their
# comments in Markdown fences, and the edge and conformance corpus.
"$dmlconf" docgen render --explain --markdown "$source_dir/cases/doc" >doc.md
status_is "render the doc folder" 0 $?
"$dmlconf" docgen check doc.md >check.out 2>&1
status_is "check the rendered doc cases" 0 $?
grep -qx "doc.md: 8 example blocks up to date" check.out || fail "the rendered doc cases hold 8 example blocks"
for file in edge/float_specials.yaml edge/integer_limits.yaml edge/size_one.yaml edge/float_range.yaml \
    conformance/sum_float16.yaml conformance/product_int64.yaml conformance/sum_uint64.yaml; do
    name=$(basename "$file" .yaml)
    "$dmlconf" docgen render --explain --max-elements 256 "$source_dir/cases/$file" >"$name.txt" 2>/dev/null
    status_is "render $file" 0 $?
    "$dmlconf" docgen check "$name.txt" >check.out 2>&1
    status_is "check what render wrote for $file" 0 $?
    grep -q "example blocks up to date" check.out || fail "$file: no example blocks rendered"
done

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
