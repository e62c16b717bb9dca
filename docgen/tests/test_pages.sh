#!/usr/bin/env bash
# `dmlconf docgen check` and `update` on the project's own example pages
# (docgen/tests/pages, in English, German, French and Spanish): every
# example block of every page is up to date and update leaves each page byte
# for byte; copies with changed numbers (an output value, an input value, a
# parameter, an explanatory comment) fail check at the right line and column
# and update restores them, in the page's decimal separator and line breaks;
# broken blocks, lists that a decimal comma makes ambiguous and pages without
# a recognisable example block are errors that say where and why, and update
# leaves such a page alone.
# Usage: test_pages.sh DMLCONF PAGES_DIR WORK_DIR
set -u
dmlconf=$1
pages_dir=$2
work=$3
. "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_dir "$work"

pages="summation.en.md product.en.txt summation.de.md product.fr.txt summation.es.txt"
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
status_is "docgen without a command" 3 $?
"$dmlconf" docgen frobnicate >/dev/null 2>&1
status_is "docgen with an unknown command" 3 $?
"$dmlconf" docgen check >/dev/null 2>&1
status_is "check without a page" 3 $?
"$dmlconf" docgen check --frobnicate x >/dev/null 2>&1
status_is "check with an unknown option" 3 $?
"$dmlconf" docgen check /nonexistent/page.md >check.out 2>&1
status_is "check a missing page" 2 $?
# A page that is a named pipe (or a device) is refused, never read: a
# read from a pipe nobody writes would block for ever.
rm -f pipe.md
mkfifo pipe.md
for command in check update; do
    timeout 20 "$dmlconf" docgen $command pipe.md >pipe.out 2>&1
    status_is "$command a page that is a named pipe (124: it hung)" 2 $?
    grep -qF "pipe.md: error: cannot open the page: is a named pipe (FIFO), not a regular file" pipe.out ||
        fail "$command a page that is a named pipe: $(cat pipe.out)"
done
rm -f pipe.md
expect "a missing page is named" grep -q "^/nonexistent/page.md: error: cannot open the page" check.out

# Every page is up to date, and update leaves it byte for byte.
count_of() {
    case $1 in
    summation.en.md) echo 7 ;;
    product.en.txt) echo 5 ;;
    summation.de.md) echo 5 ;;
    product.fr.txt) echo 3 ;;
    summation.es.txt) echo 2 ;;
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

# ---- pages in other languages ------------------------------------------------

# An output value of the German page (decimal commas, German keys).
copy summation.de.md de-output.md
line=$(line_of de-output.md "[0,5, 1,75, -0,25, 3,75]")
sed -i "${line}s/ 1,75,/ 1,8,/" de-output.md
"$dmlconf" docgen check de-output.md >check.out 2>&1
status_is "check a changed German output value" 1 $?
expect "German: reported at line $line, column 7" grep -q "^de-output.md:$line:7: example block at line $((line - 5)) is out of date" check.out
expect "German: the values as the page writes them" \
    grep -qF "element [1] is 1,8 on the page, the oracle computes 1,75 (1 of 4 values differ)" check.out
"$dmlconf" docgen update de-output.md >/dev/null 2>&1
expect "German: update restores the output value" cmp -s "$pages_dir/summation.de.md" de-output.md

# An input value of the German page: the outputs and their explanatory
# comments follow, with decimal commas; the tab before a comment stays.
copy summation.de.md de-input.md
line=$(line_of de-input.md "[0,5, 1,25, -2, 4]")
sed -i "${line}s/ 1,25,/ 1,5,/" de-input.md
"$dmlconf" docgen check de-input.md >check.out 2>&1
status_is "check a changed German input value" 1 $?
expect "German: two blocks and their comments out of date" \
    grep -qF "(3 of 4 values differ, 1 explanatory comment)" check.out
"$dmlconf" docgen update de-input.md >/dev/null 2>&1
status_is "update after a German input change" 0 $?
expect "German: example 1 and its comment rewritten" \
    grep -qxF "[0,5, 2, 0, 4]   // d.h. [0,5, 0,5+1,5, 0,5+1,5-2, 0,5+1,5-2+4]" de-input.md
expect "German: example 2's bare comment rewritten, after its tab" grep -qxF "$(printf '[4, 3,5, 2, 4]\t// d.h. 1,5-2+4 = 3,5')" de-input.md
"$dmlconf" docgen check de-input.md >/dev/null 2>&1
status_is "check after the German update" 0 $?
sed -i "${line}s/ 1,5,/ 1,25,/" de-input.md
"$dmlconf" docgen update de-input.md >/dev/null 2>&1
expect "German: changing the input back restores the page" cmp -s "$pages_dir/summation.de.md" de-input.md

# A stale explanatory comment: its terms, then its result.
copy summation.de.md de-comment.md
line=$(line_of de-comment.md "// d.h. 1,25-2+4 = 3,25")
sed -i "${line}s/1,25-2+4 =/1,25-2+5 =/" de-comment.md
"$dmlconf" docgen check de-comment.md >check.out 2>&1
status_is "check a stale comment" 1 $?
expect "the stale comment reported at its line and column" grep -q "^de-comment.md:$line:28: example block at line $((line - 5)) is out of date" check.out
expect "the stale comment named with the oracle's terms" \
    grep -qF "the comment explains element [1] as 1,25-2+5, the oracle's terms are 1,25-2+4 (0 of 4 values differ, 1 explanatory comment)" check.out
expect "the diff shows the comment rewritten" grep -qxF "$(printf '+[3,75, 3,25, 2, 4]\t// d.h. 1,25-2+4 = 3,25')" check.out
"$dmlconf" docgen update de-comment.md >/dev/null 2>&1
status_is "update a stale comment" 0 $?
expect "update rewrites the stale comment" cmp -s "$pages_dir/summation.de.md" de-comment.md
sed -i "${line}s/= 3,25/= 3,5/" de-comment.md
"$dmlconf" docgen check de-comment.md >check.out 2>&1
status_is "check a stale result in a comment" 1 $?
expect "the stale result named" grep -qF "the comment gives element [1] as 3,5, the oracle computes 3,25" check.out
"$dmlconf" docgen update de-comment.md >/dev/null 2>&1
expect "update rewrites the stale result" cmp -s "$pages_dir/summation.de.md" de-comment.md
# The row form: the first row's list, and the placeholders under it.
copy summation.de.md de-rows.md
line=$(line_of de-rows.md "[[0, 3, 2],   // d.h. [0, 3, 3-1]")
sed -i "${line}s/\[0, 3, 3-1\]/[0, 3, 3+1]/" de-rows.md
"$dmlconf" docgen check de-rows.md >check.out 2>&1
status_is "check a stale list in a comment" 1 $?
expect "the stale item reported at its column" grep -q "^de-rows.md:$line:30: " check.out
"$dmlconf" docgen update de-rows.md >/dev/null 2>&1
expect "update rewrites the stale item" cmp -s "$pages_dir/summation.de.md" de-rows.md

# Decimal commas make "0,5,1,25" ambiguous: an error with a note on how the
# page reads commas, and update leaves the page alone.
copy summation.de.md ambiguous.md
line=$(line_of ambiguous.md "[0,5, 1,25, -2, 4]")
sed -i "${line}s/0,5, 1,25,/0,5,1,25,/" ambiguous.md
cp ambiguous.md ambiguous.before
"$dmlconf" docgen check ambiguous.md >check.out 2>&1
status_is "check an ambiguous list" 2 $?
expect "the ambiguous value is an error at its place" grep -q "^ambiguous.md:$line:2: error: '0,5,1,25' is not a number" check.out
expect "a note says how the page reads commas, and why" \
    grep -qF "ambiguous.md:$line:3: note: this page writes decimal commas (line $line writes '0,5' among values separated by ', '): a comma between two digits belongs to the number" check.out
"$dmlconf" docgen update ambiguous.md >/dev/null 2>&1
status_is "update a page with an ambiguous list" 2 $?
expect "update leaves the ambiguous page alone" cmp -s ambiguous.before ambiguous.md

# A decimal point elsewhere makes every comma a separator: the German vector
# has six values then, and the note says why.
copy summation.de.md points.md
line=$(line_of points.md "[[[2,5, -0,75]],")
sed -i "${line}s/2,5,/2.5,/" points.md
vector=$(line_of points.md "[0,5, 1,25, -2, 4]")
"$dmlconf" docgen check points.md >check.out 2>&1
status_is "check a page with a decimal point" 2 $?
expect "the shape error" grep -qF "points.md:$vector:1: error: the values have the shape {6}, but the header at line $((vector - 1)) says {4}" check.out
expect "the note names the decimal point" \
    grep -qF "note: this page writes decimal points (line $line writes '2.5' with a decimal point): every comma separates values, even between two digits" check.out

# Keys docgen does not know, next to keys it knows or a direction: still
# example blocks; the operator of "Ausschluss" comes from the page's title.
copy summation.de.md unknown-keys.md
sed -i -e 's/^Achse:/Dimension:/' -e 's/^HatExklusiveSumme:/Ausschluss:/' -e 's/^Ausgabe:/Ergebnis:/' unknown-keys.md
"$dmlconf" docgen check unknown-keys.md >check.out 2>&1
status_is "check a page with unknown keys" 0 $?
expect "every block found by its structure" grep -qx "unknown-keys.md: 5 example blocks up to date" check.out

# No line that docgen can read as a parameter: no example block, an error
# (exit 2) that says what docgen looked for and what it found.
copy summation.de.md no-blocks.md
sed -i -E -e 's/^Achsenrichtung: DML_AXIS_DIRECTION_[A-Z]+/Richtungssinn: aufsteigend/' -e 's/^Achse:/Dimension:/' \
    -e 's/^HatExklusiveSumme:/Ausschluss:/' -e 's/^Ausgabe:/Ergebnis:/' no-blocks.md
"$dmlconf" docgen check no-blocks.md >check.out 2>&1
status_is "check a page without a recognisable example block" 2 $?
last=$(grep -n "^Ergebnis:" no-blocks.md | tail -1 | cut -d: -f1)
first=$(line_of no-blocks.md "Dimension: 0")
expect "the error at the last tensor, saying what docgen looks for" \
    grep -q "^no-blocks.md:$last:11: error: no example block found: docgen looks for an input tensor" check.out
expect "a note: the tensor has no example block after it" \
    grep -qF "no-blocks.md:$last:11: note: an input tensor, but no parameter lines and output tensor after it" check.out
expect "a note: a line that could be a parameter" \
    grep -qF "no-blocks.md:$first:1: note: this could be a parameter line, but docgen does not know its key" check.out
expect "the summary counts the error" grep -qx "no-blocks.md: 1 error (above)" check.out
cp no-blocks.md no-blocks.before
"$dmlconf" docgen update no-blocks.md >/dev/null 2>&1
status_is "update a page without a recognisable example block" 2 $?
expect "update leaves it alone" cmp -s no-blocks.before no-blocks.md
printf '# Notes\n\nNothing to compute here.\n' >prose.md
"$dmlconf" docgen check prose.md >check.out 2>&1
status_is "check a page of prose" 2 $?
expect "prose: the error without a position" grep -q "^prose.md: error: no example block found" check.out
expect "prose: nothing came close" grep -qF "prose.md: note: this page has no tensor header, no values in brackets and no parameter line" check.out

# The French page: CRLF line breaks, ';' between values, French keys. An
# output value, then an input value; update keeps the line breaks and the
# separators, and back again the page is as it was.
copy product.fr.txt fr-output.txt
line=$(line_of fr-output.txt " [0,75;    3; 1]]")
sed -i "${line}s/0,75;/0,7;/" fr-output.txt
"$dmlconf" docgen check fr-output.txt >check.out 2>&1
status_is "check a changed French output value" 1 $?
expect "French: reported at its line and column" grep -q "^fr-output.txt:$line:3: " check.out
"$dmlconf" docgen update fr-output.txt >/dev/null 2>&1
expect "French: update restores the page, CRLF included" cmp -s "$pages_dir/product.fr.txt" fr-output.txt
copy product.fr.txt fr-input.txt
line=$(line_of fr-input.txt " [  4; 0,25;    3]]")
sed -i "${line}s/0,25;/0,5;/" fr-input.txt
"$dmlconf" docgen update fr-input.txt >/dev/null 2>&1
status_is "update after a French input change" 0 $?
expect "French: the new row, with ';' and CRLF" grep -qxF "$(printf ' [  4; 2;    6]]\t//         [...                    ]\r')" fr-input.txt
expect "French: every line still ends in CRLF" test "$(grep -c $'\r$' fr-input.txt)" -eq "$(wc -l <fr-input.txt)"
sed -i "${line}s/0,5;/0,25;/" fr-input.txt
"$dmlconf" docgen update fr-input.txt >/dev/null 2>&1
expect "French: changing the input back restores the page" cmp -s "$pages_dir/product.fr.txt" fr-input.txt

# The Spanish page declares es-ES in its metadata: its one-value rows show no
# separator, and still read "1,5" as one number.
copy summation.es.txt es-input.txt
line=$(line_of es-input.txt " [1,5],")
sed -i "${line}s/1,5/1,25/" es-input.txt
"$dmlconf" docgen update es-input.txt >/dev/null 2>&1
status_is "update after a Spanish input change" 0 $?
expect "Spanish: the column of sums, written with decimal commas" line_is es-input.txt $((line + 9)) " [ 1,75],   //           [0,5+1,25,  ...]"
expect "Spanish: the bare comment rewritten" grep -qxF "[[-1,75],   // es decir, 1,25-3 = -1,75" es-input.txt
sed -i "${line}s/1,25/1,5/" es-input.txt
"$dmlconf" docgen update es-input.txt >/dev/null 2>&1
expect "Spanish: changing the input back restores the page" cmp -s "$pages_dir/summation.es.txt" es-input.txt

finish
