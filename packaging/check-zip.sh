#!/usr/bin/env bash
# Builds the Windows zip of a mingw-w64 build (cpack: BUILD_DIR/packages/
# dmlconf-<version>-win64.zip), unpacks it into an empty folder and checks it:
#   - what it holds: dmlconf.exe, the corpus with the limits cases, the
#     documentation, the headers;
#   - every DLL its programs import is in the zip or is one of Windows' own
#     (packaging/windows_dlls.cmake's list); and that script itself ships a
#     mingw-w64 DLL a program imports (libgcc_s_seh-1.dll and, through it,
#     libwinpthread-1.dll) and refuses one it cannot find;
#   - the unpacked dmlconf.exe under Wine (tools/wine-run.sh), started from
#     an empty folder: the oracle's self-check over the corpus unpacked
#     beside it passes, and it loads the limits cases.
# Usage: bash packaging/check-zip.sh WINDOWS_BUILD_DIR
set -uo pipefail

[ $# -eq 1 ] || { echo "usage: check-zip.sh WINDOWS_BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work="$build/packaging/check-zip"
triplet=x86_64-w64-mingw32
objdump=$triplet-objdump
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
die() {
    echo "check-zip.sh: $*" >&2
    exit 1
}
# A field of a report's summary.json, by a Python expression on `s`.
summary() {
    python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print($2)" "$1/summary.json"
}

rm -rf "$work" "$build/packages"
mkdir -p "$work/unpacked" "$work/empty"
echo "== zip: cpack in $build"
(cd "$build" && cpack -G ZIP) >"$work/cpack.txt" 2>&1 || die "cpack failed: $(tail -n 20 "$work/cpack.txt")"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
zip="$build/packages/dmlconf-$version-win64.zip"
[ -f "$zip" ] || die "cpack made no $zip: $(ls "$build/packages" 2>/dev/null)"
(cd "$work/unpacked" && cmake -E tar xf "$zip") || die "cannot unpack $zip"
top="$work/unpacked/dmlconf-$version-win64"
[ -d "$top" ] || die "$zip does not hold dmlconf-$version-win64/: $(ls "$work/unpacked")"
echo "== zip: $(basename "$zip") ($(du -k "$zip" | cut -f1) KiB), unpacked into $work/unpacked"

# What it holds.
for path in bin/dmlconf.exe share/dmlconf/cases/doc/summation.yaml share/dmlconf/cases/conformance \
    share/dmlconf/cases/edge share/dmlconf/cases/negative share/dmlconf/cases/explore \
    share/dmlconf/cases/limits/float32.yaml share/doc/dmlconf/README.md share/doc/dmlconf/case-format.md \
    share/doc/dmlconf/ci/github-actions.yml share/man/man1/dmlconf.1 include/dmlconf/case.h \
    include/dmlconf/backend.h; do
    [ -e "$top/$path" ] || fail "the zip has no $path"
done

# Every DLL imported is in the zip or Windows' own.
mapfile -t windows_dlls < <(sed -n '/^set(windows_dlls/,/)/p' "$root/packaging/windows_dlls.cmake" |
                           grep -oE '[a-z0-9_]+\.dll')
[ ${#windows_dlls[@]} -gt 10 ] || die "no list of Windows' own DLLs in packaging/windows_dlls.cmake"
for program in "$top"/bin/*.exe "$top"/bin/*.dll; do
    [ -e "$program" ] || continue
    for dll in $("$objdump" -p "$program" | awk '/DLL Name:/ {print $3}'); do
        name=$(echo "$dll" | tr '[:upper:]' '[:lower:]')
        if ls "$top/bin" | tr '[:upper:]' '[:lower:]' | grep -qx "$name"; then
            continue
        fi
        printf '%s\n' "${windows_dlls[@]}" | grep -qx "$name" ||
            fail "$(basename "$program") imports $dll, which is neither in the zip nor one of Windows' own DLLs"
    done
done
echo "== zip: bin/ holds $(cd "$top/bin" && ls | tr '\n' ' ')"

# windows_dlls.cmake ships what a program imports from mingw-w64, and refuses
# what it cannot find.
gcc_posix=$triplet-gcc-posix
if command -v "$gcc_posix" >/dev/null 2>&1; then
    mkdir -p "$work/dlls"
    # A thread (libwinpthread-1.dll) and a 128-bit division (libgcc's, from
    # libgcc_s_seh-1.dll, which imports libwinpthread-1.dll too).
    cat >"$work/dlls/threads.c" <<'C'
#include <pthread.h>
static void *run(void *argument)
{
    return argument;
}
int main(int argc, char **argv)
{
    pthread_t thread;
    volatile unsigned __int128 wide = (unsigned __int128)argc << 70;
    (void)argv;
    if ((unsigned)(wide / (unsigned __int128)(argc + 2) >> 64) == 7)
        return 2;
    return pthread_create(&thread, 0, run, 0) || pthread_join(thread, 0);
}
C
    printf 'int missing_function(void) { return 1; }\n' >"$work/dlls/missing.c"
    printf 'int missing_function(void);\nint main(void) { return missing_function(); }\n' >"$work/dlls/uses_missing.c"
    libgcc_dir=$(dirname "$("$gcc_posix" -print-libgcc-file-name)")
    dirs="$libgcc_dir;/usr/$triplet/lib"
    resolve() {
        cmake -DDMLCONF_EXE="$1" -DDMLCONF_OBJDUMP="$(command -v "$objdump")" -DDMLCONF_DLL_DIRS="$dirs" \
            -DDMLCONF_DLL_DESTINATION=bin -DCMAKE_INSTALL_PREFIX="$2" -P "$root/packaging/windows_dlls.cmake"
    }
    "$gcc_posix" -shared-libgcc -pthread -o "$work/dlls/threads.exe" "$work/dlls/threads.c" ||
        die "cannot build the DLL check's program"
    resolve "$work/dlls/threads.exe" "$work/dlls/threads" >"$work/dlls/threads.txt" 2>&1 ||
        fail "windows_dlls.cmake failed on a program using mingw-w64's DLLs: $(tail -n 5 "$work/dlls/threads.txt")"
    for dll in libgcc_s_seh-1.dll libwinpthread-1.dll; do
        [ -f "$work/dlls/threads/bin/$dll" ] || fail "windows_dlls.cmake did not ship $dll: $(cat "$work/dlls/threads.txt")"
    done
    "$gcc_posix" -shared -o "$work/dlls/dmlconf_missing.dll" "$work/dlls/missing.c" &&
        "$gcc_posix" -o "$work/dlls/uses_missing.exe" "$work/dlls/uses_missing.c" "$work/dlls/dmlconf_missing.dll" ||
        die "cannot build the DLL check's second program"
    rm "$work/dlls/dmlconf_missing.dll"
    if resolve "$work/dlls/uses_missing.exe" "$work/dlls/missing" >"$work/dlls/missing.txt" 2>&1; then
        fail "windows_dlls.cmake accepted a program that imports a DLL found nowhere"
    fi
    grep -q "needs dmlconf_missing.dll" "$work/dlls/missing.txt" ||
        fail "windows_dlls.cmake does not name the DLL it cannot find: $(tail -n 5 "$work/dlls/missing.txt")"
else
    fail "no $gcc_posix to check windows_dlls.cmake with (Debian: gcc-mingw-w64-x86-64)"
fi

# The unpacked dmlconf.exe under Wine, from an empty folder.
echo "== zip: the unpacked dmlconf.exe under Wine: the oracle's self-check"
(cd "$work/empty" && bash "$root/tools/wine-run.sh" "$top/bin/dmlconf.exe" run --backend oracle -j 2 -q -o "$work/run") \
    >"$work/run.txt" 2>&1
status=$?
[ "$status" -eq 0 ] || fail "the unpacked dmlconf.exe's self-check exited with $status: $(tail -n 5 "$work/run.txt")"
if [ -f "$work/run/summary.json" ]; then
    [ "$(summary "$work/run" "s['verdict']['text']")" = "self-check passed" ] ||
        fail "verdict: $(summary "$work/run" "s['verdict']")"
    [ "$(summary "$work/run" "s['verdict']['scope']['kind']")" = "corpus" ] ||
        fail "the self-check is not the whole reference corpus: $(summary "$work/run" "s['verdict']['scope']")"
    # Every case file it ran is the corpus unpacked beside it.
    python3 - "$work/run/results.jsonl" "$top" <<'PY' || fail "the unpacked dmlconf.exe did not run the corpus beside it"
import json, os, sys
top = os.path.realpath(sys.argv[2])
files = set()
for line in open(sys.argv[1]):
    record = json.loads(line)
    if "file" in record:
        path = record["file"].replace("\\", "/")
        if len(path) > 2 and path[1] == ":":  # Wine's Z: is the root
            path = path[2:]
        files.add(os.path.realpath(path))
outside = sorted(f for f in files if not f.startswith(top + "/share/dmlconf/cases/"))
print("the unpacked dmlconf.exe ran %d case files, %d of them outside %s/share/dmlconf/cases%s"
      % (len(files), len(outside), top, ": " + outside[0] if outside else ""))
sys.exit(1 if outside or not files else 0)
PY
else
    fail "the unpacked dmlconf.exe wrote no summary.json: $(tail -n 5 "$work/run.txt")"
fi
(cd "$work/empty" && bash "$root/tools/wine-run.sh" "$top/bin/dmlconf.exe" validate \
    "$top/share/dmlconf/cases/limits") >"$work/limits.txt" 2>&1 ||
    fail "the unpacked dmlconf.exe does not load the limits cases: $(tail -n 3 "$work/limits.txt")"

echo "check-zip.sh: $failures failures"
[ "$failures" -eq 0 ]
