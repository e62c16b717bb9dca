/*
 * The adapters a D3D12 device can be created on, with the facts a report
 * names (device, vendor and device ids, driver) and the limits the backend
 * plans around. Two enumerations give them:
 *   - vulkan_adapters.c (Linux): the Vulkan physical devices, in the order
 *     vkd3d sees them (its VKD3D_VULKAN_DEVICE index); the loader is opened
 *     at run time and only the few Vulkan structures needed are declared;
 *   - dxgi_adapters.c (Windows, and Wine): the DXGI adapters, in
 *     IDXGIFactory1::EnumAdapters1 order; dxgi.dll is loaded at run time.
 */
#ifndef DMLCONF_GPU_ADAPTERS_H
#define DMLCONF_GPU_ADAPTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kinds of adapter (VkPhysicalDeviceType's values). */
enum
{
    GPU_ADAPTER_OTHER = 0,
    GPU_ADAPTER_INTEGRATED = 1,
    GPU_ADAPTER_DISCRETE = 2,
    GPU_ADAPTER_VIRTUAL = 3,
    GPU_ADAPTER_CPU = 4,
};

typedef struct gpu_adapter
{
    unsigned index; /* position in the enumeration */
    char name[256]; /* the device's name */
    uint32_t vendor_id;
    uint32_t device_id;
    uint32_t type;                      /* GPU_ADAPTER_* */
    uint32_t api_version;               /* Vulkan version the device supports (0 under DXGI) */
    char driver[200];                   /* driver name and version, e.g. "llvmpipe Mesa 22.3.6" */
    char api[120];                      /* how it is reached, e.g. "Vulkan 1.3.230 under vkd3d" */
    uint32_t max_texel_buffer_elements; /* 0 when unknown */
    uint32_t max_push_constant_bytes;   /* 0 when unknown */
} gpu_adapter;

/* Lists the adapters. Returns 0 with *adapters (malloc'ed, the caller frees
 * it) and *count (at least 1), or -1 with a sentence in `why` when there is
 * no loader, no instance or no device. */
int gpu_list_adapters(gpu_adapter **adapters, size_t *count, char *why, size_t why_size);

/* The Vulkan physical devices (the same contract as gpu_list_adapters).
 * On Linux they are the adapters; under Wine they are what Wine's D3D12
 * really runs on, behind the names DXGI gives. */
int vulkan_list_devices(gpu_adapter **adapters, size_t *count, char *why, size_t why_size);

/* The physical devices of an existing Vulkan instance (`instance`, a
 * VkInstance: for example the one vkd3d created a device under), so that no
 * second instance is made; *handles (malloc'ed, the caller frees it) holds
 * each one's VkPhysicalDevice. Otherwise the contract of
 * vulkan_list_devices. */
int vulkan_list_instance_devices(void *instance, gpu_adapter **adapters, void ***handles, size_t *count, char *why,
                                 size_t why_size);

/* Describes one Vulkan physical device given by its handle (for example the
 * one a vkd3d device runs on). Returns 0, or -1 when the loader is
 * missing. */
int vulkan_describe_device(void *physical_device, gpu_adapter *out);

#if defined(_WIN32)
/* The DXGI adapter at position `index`, as an IUnknown* (the caller
 * releases it) to create a device on, and *library, dxgi.dll, which the
 * caller closes after releasing the adapter. Returns NULL with `why`. */
void *dxgi_open_adapter(unsigned index, void **library, char *why, size_t why_size);
#endif

/* True for a CPU implementation (lavapipe / llvmpipe, WARP). */
bool gpu_adapter_is_software(const gpu_adapter *adapter);

/* "discrete GPU", "integrated GPU", "virtual GPU", "CPU", "other". */
const char *gpu_adapter_type_name(const gpu_adapter *adapter);

/* Picks an adapter: `which` is an index ("0") or a case-insensitive
 * fragment of the name; NULL or "" picks as vkd3d does by default (the
 * first discrete GPU, else the first integrated GPU, else the first
 * device). Returns the position in `adapters`, or -1 with a sentence in
 * `why` that lists the adapters. */
long gpu_pick_adapter(const gpu_adapter *adapters, size_t count, const char *which, char *why, size_t why_size);

#endif /* DMLCONF_GPU_ADAPTERS_H */
