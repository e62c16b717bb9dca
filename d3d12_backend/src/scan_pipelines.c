/*
 * The scan kernels' root signature and pipelines, built on first use or
 * ahead of it.
 *
 * Each variant's slot goes ABSENT -> BUILDING -> READY under the lock; the
 * thread that moves it to BUILDING builds it with the lock released, so
 * that several pipelines compile at once (ID3D12Device is free-threaded).
 * A caller that needs a variant a background thread is building waits for
 * that build instead of starting a second one. The background threads take
 * the variants a batch said it wants first, then those in reach, and then
 * wait for more until release.
 */
#include "scan_pipelines.h"

#include "scan_params.h"

#include <dmlconf/clock.h>
#include <dmlconf/reserve.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int scan_pipelines_create(scan_pipelines *p, d3d12_device *d, char *why, size_t why_size)
{
    memset(p, 0, sizeof(*p));
    p->device = d;
    if (dmlconf_mutex_init(&p->lock))
    {
        snprintf(why, why_size, "out of memory for a lock");
        return -1;
    }
    if (dmlconf_condition_init(&p->built))
    {
        dmlconf_mutex_destroy(&p->lock);
        snprintf(why, why_size, "out of memory for a condition variable");
        return -1;
    }
    if (dmlconf_condition_init(&p->work))
    {
        dmlconf_condition_destroy(&p->built);
        dmlconf_mutex_destroy(&p->lock);
        snprintf(why, why_size, "out of memory for a condition variable");
        return -1;
    }
    D3D12_ROOT_PARAMETER parameters[SCAN_ROOT_PARAMETER_UAV0 + SCAN_UAV_COUNT];
    memset(parameters, 0, sizeof(parameters));
    D3D12_ROOT_PARAMETER *constants = &parameters[SCAN_ROOT_PARAMETER_CONSTANTS];
    constants->ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    constants->Constants.ShaderRegister = SCAN_CB_ROOT;
    constants->Constants.Num32BitValues = SCAN_ROOT_CONSTANTS;
    constants->ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    for (unsigned u = 0; u < SCAN_UAV_COUNT; ++u)
    {
        D3D12_ROOT_PARAMETER *uav = &parameters[SCAN_ROOT_PARAMETER_UAV0 + u];
        uav->ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
        uav->Descriptor.ShaderRegister = u;
        uav->ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    }
    D3D12_ROOT_SIGNATURE_DESC desc = {SCAN_ROOT_PARAMETER_UAV0 + SCAN_UAV_COUNT, parameters, 0, NULL,
                                      D3D12_ROOT_SIGNATURE_FLAG_NONE};
    if (d3d12_device_create_root_signature(d, &desc, &p->root_signature, why, why_size))
    {
        dmlconf_condition_destroy(&p->work);
        dmlconf_condition_destroy(&p->built);
        dmlconf_mutex_destroy(&p->lock);
        memset(p, 0, sizeof(*p));
        return -1;
    }
    return 0;
}

/* Generates and builds one variant, with the lock released (`ahead`: on a
 * background thread, for the trace). Returns the pipeline, or NULL with
 * `why`. */
static ID3D12PipelineState *build(scan_pipelines *p, const kernel_key *key, bool ahead, char *why, size_t why_size)
{
    void *blob;
    size_t size;
    if (kernel_generate(key, &blob, &size, why, why_size))
        return NULL;
    char name[64], reason[200];
    kernel_key_name(key, name, sizeof(name));
    ID3D12PipelineState *pipeline = NULL;
    double start = dmlconf_clock_seconds();
    if (d3d12_device_create_pipeline(p->device, p->root_signature, blob, size, &pipeline, reason, sizeof(reason)))
        snprintf(why, why_size, "kernel %s: %s", name, reason);
    if (p->trace)
        fprintf(stderr, "d3d12: kernel %s (%zu bytes of DXBC) built %s in %.1f ms%s\n", name, size,
                ahead ? "ahead" : "on use", (dmlconf_clock_seconds() - start) * 1e3, pipeline ? "" : ", failed");
    free(blob);
    return pipeline;
}

/* Ends a build begun by moving the slot to BUILDING (the lock is held). */
static void finish_build(scan_pipelines *p, size_t index, ID3D12PipelineState *pipeline)
{
    p->pipelines[index] = pipeline;
    p->state[index] = pipeline ? PIPELINE_READY : PIPELINE_ABSENT;
    dmlconf_condition_broadcast(&p->built);
}

/* The next key for a background thread, wanted ones first (the lock is
 * held). Returns false when none is left. */
static bool next_to_build(scan_pipelines *p, kernel_key *key)
{
    if (p->wanted_next < p->wanted_count)
        *key = p->wanted[p->wanted_next++];
    else if (p->ahead_next < p->ahead_count)
        *key = p->ahead[p->ahead_next++];
    else
        return false;
    return true;
}

static int build_ahead_thread(void *argument)
{
    scan_pipelines *p = argument;
    dmlconf_mutex_lock(&p->lock);
    kernel_key key;
    while (!p->stopping)
    {
        if (!next_to_build(p, &key))
        {
            dmlconf_condition_wait(&p->work, &p->lock);
            continue;
        }
        size_t index = kernel_key_index(&key);
        if (p->state[index] != PIPELINE_ABSENT)
            continue;
        p->state[index] = PIPELINE_BUILDING;
        dmlconf_mutex_unlock(&p->lock);
        char why[256];
        ID3D12PipelineState *pipeline = build(p, &key, true, why, sizeof(why));
        dmlconf_mutex_lock(&p->lock);
        finish_build(p, index, pipeline);
        if (pipeline)
            p->built_ahead++;
    }
    dmlconf_mutex_unlock(&p->lock);
    return 0;
}

unsigned scan_pipelines_build_ahead(scan_pipelines *p, const kernel_key *keys, size_t count, unsigned threads)
{
    if (!p->root_signature)
        return 0;
    if (threads > SCAN_PIPELINES_MAX_THREADS)
        threads = SCAN_PIPELINES_MAX_THREADS;
    if (!threads)
        return p->thread_count;
    dmlconf_mutex_lock(&p->lock);
    if (dmlconf_reserve((void **)&p->ahead, &p->ahead_capacity, p->ahead_count + count, sizeof(*p->ahead)))
    {
        memcpy(p->ahead + p->ahead_count, keys, count * sizeof(*keys));
        p->ahead_count += count;
    }
    dmlconf_condition_broadcast(&p->work);
    dmlconf_mutex_unlock(&p->lock);
    while (p->thread_count < threads && !dmlconf_thread_start(&p->threads[p->thread_count], build_ahead_thread, p))
        p->thread_count++;
    return p->thread_count;
}

void scan_pipelines_want(scan_pipelines *p, const kernel_key *keys, size_t count)
{
    if (!p->root_signature)
        return;
    dmlconf_mutex_lock(&p->lock);
    /* The keys taken already are dropped; each variant is listed once. */
    memmove(p->wanted, p->wanted + p->wanted_next, (p->wanted_count - p->wanted_next) * sizeof(*p->wanted));
    p->wanted_count -= p->wanted_next;
    p->wanted_next = 0;
    for (size_t k = 0; k < count; ++k)
    {
        size_t index = kernel_key_index(&keys[k]);
        if (p->state[index] != PIPELINE_ABSENT)
            continue;
        bool listed = false;
        for (size_t w = 0; w < p->wanted_count && !listed; ++w)
            listed = kernel_key_index(&p->wanted[w]) == index;
        if (!listed && p->wanted_count < SCAN_PIPELINES_MAX_WANTED)
            p->wanted[p->wanted_count++] = keys[k];
    }
    dmlconf_condition_broadcast(&p->work);
    dmlconf_mutex_unlock(&p->lock);
}

void scan_pipelines_release(scan_pipelines *p)
{
    if (p->thread_count)
    {
        dmlconf_mutex_lock(&p->lock);
        p->stopping = true;
        dmlconf_condition_broadcast(&p->work);
        dmlconf_mutex_unlock(&p->lock);
        for (unsigned t = 0; t < p->thread_count; ++t)
            dmlconf_thread_join(&p->threads[t]);
    }
    free(p->ahead);
    for (size_t i = 0; i < KERNEL_VARIANT_COUNT; ++i)
    {
        if (p->pipelines[i])
            ID3D12PipelineState_Release(p->pipelines[i]);
    }
    if (p->root_signature)
    {
        ID3D12RootSignature_Release(p->root_signature);
        dmlconf_condition_destroy(&p->work);
        dmlconf_condition_destroy(&p->built);
        dmlconf_mutex_destroy(&p->lock);
    }
    memset(p, 0, sizeof(*p));
}

ID3D12PipelineState *scan_pipelines_get(scan_pipelines *p, const kernel_key *key, char *why, size_t why_size)
{
    size_t index = kernel_key_index(key);
    dmlconf_mutex_lock(&p->lock);
    while (p->state[index] == PIPELINE_BUILDING)
        dmlconf_condition_wait(&p->built, &p->lock);
    if (p->state[index] == PIPELINE_READY)
    {
        ID3D12PipelineState *ready = p->pipelines[index];
        dmlconf_mutex_unlock(&p->lock);
        return ready;
    }
    p->state[index] = PIPELINE_BUILDING;
    dmlconf_mutex_unlock(&p->lock);
    ID3D12PipelineState *pipeline = build(p, key, false, why, why_size);
    dmlconf_mutex_lock(&p->lock);
    finish_build(p, index, pipeline);
    dmlconf_mutex_unlock(&p->lock);
    return pipeline;
}

void scan_pipelines_bind(const scan_pipelines *p, d3d12_device *d)
{
    ID3D12GraphicsCommandList_SetComputeRootSignature(d->list, p->root_signature);
}
