/*
 * Enumerating DXGI adapters (Windows, and Wine). dxgi.dll is loaded at run
 * time, so that a system without it says so instead of failing to start.
 *
 * Under Wine, DXGI gives a stand-in name for the adapter ("NVIDIA GeForce
 * GTX 470" on a machine whose only device is lavapipe); the Vulkan device
 * that Wine's D3D12 really runs on is then named from Vulkan, when the two
 * enumerations have the same length (Wine makes one adapter per Vulkan
 * device, in the same order).
 */
#include "gpu_adapters.h"

#include "d3d12_com.h"

#include <dmlconf/dynlib.h>
#include <dmlconf/reserve.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dxgi1_4.h>

typedef HRESULT(WINAPI *create_factory_fn)(REFIID, void **);

/* Opens dxgi.dll and creates a factory. Returns it, or NULL with `why`;
 * *library must be closed by the caller after the factory is released. */
static IDXGIFactory1 *open_factory(void **library, char *why, size_t why_size)
{
    char error[256];
    *library = dmlconf_dynlib_open("dxgi.dll", error, sizeof(error));
    if (!*library)
    {
        snprintf(why, why_size, "DXGI is not available: %s", error);
        return NULL;
    }
    create_factory_fn create = NULL;
    DMLCONF_DYNLIB_FUNCTION(create, *library, "CreateDXGIFactory1");
    IDXGIFactory1 *factory = NULL;
    HRESULT hr = create ? create(&IID_IDXGIFactory1, (void **)&factory) : E_NOINTERFACE;
    if (FAILED(hr) || !factory)
    {
        snprintf(why, why_size, "CreateDXGIFactory1 failed (HRESULT 0x%08lx%s)", (unsigned long)hr,
                 (unsigned long)hr == 0x887a0004ul ? "; under Wine, DXGI needs an X display: run it under xvfb-run"
                                                   : "");
        dmlconf_dynlib_close(*library);
        *library = NULL;
        return NULL;
    }
    return factory;
}

/* Wine's version ("8.0"), or NULL on Windows itself. */
static const char *wine_version(void)
{
    typedef const char *(CDECL * get_version_fn)(void);
    HMODULE ntdll = GetModuleHandleA("ntdll.dll");
    if (!ntdll)
        return NULL;
    FARPROC address = GetProcAddress(ntdll, "wine_get_version");
    if (!address)
        return NULL;
    get_version_fn get_version;
    memcpy(&get_version, &address, sizeof(get_version));
    return get_version();
}

static void describe(IDXGIAdapter1 *adapter, unsigned index, const char *wine, gpu_adapter *out)
{
    DXGI_ADAPTER_DESC1 desc;
    memset(out, 0, sizeof(*out));
    memset(&desc, 0, sizeof(desc));
    out->index = index;
    if (FAILED(IDXGIAdapter1_GetDesc1(adapter, &desc)))
    {
        snprintf(out->name, sizeof(out->name), "DXGI adapter %u", index);
        return;
    }
    if (!WideCharToMultiByte(CP_UTF8, 0, desc.Description, -1, out->name, (int)sizeof(out->name), NULL, NULL))
        snprintf(out->name, sizeof(out->name), "DXGI adapter %u", index);
    out->vendor_id = desc.VendorId;
    out->device_id = desc.DeviceId;
    if (desc.Flags & DXGI_ADAPTER_FLAG_SOFTWARE)
        out->type = GPU_ADAPTER_CPU;
    else
        out->type = desc.DedicatedVideoMemory >= (SIZE_T)512 << 20 ? GPU_ADAPTER_DISCRETE : GPU_ADAPTER_INTEGRATED;
    LARGE_INTEGER version;
    if (SUCCEEDED(IDXGIAdapter1_CheckInterfaceSupport(adapter, &IID_IDXGIDevice, &version)))
    {
        unsigned long high = (unsigned long)version.HighPart, low = (unsigned long)version.LowPart;
        snprintf(out->driver, sizeof(out->driver), "driver %lu.%lu.%lu.%lu", high >> 16, high & 0xffffu, low >> 16,
                 low & 0xffffu);
    }
    else
        snprintf(out->driver, sizeof(out->driver), "driver version unknown");
    snprintf(out->api, sizeof(out->api), "DXGI, %llu MiB dedicated memory%s%s",
             (unsigned long long)desc.DedicatedVideoMemory >> 20, wine ? ", under Wine " : "", wine ? wine : "");
}

int gpu_list_adapters(gpu_adapter **adapters, size_t *count, char *why, size_t why_size)
{
    void *library = NULL;
    IDXGIFactory1 *factory = open_factory(&library, why, why_size);
    if (!factory)
        return -1;
    const char *wine = wine_version();
    size_t total = 0, capacity = 0;
    gpu_adapter *list = NULL;
    for (UINT i = 0;; ++i)
    {
        IDXGIAdapter1 *adapter = NULL;
        if (IDXGIFactory1_EnumAdapters1(factory, i, &adapter) == DXGI_ERROR_NOT_FOUND)
            break;
        if (!adapter)
            break;
        if (!dmlconf_reserve((void **)&list, &capacity, total + 1, sizeof(*list)))
        {
            IDXGIAdapter1_Release(adapter);
            break;
        }
        describe(adapter, i, wine, &list[total++]);
        IDXGIAdapter1_Release(adapter);
    }
    IDXGIFactory1_Release(factory);
    dmlconf_dynlib_close(library);
    if (!total)
    {
        free(list);
        snprintf(why, why_size, "DXGI lists no adapter");
        return -1;
    }
    if (wine)
    {
        /* Name what Wine's D3D12 really runs on. */
        gpu_adapter *devices = NULL;
        size_t device_count = 0;
        char ignored[256];
        if (vulkan_list_devices(&devices, &device_count, ignored, sizeof(ignored)) == 0 && device_count == total)
        {
            for (size_t i = 0; i < total; ++i)
            {
                char api[sizeof(list[i].api)];
                snprintf(api, sizeof(api), "DXGI \"%.40s\" under Wine %s, %s", list[i].name, wine, devices[i].api);
                char *under = strstr(api, " under vkd3d");
                if (under)
                    *under = '\0';
                list[i] = devices[i];
                list[i].index = (unsigned)i;
                snprintf(list[i].api, sizeof(list[i].api), "%s", api);
            }
        }
        free(devices);
    }
    *adapters = list;
    *count = total;
    return 0;
}

void *dxgi_open_adapter(unsigned index, void **library, char *why, size_t why_size)
{
    IDXGIFactory1 *factory = open_factory(library, why, why_size);
    if (!factory)
        return NULL;
    IDXGIAdapter1 *adapter = NULL;
    HRESULT hr = IDXGIFactory1_EnumAdapters1(factory, index, &adapter);
    IDXGIFactory1_Release(factory);
    if (FAILED(hr) || !adapter)
    {
        snprintf(why, why_size, "DXGI adapter %u cannot be opened (HRESULT 0x%08lx)", index, (unsigned long)hr);
        dmlconf_dynlib_close(*library);
        *library = NULL;
        return NULL;
    }
    return adapter;
}
