#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds the example plugin
# against the installed backend interface, out of this tree, as another
# project would (pkg-config dmlconf-backend), then runs the installed
# dmlconf on it.
# Usage: plugin_install_check.sh CMAKE BUILD_DIR WORK_DIR CC SOURCE_DIR [SANITIZERS]
# (a sanitized dmlconf loads a plugin built with the same sanitizers)
set -eu
cmake=$1
build=$2
work=$3
cc=$4
source_dir=$5
sanitize=()
if [ -n "${6:-}" ]; then
    sanitize=("-fsanitize=$6")
fi
fail() {
    echo "FAIL: $*"
    exit 1
}
rm -rf "$work"
mkdir -p "$work/plugin"
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:$work/prefix/lib64/pkgconfig:$work/prefix/lib/x86_64-linux-gnu/pkgconfig"

test -f "$work/prefix/include/dmlconf/backend.h" || fail "backend.h is not installed"
test -f "$work/prefix/include/dmlconf/oracle.h" || fail "oracle.h, which backend.h includes, is not installed"
[ "$(pkg-config --modversion dmlconf-backend)" = "$(pkg-config --modversion dmlconf-oracle)" ] ||
    fail "dmlconf-backend.pc and dmlconf-oracle.pc give different versions"
abi=$(sed -n 's/^#define DMLCONF_BACKEND_ABI_VERSION \([0-9]*\)u$/\1/p' "$work/prefix/include/dmlconf/backend.h")
[ -n "$abi" ] && [ "$(pkg-config --variable=abi_version dmlconf-backend)" = "$abi" ] ||
    fail "abi_version in dmlconf-backend.pc is not the header's ($abi)"
# Header only: a plugin links nothing of dmlconf's.
[ -z "$(pkg-config --libs dmlconf-backend | tr -d ' ')" ] || fail "dmlconf-backend asks to link $(pkg-config --libs dmlconf-backend)"
# Relocatable: the prefix comes from where the .pc file lies.
mv "$work/prefix" "$work/moved"
export PKG_CONFIG_PATH="${PKG_CONFIG_PATH//$work\/prefix/$work/moved}"
pkg-config --cflags dmlconf-backend | grep -q -- "-I$work/moved/" || fail "the .pc file does not follow its prefix"

# The example, copied out of the tree and built only with what is installed.
cp "$source_dir/examples/plugin/example_plugin.c" "$work/plugin/"
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Wextra -Werror -fPIC -shared "${sanitize[@]}" -o "$work/plugin/libexample.so" \
    "$work/plugin/example_plugin.c" $(pkg-config --cflags dmlconf-backend)

"$work/moved/bin/dmlconf" adapters --backend "plugin:$work/plugin/libexample.so" >"$work/adapters.txt" ||
    fail "the installed dmlconf does not describe the plugin"
grep -q "data types: FLOAT32 UINT32 INT32" "$work/adapters.txt" || fail "adapters: $(cat "$work/adapters.txt")"
# Two folders of the installed corpus are not the whole corpus, and the
# example does not support every type: everything it supports passes, and
# the run is incomplete for what it did not cover (exit status 2).
"$work/moved/bin/dmlconf" run --backend "plugin:$work/plugin/libexample.so" -q -j 2 -o "$work/out" \
    "$work/moved/share/dmlconf/cases/doc" "$work/moved/share/dmlconf/cases/negative" && status=0 || status=$?
[ "$status" -eq 2 ] || fail "the installed dmlconf's run on the plugin exited with $status, not 2"
grep -q '"text": "passed for what it supports"' "$work/out/summary.json" ||
    fail "verdict: $(grep '"text"' "$work/out/summary.json")"
echo "1 passed, 0 failed"
