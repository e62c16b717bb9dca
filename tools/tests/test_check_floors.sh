#!/usr/bin/env bash
# Tests tools/check_floors.py: the tree as it is passes; a tree with an
# arrow planted up each way (an include of a higher floor, of another room's
# src/, a link and an include folder of a higher floor, a file in no room, a
# table that lets a room include its own floor) fails, naming each with its
# file and line.
# Usage: test_check_floors.sh SOURCE_DIR
set -u
source_dir=$1
checker="$source_dir/tools/check_floors.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

expect_line() {
    grep -qF -- "$1" "$work/out" || fail "expected a line with: $1"
}

# The tree as it is.
python3 "$checker" "$source_dir" >"$work/out" 2>&1
status=$?
[ "$status" -eq 0 ] || { cat "$work/out"; fail "the tree itself: exit $status"; }

# A tree with arrows planted up.
tree="$work/tree"
mkdir -p "$tree/docs" "$tree/common/src" "$tree/oracle/src" "$tree/oracle/include/dmlconf" \
    "$tree/judging/src" "$tree/runners/engine/include/dmlconf" "$tree/runners/engine/src" \
    "$tree/reports/writers/src" "$tree/newroom"
cp "$source_dir/docs/architecture.md" "$tree/docs/"
: >"$tree/runners/engine/include/dmlconf/runner.h"
: >"$tree/judging/src/judging_internal.h"
: >"$tree/oracle/include/dmlconf/oracle.h"
printf '#include <stdio.h>\n#include <dmlconf/runner.h>\n' >"$tree/common/src/up.c"
printf '#include <dmlconf/oracle.h>\n\n#include "../../../judging/src/judging_internal.h"\n' >"$tree/reports/writers/src/into_src.c"
printf '#include <dmlconf/oracle.h>\n' >"$tree/newroom/lost.c"
printf '#include <dmlconf/oracle.h>\n' >"$tree/judging/src/fine.c"
cat >"$tree/runners/engine/CMakeLists.txt" <<'CMAKE'
add_library(dmlconf_run_engine STATIC src/x.c)
add_library(dmlconf::run_engine ALIAS dmlconf_run_engine)
CMAKE
cat >"$tree/oracle/CMakeLists.txt" <<'CMAKE'
add_library(dmlconf_oracle src/names.c)
# a comment that mentions target_link_libraries(dmlconf_oracle dmlconf::run_engine) is no arrow
target_link_libraries(dmlconf_oracle
    PUBLIC m
    PRIVATE dmlconf::run_engine PkgConfig::YAML)
target_include_directories(dmlconf_oracle PRIVATE src ${PROJECT_SOURCE_DIR}/judging/src)
CMAKE
python3 "$checker" "$tree" >"$work/out" 2>&1
status=$?
[ "$status" -eq 1 ] || fail "planted arrows: exit $status, expected 1"
expect_line "common/src/up.c:2: #include dmlconf/runner.h (runners/engine/include/dmlconf/runner.h): \`common\` (floor 0) may not use \`runners/engine\` (floor 9)"
expect_line "reports/writers/src/into_src.c:3: #include ../../../judging/src/judging_internal.h (judging/src/judging_internal.h): outside \`judging\`'s public include/ folder"
expect_line "newroom/lost.c:1: this file lies in no room of docs/architecture.md"
expect_line "oracle/CMakeLists.txt:5: dmlconf_oracle links dmlconf::run_engine: \`oracle\` (floor 1) may not use \`runners/engine\` (floor 9)"
expect_line "oracle/CMakeLists.txt:6: target_include_directories \${PROJECT_SOURCE_DIR}/judging/src: \`oracle\` (floor 1) may not use \`judging\` (floor 2)"
grep -q "fine.c" "$work/out" && fail "an include of a lower room's public header was reported"
grep -q "CMakeLists.txt:2" "$work/out" && fail "a comment was read as a command"
[ "$(grep -c '^[^ ]*:[0-9]*: ' "$work/out")" -eq 5 ] || { cat "$work/out"; fail "expected exactly 5 problems"; }

# A table whose room may include its own floor is refused, with its line.
sed '/^| 2 | `judging\/` /s/| `oracle`, `common` |$/| `oracle`, `cases`, `common` |/' "$source_dir/docs/architecture.md" \
    >"$tree/docs/architecture.md"
grep -q '`oracle`, `cases`, `common` |$' "$tree/docs/architecture.md" || fail "the fixture table was not changed"
python3 "$checker" "$tree" >"$work/out" 2>&1
status=$?
[ "$status" -eq 2 ] || fail "a table with an arrow up: exit $status, expected 2"
grep -q 'architecture.md:[0-9]*: `judging` (floor 2) may include `cases` (floor 3): an arrow that does not point down' \
    "$work/out" || { cat "$work/out"; fail "the table's arrow up was not named with its line"; }

# No table at all.
rm "$tree/docs/architecture.md"
python3 "$checker" "$tree" >"$work/out" 2>&1
[ $? -eq 2 ] || fail "no table: expected exit 2"
expect_line "cannot read the rooms' table"

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "check_floors: all checks passed"
