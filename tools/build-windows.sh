#!/usr/bin/env bash
# Builds dmlconf.exe for Windows x64 with mingw-w64 into build/windows, after
# its libraries (tools/build-windows-deps.sh) and the redistributable
# DirectML.dll (the pinned npm package in tools/npm) are in place.
# Usage: bash tools/build-windows.sh [extra cmake options]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

bash "$root/tools/build-windows-deps.sh"
if [ ! -f "$root/tools/npm/node_modules/onnxruntime-node/package.json" ]; then
    echo "== windows: installing the pinned npm packages (tools/npm/package-lock.json)"
    npm ci --prefix "$root/tools/npm" --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
fi
echo "== windows: configure and build"
cmake -S "$root" -B "$root/build/windows" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64-x86_64.cmake" \
    -DDMLCONF_WINDOWS_DEPS="$root/build/windows-deps/prefix" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DDMLCONF_WERROR=ON "$@" >/dev/null
cmake --build "$root/build/windows" -j "$jobs"
