/*
 * Including the D3D12 C interface with the right calling convention.
 *
 * On Linux the runtime is vkd3d (libvkd3d-utils.so.1), whose entry points
 * and COM methods use the Windows x64 calling convention; DirectX-Headers'
 * WSL stubs define STDMETHODCALLTYPE and WINAPI as empty (System V), so they
 * are redefined to ms_abi before d3d12.h is read. Define
 * DMLCONF_D3D12_SYSV_ABI to build for WSL's libd3d12.so instead, which uses
 * the native System V convention (not verified). On Windows the SDK's own
 * headers apply (not verified).
 *
 * Methods that return a struct (GetDesc, GetCPUDescriptorHandleForHeapStart,
 * ...) follow the Windows member-function convention in vkd3d; this backend
 * never calls them.
 */
#ifndef DMLCONF_D3D12_COM_H
#define DMLCONF_D3D12_COM_H

#define COBJMACROS

#if defined(_WIN32)
#include <d3d12.h>
#define DMLCONF_D3D12_RUNTIME_LIBRARY "d3d12.dll"
#else
#include <basetsd.h>
#if !defined(DMLCONF_D3D12_SYSV_ABI)
#undef STDMETHODCALLTYPE
#undef WINAPI
#define STDMETHODCALLTYPE             __attribute__((ms_abi))
#define WINAPI                        __attribute__((ms_abi))
#define DMLCONF_D3D12_RUNTIME_LIBRARY "libvkd3d-utils.so.1"
#else
#define DMLCONF_D3D12_RUNTIME_LIBRARY "libd3d12.so"
#endif
/* winadapter.h (the COM basics) must come before d3d12.h. */
#include <wsl/winadapter.h>

#include <directx/d3d12.h>
#endif

#endif /* DMLCONF_D3D12_COM_H */
