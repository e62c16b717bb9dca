/*
 * The backends compiled into this dmlconf, best first, and the one a
 * command line names (a backend compiled in, or a native plugin).
 */
#include <dmlconf/runner.h>

#include <dmlconf/backend.h>
#include <dmlconf/exec_backend.h>
#include <dmlconf/oracle_backend.h>
#include <dmlconf/plugin_backend.h>
#if defined(DMLCONF_HAVE_D3D12)
#include <dmlconf/d3d12.h>
#endif
#if defined(DMLCONF_HAVE_DIRECTML)
#include <dmlconf/directml.h>
#endif

#include <stdio.h>
#include <string.h>

/* Every backend compiled in, the default first: dmlconf's own kernels on
 * the D3D12 device. DirectML is run when asked for (--backend directml);
 * the oracle is the self-check, never a default that stands in for a
 * backend that cannot open. */
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

const dmlconf_backend_ops *runner_default_backend(void)
{
#if defined(DMLCONF_HAVE_D3D12)
    return &dmlconf_d3d12_backend_ops;
#else
    return NULL;
#endif
}

bool runner_backend_is_self_check(const dmlconf_backend_ops *ops)
{
    return ops == &dmlconf_oracle_backend_ops;
}

bool runner_backend_opens_one_at_a_time(const dmlconf_backend_ops *ops)
{
#if defined(DMLCONF_HAVE_D3D12)
    return ops == &dmlconf_d3d12_backend_ops;
#else
    (void)ops;
    return false;
#endif
}

int runner_backend_choose(const char *name, runner_backend_choice *choice, char *why, size_t why_size)
{
    memset(choice, 0, sizeof(*choice));
    if (dmlconf_plugin_named(name))
    {
        if (dmlconf_plugin_load(name, &choice->plugin, why, why_size))
            return -1;
        choice->ops = dmlconf_plugin_ops(choice->plugin);
        choice->arguments = dmlconf_plugin_arguments(choice->plugin);
        return 0;
    }
    choice->ops = dmlconf_backend_find(name);
    if (choice->ops)
        return 0;
    size_t used = (size_t)snprintf(why, why_size, "no backend '%s'; this dmlconf has", name);
    for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]) && used < why_size; ++i)
        used += (size_t)snprintf(why + used, why_size - used, " %s,", registry[i]->name);
    if (used < why_size)
        snprintf(why + used, why_size - used, " and plugin:PATH for a native plugin");
    return -1;
}

void runner_backend_choice_release(runner_backend_choice *choice)
{
    dmlconf_plugin_unload(choice->plugin);
    memset(choice, 0, sizeof(*choice));
}
