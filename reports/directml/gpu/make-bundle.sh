#!/usr/bin/env bash
# Packs what a DirectML run needs under Wine on a machine without Wine (the
# GPU machine: Ubuntu, NVIDIA's driver and Vulkan ICD, no X server, no Wine,
# nothing to download), from this machine's Debian 12 packages (wine64,
# libwine, xvfb, x11-xkb-utils, xkb-data, libvulkan1 and the X and font
# libraries they load, all installed by tools/install-deps.sh windows), into
# OUT (default /work/main/.gpu-h25, the folder a device call carries):
#   wine.tar.xz   R/usr/lib/wine/{wine64,wineserver64}, the Wine unix modules and
#                 NLS files a run opens, the Windows modules (in Wine's own folder and,
#                 linked, in the prefix's system32), Xvfb, xkbcomp and the XKB data, R/lib/ the
#                 shared libraries all of them load (not glibc's), and R/prefix/: a
#                 Wine prefix holding only the Windows modules (and the fonts,
#                 drivers and manifests) that `dmlconf run --backend directml` opens
#                 there (measured with strace on a cold wineserver), with wined3d's
#                 renderer set to Vulkan
#   bin.tar.xz    dmlconf.exe, dmlconf_directml_corners.exe and the pinned DirectML.dll
#   run-on-gpu.sh, paths.txt   the script that runs it there, and the paths' options
# Only these files, compressed: a call carries 64 MiB at most.
# Usage: bash reports/directml/gpu/make-bundle.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
out=${1:-/work/main/.gpu-h25}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
R="$stage/R"
mkdir -p "$R/lib" "$R/usr/lib/wine" "$R/usr/lib/x86_64-linux-gnu/wine/x86_64-unix" "$R/usr/share/wine/nls" \
    "$R/usr/bin" "$R/usr/share/X11" "$R/usr/lib/xorg"

# Wine: the loader, the server, the unix modules and NLS files a run opens.
cp /usr/lib/wine/wine64 /usr/lib/wine/wineserver64 "$R/usr/lib/wine/"
unix=(ntdll win32u winex11 winevulkan opengl32 dnsapi mountmgr nsiproxy winebus wineusb ws2_32)
for m in "${unix[@]}"; do cp "/usr/lib/x86_64-linux-gnu/wine/x86_64-unix/$m.so" "$R/usr/lib/x86_64-linux-gnu/wine/x86_64-unix/"; done
cp /usr/lib/x86_64-linux-gnu/wine/x86_64-unix/libwine.so.1 "$R/usr/lib/x86_64-linux-gnu/wine/x86_64-unix/"
for n in c_10000 c_1252 c_20127 c_437 l_intl locale normnfc sortdefault; do cp "/usr/share/wine/nls/$n.nls" "$R/usr/share/wine/nls/"; done

# The X server Wine's DXGI needs, without GLX, and its keymap compiler.
cp /usr/bin/Xvfb /usr/bin/xkbcomp "$R/usr/bin/"
cp -r /usr/share/X11/xkb "$R/usr/share/X11/"
cp /usr/lib/xorg/protocol.txt "$R/usr/lib/xorg/"

# The shared libraries they load, directly or through dlopen (X, fonts,
# Vulkan's loader, udev, usb), with what those need; not glibc's own.
extra=(libX11.so.6 libX11-xcb.so.1 libXext.so.6 libXcursor.so.1 libXi.so.6 libXrandr.so.2 libXrender.so.1
    libXinerama.so.1 libXcomposite.so.1 libXfixes.so.3 libXxf86vm.so.1 libfontconfig.so.1 libfreetype.so.6
    libvulkan.so.1 libxkbfile.so.1 libGL.so.1 libGLX.so.0 libGLdispatch.so.0)
glibc='^(libc|libm|libpthread|libdl|librt|libgcc_s|libstdc\+\+|ld-linux-x86-64)\.so'
{
    for f in "$R"/usr/lib/wine/* "$R"/usr/lib/x86_64-linux-gnu/wine/x86_64-unix/*.so "$R"/usr/bin/*; do ldd "$f" 2>/dev/null; done
    for l in "${extra[@]}"; do echo "$l => /usr/lib/x86_64-linux-gnu/$l"; ldd "/usr/lib/x86_64-linux-gnu/$l"; done
} | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | sort -u | while read -r name path; do
    [[ "$name" =~ $glibc ]] && continue
    [[ "$name" == ntdll.so || "$name" == win32u.so ]] && continue
    cp -L "$path" "$R/lib/$name"
done
# Libraries a copied library needs that the first pass did not see.
for pass in 1 2; do
    for f in "$R"/lib/*; do ldd "$f" 2>/dev/null; done | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | sort -u |
        while read -r name path; do
            [[ "$name" =~ $glibc ]] && continue
            [ -e "$R/lib/$name" ] || cp -L "$path" "$R/lib/$name"
        done
done

# The prefix: a fresh one, then only what a run opens.
export WINEPREFIX="$stage/fresh" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
mkdir -p "$WINEPREFIX"
xvfb-run -a wine wineboot --init >/dev/null 2>&1
xvfb-run -a wine reg add 'HKCU\Software\Wine\Direct3D' /v renderer /t REG_SZ /d vulkan /f >/dev/null 2>&1
wineserver -w
P="$R/prefix"
mkdir -p "$P/drive_c/windows/system32/drivers" "$P/drive_c/windows/Fonts" "$P/drive_c/windows/resources/themes/light" \
    "$P/drive_c/windows/winsxs/manifests" "$P/drive_c/users"
cp "$WINEPREFIX"/{system.reg,user.reg,userdef.reg} "$P/"
# The prefix is as new as wine.inf (same mtime), so Wine never rebuilds it
# there (that would need every module).
cp -p /usr/share/wine/wine.inf "$R/usr/share/wine/"
cp "$WINEPREFIX/.update-timestamp" "$P/"
modules=(actxprxy.dll advapi32.dll combase.dll conhost.exe d3d12.dll dnsapi.dll dxgi.dll explorer.exe gdi32.dll
    imm32.dll iphlpapi.dll kernel32.dll kernelbase.dll mscoree.dll msvcrt.dll nsi.dll ntdll.dll ntoskrnl.exe ole32.dll
    oleaut32.dll opengl32.dll plugplay.exe propsys.dll rpcrt4.dll rpcss.exe sechost.dll services.exe setupapi.dll
    shcore.dll shell32.dll shlwapi.dll svchost.exe tzres.dll ucrtbase.dll user32.dll userenv.dll uxtheme.dll
    version.dll vulkan-1.dll wevtsvc.dll win32u.dll windowscodecs.dll wineboot.exe wined3d.dll winedevice.exe
    winemenubuilder.exe winevulkan.dll winex11.drv ws2_32.dll zlib1.dll bcrypt.dll crypt32.dll rsaenh.dll
    start.exe cmd.exe apisetschema.dll)
# Each module once, in Wine's own folder (where ntdll.dll must be), linked
# into the prefix's system32 (the tar keeps one copy of linked files).
W="$R/usr/lib/x86_64-linux-gnu/wine/x86_64-windows"
mkdir -p "$W"
for m in "${modules[@]}"; do
    [ -f "/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/$m" ] || continue
    cp "/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/$m" "$W/$m"
    ln "$W/$m" "$P/drive_c/windows/system32/$m"
done
for d in hidclass.sys hidparse.sys mountmgr.sys ndis.sys nsiproxy.sys winebus.sys winehid.sys wineusb.sys; do
    cp "$WINEPREFIX/drive_c/windows/system32/drivers/$d" "$P/drive_c/windows/system32/drivers/"
done
cp "$WINEPREFIX"/drive_c/windows/Fonts/*.fon "$P/drive_c/windows/Fonts/" 2>/dev/null || true
cp "$WINEPREFIX"/drive_c/windows/resources/themes/light/light.msstyles "$P/drive_c/windows/resources/themes/light/"
cp "$WINEPREFIX"/drive_c/windows/winsxs/manifests/amd64_microsoft.windows.common-controls_* "$P/drive_c/windows/winsxs/manifests/"
cp "$WINEPREFIX"/drive_c/windows/system32/*.manifest "$P/drive_c/windows/system32/" 2>/dev/null || true

mkdir -p "$out"
tar -C "$stage" -cJf "$out/wine.tar.xz" R
mkdir -p "$stage/bin"
cp "$root/build/windows/runners/dmlconf.exe" "$root/build/windows/tools/dmlconf_directml_corners.exe" \
    "$root/tools/npm/node_modules/onnxruntime-node/bin/napi-v6/win32/x64/DirectML.dll" "$stage/bin/"
tar -C "$stage" -cJf "$out/bin.tar.xz" bin
# The scripts and the paths, for a tree that may not have them yet.
cp "$root/reports/directml/gpu/run-on-gpu.sh" "$root/reports/directml/paths.txt" "$out/"
du -sh "$R" "$R/prefix" "$R/lib"
ls -la "$out"
