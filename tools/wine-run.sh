#!/usr/bin/env bash
# Runs a Windows program (dmlconf.exe) under Wine with an X display (DXGI
# needs one) in dmlconf's own Wine prefix, build/wine-prefix unless
# WINEPREFIX is set. The program's exit status passes through.
# Usage: bash tools/wine-run.sh PROGRAM.exe [ARGS...]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export WINEPREFIX="${WINEPREFIX:-$root/build/wine-prefix}"
export WINEDEBUG="${WINEDEBUG:--all}"
# No Mono or Gecko installation prompts.
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:-mscoree,mshtml=}"
mkdir -p "$WINEPREFIX"
exec xvfb-run -a -s "-screen 0 640x480x24" wine "$@"
