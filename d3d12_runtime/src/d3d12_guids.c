/*
 * The interface identifiers of D3D12 and DXGI, defined once (Windows: the
 * mingw-w64 headers only declare them; on Linux DirectX-Guids defines
 * them).
 */
#define INITGUID
#include "d3d12_com.h"

#include <dxgi1_4.h>
