# Cross-compiling for Windows x64 with Debian's mingw-w64 (gcc-mingw-w64-x86-64).
# Use: cmake -S . -B build/windows -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake
#      -DDMLCONF_WINDOWS_DEPS=<the prefix where libyaml and jansson were cross-built>
# tools/build-windows.sh does all of it (tools/build-windows-deps.sh builds
# the two libraries from Debian's source packages).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(DMLCONF_MINGW_TRIPLET x86_64-w64-mingw32)
# The win32 threading variant: no winpthread DLL to ship beside the programs.
find_program(CMAKE_C_COMPILER NAMES ${DMLCONF_MINGW_TRIPLET}-gcc-win32 ${DMLCONF_MINGW_TRIPLET}-gcc REQUIRED)
find_program(CMAKE_RC_COMPILER NAMES ${DMLCONF_MINGW_TRIPLET}-windres)
find_program(CMAKE_AR NAMES ${DMLCONF_MINGW_TRIPLET}-gcc-ar-win32 ${DMLCONF_MINGW_TRIPLET}-ar)
find_program(CMAKE_RANLIB NAMES ${DMLCONF_MINGW_TRIPLET}-gcc-ranlib-win32 ${DMLCONF_MINGW_TRIPLET}-ranlib)

set(CMAKE_FIND_ROOT_PATH /usr/${DMLCONF_MINGW_TRIPLET})
# The cross-built dependencies: searched like the system's, and the only
# place pkg-config looks (never the build machine's own .pc files).
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES DMLCONF_WINDOWS_DEPS)
if(DMLCONF_WINDOWS_DEPS)
    list(APPEND CMAKE_FIND_ROOT_PATH ${DMLCONF_WINDOWS_DEPS})
    set(ENV{PKG_CONFIG_LIBDIR} ${DMLCONF_WINDOWS_DEPS}/lib/pkgconfig)
    set(ENV{PKG_CONFIG_PATH} "")
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Programs run under Wine when a build step or a test needs to execute one.
find_program(DMLCONF_WINE NAMES wine)
if(DMLCONF_WINE)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${DMLCONF_WINE})
endif()
