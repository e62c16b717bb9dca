/*
 * The backends compiled into this dmlconf, best first.
 */
#include "runner.h"

#include <dmlconf/backend.h>

#include <string.h>

#if defined(DMLCONF_HAVE_D3D12)
extern const dmlconf_backend_ops dmlconf_d3d12_backend_ops;
#endif
#if defined(DMLCONF_HAVE_DIRECTML)
#include <dmlconf/directml.h>
#endif
#include <dmlconf/exec_backend.h>

/* The default is the first that opens: dmlconf's own kernels where a D3D12
 * device is, else the oracle. DirectML is run when asked for (--backend
 * directml): it is the implementation under test, not dmlconf's. */
static const dmlconf_backend_ops *const registry[] = {
#if defined(DMLCONF_HAVE_D3D12)
    &dmlconf_d3d12_backend_ops,
#endif
    &dmlconf_oracle_backend_ops,
#if defined(DMLCONF_HAVE_DIRECTML)
    &dmlconf_directml_backend_ops,
#endif
    /* An implementation's adapter program; opens only with its command. */
    &dmlconf_exec_backend_ops,
};

const dmlconf_backend_ops *const *dmlconf_backends(size_t *count)
{
    *count = sizeof(registry) / sizeof(registry[0]);
    return registry;
}

const dmlconf_backend_ops *dmlconf_backend_find(const char *name)
{
    for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); ++i)
    {
        if (!strcmp(registry[i]->name, name))
            return registry[i];
    }
    return NULL;
}
