#!/usr/bin/env bash
# Cross-builds dmlconf's two libraries for Windows x64 (mingw-w64) from
# Debian's own source packages, pinned: libyaml 0.2.5-1 and jansson 2.14-2.
# Nothing is committed or downloaded from elsewhere: apt-get fetches the
# sources from the Debian mirror this machine uses, through a private apt
# configuration (a deb-src line of its own, leaving the system's alone).
# Installs into build/windows-deps/prefix (static libraries, headers and
# pkg-config files); does nothing when that is already done.
# Usage: bash tools/build-windows-deps.sh
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work="$root/build/windows-deps"
prefix="$work/prefix"
toolchain="$root/cmake/mingw-w64-x86_64.cmake"
pins=(libyaml=0.2.5-1 jansson=2.14-2)
stamp="$prefix/.built-${pins[*]// /_}"
stamp=${stamp// /_}

if [ -f "$stamp" ]; then
    exit 0
fi
rm -rf "$work"
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/src" "$prefix/lib/pkgconfig"

mirror=$(grep -hE '^\s*(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
         grep -oE 'https?://[^ ]+/debian/?' | grep -v security | head -n 1 || true)
mirror=${mirror:-http://deb.debian.org/debian}
echo "deb-src $mirror bookworm main" > "$work/apt/sources.list"
apt_private=(
    -o "Dir::Etc::SourceList=$work/apt/sources.list"
    -o "Dir::Etc::SourceParts=/nonexistent"
    -o "Dir::State::Lists=$work/apt/lists"
    -o "Dir::Cache=$work/apt/cache"
    -o "Debug::NoLocking=1"
    -o "APT::Sandbox::User=root"
)
echo "== windows deps: fetching ${pins[*]} (Debian sources from $mirror)"
apt-get "${apt_private[@]}" update -qq
(cd "$work/src" && apt-get "${apt_private[@]}" source --download-only -qq "${pins[@]}")
(cd "$work/src" && for dsc in *.dsc; do dpkg-source --no-check -x "$dsc" >/dev/null; done)

build() {
    local source=$1
    shift
    echo "== windows deps: building $(basename "$source")"
    cmake -S "$source" -B "$work/build-$(basename "$source")" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF "$@" >/dev/null
    cmake --build "$work/build-$(basename "$source")" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
    cmake --install "$work/build-$(basename "$source")" >/dev/null
}
build "$work/src/libyaml-0.2.5" -DBUILD_TESTING=OFF -DINSTALL_CMAKE_DIR=lib/cmake/yaml
build "$work/src/jansson-2.14" -DJANSSON_BUILD_DOCS=OFF -DJANSSON_EXAMPLES=OFF -DJANSSON_WITHOUT_TESTS=ON

# libyaml's CMake build installs no pkg-config file; a static libyaml needs
# YAML_DECLARE_STATIC (no dllimport).
cat > "$prefix/lib/pkgconfig/yaml-0.1.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: LibYAML
Description: Library to parse and emit YAML (static, for Windows x64)
Version: 0.2.5
Cflags: -I\${includedir} -DYAML_DECLARE_STATIC
Libs: -L\${libdir} -lyaml
PC
test -f "$prefix/lib/libyaml.a" && test -f "$prefix/lib/libjansson.a" && test -f "$prefix/lib/pkgconfig/jansson.pc"
touch "$stamp"
echo "== windows deps: installed in $prefix"
