/*
 * The D3D12 backend: cumulative operators executed as DXBC compute shaders
 * through a D3D12 runtime loaded at run time (vkd3d on Linux).
 */
#ifndef DMLCONF_D3D12_H
#define DMLCONF_D3D12_H

#include <dmlconf/backend.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The backend's function table (name "d3d12"). Opening it loads the
 * runtime and creates a device on the adapter the config names (an index
 * or a name fragment; default: the first discrete GPU, else the first
 * integrated one, else the first device); it fails with a sentence when the
 * runtime, the Vulkan loader or the adapter is missing. */
extern const dmlconf_backend_ops dmlconf_d3d12_backend_ops;

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_D3D12_H */
