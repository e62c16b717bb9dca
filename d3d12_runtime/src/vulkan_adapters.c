/*
 * Enumerating Vulkan physical devices through the loader opened at run time
 * (the adapters of vkd3d on Linux).
 */
#include "gpu_adapters.h"

#include <dmlconf/dynlib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#define VULKAN_LIBRARY "vulkan-1.dll"
#define VKAPI          __stdcall
#else
#define VULKAN_LIBRARY "libvulkan.so.1"
#define VKAPI
#endif

/* The parts of the Vulkan API used here, laid out as vulkan_core.h does. */
enum
{
    VK_STRUCTURE_TYPE_APPLICATION_INFO = 0,
    VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 = 1000059001,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES = 1000196000,
    VK_SUCCESS = 0,
    VK_INCOMPLETE = 5,
};
#define VK_API_VERSION(major, minor) ((uint32_t)(major) << 22 | (uint32_t)(minor) << 12)

typedef struct vk_application_info
{
    int32_t type;
    const void *next;
    const char *application_name;
    uint32_t application_version;
    const char *engine_name;
    uint32_t engine_version;
    uint32_t api_version;
} vk_application_info;

typedef struct vk_instance_create_info
{
    int32_t type;
    const void *next;
    uint32_t flags;
    const vk_application_info *application;
    uint32_t layer_count;
    const char *const *layers;
    uint32_t extension_count;
    const char *const *extensions;
} vk_instance_create_info;

/* VkPhysicalDeviceProperties is 824 bytes; only its head and two limits are
 * read, at their fixed offsets. */
#define PROPERTIES_BYTES                 824u
#define OFFSET_API_VERSION               0u
#define OFFSET_DRIVER_VERSION            4u
#define OFFSET_VENDOR_ID                 8u
#define OFFSET_DEVICE_ID                 12u
#define OFFSET_DEVICE_TYPE               16u
#define OFFSET_DEVICE_NAME               20u
#define OFFSET_LIMITS                    296u
#define OFFSET_MAX_TEXEL_BUFFER_ELEMENTS (OFFSET_LIMITS + 20u)
#define OFFSET_MAX_PUSH_CONSTANTS_SIZE   (OFFSET_LIMITS + 32u)

typedef struct vk_properties2
{
    int32_t type;
    void *next;
    uint64_t properties[(PROPERTIES_BYTES + 7) / 8];
} vk_properties2;

typedef struct vk_driver_properties
{
    int32_t type;
    void *next;
    uint32_t driver_id;
    char driver_name[256];
    char driver_info[256];
    uint8_t conformance_version[4];
} vk_driver_properties;

typedef int32_t(VKAPI *create_instance_fn)(const vk_instance_create_info *, const void *, void **);
typedef void(VKAPI *destroy_instance_fn)(void *, const void *);
typedef int32_t(VKAPI *enumerate_devices_fn)(void *, uint32_t *, void **);
typedef void(VKAPI *get_properties_fn)(void *, void *);
typedef void(VKAPI *get_properties2_fn)(void *, vk_properties2 *);

typedef struct vulkan_loader
{
    void *library;
    create_instance_fn create_instance;
    destroy_instance_fn destroy_instance;
    enumerate_devices_fn enumerate_devices;
    get_properties_fn get_properties;
    get_properties2_fn get_properties2;
} vulkan_loader;

static int open_loader(vulkan_loader *loader, char *why, size_t why_size)
{
    char error[200];
    memset(loader, 0, sizeof(*loader));
    loader->library = dmlconf_dynlib_open(VULKAN_LIBRARY, error, sizeof(error));
    if (!loader->library)
    {
        snprintf(why, why_size, "no Vulkan loader (%s; install libvulkan1): %s", VULKAN_LIBRARY, error);
        return -1;
    }
    DMLCONF_DYNLIB_FUNCTION(loader->create_instance, loader->library, "vkCreateInstance");
    DMLCONF_DYNLIB_FUNCTION(loader->destroy_instance, loader->library, "vkDestroyInstance");
    DMLCONF_DYNLIB_FUNCTION(loader->enumerate_devices, loader->library, "vkEnumeratePhysicalDevices");
    DMLCONF_DYNLIB_FUNCTION(loader->get_properties, loader->library, "vkGetPhysicalDeviceProperties");
    DMLCONF_DYNLIB_FUNCTION(loader->get_properties2, loader->library, "vkGetPhysicalDeviceProperties2");
    if (!loader->create_instance || !loader->destroy_instance || !loader->enumerate_devices || !loader->get_properties)
    {
        snprintf(why, why_size, "the Vulkan loader %s lacks the core 1.0 entry points", VULKAN_LIBRARY);
        dmlconf_dynlib_close(loader->library);
        return -1;
    }
    return 0;
}

static uint32_t read_u32(const unsigned char *bytes, size_t offset)
{
    uint32_t value;
    memcpy(&value, bytes + offset, sizeof(value));
    return value;
}

static void describe(const vulkan_loader *loader, void *device, unsigned index, gpu_adapter *out)
{
    vk_properties2 properties2;
    vk_driver_properties driver;
    memset(&properties2, 0, sizeof(properties2));
    memset(&driver, 0, sizeof(driver));
    loader->get_properties(device, properties2.properties);
    const unsigned char *bytes = (const unsigned char *)properties2.properties;
    uint32_t api_version = read_u32(bytes, OFFSET_API_VERSION);
    bool have_driver = false;
    if (loader->get_properties2 && api_version >= VK_API_VERSION(1, 2))
    {
        properties2.type = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        properties2.next = &driver;
        driver.type = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
        loader->get_properties2(device, &properties2);
        have_driver = driver.driver_name[0] != '\0';
    }
    memset(out, 0, sizeof(*out));
    out->index = index;
    memcpy(out->name, bytes + OFFSET_DEVICE_NAME, sizeof(out->name) - 1);
    out->vendor_id = read_u32(bytes, OFFSET_VENDOR_ID);
    out->device_id = read_u32(bytes, OFFSET_DEVICE_ID);
    out->type = read_u32(bytes, OFFSET_DEVICE_TYPE);
    out->api_version = api_version;
    out->max_texel_buffer_elements = read_u32(bytes, OFFSET_MAX_TEXEL_BUFFER_ELEMENTS);
    out->max_push_constant_bytes = read_u32(bytes, OFFSET_MAX_PUSH_CONSTANTS_SIZE);
    uint32_t version = read_u32(bytes, OFFSET_DRIVER_VERSION);
    driver.driver_name[sizeof(driver.driver_name) - 1] = '\0';
    driver.driver_info[sizeof(driver.driver_info) - 1] = '\0';
    if (have_driver)
        snprintf(out->driver, sizeof(out->driver), "%.90s %.90s", driver.driver_name, driver.driver_info);
    else if (out->vendor_id == 0x10de)
        snprintf(out->driver, sizeof(out->driver), "NVIDIA %u.%u.%u", version >> 22, (version >> 14) & 0xffu,
                 (version >> 6) & 0xffu);
    else
        snprintf(out->driver, sizeof(out->driver), "driver version %u.%u.%u", version >> 22, (version >> 12) & 0x3ffu,
                 version & 0xfffu);
    snprintf(out->api, sizeof(out->api), "Vulkan %u.%u.%u under vkd3d", api_version >> 22, (api_version >> 12) & 0x3ffu,
             api_version & 0xfffu);
}

/* Lists the physical devices of `instance` (with their handles, when
 * `handles` is not NULL). */
static int list_instance_devices(const vulkan_loader *loader, void *instance, gpu_adapter **adapters, void ***handles,
                                 size_t *count, char *why, size_t why_size)
{
    uint32_t device_count = 0;
    void **devices = NULL;
    int32_t result = loader->enumerate_devices(instance, &device_count, NULL);
    if (result == VK_SUCCESS && device_count)
    {
        devices = calloc(device_count, sizeof(*devices));
        if (devices)
            result = loader->enumerate_devices(instance, &device_count, devices);
    }
    gpu_adapter *list = NULL;
    if ((result == VK_SUCCESS || result == VK_INCOMPLETE) && device_count && devices)
    {
        list = calloc(device_count, sizeof(*list));
        for (uint32_t i = 0; list && i < device_count; ++i)
            describe(loader, devices[i], i, &list[i]);
    }
    if (!device_count)
    {
        free(devices);
        snprintf(why, why_size, "Vulkan sees no device (install a GPU driver, or mesa-vulkan-drivers for lavapipe)");
        return -1;
    }
    if (!list)
    {
        free(devices);
        snprintf(why, why_size, "out of memory, or the Vulkan devices could not be enumerated (VkResult %d)",
                 (int)result);
        return -1;
    }
    if (handles)
        *handles = devices;
    else
        free(devices);
    *adapters = list;
    *count = device_count;
    return 0;
}

int vulkan_list_devices(gpu_adapter **adapters, size_t *count, char *why, size_t why_size)
{
    vulkan_loader loader;
    if (open_loader(&loader, why, why_size))
        return -1;
    vk_application_info application = {
        VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "dmlconf", 1, "dmlconf", 1, VK_API_VERSION(1, 1)};
    vk_instance_create_info create = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &application, 0, NULL, 0, NULL};
    void *instance = NULL;
    int32_t result = loader.create_instance(&create, NULL, &instance);
    if (result != VK_SUCCESS)
    {
        application.api_version = VK_API_VERSION(1, 0);
        loader.get_properties2 = NULL;
        result = loader.create_instance(&create, NULL, &instance);
    }
    if (result != VK_SUCCESS)
    {
        snprintf(why, why_size,
                 "no Vulkan driver could create an instance (VkResult %d; install a GPU driver or "
                 "mesa-vulkan-drivers for lavapipe)",
                 (int)result);
        dmlconf_dynlib_close(loader.library);
        return -1;
    }
    int listed = list_instance_devices(&loader, instance, adapters, NULL, count, why, why_size);
    loader.destroy_instance(instance, NULL);
    dmlconf_dynlib_close(loader.library);
    return listed;
}

int vulkan_list_instance_devices(void *instance, gpu_adapter **adapters, void ***handles, size_t *count, char *why,
                                 size_t why_size)
{
    vulkan_loader loader;
    if (open_loader(&loader, why, why_size))
        return -1;
    int listed = list_instance_devices(&loader, instance, adapters, handles, count, why, why_size);
    dmlconf_dynlib_close(loader.library);
    return listed;
}

#if !defined(_WIN32)
int gpu_list_adapters(gpu_adapter **adapters, size_t *count, char *why, size_t why_size)
{
    return vulkan_list_devices(adapters, count, why, why_size);
}
#endif

int vulkan_describe_device(void *physical_device, gpu_adapter *out)
{
    vulkan_loader loader;
    char why[256];
    if (open_loader(&loader, why, sizeof(why)))
        return -1;
    describe(&loader, physical_device, 0, out);
    dmlconf_dynlib_close(loader.library);
    return 0;
}
