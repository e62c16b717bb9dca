#!/usr/bin/env bash
# Builds the Debian packages of a Linux build (cpack: dmlconf and dmlconf-dev
# in BUILD_DIR/packages), checks what they declare and hold, installs them
# and checks the installed dmlconf with packaging/check-prefix.sh (its
# self-check over the installed corpus from an empty folder, the examples
# built with find_package and pkg-config).
#
# As root (as CI runs, on a fresh Debian 12) the packages are installed
# system-wide with apt-get, which fetches what they depend on, and removed
# again at the end; a dmlconf package installed before is never replaced.
# Not root, or with --unpack (a machine whose /usr should stay as it is):
# with CI=true that is a failure (the system-wide install is what CI must
# test); otherwise they are unpacked with dpkg -x into a folder of this
# script's own and checked there, and the script says so.
# Usage: bash packaging/check-deb.sh [--unpack] BUILD_DIR
set -uo pipefail

unpack=no
if [ "${1:-}" = --unpack ]; then
    unpack=yes
    shift
fi
[ $# -eq 1 ] || { echo "usage: check-deb.sh [--unpack] BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work="$build/packaging/check-deb"
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
die() {
    echo "check-deb.sh: $*" >&2
    exit 1
}

# How the packages are installed, decided before anything is built.
if [ "${CI:-}" = true ] && { [ "$unpack" = yes ] || [ "$(id -u)" -ne 0 ]; }; then
    die "CI=true, but $([ "$unpack" = yes ] && echo "--unpack was given" || echo "this is not root"): CI must install" \
        "the Debian packages system-wide (apt-get needs root; CI runs as root on a fresh Debian 12)." \
        "Run this check as root, or without CI=true to unpack them with dpkg -x instead."
fi
install=no
if [ "$(id -u)" -eq 0 ] && [ "$unpack" = no ]; then
    install=yes
fi

rm -rf "$work" "$build/packages"
mkdir -p "$work"
echo "== deb: cpack in $build"
(cd "$build" && cpack -G DEB) >"$work/cpack.txt" 2>&1 || die "cpack failed: $(tail -n 20 "$work/cpack.txt")"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
# The project by default (packaging/CMakeLists.txt), never a person.
configured_maintainer=$(sed -n 's/^DMLCONF_PACKAGE_MAINTAINER:STRING=//p' "$build/CMakeCache.txt")
arch=$(dpkg --print-architecture)
runtime="$build/packages/dmlconf_${version}-1_${arch}.deb"
development="$build/packages/dmlconf-dev_${version}-1_${arch}.deb"
for deb in "$runtime" "$development"; do
    [ -f "$deb" ] || die "cpack made no $deb: $(ls "$build/packages" 2>/dev/null)"
done
echo "== deb: $(basename "$runtime") ($(du -k "$runtime" | cut -f1) KiB), $(basename "$development") ($(du -k "$development" | cut -f1) KiB)"

# What the packages declare.
field() {
    dpkg-deb -f "$1" "$2"
}
[ "$(field "$runtime" Package)" = dmlconf ] || fail "the runtime package is named $(field "$runtime" Package)"
[ "$(field "$development" Package)" = dmlconf-dev ] || fail "the development package is named $(field "$development" Package)"
for deb in "$runtime" "$development"; do
    [ "$(field "$deb" Version)" = "$version-1" ] || fail "$(basename "$deb"): version $(field "$deb" Version)"
    [ "$(field "$deb" Architecture)" = "$arch" ] || fail "$(basename "$deb"): architecture $(field "$deb" Architecture)"
    maintainer=$(field "$deb" Maintainer)
    [ "$maintainer" = "$configured_maintainer" ] && [[ "$maintainer" =~ ^[^\<]+\ \<[^\>]+@[^\>]+\>$ ]] ||
        fail "$(basename "$deb"): the maintainer is '$maintainer', not the configured '$configured_maintainer'"
    [ "$(field "$deb" Description | wc -l)" -ge 3 ] || fail "$(basename "$deb"): a description of one line"
done
# Depends, from dpkg-shlibdeps: the shared libraries the program links.
depends=$(field "$runtime" Depends)
for package in libc6 libyaml-0-2 libjansson4; do
    [[ ", $depends," == *", $package"[\ ,]* ]] || fail "dmlconf does not depend on $package: Depends: $depends"
done
# Every shared library the program loads, by the package that holds it.
for library in $(ldd "$build/runners/dmlconf" | awk '$3 ~ /^\// {print $3}'); do
    owner=$( (dpkg -S "$library" 2>/dev/null || dpkg -S "$(realpath "$library")" 2>/dev/null) | head -n 1 | cut -d: -f1)
    [ -n "$owner" ] || fail "no Debian package holds $library, which dmlconf links"
    [[ ", $depends," == *", $owner"[\ ,]* ]] || fail "dmlconf links $library ($owner), which Depends does not name: $depends"
done
dev_depends=$(field "$development" Depends)
[[ "$dev_depends" == *"dmlconf (= $version-1)"* ]] || fail "dmlconf-dev does not depend on this dmlconf: $dev_depends"
[[ "$dev_depends" == *"libyaml-dev"* ]] || fail "dmlconf-dev does not depend on libyaml-dev: $dev_depends"
# What they hold: each its own files.
dpkg-deb -c "$runtime" | awk '{print $6}' >"$work/runtime.txt"
dpkg-deb -c "$development" | awk '{print $6}' >"$work/development.txt"
for path in ./usr/bin/dmlconf ./usr/share/man/man1/dmlconf.1 ./usr/share/dmlconf/cases/limits/README.md \
    ./usr/share/doc/dmlconf/README.md ./usr/share/doc/dmlconf/ci/run-locally.sh; do
    grep -qx "$path" "$work/runtime.txt" || fail "dmlconf does not hold $path"
done
grep -qx './usr/include/dmlconf/case.h' "$work/development.txt" || fail "dmlconf-dev does not hold case.h"
grep -q '/cmake/dmlconf/dmlconfConfig.cmake$' "$work/development.txt" || fail "dmlconf-dev has no CMake package"
grep -E '^\./usr/(include|lib)/.' "$work/runtime.txt" | head -n 3 | sed 's/^/FAIL: dmlconf holds a development file: /'
grep -qE '^\./usr/(include|lib)/.' "$work/runtime.txt" && failures=$((failures + 1))
grep -E '^\./usr/(bin|share)/.' "$work/development.txt" | head -n 3 | sed 's/^/FAIL: dmlconf-dev holds /'
grep -qE '^\./usr/(bin|share)/.' "$work/development.txt" && failures=$((failures + 1))

# Installed.
if [ "$install" = yes ]; then
    for package in dmlconf dmlconf-dev; do
        if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
            die "a $package package is installed already ($(dpkg-query -W -f='${Version}' "$package")); it is left" \
                "alone: remove it to let this check install its own"
        fi
    done
    echo "== deb: apt-get install (as root)"
    trap 'echo "== deb: removing the packages"; apt-get remove -y -qq dmlconf-dev dmlconf >/dev/null 2>&1' EXIT
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$runtime" "$development" \
        >"$work/apt.txt" 2>&1 ||
        die "apt-get install failed: $(tail -n 20 "$work/apt.txt")"
    prefix=/usr
    dpkg -L dmlconf | grep -qx /usr/bin/dmlconf || fail "dpkg -L dmlconf has no /usr/bin/dmlconf"
else
    echo "== deb: $([ "$unpack" = yes ] && echo "--unpack" || echo "not root"): unpacking with dpkg -x into" \
         "$work/root (as root, and in CI, they are installed system-wide with apt-get instead)"
    dpkg -x "$runtime" "$work/root" && dpkg -x "$development" "$work/root" || die "dpkg -x failed"
    prefix="$work/root/usr"
fi

echo "== deb: checking the installed dmlconf in $prefix"
bash "$root/packaging/check-prefix.sh" "$prefix" "$work/check" "${CC:-cc}" "$root" || failures=$((failures + 1))

echo "check-deb.sh: $failures failures"
[ "$failures" -eq 0 ]
