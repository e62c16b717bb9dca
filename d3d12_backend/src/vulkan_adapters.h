/*
 * The adapters vkd3d can create a D3D12 device on: the Vulkan physical
 * devices, in the order vkd3d sees them (its VKD3D_VULKAN_DEVICE index),
 * with the facts a report names (device, vendor and device ids, driver) and
 * the limits the backend plans around.
 *
 * Only the few Vulkan structures needed are declared here (Debian's
 * DirectX-Headers build needs no Vulkan headers); the loader is opened at
 * run time.
 */
#ifndef DMLCONF_VULKAN_ADAPTERS_H
#define DMLCONF_VULKAN_ADAPTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct vulkan_adapter
{
    unsigned index; /* position in vkEnumeratePhysicalDevices */
    char name[256]; /* deviceName */
    uint32_t vendor_id;
    uint32_t device_id;
    uint32_t type;        /* VkPhysicalDeviceType: 1 integrated, 2 discrete, 3 virtual, 4 CPU */
    uint32_t api_version; /* Vulkan version the device supports */
    char driver[200];     /* driver name and version, e.g. "llvmpipe Mesa 22.3.6" */
    uint32_t max_texel_buffer_elements;
    uint32_t max_push_constant_bytes;
} vulkan_adapter;

/* Lists the Vulkan physical devices. Returns 0 with *adapters (malloc'ed,
 * the caller frees it) and *count (at least 1), or -1 with a sentence in
 * `why` when there is no Vulkan loader, no instance or no device. */
int vulkan_list_adapters(vulkan_adapter **adapters, size_t *count, char *why, size_t why_size);

/* Describes one physical device given by its handle (for example the one a
 * vkd3d device runs on). Returns 0, or -1 when the loader is missing. */
int vulkan_describe_device(void *physical_device, vulkan_adapter *out);

/* True for a CPU implementation (lavapipe / llvmpipe). */
bool vulkan_adapter_is_software(const vulkan_adapter *adapter);

/* "discrete GPU", "integrated GPU", "virtual GPU", "CPU", "other". */
const char *vulkan_adapter_type_name(const vulkan_adapter *adapter);

/* Picks an adapter: `which` is an index ("0") or a case-insensitive
 * fragment of the name; NULL or "" picks as vkd3d does by default (the
 * first discrete GPU, else the first integrated GPU, else the first
 * device). Returns the position in `adapters`, or -1 with a sentence in
 * `why` that lists the adapters. */
long vulkan_pick_adapter(const vulkan_adapter *adapters, size_t count, const char *which, char *why, size_t why_size);

#endif /* DMLCONF_VULKAN_ADAPTERS_H */
