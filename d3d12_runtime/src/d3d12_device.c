/*
 * Opening the D3D12 runtime and device; root signatures and pipelines,
 * buffers, submission.
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include "d3d12_device.h"

#include <dmlconf/dynlib.h>
#include <dmlconf/system_info.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names of the HRESULTs D3D12, DXGI and DirectML return. */
static const char *hresult_name(uint32_t code)
{
    switch (code)
    {
    case 0x80004001u:
        return "E_NOTIMPL";
    case 0x80004002u:
        return "E_NOINTERFACE";
    case 0x80004005u:
        return "E_FAIL";
    case 0x8007000eu:
        return "E_OUTOFMEMORY";
    case 0x80070057u:
        return "E_INVALIDARG";
    case 0x887a0001u:
        return "DXGI_ERROR_INVALID_CALL";
    case 0x887a0004u:
        return "DXGI_ERROR_UNSUPPORTED";
    case 0x887a0005u:
        return "DXGI_ERROR_DEVICE_REMOVED";
    case 0x887a0006u:
        return "DXGI_ERROR_DEVICE_HUNG";
    case 0x887a0007u:
        return "DXGI_ERROR_DEVICE_RESET";
    case 0x887a0020u:
        return "DXGI_ERROR_DRIVER_INTERNAL_ERROR";
    case 0x887a002du:
        return "DXGI_ERROR_SDK_COMPONENT_MISSING";
    default:
        return NULL;
    }
}

const char *d3d12_hresult_text(HRESULT hr, char *buffer, size_t size)
{
    const char *name = hresult_name((uint32_t)hr);
    if (name)
        snprintf(buffer, size, "HRESULT 0x%08x (%s)", (unsigned)hr, name);
    else
        snprintf(buffer, size, "HRESULT 0x%08x", (unsigned)hr);
    return buffer;
}

static void release_unknown(IUnknown **object)
{
    if (*object)
    {
        IUnknown_Release(*object);
        *object = NULL;
    }
}

#define RELEASE(object)                                                                                                \
    do                                                                                                                 \
    {                                                                                                                  \
        IUnknown *unknown_ = (IUnknown *)(object);                                                                     \
        release_unknown(&unknown_);                                                                                    \
        (object) = NULL;                                                                                               \
    } while (0)

void d3d12_device_close(d3d12_device *d)
{
    RELEASE(d->list);
    RELEASE(d->allocator);
    RELEASE(d->fence);
    RELEASE(d->queue);
    RELEASE(d->device);
    if (d->event && d->destroy_event)
        d->destroy_event(d->event);
    d->event = NULL;
    dmlconf_dynlib_close(d->shader_library);
    dmlconf_dynlib_close(d->vkd3d_library);
    dmlconf_dynlib_close(d->runtime_library);
    dmlconf_dynlib_close(d->dxgi_library);
    d->shader_library = d->vkd3d_library = d->runtime_library = d->dxgi_library = NULL;
}

#if defined(_WIN32)
/* Creates the D3D12 device on DXGI adapter `index`. */
static HRESULT create_on_adapter(d3d12_device *d, unsigned index, char *why, size_t why_size)
{
    IUnknown *adapter = dxgi_open_adapter(index, &d->dxgi_library, why, why_size);
    if (!adapter)
        return E_FAIL;
    HRESULT hr = d->create_device(adapter, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&d->device);
    IUnknown_Release(adapter);
    return hr;
}

/* The fence waits, with Win32 events. */
static HANDLE create_win32_event(void)
{
    return CreateEventA(NULL, FALSE, FALSE, NULL);
}

static unsigned int wait_win32_event(HANDLE event, unsigned int milliseconds)
{
    return (unsigned int)WaitForSingleObject(event, milliseconds);
}

static void destroy_win32_event(HANDLE event)
{
    CloseHandle(event);
}
#elif defined(DMLCONF_D3D12_SYSV_ABI)
static HRESULT create_on_adapter(d3d12_device *d, unsigned index, char *why, size_t why_size)
{
    (void)index, (void)why, (void)why_size;
    return d->create_device(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&d->device);
}
#else
/* Creates the D3D12 device on Vulkan physical device `index`: vkd3d picks
 * its device from VKD3D_VULKAN_DEVICE, so that is set for the call and
 * restored after it. */
static HRESULT create_on_adapter(d3d12_device *d, unsigned index, char *why, size_t why_size)
{
    (void)why, (void)why_size;
    const char *previous = getenv("VKD3D_VULKAN_DEVICE");
    char saved[64] = "";
    bool had = previous != NULL;
    if (had)
        snprintf(saved, sizeof(saved), "%s", previous);
    char value[32];
    snprintf(value, sizeof(value), "%u", index);
    setenv("VKD3D_VULKAN_DEVICE", value, 1);
    HRESULT hr = d->create_device(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&d->device);
    if (had)
        setenv("VKD3D_VULKAN_DEVICE", saved, 1);
    else
        unsetenv("VKD3D_VULKAN_DEVICE");
    return hr;
}
#endif

static int load_runtime(d3d12_device *d, char *why, size_t why_size)
{
    char error[256];
    d->runtime_library = dmlconf_dynlib_open(DMLCONF_D3D12_RUNTIME_LIBRARY, error, sizeof(error));
    if (!d->runtime_library)
    {
        snprintf(why, why_size,
                 "the D3D12 runtime is not installed: %s cannot be loaded (on Debian: apt-get install "
                 "libvkd3d-utils1): %s",
                 DMLCONF_D3D12_RUNTIME_LIBRARY, error);
        return -1;
    }
    DMLCONF_DYNLIB_FUNCTION(d->create_device, d->runtime_library, "D3D12CreateDevice");
    DMLCONF_DYNLIB_FUNCTION(d->serialize_root_signature, d->runtime_library, "D3D12SerializeRootSignature");
#if defined(_WIN32)
    d->create_event = create_win32_event;
    d->wait_event = wait_win32_event;
    d->destroy_event = destroy_win32_event;
    if (!d->create_device || !d->serialize_root_signature)
    {
        snprintf(why, why_size, "%s lacks D3D12CreateDevice or D3D12SerializeRootSignature",
                 DMLCONF_D3D12_RUNTIME_LIBRARY);
        return -1;
    }
    return 0;
#else
    DMLCONF_DYNLIB_FUNCTION(d->create_event, d->runtime_library, "vkd3d_create_event");
    DMLCONF_DYNLIB_FUNCTION(d->wait_event, d->runtime_library, "vkd3d_wait_event");
    DMLCONF_DYNLIB_FUNCTION(d->destroy_event, d->runtime_library, "vkd3d_destroy_event");
    if (!d->create_device || !d->serialize_root_signature || !d->create_event || !d->wait_event || !d->destroy_event)
    {
        snprintf(why, why_size, "%s lacks D3D12CreateDevice, D3D12SerializeRootSignature or vkd3d's events",
                 DMLCONF_D3D12_RUNTIME_LIBRARY);
        return -1;
    }
    d->vkd3d_library = dmlconf_dynlib_open("libvkd3d.so.1", error, sizeof(error));
    d->shader_library = dmlconf_dynlib_open("libvkd3d-shader.so.1", error, sizeof(error));
    return 0;
#endif
}

static void describe_runtime(d3d12_device *d)
{
#if defined(_WIN32)
    char version[64];
    const char *wine = dmlconf_wine_version();
    dmlconf_dynlib_version(d->runtime_library, version, sizeof(version));
    if (wine)
        snprintf(d->runtime, sizeof(d->runtime), "Wine %s's %s", wine, DMLCONF_D3D12_RUNTIME_LIBRARY);
    else
        snprintf(d->runtime, sizeof(d->runtime), "%s %s", DMLCONF_D3D12_RUNTIME_LIBRARY,
                 version[0] ? version : "(version unknown)");
#else
    vkd3d_shader_get_version_fn get_version = NULL;
    DMLCONF_DYNLIB_FUNCTION(get_version, d->shader_library, "vkd3d_shader_get_version");
    const char *version = NULL;
    unsigned major = 0, minor = 0;
    if (get_version)
        version = get_version(&major, &minor);
    uint32_t api = d->adapter.api_version;
    if (version)
        snprintf(d->runtime, sizeof(d->runtime), "%s on Vulkan %u.%u.%u", version, api >> 22, (api >> 12) & 0x3ffu,
                 api & 0xfffu);
    else
        snprintf(d->runtime, sizeof(d->runtime), "%s on Vulkan %u.%u.%u", DMLCONF_D3D12_RUNTIME_LIBRARY, api >> 22,
                 (api >> 12) & 0x3ffu, api & 0xfffu);
#endif
}

int d3d12_device_create_root_signature(d3d12_device *d, const D3D12_ROOT_SIGNATURE_DESC *desc,
                                       ID3D12RootSignature **out, char *why, size_t why_size)
{
    ID3DBlob *blob = NULL, *errors = NULL;
    char text[64];
    HRESULT hr = d->serialize_root_signature(desc, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &errors);
    if (FAILED(hr))
    {
        snprintf(why, why_size, "D3D12SerializeRootSignature failed: %s", d3d12_hresult_text(hr, text, sizeof(text)));
        RELEASE(errors);
        return -1;
    }
    hr = ID3D12Device_CreateRootSignature(d->device, 0, ID3D10Blob_GetBufferPointer(blob),
                                          ID3D10Blob_GetBufferSize(blob), &IID_ID3D12RootSignature, (void **)out);
    RELEASE(blob);
    RELEASE(errors);
    if (FAILED(hr))
    {
        snprintf(why, why_size, "CreateRootSignature failed: %s", d3d12_hresult_text(hr, text, sizeof(text)));
        return -1;
    }
    return 0;
}

static int create_queue_and_list(d3d12_device *d, char *why, size_t why_size)
{
    char text[64];
    D3D12_COMMAND_QUEUE_DESC queue_desc = {D3D12_COMMAND_LIST_TYPE_DIRECT, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
    HRESULT hr = ID3D12Device_CreateCommandQueue(d->device, &queue_desc, &IID_ID3D12CommandQueue, (void **)&d->queue);
    if (SUCCEEDED(hr))
        hr = ID3D12Device_CreateCommandAllocator(d->device, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator,
                                                 (void **)&d->allocator);
    if (SUCCEEDED(hr))
        hr = ID3D12Device_CreateCommandList(d->device, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, d->allocator, NULL,
                                            &IID_ID3D12GraphicsCommandList, (void **)&d->list);
    if (SUCCEEDED(hr))
        hr = ID3D12GraphicsCommandList_Close(d->list);
    if (SUCCEEDED(hr))
        hr = ID3D12Device_CreateFence(d->device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&d->fence);
    if (FAILED(hr))
    {
        snprintf(why, why_size, "creating the queue, command list or fence failed: %s",
                 d3d12_hresult_text(hr, text, sizeof(text)));
        return -1;
    }
    d->event = d->create_event();
    if (!d->event)
    {
        snprintf(why, why_size, "vkd3d_create_event failed");
        return -1;
    }
    UINT64 frequency = 0;
    if (SUCCEEDED(ID3D12CommandQueue_GetTimestampFrequency(d->queue, &frequency)))
        d->timestamp_frequency = frequency;
    return 0;
}

#if !defined(_WIN32) && !defined(DMLCONF_D3D12_SYSV_ABI)
typedef void *(*vkd3d_instance_from_device_fn)(ID3D12Device *);
typedef void *(*vkd3d_instance_get_vk_instance_fn)(void *);

/* With no adapter asked for: the device on vkd3d's first physical device,
 * and the adapters listed from vkd3d's own Vulkan instance, since creating
 * a second instance just to list them took 0.17-0.19 s of each worker's
 * start on an H100 (reports/gpu/nvidia-h100-2026-11-26-4/). Returns 0 with
 * the device and d->adapter, or 1 when that device is not the one to pick
 * (another adapter is discrete, say) or vkd3d cannot say which it is:
 * nothing is kept, and the caller lists the adapters and picks as usual. */
static int open_first_adapter(d3d12_device *d)
{
    char reason[400];
    if (FAILED(create_on_adapter(d, 0, reason, sizeof(reason))) || !d->device)
        return 1;
    vkd3d_get_physical_device_fn get_physical_device = NULL;
    vkd3d_instance_from_device_fn instance_from_device = NULL;
    vkd3d_instance_get_vk_instance_fn get_vk_instance = NULL;
    DMLCONF_DYNLIB_FUNCTION(get_physical_device, d->vkd3d_library, "vkd3d_get_vk_physical_device");
    DMLCONF_DYNLIB_FUNCTION(instance_from_device, d->vkd3d_library, "vkd3d_instance_from_device");
    DMLCONF_DYNLIB_FUNCTION(get_vk_instance, d->vkd3d_library, "vkd3d_instance_get_vk_instance");
    void *instance = instance_from_device && get_vk_instance ? instance_from_device(d->device) : NULL;
    void *vk_instance = instance ? get_vk_instance(instance) : NULL;
    void *physical_device = get_physical_device ? get_physical_device(d->device) : NULL;
    gpu_adapter *adapters = NULL;
    void **handles = NULL;
    size_t count = 0;
    int usual_path = 1;
    if (vk_instance && physical_device &&
        !vulkan_list_instance_devices(vk_instance, &adapters, &handles, &count, reason, sizeof(reason)))
    {
        size_t index = 0;
        while (index < count && handles[index] != physical_device)
            ++index;
        if (index < count && gpu_pick_adapter(adapters, count, NULL, reason, sizeof(reason)) == (long)index)
        {
            d->adapter = adapters[index];
            d->adapter_count = count;
            d->listed_by_device = true;
            usual_path = 0;
        }
    }
    free(adapters);
    free(handles);
    if (usual_path)
        RELEASE(d->device);
    return usual_path;
}
#endif

/* Lists the adapters, picks `which` (or the default) and creates the device
 * on it. Returns 0, or -1 with `why`. */
static int open_listed_adapter(d3d12_device *d, const char *which, char *why, size_t why_size)
{
    gpu_adapter *adapters = NULL;
    size_t count = 0;
    char reason[400];
    if (gpu_list_adapters(&adapters, &count, reason, sizeof(reason)))
    {
        snprintf(why, why_size, "no adapter for %s: %s", DMLCONF_D3D12_RUNTIME_LIBRARY, reason);
        return -1;
    }
    long pick = gpu_pick_adapter(adapters, count, which, why, why_size);
    if (pick < 0)
    {
        free(adapters);
        return -1;
    }
    d->adapter = adapters[pick];
    d->adapter_count = count;
    free(adapters);

    char text[64];
    reason[0] = '\0';
    HRESULT hr = create_on_adapter(d, d->adapter.index, reason, sizeof(reason));
    if (FAILED(hr) || !d->device)
    {
        if (reason[0])
            snprintf(why, why_size, "%s", reason);
        else
            snprintf(why, why_size, "D3D12CreateDevice failed on adapter %u (%s): %s", d->adapter.index,
                     d->adapter.name, d3d12_hresult_text(hr, text, sizeof(text)));
        return -1;
    }
#if !defined(_WIN32)
    vkd3d_get_physical_device_fn get_physical_device = NULL;
    DMLCONF_DYNLIB_FUNCTION(get_physical_device, d->vkd3d_library, "vkd3d_get_vk_physical_device");
    if (get_physical_device)
    {
        gpu_adapter actual;
        void *physical_device = get_physical_device(d->device);
        if (physical_device && !vulkan_describe_device(physical_device, &actual) &&
            (actual.device_id != d->adapter.device_id || strcmp(actual.name, d->adapter.name)))
        {
            snprintf(why, why_size, "vkd3d created the device on \"%s\", not on the requested adapter %u \"%s\"",
                     actual.name, d->adapter.index, d->adapter.name);
            return -1;
        }
    }
#endif
    return 0;
}

/* The test knob DMLCONF_D3D12_BUFFER_LIMIT: a smaller device's stand-in for
 * every backend on this device (d3d12_device.buffer_limit). Returns 0, or -1
 * with `why` for a value that is not a number of bytes. */
static int read_buffer_limit(d3d12_device *d, char *why, size_t why_size)
{
    const char *text = getenv("DMLCONF_D3D12_BUFFER_LIMIT");
    if (!text || !*text)
        return 0;
    char *end = NULL;
    errno = 0;
    unsigned long long value = *text == '-' ? 0 : strtoull(text, &end, 10);
    if (errno || !end || *end || value < 1)
    {
        snprintf(why, why_size, "DMLCONF_D3D12_BUFFER_LIMIT=%s is not a number of bytes of at least 1", text);
        return -1;
    }
    d->buffer_limit = value;
    return 0;
}

int d3d12_device_open(d3d12_device *d, const char *which, char *why, size_t why_size)
{
    memset(d, 0, sizeof(*d));
    if (read_buffer_limit(d, why, why_size))
        return -1;
    if (load_runtime(d, why, why_size))
        goto fail;
#if !defined(_WIN32)
    if ((!which || !*which) && getenv("VKD3D_VULKAN_DEVICE"))
        which = getenv("VKD3D_VULKAN_DEVICE");
#endif
#if !defined(_WIN32) && !defined(DMLCONF_D3D12_SYSV_ABI)
    bool opened = (!which || !*which) && !open_first_adapter(d);
#else
    bool opened = false;
#endif
    if (!opened && open_listed_adapter(d, which, why, why_size))
        goto fail;
    describe_runtime(d);

    D3D12_FEATURE_DATA_SHADER_MODEL model = {D3D_SHADER_MODEL_5_1};
    if (SUCCEEDED(ID3D12Device_CheckFeatureSupport(d->device, D3D12_FEATURE_SHADER_MODEL, &model, sizeof(model))))
        d->shader_model = (unsigned)model.HighestShaderModel;
    uint64_t texels = d->adapter.max_texel_buffer_elements ? d->adapter.max_texel_buffer_elements : (1u << 27);
    d->view_bytes = texels * 4;

    if (create_queue_and_list(d, why, why_size))
        goto fail;
    return 0;

fail:
    d3d12_device_close(d);
    return -1;
}

int d3d12_device_create_pipeline(d3d12_device *d, ID3D12RootSignature *root_signature, const void *blob, size_t size,
                                 ID3D12PipelineState **out, char *why, size_t why_size)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.pRootSignature = root_signature;
    desc.CS.pShaderBytecode = blob;
    desc.CS.BytecodeLength = size;
    HRESULT hr = ID3D12Device_CreateComputePipelineState(d->device, &desc, &IID_ID3D12PipelineState, (void **)out);
    if (FAILED(hr))
    {
        char text[64];
        snprintf(why, why_size, "CreateComputePipelineState failed: %s", d3d12_hresult_text(hr, text, sizeof(text)));
        return -1;
    }
    return 0;
}

int d3d12_device_begin(d3d12_device *d, char *why, size_t why_size)
{
    char text[64];
    HRESULT hr = ID3D12CommandAllocator_Reset(d->allocator);
    if (SUCCEEDED(hr))
        hr = ID3D12GraphicsCommandList_Reset(d->list, d->allocator, NULL);
    if (FAILED(hr))
    {
        snprintf(why, why_size, "resetting the command list failed: %s", d3d12_hresult_text(hr, text, sizeof(text)));
        return -1;
    }
    d->recording = true;
    return 0;
}

/* Executes the closed list and waits for the device. */
static int execute_and_wait(d3d12_device *d, char *why, size_t why_size)
{
    char text[64];
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)d->list};
    ID3D12CommandQueue_ExecuteCommandLists(d->queue, 1, lists);
    uint64_t value = ++d->fence_value;
    HRESULT hr = ID3D12CommandQueue_Signal(d->queue, d->fence, value);
    if (SUCCEEDED(hr) && ID3D12Fence_GetCompletedValue(d->fence) < value)
    {
        hr = ID3D12Fence_SetEventOnCompletion(d->fence, value, d->event);
        if (SUCCEEDED(hr))
            d->wait_event(d->event, 0xffffffffu);
    }
    HRESULT removed = ID3D12Device_GetDeviceRemovedReason(d->device);
    if (FAILED(hr) || FAILED(removed))
    {
        snprintf(why, why_size, "the device was lost: %s",
                 d3d12_hresult_text(FAILED(removed) ? removed : hr, text, sizeof(text)));
        return -1;
    }
    return 0;
}

int d3d12_device_submit(d3d12_device *d, char *why, size_t why_size)
{
    char text[64];
    d->recording = false;
    HRESULT hr = ID3D12GraphicsCommandList_Close(d->list);
    if (FAILED(hr))
    {
        snprintf(why, why_size, "closing the command list failed: %s", d3d12_hresult_text(hr, text, sizeof(text)));
        return -1;
    }
    return execute_and_wait(d, why, why_size);
}

int d3d12_device_execute_again(d3d12_device *d, char *why, size_t why_size)
{
    if (d->recording)
    {
        snprintf(why, why_size, "no closed command list to execute again (one is being recorded)");
        return -1;
    }
    return execute_and_wait(d, why, why_size);
}

int d3d12_buffer_create(d3d12_device *d, D3D12_HEAP_TYPE type, uint64_t bytes, d3d12_buffer *out, char *why,
                        size_t why_size)
{
    memset(out, 0, sizeof(*out));
    D3D12_HEAP_PROPERTIES heap = {type, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 0, 0};
    D3D12_RESOURCE_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    desc.Width = bytes ? bytes : 4;
    desc.Height = 1;
    desc.DepthOrArraySize = 1;
    desc.MipLevels = 1;
    desc.Format = DXGI_FORMAT_UNKNOWN;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    D3D12_RESOURCE_STATES state = D3D12_RESOURCE_STATE_COPY_DEST;
    if (type == D3D12_HEAP_TYPE_DEFAULT)
        desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    else if (type == D3D12_HEAP_TYPE_UPLOAD)
        state = D3D12_RESOURCE_STATE_GENERIC_READ;
    HRESULT hr = d->buffer_limit && desc.Width > d->buffer_limit
                     ? E_OUTOFMEMORY
                     : ID3D12Device_CreateCommittedResource(d->device, &heap, D3D12_HEAP_FLAG_NONE, &desc, state, NULL,
                                                            &IID_ID3D12Resource, (void **)&out->resource);
    char text[64];
    if (FAILED(hr))
    {
        d->out_of_memory = hr == E_OUTOFMEMORY;
        snprintf(why, why_size, "creating a buffer of %llu bytes failed: %s", (unsigned long long)bytes,
                 d3d12_hresult_text(hr, text, sizeof(text)));
        return -1;
    }
    out->bytes = desc.Width;
    out->address = ID3D12Resource_GetGPUVirtualAddress(out->resource);
    if (type != D3D12_HEAP_TYPE_DEFAULT)
    {
        D3D12_RANGE nothing = {0, 0};
        hr = ID3D12Resource_Map(out->resource, 0, type == D3D12_HEAP_TYPE_UPLOAD ? &nothing : NULL, &out->mapped);
        if (FAILED(hr))
        {
            snprintf(why, why_size, "mapping a buffer of %llu bytes failed: %s", (unsigned long long)bytes,
                     d3d12_hresult_text(hr, text, sizeof(text)));
            d3d12_buffer_release(out);
            return -1;
        }
    }
    return 0;
}

void d3d12_buffer_release(d3d12_buffer *buffer)
{
    RELEASE(buffer->resource);
    memset(buffer, 0, sizeof(*buffer));
}

void d3d12_transition(d3d12_device *d, ID3D12Resource *resource, D3D12_RESOURCE_STATES before,
                      D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER barrier;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = resource;
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = before;
    barrier.Transition.StateAfter = after;
    ID3D12GraphicsCommandList_ResourceBarrier(d->list, 1, &barrier);
}

void d3d12_uav_barrier(d3d12_device *d)
{
    D3D12_RESOURCE_BARRIER barrier;
    memset(&barrier, 0, sizeof(barrier));
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    barrier.UAV.pResource = NULL;
    ID3D12GraphicsCommandList_ResourceBarrier(d->list, 1, &barrier);
}
