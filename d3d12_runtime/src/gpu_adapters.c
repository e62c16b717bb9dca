/*
 * Choosing among the adapters (shared by the Vulkan and DXGI enumerations).
 */
#include "gpu_adapters.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool gpu_adapter_is_software(const gpu_adapter *adapter)
{
    return adapter->type == GPU_ADAPTER_CPU;
}

const char *gpu_adapter_type_name(const gpu_adapter *adapter)
{
    switch (adapter->type)
    {
    case 1:
        return "integrated GPU";
    case 2:
        return "discrete GPU";
    case 3:
        return "virtual GPU";
    case 4:
        return "CPU";
    default:
        return "other";
    }
}

/* Case-insensitive substring test. */
static bool contains_folded(const char *text, const char *fragment)
{
    size_t n = strlen(fragment);
    for (const char *p = text; *p; ++p)
    {
        size_t i = 0;
        while (i < n && p[i] && tolower((unsigned char)p[i]) == tolower((unsigned char)fragment[i]))
            ++i;
        if (i == n)
            return true;
    }
    return n == 0;
}

long gpu_pick_adapter(const gpu_adapter *adapters, size_t count, const char *which, char *why, size_t why_size)
{
    if (!which || !*which)
    {
        for (size_t i = 0; i < count; ++i)
        {
            if (adapters[i].type == GPU_ADAPTER_DISCRETE)
                return (long)i;
        }
        for (size_t i = 0; i < count; ++i)
        {
            if (adapters[i].type == GPU_ADAPTER_INTEGRATED)
                return (long)i;
        }
        return 0;
    }
    bool digits = true;
    for (const char *p = which; *p; ++p)
        digits = digits && isdigit((unsigned char)*p);
    if (digits && strlen(which) < 9)
    {
        unsigned long index = strtoul(which, NULL, 10);
        if (index < count)
            return (long)index;
    }
    else
    {
        for (size_t i = 0; i < count; ++i)
        {
            if (contains_folded(adapters[i].name, which))
                return (long)i;
        }
    }
    size_t used = (size_t)snprintf(why, why_size, "no adapter \"%s\"; %s:", which,
                                   count == 1 ? "the only one reachable is" : "the adapters are");
    for (size_t i = 0; i < count && used < why_size; ++i)
        used += (size_t)snprintf(why + used, why_size - used, "%s %zu \"%s\"", i ? "," : "", i, adapters[i].name);
    return -1;
}
