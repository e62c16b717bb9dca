/*
 * A D3D12 device for a backend: the runtime loaded at run time, the adapter,
 * one queue with one command list, a fence; buffers, barriers and
 * submission. Shared by the d3d12 backend (dmlconf's own kernels), the
 * directml backend (DirectML's operators on the same device) and
 * d3d12_backend/bench/d3d12_bench.c.
 */
#ifndef DMLCONF_D3D12_DEVICE_H
#define DMLCONF_D3D12_DEVICE_H

#include "d3d12_com.h"
#include "gpu_adapters.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef HRESULT(WINAPI *d3d12_create_device_fn)(IUnknown *, D3D_FEATURE_LEVEL, REFIID, void **);
typedef HRESULT(WINAPI *d3d12_serialize_root_signature_fn)(const D3D12_ROOT_SIGNATURE_DESC *,
                                                           D3D_ROOT_SIGNATURE_VERSION, ID3DBlob **, ID3DBlob **);
/* vkd3d's own helpers use the platform's native convention. */
typedef HANDLE (*vkd3d_create_event_fn)(void);
typedef unsigned int (*vkd3d_wait_event_fn)(HANDLE, unsigned int);
typedef void (*vkd3d_destroy_event_fn)(HANDLE);
typedef void *(*vkd3d_get_physical_device_fn)(ID3D12Device *);
typedef const char *(*vkd3d_shader_get_version_fn)(unsigned int *, unsigned int *);

typedef struct d3d12_device
{
    /* The runtime. */
    void *runtime_library; /* libvkd3d-utils.so.1; d3d12.dll on Windows */
    void *vkd3d_library;   /* libvkd3d.so.1, when present */
    void *shader_library;  /* libvkd3d-shader.so.1, when present */
    void *dxgi_library;    /* dxgi.dll on Windows */
    d3d12_create_device_fn create_device;
    d3d12_serialize_root_signature_fn serialize_root_signature;
    vkd3d_create_event_fn create_event;
    vkd3d_wait_event_fn wait_event;
    vkd3d_destroy_event_fn destroy_event;
    char runtime[320]; /* e.g. "vkd3d 1.2 (libvkd3d-utils.so.1) on Vulkan 1.3.230" */

    /* The adapter (a Vulkan physical device) and how many exist. */
    gpu_adapter adapter;
    size_t adapter_count;
    /* The adapters were listed from the device's own Vulkan instance (no
     * adapter asked for, and the first one was the one to pick), not from
     * an instance created only to list them. */
    bool listed_by_device;

    ID3D12Device *device;
    ID3D12CommandQueue *queue;
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    bool recording;
    ID3D12Fence *fence;
    uint64_t fence_value;
    HANDLE event;
    uint64_t timestamp_frequency; /* ticks per second; 0 when unknown */
    /* The last buffer that could not be created failed for lack of memory
     * (E_OUTOFMEMORY): the device's resources, not the implementation's
     * doing. Cleared by whoever asks. */
    bool out_of_memory;
    /* A test knob's stand-in for a smaller device: a buffer larger than this
     * fails as E_OUTOFMEMORY would (0: none). */
    uint64_t buffer_limit;
    unsigned shader_model;        /* e.g. 0x51 */

    /* The widest byte range one root UAV may reach (one texel-buffer view). */
    uint64_t view_bytes;
} d3d12_device;

/* Opens the runtime and creates a device on the adapter `which` (an index,
 * a name fragment, or NULL for the default). Returns 0, or -1 with a
 * sentence in `why` (no runtime, no adapter, no such adapter, device
 * creation failed); `d` is then released. On Linux, vkd3d takes its device
 * index from the environment variable VKD3D_VULKAN_DEVICE, which is set for
 * the duration of the call and restored afterwards (so opening is not
 * thread-safe against other code that reads the environment); with no
 * adapter asked for, the device is created on vkd3d's first physical device
 * and the adapters are listed from vkd3d's Vulkan instance, unless another
 * one is to be picked (then it is released and the usual path taken). On
 * Windows the device is created on the DXGI adapter. The test knob
 * DMLCONF_D3D12_BUFFER_LIMIT (bytes) sets `buffer_limit`; a value that is
 * not a number fails the open. */
int d3d12_device_open(d3d12_device *d, const char *which, char *why, size_t why_size);

/* Releases everything the device holds (safe on a partly opened one). */
void d3d12_device_close(d3d12_device *d);

/* Serializes a root signature (version 1.0) and creates it. The caller
 * releases it. Returns 0, or -1 with `why`. */
int d3d12_device_create_root_signature(d3d12_device *d, const D3D12_ROOT_SIGNATURE_DESC *desc,
                                       ID3D12RootSignature **out, char *why, size_t why_size);

/* Creates a compute pipeline from a DXBC blob with `root_signature`. The
 * caller releases it. Returns 0, or -1 with `why`. */
int d3d12_device_create_pipeline(d3d12_device *d, ID3D12RootSignature *root_signature, const void *blob, size_t size,
                                 ID3D12PipelineState **out, char *why, size_t why_size);

/* Starts recording (resets the allocator and the list; nothing is bound).
 * Returns 0 or -1. */
int d3d12_device_begin(d3d12_device *d, char *why, size_t why_size);

/* Closes the list, executes it and waits for the device. Returns 0, or -1
 * with `why` when the list fails to close or the device is removed. */
int d3d12_device_submit(d3d12_device *d, char *why, size_t why_size);

/* Executes the list that d3d12_device_submit last closed once more, as it
 * was recorded (a closed list may run any number of times), and waits for
 * the device. Returns 0, or -1 with `why` when no closed list is there or
 * the device is removed. */
int d3d12_device_execute_again(d3d12_device *d, char *why, size_t why_size);

/* A buffer resource. */
typedef struct d3d12_buffer
{
    ID3D12Resource *resource;
    uint64_t bytes;
    D3D12_GPU_VIRTUAL_ADDRESS address;
    void *mapped; /* upload and readback buffers stay mapped */
} d3d12_buffer;

/* Creates a committed buffer of `bytes` in a heap of `type` (DEFAULT buffers
 * allow unordered access and start in COPY_DEST; UPLOAD and READBACK ones
 * are mapped). Returns 0, or -1 with `why` (and d->out_of_memory set when
 * the device had no memory for it). */
int d3d12_buffer_create(d3d12_device *d, D3D12_HEAP_TYPE type, uint64_t bytes, d3d12_buffer *out, char *why,
                        size_t why_size);
/* Releases the buffer's resource and zeroes it (safe on a zeroed one). */
void d3d12_buffer_release(d3d12_buffer *buffer);

/* One transition barrier on a resource. */
void d3d12_transition(d3d12_device *d, ID3D12Resource *resource, D3D12_RESOURCE_STATES before,
                      D3D12_RESOURCE_STATES after);
/* A UAV barrier on every resource. */
void d3d12_uav_barrier(d3d12_device *d);

/* Formats an HRESULT. */
const char *d3d12_hresult_text(HRESULT hr, char *buffer, size_t size);

#endif /* DMLCONF_D3D12_DEVICE_H */
