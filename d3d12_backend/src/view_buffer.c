/*
 * Device buffers reachable through root UAVs in windows of one view.
 */
#include "view_buffer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Buffers are placed at multiples of 64 KiB. */
#define PLACEMENT_ALIGNMENT (UINT64_C(1) << 16)
/* Windows start every 1/WINDOW_PARTS of a view (fewer where the view is
 * too short for that at 64 KiB steps, but at least every half view). */
#define WINDOW_PARTS 8u

/* The view length windows use and the distance between their starts; 0
 * when the view is too short to window. */
static void window_layout(uint64_t view_bytes, uint64_t *view, uint64_t *stride)
{
    uint64_t parts = view_bytes / PLACEMENT_ALIGNMENT;
    parts = parts > WINDOW_PARTS ? WINDOW_PARTS : parts;
    *view = parts >= 2 ? view_bytes / (parts * PLACEMENT_ALIGNMENT) * (parts * PLACEMENT_ALIGNMENT) : 0;
    *stride = *view / (parts >= 2 ? parts : 1);
}

uint64_t view_buffer_max_range(uint64_t view_bytes)
{
    uint64_t view, stride;
    window_layout(view_bytes, &view, &stride);
    return view - stride;
}

static int place(d3d12_device *d, ID3D12Heap *heap, uint64_t offset, uint64_t bytes, D3D12_RESOURCE_STATES state,
                 d3d12_buffer *out, char *why, size_t why_size)
{
    D3D12_RESOURCE_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    desc.Width = bytes;
    desc.Height = 1;
    desc.DepthOrArraySize = 1;
    desc.MipLevels = 1;
    desc.Format = DXGI_FORMAT_UNKNOWN;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    memset(out, 0, sizeof(*out));
    HRESULT hr = ID3D12Device_CreatePlacedResource(d->device, heap, offset, &desc, state, NULL, &IID_ID3D12Resource,
                                                   (void **)&out->resource);
    if (FAILED(hr))
    {
        char text[64];
        snprintf(why, why_size, "placing a buffer of %llu bytes at %llu failed: %s", (unsigned long long)bytes,
                 (unsigned long long)offset, d3d12_hresult_text(hr, text, sizeof(text)));
        return -1;
    }
    out->bytes = bytes;
    out->address = ID3D12Resource_GetGPUVirtualAddress(out->resource);
    return 0;
}

int view_buffer_create(d3d12_device *d, uint64_t bytes, uint64_t view_bytes, view_buffer *out, char *why,
                       size_t why_size)
{
    memset(out, 0, sizeof(*out));
    out->bytes = bytes;
    if (bytes <= view_bytes)
        return d3d12_buffer_create(d, D3D12_HEAP_TYPE_DEFAULT, bytes, &out->whole, why, why_size);

    uint64_t view, stride;
    window_layout(view_bytes, &view, &stride);
    if (!view)
    {
        snprintf(why, why_size, "a buffer view of %llu bytes is too small to window", (unsigned long long)view_bytes);
        return -1;
    }
    uint64_t heap_bytes = (bytes + PLACEMENT_ALIGNMENT - 1) / PLACEMENT_ALIGNMENT * PLACEMENT_ALIGNMENT;
    D3D12_HEAP_DESC heap_desc;
    memset(&heap_desc, 0, sizeof(heap_desc));
    heap_desc.SizeInBytes = heap_bytes;
    heap_desc.Properties.Type = D3D12_HEAP_TYPE_DEFAULT;
    heap_desc.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS;
    HRESULT hr = ID3D12Device_CreateHeap(d->device, &heap_desc, &IID_ID3D12Heap, (void **)&out->heap);
    if (FAILED(hr))
    {
        char text[64];
        snprintf(why, why_size, "creating a heap of %llu bytes failed: %s", (unsigned long long)heap_bytes,
                 d3d12_hresult_text(hr, text, sizeof(text)));
        return -1;
    }
    if (place(d, out->heap, 0, heap_bytes, D3D12_RESOURCE_STATE_COPY_DEST, &out->whole, why, why_size))
        goto fail;
    out->stride = stride;
    out->window_count = (size_t)((heap_bytes + out->stride - 1) / out->stride);
    out->windows = calloc(out->window_count, sizeof(*out->windows));
    if (!out->windows)
    {
        snprintf(why, why_size, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < out->window_count; ++i)
    {
        uint64_t start = (uint64_t)i * out->stride;
        uint64_t size = heap_bytes - start < view ? heap_bytes - start : view;
        if (place(d, out->heap, start, size, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, &out->windows[i], why, why_size))
            goto fail;
    }
    return 0;

fail:
    view_buffer_release(out);
    return -1;
}

void view_buffer_release(view_buffer *buffer)
{
    for (size_t i = 0; i < buffer->window_count && buffer->windows; ++i)
        d3d12_buffer_release(&buffer->windows[i]);
    free(buffer->windows);
    d3d12_buffer_release(&buffer->whole);
    if (buffer->heap)
        ID3D12Heap_Release(buffer->heap);
    memset(buffer, 0, sizeof(*buffer));
}

int view_buffer_find(const view_buffer *buffer, uint64_t lo, uint64_t hi, D3D12_GPU_VIRTUAL_ADDRESS *address,
                     uint64_t *start)
{
    if (!buffer->window_count)
    {
        if (hi > buffer->whole.bytes)
            return -1;
        *address = buffer->whole.address;
        *start = 0;
        return 0;
    }
    size_t i = (size_t)(lo / buffer->stride);
    if (i >= buffer->window_count)
        return -1;
    const d3d12_buffer *window = &buffer->windows[i];
    uint64_t window_start = (uint64_t)i * buffer->stride;
    if (hi > window_start + window->bytes)
        return -1;
    *address = window->address;
    *start = window_start;
    return 0;
}
