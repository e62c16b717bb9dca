#!/usr/bin/env bash
# Installs the Debian 12 packages dmlconf needs, by purpose:
#   run      build dmlconf and run it (the main job, tools/run-conformance.sh)
#   test     also the tests' own tools (Check, MPFR, numpy, Chromium, the
#            kernels' SPIR-V checks, PyYAML, dpkg-dev for the Debian
#            packages) and the implementations the adapters in
#            implementations/ run: PyTorch (python3-torch, CPU only: about
#            48 MB to download, 230 MB installed), Node.js and the npm
#            packages pinned in tools/npm (ONNX Runtime, TensorFlow.js)
#   windows  cross-build dmlconf.exe and run it under Wine on lavapipe: the
#            mingw-w64 compiler, Wine, Xvfb, Mesa's lavapipe from
#            bookworm-backports (Mesa 22.3's drops descriptor tables under
#            Wine's vkd3d, and DirectML binds through them), and npm for
#            the redistributable DirectML.dll (tools/npm)
# Usage: bash tools/install-deps.sh [run|test|windows]...  (default: run)
# Only missing packages are installed; needs root (or sudo) when any are.
set -euo pipefail

run_packages=(
    build-essential cmake pkg-config git
    libyaml-dev                   # case files
    libjansson-dev                # JSON reports
    directx-headers-dev           # the D3D12 backend (d3d12.h, DirectX-Guids)
    libvkd3d1 libvkd3d-utils1 libvkd3d-shader1   # D3D12 on Vulkan, loaded at run time
    libvulkan1 mesa-vulkan-drivers               # the Vulkan loader and lavapipe (a CPU Vulkan device)
)
test_packages=(
    check libsubunit-dev          # unit tests
    libmpfr-dev                   # correct-rounding reference
    python3 python3-numpy         # independent cross-checks
    python3-yaml                  # parses the CI templates (docs/ci)
    python3-torch                 # implementations/pytorch (PyTorch 1.13 on the CPU)
    chromium fonts-liberation     # renders report.html headless (reports;browser)
    vkd3d-compiler spirv-tools    # DXBC -> SPIR-V translation and validation of the kernels
    dpkg-dev file                 # the Debian packages (cpack's dpkg-shlibdeps; packaging/check-deb.sh)
)
windows_packages=(
    gcc-mingw-w64-x86-64          # dmlconf.exe
    dpkg-dev                      # dpkg-source: libyaml and jansson from Debian's sources
    wine wine64 xvfb xauth        # running it, with an X display for DXGI
)
# npm installs the pinned packages: the one that carries DirectML.dll, and
# the implementations of implementations/onnxruntime and implementations/tfjs;
# Debian's Node.js only where none is installed already.
node_packages=(nodejs npm)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive

# The Debian mirror this machine already uses (bookworm's main suite).
debian_mirror() {
    local uri
    uri=$(grep -hE '^\s*(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
          grep -oE 'https?://[^ ]+/debian/?' | grep -v security | head -n 1 || true)
    echo "${uri:-http://deb.debian.org/debian}"
}

# Adds bookworm-backports to apt's sources once (the same mirror).
enable_backports() {
    local list=/etc/apt/sources.list.d/dmlconf-bookworm-backports.sources
    if grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        return
    fi
    echo "Adding bookworm-backports ($(debian_mirror)) to apt's sources"
    printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$(debian_mirror)" | "${sudo[@]}" tee "$list" >/dev/null
    "${sudo[@]}" apt-get update -qq
}

missing_of() {
    local package
    for package in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
            printf '%s\n' "$package"
        fi
    done
}

updated=no
install() {
    local missing
    mapfile -t missing < <(missing_of "$@")
    if [ ${#missing[@]} -eq 0 ]; then
        return
    fi
    echo "Installing: ${missing[*]}"
    if [ "$updated" = no ]; then
        "${sudo[@]}" apt-get update -qq
        updated=yes
    fi
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# lavapipe with descriptor indexing (Mesa 25 from bookworm-backports).
install_backports_mesa() {
    local version
    version=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true)
    case "$version" in
        *bpo12*) return ;;
    esac
    enable_backports
    echo "Installing mesa-vulkan-drivers from bookworm-backports"
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends -t bookworm-backports mesa-vulkan-drivers >/dev/null
}

# Whether every package tools/npm/package.json pins is installed in
# tools/npm/node_modules at its pinned version.
npm_packages_current() {
    node -e '
        const prefix = process.argv[1];
        const wanted = require(prefix + "/package.json").dependencies;
        for (const [name, version] of Object.entries(wanted)) {
            let installed = null;
            try { installed = require(prefix + "/node_modules/" + name + "/package.json").version; } catch (e) {}
            if (installed !== version) process.exit(1);
        }' "$root/tools/npm" 2>/dev/null
}

# Node.js, then the packages of tools/npm/package-lock.json (without their
# install scripts: none of them needs one here).
install_npm_packages() {
    if ! command -v npm >/dev/null 2>&1; then
        install "${node_packages[@]}"
    fi
    if npm_packages_current; then
        return
    fi
    echo "Installing the pinned npm packages (tools/npm/package-lock.json)"
    npm ci --prefix "$root/tools/npm" --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
}

groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(run)
for group in "${groups[@]}"; do
    case "$group" in
        run) install "${run_packages[@]}" ;;
        test)
            install "${run_packages[@]}" "${test_packages[@]}"
            install_npm_packages
            ;;
        windows)
            install "${run_packages[@]}" "${windows_packages[@]}"
            if ! command -v npm >/dev/null 2>&1; then
                install "${node_packages[@]}"
            fi
            install_backports_mesa
            ;;
        *)
            echo "install-deps.sh: unknown group '$group' (run, test or windows)" >&2
            exit 2
            ;;
    esac
done
