#!/usr/bin/env bash
# Installs the Debian 12 packages dmlconf needs to build, test and run.
# Only missing packages are installed; needs root (or sudo) when any are.
set -euo pipefail

packages=(
    build-essential cmake pkg-config git
    check libsubunit-dev          # unit tests
    libyaml-dev                   # case files
    libjansson-dev                # JSON reports
    libmpfr-dev                   # test-only: correct-rounding reference
    python3 python3-numpy         # test-only: independent cross-checks
    chromium fonts-liberation     # test-only: renders report.html headless (reports;browser)
    directx-headers-dev           # the D3D12 backend (d3d12.h, DirectX-Guids)
    libvkd3d1 libvkd3d-utils1 libvkd3d-shader1   # D3D12 on Vulkan, loaded at run time
    libvulkan1 mesa-vulkan-drivers               # the Vulkan loader and lavapipe (a CPU Vulkan device)
    vkd3d-compiler spirv-tools    # test-only: DXBC -> SPIR-V translation and validation of the kernels
)

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "Installing: ${missing[*]}"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
