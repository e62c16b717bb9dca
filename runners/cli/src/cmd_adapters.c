/*
 * `dmlconf adapters`: the backends compiled in (or the one named) and the
 * adapters each sees.
 */
#include "cli.h"

#include <dmlconf/plugin_backend.h>
#include <dmlconf/text.h>

#include <getopt.h>
#include <stdio.h>

static const char adapters_usage[] =
    "usage: dmlconf adapters [--backend NAME|plugin:PATH]\n"
    "\n"
    "Lists every backend compiled into this dmlconf, whether it opens here, and its\n"
    "adapters: name, driver, runtime, software or hardware, feature level. A backend\n"
    "with several adapters lists each (pick one with `dmlconf run --adapter INDEX` or a\n"
    "name fragment) and then describes the one it opens by default.\n"
    "\n"
    "  -b, --backend NAME   only this backend; plugin:PATH loads a native plugin and\n"
    "                       also lists what it declares it can run\n"
    "  -h, --help           this help\n"
    "\n"
    "exit status: 0, or 3 on a setup error (an unknown backend, a plugin that cannot be\n"
    "loaded or that crashes while it opens or describes itself).\n";

/* Prints what a backend declares it can run. */
static void print_capabilities(const dmlconf_backend_capabilities *can)
{
    static const char *const features[] = {"summation", "product", "increasing", "decreasing", "inclusive",
                                           "exclusive", "strides", "broadcast",  "in-place",   "validation"};
    printf("  can:");
    for (unsigned bit = 0; bit < sizeof(features) / sizeof(features[0]); ++bit)
    {
        if (can->features & (1u << bit))
            printf(" %s", features[bit]);
    }
    printf("\n  data types:");
    for (unsigned type = 0; type < 32; ++type)
    {
        if (can->data_types & DMLCONF_TYPE_BIT(type))
            printf(" %s", dmlconf_data_type_name((dmlconf_data_type)type));
    }
    printf("\n  ranks: %u to %u\n", (unsigned)can->min_rank, (unsigned)can->max_rank);
}

/* Prints one backend, its adapters, and the one it opens by default. */
static void describe_backend(const dmlconf_backend_ops *ops, const char *const *arguments, bool capabilities)
{
    dmlconf_backend *backend;
    char why[512];
    dmlconf_backend_config config = {0};
    config.arguments = arguments;
    printf("%s: %s\n", ops->name, ops->description);
    if (ops->list_adapters)
    {
        dmlconf_adapter_info adapters[16];
        int listed = ops->list_adapters(adapters, 16, why, sizeof(why));
        if (listed < 0)
        {
            why[sizeof(why) - 1] = '\0';
            printf("  unavailable: %s\n", why);
            return;
        }
        for (int a = 0; a < listed && a < 16; ++a)
        {
            /* A plugin's strings end at their buffers, whatever it wrote,
             * and act on no console. */
            adapters[a].name[sizeof(adapters[a].name) - 1] = '\0';
            adapters[a].details[sizeof(adapters[a].details) - 1] = '\0';
            dmlconf_text_make_printable(adapters[a].name, false);
            dmlconf_text_make_printable(adapters[a].details, false);
            printf("  adapter %d: %s (%s)\n    %s\n", a, adapters[a].name,
                   adapters[a].software ? "software" : "hardware", adapters[a].details);
        }
        if (listed == 1)
            printf("  (only one adapter is reachable)\n");
    }
    if (ops->open(&config, &backend, why, sizeof(why)))
    {
        why[sizeof(why) - 1] = '\0';
        printf("  unavailable: %s\n", why);
        return;
    }
    dmlconf_backend_info info;
    backend->ops->info(backend, &info);
    printf("  %s: %s (%s)\n  driver: %s\n  runtime: %s\n  feature level: %s\n",
           ops->list_adapters ? "opens by default" : "adapter 0", info.adapter, info.software ? "software" : "hardware",
           info.driver, info.runtime,
           info.feature_level == DMLCONF_FEATURE_LEVEL_NONE ? "none claimed"
                                                            : dmlconf_feature_level_name(info.feature_level));
    if (capabilities)
        print_capabilities(&info.capabilities);
    backend->ops->close(backend);
}

/* A backend to open, with its config's arguments. */
typedef struct backend_call
{
    const dmlconf_backend_ops *ops;
    const char *const *arguments;
} backend_call;

/* Opens the backend, asks what it is and closes it, printing nothing: the
 * calls describe_backend makes, for a copy of this process to try. */
static int open_and_describe(void *context)
{
    const backend_call *call = context;
    dmlconf_backend_config config = {0};
    dmlconf_backend *backend = NULL;
    dmlconf_backend_info info;
    char why[512];
    config.arguments = call->arguments;
    if (call->ops->open(&config, &backend, why, sizeof(why)))
        return 1;
    backend->ops->info(backend, &info);
    backend->ops->close(backend);
    return 0;
}

int command_adapters(int argc, char **argv)
{
    static const struct option options[] = {
        {"backend", required_argument, NULL, 'b'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *backend_name = NULL;
    int option;
    optind = 1;
    while ((option = getopt_long(argc, argv, "b:h", options, NULL)) != -1)
    {
        if (option == 'b')
            backend_name = optarg;
        else if (option == 'h')
        {
            fputs(adapters_usage, stdout);
            return EXIT_PASSED;
        }
        else
        {
            fputs(adapters_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind < argc)
    {
        fprintf(stderr, "dmlconf adapters: unexpected argument '%s'\n", argv[optind]);
        return EXIT_USAGE;
    }
    if (backend_name)
    {
        runner_backend_choice choice;
        char why[1024];
        if (runner_backend_choose(backend_name, &choice, why, sizeof(why)))
        {
            fprintf(stderr, "dmlconf adapters: %s\n", why);
            return EXIT_SETUP;
        }
        if (choice.plugin)
        {
            /* A plugin opens and describes itself in a copy of this
             * process first: one that crashes there costs the copy. */
            backend_call call = {choice.ops, choice.arguments};
            if (dmlconf_plugin_try(open_and_describe, &call, choice.arguments[0], "its open or info", why,
                                   sizeof(why)))
            {
                fprintf(stderr, "dmlconf adapters: %s\n", why);
                runner_backend_choice_release(&choice);
                return EXIT_SETUP;
            }
        }
        describe_backend(choice.ops, choice.arguments, true);
        runner_backend_choice_release(&choice);
        return EXIT_PASSED;
    }
    size_t count;
    const dmlconf_backend_ops *const *backends = dmlconf_backends(&count);
    for (size_t i = 0; i < count; ++i)
        describe_backend(backends[i], NULL, false);
    return EXIT_PASSED;
}
