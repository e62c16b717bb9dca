#!/usr/bin/env bash
# Installs the build as `cmake --install` does for another project and checks
# it: the runtime component (the command, corpus, man page, documentation)
# and the development one (headers, libraries, pkg-config files, the CMake
# package) hold nothing of each other's and together make the whole install;
# then the whole install, moved to another folder (it is relocatable), passes
# packaging/check-prefix.sh.
# Usage: check_install.sh CMAKE BUILD_DIR WORK_DIR CC SOURCE_DIR [SANITIZERS]
set -uo pipefail
cmake=$1
build=$2
work=$3
cc=$4
source_dir=$5
sanitize=${6:-}
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
rm -rf "$work"
mkdir -p "$work"

listing() {
    (cd "$1" && find . -type f | sort)
}
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null || fail "cmake --install failed"
for component in runtime development; do
    "$cmake" --install "$build" --prefix "$work/$component" --component "$component" >/dev/null ||
        fail "cmake --install --component $component failed"
done
listing "$work/runtime" >"$work/runtime.txt"
listing "$work/development" >"$work/development.txt"
listing "$work/prefix" >"$work/all.txt"
grep -E '^\./(bin|share)/' "$work/development.txt" | head -n 3 | sed 's/^/FAIL: the development component has /'
grep -qE '^\./(bin|share)/' "$work/development.txt" && failures=$((failures + 1))
grep -E '^\./(include|lib[^/]*)/' "$work/runtime.txt" | head -n 3 | sed 's/^/FAIL: the runtime component has /'
grep -qE '^\./(include|lib[^/]*)/' "$work/runtime.txt" && failures=$((failures + 1))
sort "$work/runtime.txt" "$work/development.txt" | diff - "$work/all.txt" >"$work/components.diff" ||
    fail "the two components are not the whole install: $(head -n 5 "$work/components.diff")"
grep -q '^\./bin/dmlconf$' "$work/runtime.txt" || fail "the runtime component has no bin/dmlconf"
grep -q '/cmake/dmlconf/dmlconfConfig.cmake$' "$work/development.txt" || fail "the development component has no CMake package"

# Relocatable: everything below works from where the prefix was moved.
mv "$work/prefix" "$work/moved"
bash "$source_dir/packaging/check-prefix.sh" "$work/moved" "$work/check" "$cc" "$source_dir" "$sanitize" ||
    failures=$((failures + 1))
echo "packaging.install: $failures failures"
[ "$failures" -eq 0 ]
