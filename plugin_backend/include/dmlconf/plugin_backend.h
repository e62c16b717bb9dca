/*
 * Native plugins: a shared library (a DLL on Windows) built against
 * dmlconf/backend.h, loaded and checked, and the wrapper dmlconf calls it
 * through (the rules are at the top of plugin_backend.c): "--backend
 * plugin:PATH".
 */
#ifndef DMLCONF_PLUGIN_BACKEND_H
#define DMLCONF_PLUGIN_BACKEND_H

#include <dmlconf/backend.h>

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A plugin library loaded and checked, with its wrapper's table. */
typedef struct dmlconf_plugin dmlconf_plugin;

/* True when a backend name asks for a plugin: it starts with "plugin:". */
bool dmlconf_plugin_named(const char *name);
/* Loads the plugin that `name` ("plugin:PATH") names and checks it: the
 * file exists and loads, exports dmlconf_backend_entry, which returns a
 * description of an ABI version this dmlconf speaks with a complete table.
 * Returns 0 with *out set (free it with dmlconf_plugin_unload once no
 * backend it opened is in use), or -1 with one sentence naming the file in
 * `why`. */
int dmlconf_plugin_load(const char *name, dmlconf_plugin **out, char *why, size_t why_size);
/* Runs call(context), a call into the plugin at `path` (its entry point,
 * its open), first in a forked copy of this process: returns 0 when the
 * copy ended by itself (whatever its status), or -1 with one sentence in
 * `why` naming the plugin and what it was `doing` when the copy crashed or
 * did not return within a minute. Where no copy can be made (Windows) it
 * returns 0 at once: the caller's own call is the only one. */
int dmlconf_plugin_try(int (*call)(void *context), void *context, const char *path, const char *doing, char *why,
                       size_t why_size);
/* The wrapper's table: named "plugin:PATH", with the plugin's description
 * and adapter list; its open needs dmlconf_plugin_arguments in the config.
 * Owned by the plugin. */
const dmlconf_backend_ops *dmlconf_plugin_ops(const dmlconf_plugin *plugin);
/* The backend config's `arguments` for the plugin: {PATH, NULL}. */
const char *const *dmlconf_plugin_arguments(const dmlconf_plugin *plugin);
/* Unloads a plugin (its open backends keep their own reference to the
 * library). NULL is ignored. */
void dmlconf_plugin_unload(dmlconf_plugin *plugin);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_PLUGIN_BACKEND_H */
