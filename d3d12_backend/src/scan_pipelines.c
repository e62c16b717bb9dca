/*
 * The scan kernels' root signature and pipelines.
 */
#include "scan_pipelines.h"

#include "scan_params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int scan_pipelines_create(scan_pipelines *p, d3d12_device *d, char *why, size_t why_size)
{
    memset(p, 0, sizeof(*p));
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
    return d3d12_device_create_root_signature(d, &desc, &p->root_signature, why, why_size);
}

void scan_pipelines_release(scan_pipelines *p)
{
    for (size_t i = 0; i < KERNEL_VARIANT_COUNT; ++i)
    {
        if (p->pipelines[i])
            ID3D12PipelineState_Release(p->pipelines[i]);
    }
    if (p->root_signature)
        ID3D12RootSignature_Release(p->root_signature);
    memset(p, 0, sizeof(*p));
}

ID3D12PipelineState *scan_pipelines_get(scan_pipelines *p, d3d12_device *d, const kernel_key *key, char *why,
                                        size_t why_size)
{
    size_t index = kernel_key_index(key);
    if (p->pipelines[index])
        return p->pipelines[index];
    void *blob;
    size_t size;
    if (kernel_generate(key, &blob, &size, why, why_size))
        return NULL;
    char name[64], reason[200];
    kernel_key_name(key, name, sizeof(name));
    if (d3d12_device_create_pipeline(d, p->root_signature, blob, size, &p->pipelines[index], reason, sizeof(reason)))
        snprintf(why, why_size, "kernel %s: %s", name, reason);
    free(blob);
    return p->pipelines[index];
}

void scan_pipelines_bind(const scan_pipelines *p, d3d12_device *d)
{
    ID3D12GraphicsCommandList_SetComputeRootSignature(d->list, p->root_signature);
}
