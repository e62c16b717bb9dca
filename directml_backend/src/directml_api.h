/*
 * The part of DirectML's API this backend uses, declared in C. DirectML's
 * own header (DirectML.h) is C++ only, so the interfaces are declared here
 * as vtables, slot by slot, with the structs and enums they take. Every
 * value and layout comes from DirectML.h (DirectX-Headers 1.614.1 and
 * later) and is checked below where the compiler can check it.
 *
 * Calling convention: the methods use d3d12_com.h's STDMETHODCALLTYPE (the
 * Windows x64 convention on Windows and under Wine; the native one for
 * WSL's libdirectml.so). GetBindingProperties returns a 24-byte struct by
 * value from a C++ member function: on Windows x64 the hidden result
 * pointer comes second, after `this`, and is returned; on Linux x86-64 (WSL)
 * the C declaration returning the struct by value matches the C++ ABI.
 */
#ifndef DMLCONF_DIRECTML_API_H
#define DMLCONF_DIRECTML_API_H

#include "d3d12_com.h"

#include <stddef.h>
#include <stdint.h>

/* ---- enums (DirectML.h's values) ----------------------------------------- */

typedef int DML_TENSOR_DATA_TYPE; /* DMLCONF_DATA_TYPE_* has the same values */
enum
{
    DML_TENSOR_TYPE_BUFFER = 1,
    DML_TENSOR_FLAG_NONE = 0,
    DML_TENSOR_FLAG_OWNED_BY_DML = 1,
    DML_OPERATOR_ELEMENT_WISE_IDENTITY = 1,
    DML_OPERATOR_CUMULATIVE_SUMMATION = 105,
    DML_OPERATOR_CUMULATIVE_PRODUCT = 145,
    DML_AXIS_DIRECTION_INCREASING = 0,
    DML_AXIS_DIRECTION_DECREASING = 1,
    DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT = 0,
    DML_FEATURE_FEATURE_LEVELS = 1,
    DML_EXECUTION_FLAG_NONE = 0,
    DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION = 0x1,
    DML_EXECUTION_FLAG_DISABLE_META_COMMANDS = 0x2,
    DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE = 0x4,
    DML_CREATE_DEVICE_FLAG_NONE = 0,
    DML_BINDING_TYPE_NONE = 0,
    DML_BINDING_TYPE_BUFFER = 1,
    DML_BINDING_TYPE_BUFFER_ARRAY = 2,
    DML_GRAPH_EDGE_TYPE_INPUT = 1,
    DML_GRAPH_EDGE_TYPE_OUTPUT = 2,
    DML_GRAPH_EDGE_TYPE_INTERMEDIATE = 3,
    DML_GRAPH_NODE_TYPE_OPERATOR = 1,
};

/* Alignment of temporary and persistent resources, and of buffer tensors. */
#define DML_TEMPORARY_BUFFER_ALIGNMENT      256u
#define DML_PERSISTENT_BUFFER_ALIGNMENT     256u
#define DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT 16u

/* ---- structs ------------------------------------------------------------------ */

typedef struct DML_BUFFER_TENSOR_DESC
{
    DML_TENSOR_DATA_TYPE DataType;
    int Flags;
    UINT DimensionCount;
    const UINT *Sizes;
    const UINT *Strides; /* NULL: packed */
    UINT64 TotalTensorSizeInBytes;
    UINT GuaranteedBaseOffsetAlignment;
} DML_BUFFER_TENSOR_DESC;

typedef struct DML_TENSOR_DESC
{
    int Type; /* DML_TENSOR_TYPE_BUFFER */
    const void *Desc;
} DML_TENSOR_DESC;

typedef struct DML_OPERATOR_DESC
{
    int Type; /* DML_OPERATOR_* */
    const void *Desc;
} DML_OPERATOR_DESC;

/* DML_CUMULATIVE_SUMMATION_OPERATOR_DESC and
 * DML_CUMULATIVE_PRODUCT_OPERATOR_DESC have this one layout; only the last
 * field's name differs (HasExclusiveSum, HasExclusiveProduct). */
typedef struct DML_CUMULATIVE_OPERATOR_DESC
{
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
    int AxisDirection;
    BOOL HasExclusive;
} DML_CUMULATIVE_OPERATOR_DESC;

/* DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, with its optional scale and
 * bias (NULL: none, y = x). */
typedef struct DML_SCALE_BIAS
{
    float Scale;
    float Bias;
} DML_SCALE_BIAS;

typedef struct DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC
{
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_SCALE_BIAS *ScaleBias;
} DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC;

typedef struct DML_BINDING_PROPERTIES
{
    UINT RequiredDescriptorCount;
    UINT64 TemporaryResourceSize;
    UINT64 PersistentResourceSize;
} DML_BINDING_PROPERTIES;

typedef struct DML_BUFFER_BINDING
{
    ID3D12Resource *Buffer;
    UINT64 Offset;
    UINT64 SizeInBytes;
} DML_BUFFER_BINDING;

/* An initializer's inputs: one array per operator it initializes, one
 * binding per input of that operator (Buffer NULL for an input that is not
 * owned by DirectML). */
typedef struct DML_BUFFER_ARRAY_BINDING
{
    UINT BindingCount;
    const DML_BUFFER_BINDING *Bindings;
} DML_BUFFER_ARRAY_BINDING;

typedef struct DML_BINDING_DESC
{
    int Type; /* DML_BINDING_TYPE_* */
    const void *Desc;
} DML_BINDING_DESC;

typedef struct IDMLDispatchable IDMLDispatchable;

typedef struct DML_BINDING_TABLE_DESC
{
    IDMLDispatchable *Dispatchable;
    D3D12_CPU_DESCRIPTOR_HANDLE CPUDescriptorHandle;
    D3D12_GPU_DESCRIPTOR_HANDLE GPUDescriptorHandle;
    UINT SizeInDescriptors;
} DML_BINDING_TABLE_DESC;

typedef struct DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT
{
    DML_TENSOR_DATA_TYPE DataType;
} DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT;

typedef struct DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT
{
    BOOL IsSupported;
} DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT;

typedef struct DML_FEATURE_QUERY_FEATURE_LEVELS
{
    UINT RequestedFeatureLevelCount;
    const int *RequestedFeatureLevels;
} DML_FEATURE_QUERY_FEATURE_LEVELS;

typedef struct DML_FEATURE_DATA_FEATURE_LEVELS
{
    int MaxSupportedFeatureLevel;
} DML_FEATURE_DATA_FEATURE_LEVELS;

/* ---- graphs (IDMLDevice1::CompileGraph) ----------------------------------------- */

typedef struct IDMLOperator IDMLOperator;

typedef struct DML_GRAPH_EDGE_DESC
{
    int Type; /* DML_GRAPH_EDGE_TYPE_* */
    const void *Desc;
} DML_GRAPH_EDGE_DESC;

typedef struct DML_INPUT_GRAPH_EDGE_DESC
{
    UINT GraphInputIndex;
    UINT ToNodeIndex;
    UINT ToNodeInputIndex;
    const char *Name;
} DML_INPUT_GRAPH_EDGE_DESC;

typedef struct DML_OUTPUT_GRAPH_EDGE_DESC
{
    UINT FromNodeIndex;
    UINT FromNodeOutputIndex;
    UINT GraphOutputIndex;
    const char *Name;
} DML_OUTPUT_GRAPH_EDGE_DESC;

typedef struct DML_INTERMEDIATE_GRAPH_EDGE_DESC
{
    UINT FromNodeIndex;
    UINT FromNodeOutputIndex;
    UINT ToNodeIndex;
    UINT ToNodeInputIndex;
    const char *Name;
} DML_INTERMEDIATE_GRAPH_EDGE_DESC;

typedef struct DML_GRAPH_NODE_DESC
{
    int Type; /* DML_GRAPH_NODE_TYPE_OPERATOR */
    const void *Desc;
} DML_GRAPH_NODE_DESC;

typedef struct DML_OPERATOR_GRAPH_NODE_DESC
{
    IDMLOperator *Operator;
    const char *Name;
} DML_OPERATOR_GRAPH_NODE_DESC;

typedef struct DML_GRAPH_DESC
{
    UINT InputCount;
    UINT OutputCount;
    UINT NodeCount;
    const DML_GRAPH_NODE_DESC *Nodes;
    UINT InputEdgeCount;
    const DML_GRAPH_EDGE_DESC *InputEdges;
    UINT OutputEdgeCount;
    const DML_GRAPH_EDGE_DESC *OutputEdges;
    UINT IntermediateEdgeCount;
    const DML_GRAPH_EDGE_DESC *IntermediateEdges;
} DML_GRAPH_DESC;

/* The sizes DirectML's x64 ABI has (DirectML.h, checked against the
 * redistributable's behaviour). */
#if defined(__x86_64__) || defined(_M_X64)
_Static_assert(sizeof(DML_BUFFER_TENSOR_DESC) == 48, "DML_BUFFER_TENSOR_DESC is 48 bytes on x64");
_Static_assert(offsetof(DML_BUFFER_TENSOR_DESC, TotalTensorSizeInBytes) == 32, "TotalTensorSizeInBytes at 32");
_Static_assert(sizeof(DML_TENSOR_DESC) == 16, "DML_TENSOR_DESC is 16 bytes on x64");
_Static_assert(sizeof(DML_OPERATOR_DESC) == 16, "DML_OPERATOR_DESC is 16 bytes on x64");
_Static_assert(sizeof(DML_CUMULATIVE_OPERATOR_DESC) == 32, "the cumulative operators' descs are 32 bytes on x64");
_Static_assert(offsetof(DML_CUMULATIVE_OPERATOR_DESC, HasExclusive) == 24, "HasExclusive* at 24");
_Static_assert(sizeof(DML_BINDING_PROPERTIES) == 24, "DML_BINDING_PROPERTIES is 24 bytes on x64");
_Static_assert(sizeof(DML_BUFFER_BINDING) == 24, "DML_BUFFER_BINDING is 24 bytes on x64");
_Static_assert(sizeof(DML_BINDING_DESC) == 16, "DML_BINDING_DESC is 16 bytes on x64");
_Static_assert(sizeof(DML_BINDING_TABLE_DESC) == 32, "DML_BINDING_TABLE_DESC is 32 bytes on x64");
_Static_assert(sizeof(BOOL) == 4, "BOOL is a 4-byte int");
_Static_assert(sizeof(DML_SCALE_BIAS) == 8, "DML_SCALE_BIAS is 8 bytes");
_Static_assert(sizeof(DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC) == 24, "the identity's desc is 24 bytes on x64");
_Static_assert(sizeof(DML_BUFFER_ARRAY_BINDING) == 16, "DML_BUFFER_ARRAY_BINDING is 16 bytes on x64");
_Static_assert(sizeof(DML_GRAPH_EDGE_DESC) == 16, "DML_GRAPH_EDGE_DESC is 16 bytes on x64");
_Static_assert(sizeof(DML_INPUT_GRAPH_EDGE_DESC) == 24, "DML_INPUT_GRAPH_EDGE_DESC is 24 bytes on x64");
_Static_assert(offsetof(DML_INPUT_GRAPH_EDGE_DESC, Name) == 16, "an input edge's Name at 16");
_Static_assert(sizeof(DML_OUTPUT_GRAPH_EDGE_DESC) == 24, "DML_OUTPUT_GRAPH_EDGE_DESC is 24 bytes on x64");
_Static_assert(sizeof(DML_INTERMEDIATE_GRAPH_EDGE_DESC) == 24, "DML_INTERMEDIATE_GRAPH_EDGE_DESC is 24 bytes");
_Static_assert(offsetof(DML_INTERMEDIATE_GRAPH_EDGE_DESC, Name) == 16, "an intermediate edge's Name at 16");
_Static_assert(sizeof(DML_GRAPH_NODE_DESC) == 16, "DML_GRAPH_NODE_DESC is 16 bytes on x64");
_Static_assert(sizeof(DML_OPERATOR_GRAPH_NODE_DESC) == 16, "DML_OPERATOR_GRAPH_NODE_DESC is 16 bytes on x64");
_Static_assert(sizeof(DML_GRAPH_DESC) == 72, "DML_GRAPH_DESC is 72 bytes on x64");
_Static_assert(offsetof(DML_GRAPH_DESC, Nodes) == 16, "DML_GRAPH_DESC's Nodes at 16");
_Static_assert(offsetof(DML_GRAPH_DESC, IntermediateEdges) == 64, "DML_GRAPH_DESC's IntermediateEdges at 64");
#endif

/* ---- interfaces ----------------------------------------------------------------- */

/* IIDs, from DirectML.h's DML_DECLARE_INTERFACE lines. */
static const IID dml_iid_device = {0x6dbd6437, 0x96fd, 0x423f, {0xa9, 0x8c, 0xae, 0x5e, 0x7c, 0x2a, 0x57, 0x3f}};
static const IID dml_iid_device1 = {0xa0884f9a, 0xd2be, 0x4355, {0xaa, 0x5d, 0x59, 0x01, 0x28, 0x1a, 0xd1, 0xd2}};
static const IID dml_iid_operator = {0x26caae7a, 0x3081, 0x4633, {0x95, 0x81, 0x22, 0x6f, 0xbe, 0x57, 0x69, 0x5d}};
static const IID dml_iid_compiled_operator = {
    0x6b15e56a, 0xbf5c, 0x4902, {0x92, 0xd8, 0xda, 0x3a, 0x65, 0x0a, 0xfe, 0xa4}};
static const IID dml_iid_operator_initializer = {
    0x427c1113, 0x435c, 0x469c, {0x86, 0x76, 0x4d, 0x5d, 0xd0, 0x72, 0xf8, 0x13}};
static const IID dml_iid_binding_table = {0x29c687dc, 0xde74, 0x4e3b, {0xab, 0x00, 0x11, 0x68, 0xf2, 0xfc, 0x3c, 0xfc}};
static const IID dml_iid_command_recorder = {
    0xe6857a76, 0x2e3e, 0x4fdd, {0xbf, 0xf4, 0x5d, 0x2b, 0xa1, 0x0f, 0xb4, 0x53}};

#define DML_METHOD(type, name) type(STDMETHODCALLTYPE *name)

/* Slots 0-6: IUnknown and IDMLObject. */
#define DML_OBJECT_SLOTS                                                                                               \
    DML_METHOD(HRESULT, QueryInterface)(void *self, REFIID riid, void **object);                                       \
    DML_METHOD(ULONG, AddRef)(void *self);                                                                             \
    DML_METHOD(ULONG, Release)(void *self);                                                                            \
    DML_METHOD(HRESULT, GetPrivateData)(void *self, REFGUID guid, UINT *size, void *data);                             \
    DML_METHOD(HRESULT, SetPrivateData)(void *self, REFGUID guid, UINT size, const void *data);                        \
    DML_METHOD(HRESULT, SetPrivateDataInterface)(void *self, REFGUID guid, IUnknown *data);                            \
    DML_METHOD(HRESULT, SetName)(void *self, const WCHAR *name)

typedef struct IDMLObjectVtbl
{
    DML_OBJECT_SLOTS;
} IDMLObjectVtbl;

typedef struct IDMLObject
{
    const IDMLObjectVtbl *lpVtbl;
} IDMLObject;

typedef struct IDMLCompiledOperator IDMLCompiledOperator;

/* Slots 7-16: IDMLDevice's own. */
#define DML_DEVICE_SLOTS                                                                                               \
    DML_METHOD(HRESULT, CheckFeatureSupport)                                                                           \
    (void *self, int feature, UINT query_size, const void *query, UINT support_size, void *support);                   \
    DML_METHOD(HRESULT, CreateOperator)(void *self, const DML_OPERATOR_DESC *desc, REFIID riid, void **out);           \
    DML_METHOD(HRESULT, CompileOperator)(void *self, IDMLOperator *op, int flags, REFIID riid, void **out);            \
    DML_METHOD(HRESULT, CreateOperatorInitializer)                                                                     \
    (void *self, UINT count, IDMLCompiledOperator *const *operators, REFIID riid, void **out);                         \
    DML_METHOD(HRESULT, CreateCommandRecorder)(void *self, REFIID riid, void **out);                                   \
    DML_METHOD(HRESULT, CreateBindingTable)(void *self, const DML_BINDING_TABLE_DESC *desc, REFIID riid, void **out);  \
    DML_METHOD(HRESULT, Evict)(void *self, UINT count, void *const *objects);                                          \
    DML_METHOD(HRESULT, MakeResident)(void *self, UINT count, void *const *objects);                                   \
    DML_METHOD(HRESULT, GetDeviceRemovedReason)(void *self);                                                           \
    DML_METHOD(HRESULT, GetParentDevice)(void *self, REFIID riid, void **out)

typedef struct IDMLDeviceVtbl
{
    DML_OBJECT_SLOTS;
    DML_DEVICE_SLOTS;
} IDMLDeviceVtbl;

typedef struct IDMLDevice
{
    const IDMLDeviceVtbl *lpVtbl;
} IDMLDevice;

/* IDMLDevice1 adds slot 17, CompileGraph (DirectML 1.1 and later). */
typedef struct IDMLDevice1Vtbl
{
    DML_OBJECT_SLOTS;
    DML_DEVICE_SLOTS;
    DML_METHOD(HRESULT, CompileGraph)(void *self, const DML_GRAPH_DESC *desc, int flags, REFIID riid, void **out);
} IDMLDevice1Vtbl;

typedef struct IDMLDevice1
{
    const IDMLDevice1Vtbl *lpVtbl;
} IDMLDevice1;

/* IDMLOperator adds nothing to IDMLDeviceChild (slot 7: GetDevice). */
typedef struct IDMLOperatorVtbl
{
    DML_OBJECT_SLOTS;
    DML_METHOD(HRESULT, GetDevice)(void *self, REFIID riid, void **out); /* 7 */
} IDMLOperatorVtbl;

struct IDMLOperator
{
    const IDMLOperatorVtbl *lpVtbl;
};

/* IDMLDispatchable: IDMLDeviceChild + slot 8, GetBindingProperties; the
 * compiled operator adds nothing, the initializer adds slot 9, Reset. */
typedef struct IDMLDispatchableVtbl
{
    DML_OBJECT_SLOTS;
    DML_METHOD(HRESULT, GetDevice)(void *self, REFIID riid, void **out); /* 7 */
#if defined(_WIN32)
    DML_METHOD(DML_BINDING_PROPERTIES *, GetBindingProperties)(void *self, DML_BINDING_PROPERTIES *result); /* 8 */
#else
    DML_METHOD(DML_BINDING_PROPERTIES, GetBindingProperties)(void *self); /* 8 */
#endif
    DML_METHOD(HRESULT, Reset)(void *self, UINT count, IDMLCompiledOperator *const *operators); /* 9: initializer */
} IDMLDispatchableVtbl;

struct IDMLDispatchable
{
    const IDMLDispatchableVtbl *lpVtbl;
};

struct IDMLCompiledOperator
{
    const IDMLDispatchableVtbl *lpVtbl;
};

typedef struct IDMLOperatorInitializer
{
    const IDMLDispatchableVtbl *lpVtbl;
} IDMLOperatorInitializer;

typedef struct IDMLBindingTableVtbl
{
    DML_OBJECT_SLOTS;
    DML_METHOD(HRESULT, GetDevice)(void *self, REFIID riid, void **out);                     /* 7 */
    DML_METHOD(void, BindInputs)(void *self, UINT count, const DML_BINDING_DESC *bindings);  /* 8 */
    DML_METHOD(void, BindOutputs)(void *self, UINT count, const DML_BINDING_DESC *bindings); /* 9 */
    DML_METHOD(void, BindTemporaryResource)(void *self, const DML_BINDING_DESC *binding);    /* 10 */
    DML_METHOD(void, BindPersistentResource)(void *self, const DML_BINDING_DESC *binding);   /* 11 */
    DML_METHOD(HRESULT, Reset)(void *self, const DML_BINDING_TABLE_DESC *desc);              /* 12 */
} IDMLBindingTableVtbl;

typedef struct IDMLBindingTable
{
    const IDMLBindingTableVtbl *lpVtbl;
} IDMLBindingTable;

typedef struct IDMLCommandRecorderVtbl
{
    DML_OBJECT_SLOTS;
    DML_METHOD(HRESULT, GetDevice)(void *self, REFIID riid, void **out); /* 7 */
    DML_METHOD(void, RecordDispatch)
    (void *self, ID3D12CommandList *list, IDMLDispatchable *dispatchable, IDMLBindingTable *bindings); /* 8 */
} IDMLCommandRecorderVtbl;

typedef struct IDMLCommandRecorder
{
    const IDMLCommandRecorderVtbl *lpVtbl;
} IDMLCommandRecorder;

/* The vtable slots are where DirectML.h puts them. */
_Static_assert(offsetof(IDMLDeviceVtbl, CheckFeatureSupport) == 7 * sizeof(void *), "CheckFeatureSupport: slot 7");
_Static_assert(offsetof(IDMLDeviceVtbl, CreateOperator) == 8 * sizeof(void *), "CreateOperator: slot 8");
_Static_assert(offsetof(IDMLDeviceVtbl, CompileOperator) == 9 * sizeof(void *), "CompileOperator: slot 9");
_Static_assert(offsetof(IDMLDeviceVtbl, CreateOperatorInitializer) == 10 * sizeof(void *),
               "CreateOperatorInitializer: slot 10");
_Static_assert(offsetof(IDMLDeviceVtbl, CreateCommandRecorder) == 11 * sizeof(void *), "CreateCommandRecorder: 11");
_Static_assert(offsetof(IDMLDeviceVtbl, CreateBindingTable) == 12 * sizeof(void *), "CreateBindingTable: slot 12");
_Static_assert(offsetof(IDMLDeviceVtbl, GetDeviceRemovedReason) == 15 * sizeof(void *), "GetDeviceRemovedReason: 15");
_Static_assert(offsetof(IDMLDevice1Vtbl, CompileGraph) == 17 * sizeof(void *), "CompileGraph: slot 17");
_Static_assert(offsetof(IDMLDispatchableVtbl, GetBindingProperties) == 8 * sizeof(void *), "GetBindingProperties: 8");
_Static_assert(offsetof(IDMLBindingTableVtbl, BindInputs) == 8 * sizeof(void *), "BindInputs: slot 8");
_Static_assert(offsetof(IDMLBindingTableVtbl, BindPersistentResource) == 11 * sizeof(void *),
               "BindPersistentResource: slot 11");
_Static_assert(offsetof(IDMLCommandRecorderVtbl, RecordDispatch) == 8 * sizeof(void *), "RecordDispatch: slot 8");

/* Calls through a DirectML object's vtable: DML_CALL(object, Method, ...). */
#define DML_CALL(object, method, ...) ((object)->lpVtbl->method((object), __VA_ARGS__))
#define DML_CALL0(object, method)     ((object)->lpVtbl->method((object)))
#define DML_RELEASE(object)                                                                                            \
    do                                                                                                                 \
    {                                                                                                                  \
        if (object)                                                                                                    \
            DML_CALL0((object), Release);                                                                              \
        (object) = NULL;                                                                                               \
    } while (0)

/* GetBindingProperties, whichever way the platform returns it. */
static inline DML_BINDING_PROPERTIES dml_binding_properties(IDMLDispatchable *dispatchable)
{
#if defined(_WIN32)
    DML_BINDING_PROPERTIES result;
    dispatchable->lpVtbl->GetBindingProperties(dispatchable, &result);
    return result;
#else
    return dispatchable->lpVtbl->GetBindingProperties(dispatchable);
#endif
}

/* DMLCreateDevice1's signature. */
typedef HRESULT(WINAPI *dml_create_device1_fn)(ID3D12Device *device, int flags, int minimum_feature_level, REFIID riid,
                                               void **out);

#endif /* DMLCONF_DIRECTML_API_H */
