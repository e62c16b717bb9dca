#!/usr/bin/env bash
# Runs every test: builds dmlconf twice (optimised with warnings as errors,
# then with AddressSanitizer and UndefinedBehaviorSanitizer) and runs every
# test in both builds, and installs the optimised build's Debian packages and
# checks the installed dmlconf (packaging/check-deb.sh; as root, as CI runs);
# then cross-builds dmlconf.exe for Windows and runs it under Wine on
# lavapipe (the oracle, the d3d12 backend and DirectML's own operators over
# the corpus), and unpacks its zip and runs it (packaging/check-zip.sh).
# Usage: bash tools/run-tests.sh  (from any directory)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

bash "$root/tools/install-deps.sh" test windows

run_build() {
    local name=$1
    shift
    local dir="$root/build/$name"
    echo "== $name: configure and build"
    cmake -S "$root" -B "$dir" -DDMLCONF_WERROR=ON "$@" >/dev/null
    cmake --build "$dir" -j "$jobs"
    echo "== $name: test"
    ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

run_build release -DCMAKE_BUILD_TYPE=RelWithDebInfo
echo "== release: the Debian packages, installed"
bash "$root/packaging/check-deb.sh" "$root/build/release"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_build sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDMLCONF_SANITIZE=address,undefined

bash "$root/tools/build-windows.sh"
echo "== windows: test under Wine"
ctest --test-dir "$root/build/windows" --output-on-failure -j "$jobs"
echo "== windows: the zip, unpacked and run under Wine"
bash "$root/packaging/check-zip.sh" "$root/build/windows"
