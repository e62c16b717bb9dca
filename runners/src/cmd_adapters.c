/*
 * `dmlconf adapters`: the backends compiled in and the adapters each sees.
 */
#include "runner.h"

#include <getopt.h>
#include <stdio.h>

static const char adapters_usage[] =
    "usage: dmlconf adapters\n"
    "\n"
    "Lists every backend compiled into this dmlconf, whether it opens here, and its\n"
    "adapters: name, driver, runtime, software or hardware, feature level. A backend\n"
    "with several adapters lists each (pick one with `dmlconf run --adapter INDEX` or a\n"
    "name fragment) and then describes the one it opens by default.\n";

int command_adapters(int argc, char **argv)
{
    static const struct option options[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int option;
    optind = 1;
    while ((option = getopt_long(argc, argv, "h", options, NULL)) != -1)
    {
        if (option == 'h')
        {
            fputs(adapters_usage, stdout);
            return EXIT_PASSED;
        }
        fputs(adapters_usage, stderr);
        return EXIT_USAGE;
    }
    size_t count;
    const dmlconf_backend_ops *const *backends = dmlconf_backends(&count);
    for (size_t i = 0; i < count; ++i)
    {
        dmlconf_backend *backend;
        char why[256];
        dmlconf_backend_config config = {0};
        printf("%s: %s\n", backends[i]->name, backends[i]->description);
        if (backends[i]->list_adapters)
        {
            dmlconf_adapter_info adapters[16];
            int listed = backends[i]->list_adapters(adapters, 16, why, sizeof(why));
            if (listed < 0)
            {
                printf("  unavailable: %s\n", why);
                continue;
            }
            for (int a = 0; a < listed && a < 16; ++a)
                printf("  adapter %d: %s (%s)\n    %s\n", a, adapters[a].name,
                       adapters[a].software ? "software" : "hardware", adapters[a].details);
            if (listed == 1)
                printf("  (only one adapter is reachable)\n");
        }
        if (backends[i]->open(&config, &backend, why, sizeof(why)))
        {
            printf("  unavailable: %s\n", why);
            continue;
        }
        dmlconf_backend_info info;
        backend->ops->info(backend, &info);
        printf("  %s: %s (%s)\n  driver: %s\n  runtime: %s\n  feature level: %s\n",
               backends[i]->list_adapters ? "opens by default" : "adapter 0", info.adapter,
               info.software ? "software" : "hardware", info.driver, info.runtime,
               dmlconf_feature_level_name(info.feature_level));
        backend->ops->close(backend);
    }
    return EXIT_PASSED;
}
