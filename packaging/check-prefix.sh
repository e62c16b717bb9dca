#!/usr/bin/env bash
# Checks an installed dmlconf as its users meet it, with nothing of the
# source tree but the examples' sources: what is installed where, every
# installed header compiling on its own, programs built against the prefix
# through find_package(dmlconf) and through pkg-config, and the installed
# dmlconf running its installed corpus from an empty folder.
#   PREFIX      the installed prefix (/usr for the Debian packages, a folder
#               that `cmake --install` or `dpkg -x` filled)
#   WORK        a folder of its own (emptied first)
#   CC          the C compiler
#   SOURCE_DIR  dmlconf's source tree (only examples/ is read)
#   SANITIZERS  optional: a sanitized build's libraries need their consumers
#               built with the same sanitizers
# The installed dmlconf is PREFIX/bin/dmlconf; with PREFIX /usr it must also
# be the `dmlconf` on PATH.
# Usage: check-prefix.sh PREFIX WORK CC SOURCE_DIR [SANITIZERS]
set -uo pipefail

prefix=$1
work=$2
cc=$3
source_dir=$4
sanitize=()
cmake_flags=()
if [ -n "${5:-}" ]; then
    sanitize=("-fsanitize=$5")
    cmake_flags=("-DCMAKE_C_FLAGS=-fsanitize=$5" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=$5"
                 "-DCMAKE_MODULE_LINKER_FLAGS=-fsanitize=$5")
fi
rm -rf "$work"
mkdir -p "$work/empty"
failures=0
checks=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
check() {
    checks=$((checks + 1))
}

pkgconfig_dirs=("$prefix/lib/pkgconfig" "$prefix/lib64/pkgconfig" "$prefix/lib/x86_64-linux-gnu/pkgconfig"
                "$prefix/share/pkgconfig")
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(IFS=:; echo "${pkgconfig_dirs[*]}")
dmlconf="$prefix/bin/dmlconf"
doc="$prefix/share/doc/dmlconf"
cases="$prefix/share/dmlconf/cases"

# ---- what is installed where ------------------------------------------------
check
for path in bin/dmlconf share/man/man1/dmlconf.1 \
    share/dmlconf/cases/doc/summation.yaml share/dmlconf/cases/limits/README.md \
    share/dmlconf/cases/limits/float32.yaml share/doc/dmlconf/README.md share/doc/dmlconf/case-format.md \
    share/doc/dmlconf/process-protocol.md share/doc/dmlconf/d3d12-backend.md \
    share/doc/dmlconf/ci/README.md share/doc/dmlconf/ci/github-actions.yml share/doc/dmlconf/ci/gitlab-ci.yml \
    share/doc/dmlconf/ci/run-locally.sh share/doc/dmlconf/examples/plugin/example_plugin.c \
    share/doc/dmlconf/examples/load_cases/load_cases.c include/dmlconf/case.h include/dmlconf/oracle.h \
    include/dmlconf/backend.h; do
    [ -e "$prefix/$path" ] || fail "$path is not installed"
done
[ -x "$doc/ci/run-locally.sh" ] || fail "share/doc/dmlconf/ci/run-locally.sh is not executable"
# Every path the man page's FILES section names is there.
check
python3 - "$prefix" "$prefix/share/man/man1/dmlconf.1" <<'PY' || fail "the man page names paths that are not installed"
import glob, os, re, sys
prefix, page = sys.argv[1], open(sys.argv[2]).read()
files = page.split("\n.SH FILES\n", 1)[1].split("\n.SH ", 1)[0]
files = re.sub(r"\\f[BIRP]", "", files).replace("\\-", "-")
paths = {m.rstrip(".") for m in re.findall(r"\b(?:share|include|lib)/(?:[\w./-]|\{[\w,]+\})*", files)}
missing = []
for path in sorted(paths):
    names = [path]
    braces = re.search(r"\{([\w,]+)\}", path)
    if braces:
        names = [path[:braces.start()] + word + path[braces.end():] for word in braces.group(1).split(",")]
    for name in names:
        # lib/ is lib, lib64 or a multiarch folder, as the build's libdir is.
        candidates = [name] if not name.startswith("lib/") else [name, "lib64/" + name[4:], "lib/*/" + name[4:]]
        if not any(glob.glob(os.path.join(prefix, c)) for c in candidates):
            missing.append(name)
for name in missing:
    print("FAIL: the man page names %s, which is not installed" % name)
print("the man page names %d installed paths" % len(paths))
sys.exit(1 if missing or len(paths) < 8 else 0)
PY
# The man page sends nobody into a source tree.
grep -n 'in the source tree)' "$prefix/share/man/man1/dmlconf.1" && fail "the installed man page points into the source tree"

# ---- every installed header on its own ----------------------------------------
check
headers=0
for header in "$prefix"/include/dmlconf/*.h; do
    name=${header#"$prefix/include/"}
    printf '#include <%s>\nint main(void) { return 0; }\n' "$name" >"$work/header.c"
    "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I "$prefix/include" "$work/header.c" \
        2>"$work/header.err" ||
        fail "$name does not compile on its own against $prefix/include: $(head -n 3 "$work/header.err")"
    headers=$((headers + 1))
done
[ "$headers" -ge 8 ] || fail "only $headers installed headers"
# Every header an installed header includes is installed.
grep -ho '#include <dmlconf/[^>]*>' "$prefix"/include/dmlconf/*.h | sort -u | while read -r line; do
    included=${line#'#include <'}
    [ -f "$prefix/include/${included%>}" ] || echo "FAIL: ${included%>} is included by an installed header, not installed"
done | tee "$work/includes.txt"
[ -s "$work/includes.txt" ] && failures=$((failures + 1))

# ---- pkg-config ----------------------------------------------------------------
check
for module in dmlconf-oracle dmlconf-cases dmlconf-backend; do
    pkg-config --exists "$module" || fail "pkg-config does not find $module in $PKG_CONFIG_PATH"
    [ "$(pkg-config --modversion "$module")" = "$("$dmlconf" --version | cut -d' ' -f2)" ] ||
        fail "$module's version is not the program's ($("$dmlconf" --version))"
done
pkg-config --cflags dmlconf-cases | grep -q -- "-I$prefix/" || [ "$prefix" = /usr ] ||
    fail "dmlconf-cases.pc does not follow its prefix: $(pkg-config --cflags dmlconf-cases)"
casesdir=$(pkg-config --variable=casesdir dmlconf-cases)
[ "$(cd "$casesdir" 2>/dev/null && pwd -P)" = "$(cd "$cases" && pwd -P)" ] ||
    fail "pkg-config's casesdir ($casesdir) is not the installed corpus ($cases)"
mkdir -p "$work/pkg-config"
cp "$source_dir/examples/load_cases/load_cases.c" "$work/pkg-config/"
# shellcheck disable=SC2046
if "$cc" -std=c11 -Wall -Wextra -Werror "${sanitize[@]}" -o "$work/pkg-config/load_cases" \
    "$work/pkg-config/load_cases.c" $(pkg-config --cflags --libs dmlconf-cases); then
    "$work/pkg-config/load_cases" "$casesdir/doc" "$casesdir/negative" >"$work/pkg-config/out.txt" ||
        fail "load_cases (pkg-config) exited with $?: $(cat "$work/pkg-config/out.txt")"
    grep -q "0 load errors; 8 checked bit for bit (8 matched, 0 did not)" "$work/pkg-config/out.txt" ||
        fail "load_cases (pkg-config): $(cat "$work/pkg-config/out.txt")"
else
    fail "load_cases does not build with pkg-config's dmlconf-cases"
fi

# ---- find_package(dmlconf) -----------------------------------------------------
check
mkdir -p "$work/package"
cat >"$work/package/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(dmlconf_package_check LANGUAGES C)
find_package(dmlconf 0.1 REQUIRED)
foreach(target dmlconf::oracle dmlconf::cases dmlconf::backend)
    if(NOT TARGET ${target})
        message(FATAL_ERROR "find_package(dmlconf) gives no ${target}")
    endif()
endforeach()
if(NOT IS_DIRECTORY "${dmlconf_CASES_DIR}/doc")
    message(FATAL_ERROR "dmlconf_CASES_DIR (${dmlconf_CASES_DIR}) is not the installed corpus")
endif()
if(NOT dmlconf_BACKEND_ABI_VERSION MATCHES "^[0-9]+$")
    message(FATAL_ERROR "dmlconf_BACKEND_ABI_VERSION is '${dmlconf_BACKEND_ABI_VERSION}'")
endif()
message(STATUS "dmlconf ${dmlconf_VERSION} in ${dmlconf_DIR}, backend ABI ${dmlconf_BACKEND_ABI_VERSION}, corpus ${dmlconf_CASES_DIR}")
# 0.x: another minor version is not compatible.
find_package(dmlconf 0.2 QUIET)
if(dmlconf_FOUND)
    message(FATAL_ERROR "find_package(dmlconf 0.2) accepted version ${dmlconf_VERSION}")
endif()
CMAKE
cmake -S "$work/package" -B "$work/package/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
    >"$work/package/configure.txt" 2>&1 || fail "find_package(dmlconf): $(tail -n 5 "$work/package/configure.txt")"
grep -q "dmlconf [0-9.]* in $prefix/" "$work/package/configure.txt" ||
    [ "$prefix" = /usr ] || fail "find_package(dmlconf) found another dmlconf: $(grep 'dmlconf ' "$work/package/configure.txt")"
# The examples, copied out of the tree and built as projects of their own.
for example in load_cases plugin; do
    cp -r "$source_dir/examples/$example" "$work/$example"
    if ! cmake -S "$work/$example" -B "$work/$example/build" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release "${cmake_flags[@]}" >"$work/$example/configure.txt" 2>&1 ||
        ! cmake --build "$work/$example/build" >"$work/$example/build.txt" 2>&1; then
        fail "examples/$example does not build with find_package(dmlconf): $(tail -n 5 "$work/$example/"*.txt)"
    fi
done
# With no path, load_cases loads the corpus installed with the package.
(cd "$work/empty" && "$work/load_cases/build/load_cases") >"$work/load_cases/out.txt" ||
    fail "load_cases (find_package) exited with $?: $(cat "$work/load_cases/out.txt")"
grep -Eq "^load_cases: [0-9]{4,} cases in [0-9]+ files, 0 load errors; [0-9]+ checked bit for bit \([0-9]+ matched, 0 did not\)" \
    "$work/load_cases/out.txt" || fail "load_cases (find_package): $(cat "$work/load_cases/out.txt")"
plugin="$work/plugin/build/libdmlconf-example-plugin.so"
"$dmlconf" adapters --backend "plugin:$plugin" >"$work/plugin/adapters.txt" 2>&1 ||
    fail "the installed dmlconf does not load the plugin built with find_package: $(cat "$work/plugin/adapters.txt")"
grep -q "data types: FLOAT32 UINT32 INT32" "$work/plugin/adapters.txt" ||
    fail "adapters: $(cat "$work/plugin/adapters.txt")"

# ---- the installed dmlconf, from an empty folder -------------------------------
check
if [ "$prefix" = /usr ]; then
    [ "$(command -v dmlconf)" = /usr/bin/dmlconf ] || fail "the dmlconf on PATH is $(command -v dmlconf), not /usr/bin/dmlconf"
fi
(cd "$work/empty" && "$dmlconf" run --backend oracle -j 2 -q -o "$work/run") >"$work/run.txt" 2>&1
status=$?
[ "$status" -eq 0 ] || fail "the installed dmlconf's self-check exited with $status: $(tail -n 5 "$work/run.txt")"
python3 - "$work/run" "$cases" <<'PY' || fail "the installed dmlconf's self-check did not run its installed corpus"
import json, os, sys
out, cases = sys.argv[1], os.path.realpath(sys.argv[2])
summary = json.load(open(os.path.join(out, "summary.json")))
verdict = summary["verdict"]
problems = []
if verdict["text"] != "self-check passed":
    problems.append("verdict %r" % verdict["text"])
if verdict["scope"]["kind"] != "corpus":
    problems.append("scope %r, not the whole reference corpus" % verdict["scope"])
files = set()
with open(os.path.join(out, "results.jsonl")) as results:
    for line in results:
        record = json.loads(line)
        if "file" in record:
            files.add(os.path.realpath(record["file"]))
outside = sorted(f for f in files if not f.startswith(cases + os.sep))
if not files:
    problems.append("no case ran")
if outside:
    problems.append("%d case files outside %s, such as %s" % (len(outside), cases, outside[0]))
for problem in problems:
    print("FAIL: " + problem)
print("the installed dmlconf: %s over %d cases from %d files in %s" %
      (verdict["text"], summary["counts"]["pass"], len(files), cases))
sys.exit(1 if problems else 0)
PY
# The limits corpus is installed whole and loads.
"$dmlconf" validate "$cases/limits" >"$work/limits.txt" 2>&1 ||
    fail "dmlconf validate on the installed limits corpus: $(tail -n 3 "$work/limits.txt")"

echo "$checks checks, $failures failures"
[ "$failures" -eq 0 ]
