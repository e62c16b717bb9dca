#!/usr/bin/env bash
# `dmlconf docgen check` and `update` on the project's own example pages
# (tools/docgen/tests/pages): every example block of every page is up to date
# and update leaves each page byte for byte; copies with changed numbers (an
# output value, an input value, a parameter) fail check at the right line and
# column and update restores them; broken blocks are errors with their line,
# and update leaves such a page alone.
# Usage: test_pages.sh DMLCONF PAGES_DIR WORK_DIR
set -u
dmlconf=$1
pages_dir=$2
work=$3
. "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_dir "$work"

pages="summation.en.md product.en.txt"
# copy PAGE NAME: a writable copy of one of the pages.
copy() {
    cp "$pages_dir/$1" "$2"
    chmod u+w "$2"
}

# Help and usage.
for command in "" render check update; do
    "$dmlconf" docgen $command --help >/dev/null
    status_is "docgen $command --help" 0 $?
done
"$dmlconf" docgen >/dev/null 2>&1
status_is "docgen without a command" 2 $?
"$dmlconf" docgen frobnicate >/dev/null 2>&1
status_is "docgen with an unknown command" 2 $?
"$dmlconf" docgen check >/dev/null 2>&1
status_is "check without a page" 2 $?
"$dmlconf" docgen check --frobnicate x >/dev/null 2>&1
status_is "check with an unknown option" 2 $?
"$dmlconf" docgen check /nonexistent/page.md >check.out 2>&1
status_is "check a missing page" 2 $?
expect "a missing page is named" grep -q "^/nonexistent/page.md: error: cannot open the page" check.out

# Every page is up to date, and update leaves it byte for byte.
count_of() {
    case $1 in
    summation.en.md) echo 7 ;;
    product.en.txt) echo 5 ;;
    esac
}
for page in $pages; do
    "$dmlconf" docgen check "$pages_dir/$page" >check.out 2>&1
    status_is "check $page" 0 $?
    expect "$page: every block up to date" \
        grep -qx "$pages_dir/$page: $(count_of "$page") example blocks up to date" check.out
    copy "$page" "up-to-date-$page"
    chmod a-w "up-to-date-$page"
    "$dmlconf" docgen update "up-to-date-$page" >/dev/null 2>&1
    status_is "update $page" 0 $?
    expect "update leaves $page byte for byte" cmp -s "$pages_dir/$page" "up-to-date-$page"
done
"$dmlconf" docgen check $(for page in $pages; do echo "$pages_dir/$page"; done) >/dev/null 2>&1
status_is "check all the pages at once" 0 $?

# An output value (Markdown): check fails at its line and column, update
# restores the page.
copy summation.en.md output.md
line=$(line_of output.md "[[4, 3, 3, 10],")
sed -i "${line}s/3, 10\\]/3, 11]/" output.md
"$dmlconf" docgen check output.md >check.out 2>&1
status_is "check a changed output value" 1 $?
expect "reported at line $line, column 12" \
    grep -q "^output.md:$line:12: example block at line $((line - 5)) is out of date" check.out
expect "the report names both values" grep -qF "element [0,3] is 11 on the page, the oracle computes 10" check.out
expect "the diff shows the line" grep -qxF "+[[4, 3, 3, 10],   // i.e. [4, 4-1, 4-1+0, 4-1+0+7]" check.out
expect "one block is out of date" grep -qx "output.md: 1 of 7 example blocks out of date" check.out
"$dmlconf" docgen update output.md >/dev/null 2>&1
status_is "update a changed output value" 0 $?
expect "update restores the output value" cmp -s "$pages_dir/summation.en.md" output.md

# The same in the plain text page, in the middle of a row, with a wider
# number.
copy product.en.txt output.txt
line=$(line_of output.txt "   [  3, 0.75,  1.5, -3]]]]")
sed -i "${line}s/ 1\\.5,/1.25,/" output.txt
"$dmlconf" docgen check output.txt >check.out 2>&1
status_is "check a changed product value" 1 $?
expect "reported at line $line, column 16" grep -q "^output.txt:$line:16: " check.out
"$dmlconf" docgen update output.txt >/dev/null 2>&1
expect "update restores the product value" cmp -s "$pages_dir/product.en.txt" output.txt

# An input value: every block it feeds is out of date; update rewrites
# exactly their numbers, and changing the input back and updating gives the
# page back.
copy summation.en.md input.md
line=$(line_of input.md " [6,  0,  2, -2]]")
sed -i "${line}s/2, -2\\]/2, -12]/" input.md
"$dmlconf" docgen check input.md >check.out 2>&1
status_is "check a changed input value" 1 $?
expect "two blocks out of date (not the exclusive one)" grep -qx "input.md: 2 of 7 example blocks out of date" check.out
rows=$(line_of input.md " [6, 6, 8,  6]]")
columns=$(line_of input.md " [12,  4, -1, 6]]")
expect "the rows' block reported at its last row" grep -q "^input.md:$rows:13: " check.out
expect "the columns' block reported at its last row" grep -q "^input.md:$columns:15: " check.out
"$dmlconf" docgen update input.md >/dev/null 2>&1
status_is "update after an input change" 0 $?
expect "the rows' block updated" line_is input.md "$rows" " [6, 6, 8, -4]]   //      [...                   ]"
expect "the columns' block updated" line_is input.md "$columns" " [12,  4, -1, -4]]   //      [4+2+6 ...]"
"$dmlconf" docgen check input.md >/dev/null 2>&1
status_is "check after update" 0 $?
expect "the columns' first rows realigned" line_is input.md $((columns - 2)) "[[ 4, -1,  0,  7],   // i.e. [4,    ...]"
# The input line, the rows' last row and the three rows of the columns' block.
expect "only those lines changed" test "$(diff "$pages_dir/summation.en.md" input.md | grep -c '^>')" -eq 5
sed -i "${line}s/2, -12\\]/2, -2]/" input.md
"$dmlconf" docgen update input.md >/dev/null 2>&1
expect "changing the input back restores the page" cmp -s "$pages_dir/summation.en.md" input.md

# An input value that widens columns: the numbers stay right-aligned and the
# comments move with them; back again, the page is as it was.
copy summation.en.md wide.md
line=$(line_of wide.md " [2,  5, -3,  1],")
sed -i "${line}s/2,  5,/2, 95,/" wide.md
"$dmlconf" docgen update wide.md >/dev/null 2>&1
status_is "update with wider numbers" 0 $?
rows=$(line_of wide.md "[[4,  3,  3, 10],")
expect "the rows' block widened, comments moved" test -n "$rows" &&
    line_is wide.md "$rows" "[[4,  3,  3, 10],   // i.e. [4, 4-1, 4-1+0, 4-1+0+7]" &&
    line_is wide.md $((rows + 1)) " [2, 97, 94, 95],   //      [...                   ]" &&
    line_is wide.md $((rows + 2)) " [6,  6,  8,  6]]   //      [...                   ]"
expect "the columns' block widened" grep -qxF " [ 6, 94, -3, 8],   //      [4+2,  ...]" wide.md
expect "the exclusive block widened" grep -qxF " [0, 2, 97, 94],   //      [...             ]" wide.md
sed -i "${line}s/2, 95,/2,  5,/" wide.md
"$dmlconf" docgen update wide.md >/dev/null 2>&1
expect "narrowing back restores the page" cmp -s "$pages_dir/summation.en.md" wide.md

# A parameter: Axis, HasExclusiveSum, HasExclusiveProduct, AxisDirection.
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
    expect "$description: the page changed" test -n "$(diff "$pages_dir/$page" param)"
    # Back to the old parameter: the page is as it was.
    sed -i "$((first - above))s/$to/$from/" param
    "$dmlconf" docgen update param >/dev/null 2>&1
    expect "$description: back again, the page is restored" cmp -s "$pages_dir/$page" param
}
parameter_case summation.en.md "[[[0.5,    1, -2.25]," 5 "Axis: 0" "Axis: 2" "Axis 0 -> 2"
parameter_case summation.en.md "[[[[8, 100, 1200]," 3 "HasExclusiveSum: FALSE" "HasExclusiveSum: TRUE" \
    "HasExclusiveSum FALSE -> TRUE"
parameter_case product.en.txt "[[[[1, 0.5,    1, -1.5]," 3 "HasExclusiveProduct: TRUE" \
    "HasExclusiveProduct: FALSE" "HasExclusiveProduct TRUE -> FALSE"
parameter_case product.en.txt "[[[[0.5,   2, -1.5,  4]," 4 "DML_AXIS_DIRECTION_INCREASING" \
    "DML_AXIS_DIRECTION_DECREASING" "AxisDirection INCREASING -> DECREASING"

# Broken blocks are errors with their line; update leaves the page alone.
broken_case() {
    # broken_case SED_SCRIPT_ON_A_LINE TEXT_OF_THAT_LINE MESSAGE DESCRIPTION [LINES_ABOVE]
    # The error is expected LINES_ABOVE (default 0) lines above the edited one.
    copy product.en.txt broken.txt
    local line
    line=$(line_of broken.txt "$2")
    sed -i "${line}$1" broken.txt
    line=$((line - ${5:-0}))
    cp broken.txt broken.before
    "$dmlconf" docgen check broken.txt >check.out 2>&1
    status_is "check a page with $4" 2 $?
    expect "$4: error at line $line" grep -q "^broken.txt:$line:[0-9]*: error: $3" check.out
    "$dmlconf" docgen update broken.txt >/dev/null 2>&1
    status_is "update a page with $4" 2 $?
    expect "$4: update leaves the page alone" cmp -s broken.before broken.txt
}
broken_case 's/-6\]/-6x]/' "[[[[0.5,    1, -1.5, -6]," "'-6x' is not a number" "a garbage number"
broken_case 's/\]\]\]\]/]]]]]/' "   [  3, 0.75,  1.5, -3]]]]" "one ']' too many" "a ']' too many"
broken_case 'd' "HasExclusiveProduct: FALSE" "this example block has no HasExclusiveSum or HasExclusiveProduct" \
    "a block without its operator" 2
broken_case 's/.*/Axis: 4/' "Axis: 3" "Axis 4 is out of range" "an axis out of range"
copy summation.en.md cut.md
line=$(line_of cut.md " [2, 7, 4,  5],")
sed -i "${line},$((line + 1))d" cut.md
"$dmlconf" docgen check cut.md >check.out 2>&1
status_is "check a tensor cut short by its fence" 2 $?
expect "cut short: reported at the fence" \
    grep -q "^cut.md:$line:1: error: the tensor that starts at line $((line - 1)) is cut short by a code fence" check.out
expect "the other blocks are still checked" \
    grep -q "^cut.md: 1 error (above); 0 of the 6 example blocks read are out of date" check.out

finish
