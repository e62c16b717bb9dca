#!/usr/bin/env bash
# `dmlconf docgen check` and `update` on the reference pages (shared/spec
# beside the clone): every example block of every page is up to date and
# update leaves each page byte for byte; copies with changed numbers (an
# output value, an input value, a parameter) fail check at the right line and
# update restores them; broken blocks are errors with their line, and update
# leaves such a page alone. Without the reference pages the test is skipped
# (exit status 77), saying why; a folder that lacks one of them fails.
# Usage: test_spec_pages.sh DMLCONF SPEC_DIR WORK_DIR
set -u
dmlconf=$1
spec=$2
work=$3
. "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"

if [ ! -d "$spec" ]; then
    echo "SKIP: no reference pages at $spec (shared/spec beside the clone); they are not part of the repository"
    exit $SKIP_STATUS
fi
pages="000_f403df339ca56213.txt 001_a193b59b2ad891bc.txt 002_67c529f8e0ab2de1.txt 003_ee016944bcc019da.txt
004_6b995c4412c88580.txt cumulative_product.en.md"
for page in $pages; do
    if [ ! -f "$spec/$page" ]; then
        echo "FAIL: $spec/$page is missing from the reference pages"
        exit 1
    fi
done
fresh_dir "$work"

# copy PAGE NAME: a writable copy of a reference page.
copy() {
    cp "$spec/$1" "$2"
    chmod u+w "$2"
}

# Help and usage.
for command in "" render check update; do
    "$dmlconf" docgen $command --help >/dev/null
    status_is "docgen $command --help" 0 $?
done
"$dmlconf" docgen >/dev/null 2>&1
status_is "docgen without a command" 3 $?
"$dmlconf" docgen check >/dev/null 2>&1
status_is "check without a page" 3 $?
"$dmlconf" docgen frobnicate >/dev/null 2>&1
status_is "unknown docgen command" 3 $?
"$dmlconf" docgen check no-such-page.md >/dev/null 2>&1
status_is "check a missing page" 2 $?

# Every page is up to date, and update leaves it byte for byte.
for page in $pages; do
    "$dmlconf" docgen check "$spec/$page" >check.out 2>&1
    status_is "check $page" 0 $?
    expect "$page: all four blocks up to date" grep -qx "$spec/$page: 4 example blocks up to date" check.out
    copy "$page" "up-to-date-$page"
    chmod a-w "up-to-date-$page"
    "$dmlconf" docgen update "up-to-date-$page" >/dev/null 2>&1
    status_is "update $page" 0 $?
    expect "update leaves $page byte for byte" cmp -s "$spec/$page" "up-to-date-$page"
done
"$dmlconf" docgen check $(for page in $pages; do echo "$spec/$page"; done) >/dev/null 2>&1
status_is "check all the pages at once" 0 $?

# An output value (English, plain Markdown fences): check fails at its line
# and column, update restores the page.
copy 004_6b995c4412c88580.txt output.txt
line=$(line_of output.txt "[[[[2,  3,  6, 11],")
sed -i "${line}s/6, 11\\]/6, 12]/" output.txt
"$dmlconf" docgen check output.txt >check.out 2>&1
status_is "check a changed output value" 1 $?
expect "reported at line $line, column 16" grep -q "^output.txt:$line:16: example block at line $((line - 5)) is out of date" check.out
expect "the report names both values" grep -qF "element [0,0,0,3] is 12 on the page, the oracle computes 11" check.out
expect "the diff shows the line" grep -qxF "+[[[[2,  3,  6, 11],     // i.e. [2, 2+1, 2+1+3, 2+1+3+5]" check.out
expect "one block is out of date" grep -qx "output.txt: 1 of 4 example blocks out of date" check.out
"$dmlconf" docgen update output.txt >/dev/null 2>&1
status_is "update a changed output value" 0 $?
expect "update restores the output value" cmp -s "$spec/004_6b995c4412c88580.txt" output.txt

# The same in the product's Markdown page, in the middle of a row.
copy cumulative_product.en.md output.md
line=$(line_of output.md "   [3, 24, 168, 504],")
sed -i "${line}s/168/169/" output.md
"$dmlconf" docgen check output.md >check.out 2>&1
status_is "check a changed product value" 1 $?
expect "reported at line $line, column 12" grep -q "^output.md:$line:12: " check.out
"$dmlconf" docgen update output.md >/dev/null 2>&1
expect "update restores the product value" cmp -s "$spec/cumulative_product.en.md" output.md

# An input value (Spanish, plain text, no fences): every block it feeds is
# out of date; update rewrites exactly their numbers, and changing the input
# back and updating gives the page back.
copy 002_67c529f8e0ab2de1.txt input.txt
line=$(line_of input.txt "   [9, 6, 2, 4]]]]")
sed -i "${line}s/2, 4\\]/2, 5]/" input.txt
"$dmlconf" docgen check input.txt >check.out 2>&1
status_is "check a changed input value" 1 $?
expect "three blocks out of date (not the exclusive one)" grep -qx "input.txt: 3 of 4 example blocks out of date" check.out
ex1=$(line_of input.txt "   [9, 15, 17, 21]]]]")
ex3=$(line_of input.txt "   [21, 12,  6,  4]]]]")
ex4=$(line_of input.txt "   [14, 15, 12, 12]]]]")
expect "example 1 reported at its last row" grep -q "^input.txt:$ex1:16: " check.out
expect "example 3 reported at its last row" grep -q "^input.txt:$ex3:5: " check.out
expect "example 4 reported at its last row" grep -q "^input.txt:$ex4:17: " check.out
"$dmlconf" docgen update input.txt >/dev/null 2>&1
status_is "update after an input change" 0 $?
expect "example 1 updated" line_is input.txt "$ex1" "   [9, 15, 17, 22]]]]   //      [...                   ]"
expect "example 3 updated" line_is input.txt "$ex3" "   [22, 13,  7,  5]]]]  //      [...                   ]"
expect "example 4 updated" line_is input.txt "$ex4" "   [14, 15, 12, 13]]]] //      [2+3+9 ...]"
"$dmlconf" docgen check input.txt >/dev/null 2>&1
status_is "check after update" 0 $?
expect "only those three lines changed" test "$(diff "$spec/002_67c529f8e0ab2de1.txt" input.txt | grep -c '^>')" -eq 4
sed -i "${line}s/2, 5\\]/2, 4]/" input.txt
"$dmlconf" docgen update input.txt >/dev/null 2>&1
expect "changing the input back restores the page" cmp -s "$spec/002_67c529f8e0ab2de1.txt" input.txt

# An input value that widens columns: the numbers stay right-aligned and the
# comments move with them; back again, the page is as it was.
copy 004_6b995c4412c88580.txt wide.txt
line=$(line_of wide.txt "[[[[2, 1, 3, 5],")
sed -i "${line}s/3, 5\\]/3, 95]/" wide.txt
"$dmlconf" docgen update wide.txt >/dev/null 2>&1
status_is "update with wider numbers" 0 $?
ex1=$(line_of wide.txt "[[[[2,  3,  6, 101],")
expect "example 1's comment rewritten, its placeholders realigned" test -n "$ex1" &&
    line_is wide.txt "$ex1" "[[[[2,  3,  6, 101],     // i.e. [2, 2+1, 2+1+3, 2+1+3+95]" &&
    line_is wide.txt $((ex1 + 1)) "   [3, 11, 18,  21],     //      [...                    ]"
expect "example 3 keeps its wider last column, its comment rewritten" \
    grep -qxF "[[[[101, 99, 98,  95],    // i.e. [2+1+3+95, 1+3+95, 3+95, 95]" wide.txt
expect "example 4 widened" grep -qxF "   [14, 15, 12, 102]]]] //      [2+3+9 ...]" wide.txt
sed -i "${line}s/3, 95\\]/3, 5]/" wide.txt
"$dmlconf" docgen update wide.txt >/dev/null 2>&1
expect "narrowing back restores the page" cmp -s "$spec/004_6b995c4412c88580.txt" wide.txt

# A parameter: Axis (Spanish and English side by side), HasExclusiveSum
# (French), HasExclusiveProduct (side by side), AxisDirection (Markdown).
parameter_case() {
    # parameter_case PAGE FIRST_ROW_OF_THE_OUTPUT LINES_ABOVE_IT FROM TO DESCRIPTION
    local page=$1 row=$2 above=$3 from=$4 to=$5 description=$6
    copy "$page" param
    local first block
    first=$(line_of param "$row")
    block=$((first - 5))
    sed -i "$((first - above))s/$from/$to/" param
    "$dmlconf" docgen check param >check.out 2>&1
    status_is "check with $description" 1 $?
    expect "$description: reported at the block's first row" \
        grep -q "^param:$first:[0-9]*: example block at line $block is out of date" check.out
    "$dmlconf" docgen update param >/dev/null 2>&1
    status_is "update with $description" 0 $?
    "$dmlconf" docgen check param >/dev/null 2>&1
    status_is "check after updating $description" 0 $?
    expect "$description: the page changed" test -n "$(diff "$spec/$page" param)"
    # Back to the old parameter: the page is as it was.
    sed -i "$((first - above))s/$to/$from/" param
    "$dmlconf" docgen update param >/dev/null 2>&1
    expect "$description: back again, the page is restored" cmp -s "$spec/$page" param
}
parameter_case 000_f403df339ca56213.txt "[[[[2,  3,  6, 11]," 5 "Axis: 3" "Axis: 2" "Axis 3 -> 2"
parameter_case 001_a193b59b2ad891bc.txt "[[[[2,  3,  6, 11]," 3 "HasExclusiveSum: FALSE" "HasExclusiveSum: TRUE" \
    "HasExclusiveSum FALSE -> TRUE"
parameter_case 003_ee016944bcc019da.txt "[[[[1, 2,  2,   6]," 3 "HasExclusiveProduct: TRUE" \
    "HasExclusiveProduct: FALSE" "HasExclusiveProduct TRUE -> FALSE"
parameter_case cumulative_product.en.md "[[[[2,  2,   6,  30]," 4 "DML_AXIS_DIRECTION_INCREASING" \
    "DML_AXIS_DIRECTION_DECREASING" "AxisDirection INCREASING -> DECREASING"

# The Axis change gives example 4's numbers to example 1, and its comment
# the one-term sums of the first row.
copy 000_f403df339ca56213.txt axis.txt
first=$(line_of axis.txt "[[[[2,  3,  6, 11],")
sed -i "$((first - 5))s/Axis: 3/Axis: 2/" axis.txt
"$dmlconf" docgen update axis.txt >/dev/null 2>&1
expect "Axis 2: example 1 holds example 4's numbers" \
    line_is axis.txt "$first" "[[[[ 2,  1,  3,  5],     // i.e. [2, 1, 3, 5]" &&
    line_is axis.txt $((first + 2)) "   [14, 15, 12, 12]]]]   //      [...       ]"

# Broken blocks are errors with their line; update leaves the page alone.
broken_case() {
    # broken_case SED_SCRIPT_ON_A_LINE TEXT_OF_THAT_LINE MESSAGE DESCRIPTION [LINES_ABOVE]
    # The error is expected LINES_ABOVE (default 0) lines above the edited one.
    copy cumulative_product.en.md broken.md
    local line
    line=$(line_of broken.md "$2")
    sed -i "${line}$1" broken.md
    line=$((line - ${5:-0}))
    cp broken.md broken.before
    "$dmlconf" docgen check broken.md >check.out 2>&1
    status_is "check a page with $4" 2 $?
    expect "$4: error at line $line" grep -q "^broken.md:$line:[0-9]*: error: $3" check.out
    "$dmlconf" docgen update broken.md >/dev/null 2>&1
    status_is "update a page with $4" 2 $?
    expect "$4: update leaves the page alone" cmp -s broken.before broken.md
}
broken_case 's/30\]/3x0]/' "[[[[2,  2,   6,  30]," "'3x0' is not a number" "a garbage number"
broken_case 's/\]\]\]\]/]]]]]/' "   [9, 54, 108, 432]]]]" "one ']' too many" "a ']' too many"
broken_case 'd' "HasExclusiveProduct: FALSE" "this example block has no HasExclusiveSum or HasExclusiveProduct" \
    "a block without its operator" 2
broken_case 's/.*/Axis: 4/' "Axis: 3" "Axis 4 is out of range" "an axis out of range"
copy cumulative_product.en.md cut.md
line=$(line_of cut.md "   [3, 24, 168, 504],")
sed -i "${line},$((line + 1))d" cut.md
"$dmlconf" docgen check cut.md >check.out 2>&1
status_is "check a tensor cut short by its fence" 2 $?
expect "cut short: reported at the fence" grep -q "^cut.md:$line:1: error: the tensor that starts at line $((line - 1)) is cut short by a code fence" check.out
expect "the other blocks are still checked" grep -q "^cut.md: 1 error (above); 0 of the 3 example blocks read are out of date" check.out

finish
