/*
 * A device buffer that root UAVs can reach in full even when it is larger
 * than one buffer view.
 *
 * vkd3d turns a root UAV into a 32-bit texel-buffer view from the bound
 * address to the end of its resource, and one view reaches at most
 * maxTexelBufferElements words. A buffer no larger than that is one
 * committed resource. A larger one is a heap with one resource placed over
 * all of it (for copies) and overlapping "window" resources placed every
 * eighth of a view (every half view for views under 512 KiB), each one view
 * long: any byte range of at most seven eighths of a view (one half) lies
 * inside one window, and the planner cuts passes so that each binding's
 * range is that short (view_buffer_max_range). The longer the ranges, the
 * fewer pieces a large scan is cut into, each with its own passes.
 */
#ifndef DMLCONF_VIEW_BUFFER_H
#define DMLCONF_VIEW_BUFFER_H

#include "d3d12_device.h"

typedef struct view_buffer
{
    uint64_t bytes;
    ID3D12Heap *heap;   /* NULL for a single committed resource */
    d3d12_buffer whole; /* the whole buffer, for copies */
    d3d12_buffer *windows;
    size_t window_count; /* 0: `whole` is the only view */
    uint64_t stride;     /* distance between window starts */
} view_buffer;

/* Creates a DEFAULT-heap buffer of `bytes` (starting in COPY_DEST; windows
 * start in and stay in UNORDERED_ACCESS) whose views are `view_bytes` long.
 * Returns 0, or -1 with `why`. */
int view_buffer_create(d3d12_device *d, uint64_t bytes, uint64_t view_bytes, view_buffer *out, char *why,
                       size_t why_size);

/* The longest byte range that always lies inside one window of buffers
 * whose views are `view_bytes` long (0 when such a view cannot be
 * windowed). */
uint64_t view_buffer_max_range(uint64_t view_bytes);

/* Releases the buffer's resources (safe on a zeroed one). */
void view_buffer_release(view_buffer *buffer);

/* Finds the view holding bytes [lo, hi): its GPU address and the byte
 * offset where it starts. Returns 0, or -1 when no view holds the range. */
int view_buffer_find(const view_buffer *buffer, uint64_t lo, uint64_t hi, D3D12_GPU_VIRTUAL_ADDRESS *address,
                     uint64_t *start);

#endif /* DMLCONF_VIEW_BUFFER_H */
