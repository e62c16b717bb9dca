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
