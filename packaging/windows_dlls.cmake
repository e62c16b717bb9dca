# Run by `cmake --install` (and CPack's zip) in the Windows build: installs
# beside dmlconf.exe every DLL it imports that Windows does not ship,
# following the imports of those DLLs too. Set before it runs (packaging/
# CMakeLists.txt): DMLCONF_EXE (the built program), DMLCONF_OBJDUMP
# (mingw-w64's objdump), DMLCONF_DLL_DIRS (where mingw-w64's runtime DLLs and
# the cross-built libraries lie) and DMLCONF_DLL_DESTINATION (bin).
# A DLL found in none of those folders must be one of Windows' own (the list
# below); any other stops the install with its name, so a zip never lacks a
# DLL its program needs.

# Windows' own DLLs, lower case: those the system provides on every Windows
# 10 and later, which a zip must not carry.
set(windows_dlls
    advapi32.dll bcrypt.dll comctl32.dll comdlg32.dll crypt32.dll d3d12.dll dbghelp.dll dxgi.dll gdi32.dll
    imm32.dll iphlpapi.dll kernel32.dll msvcrt.dll ntdll.dll ole32.dll oleaut32.dll psapi.dll rpcrt4.dll
    secur32.dll setupapi.dll shell32.dll shlwapi.dll ucrtbase.dll user32.dll userenv.dll version.dll
    winmm.dll ws2_32.dll)

get_filename_component(program "${DMLCONF_EXE}" NAME)
set(CMAKE_GET_RUNTIME_DEPENDENCIES_PLATFORM "windows+pe")
set(CMAKE_GET_RUNTIME_DEPENDENCIES_TOOL "objdump")
set(CMAKE_GET_RUNTIME_DEPENDENCIES_COMMAND "${DMLCONF_OBJDUMP}")
file(GET_RUNTIME_DEPENDENCIES
    EXECUTABLES "${DMLCONF_EXE}"
    DIRECTORIES ${DMLCONF_DLL_DIRS}
    # The API sets are names Windows resolves itself, never files.
    PRE_EXCLUDE_REGEXES "^api-ms-" "^ext-ms-"
    RESOLVED_DEPENDENCIES_VAR shipped
    UNRESOLVED_DEPENDENCIES_VAR unresolved
    CONFLICTING_DEPENDENCIES_PREFIX conflicting)

foreach(dll ${unresolved})
    string(TOLOWER "${dll}" name)
    list(FIND windows_dlls "${name}" known)
    if(known EQUAL -1)
        message(FATAL_ERROR "${program} needs ${dll}, which is neither in mingw-w64's folders nor beside the "
                            "cross-built libraries (${DMLCONF_DLL_DIRS}) nor one of Windows' own DLLs")
    endif()
endforeach()
if(conflicting_FILENAMES)
    message(FATAL_ERROR "${program}'s DLLs ${conflicting_FILENAMES} were found in more than one folder")
endif()
list(JOIN unresolved " " system_names)
if(shipped)
    list(JOIN shipped " " shipped_names)
    message(STATUS "${program}'s DLLs, installed beside it: ${shipped_names}")
    file(INSTALL ${shipped} DESTINATION "${CMAKE_INSTALL_PREFIX}/${DMLCONF_DLL_DESTINATION}")
else()
    message(STATUS "${program} imports no DLL that Windows does not ship (it imports ${system_names})")
endif()
