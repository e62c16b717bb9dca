/*
 * `dmlconf __worker`: a worker process started as a program (on Windows,
 * where a process cannot fork; on POSIX when DMLCONF_WORKERS=spawn). It
 * loads the same case files as the run that started it, opens the backend
 * and serves batches of case numbers over its standard input and output
 * (runner_worker_serve). Not meant to be run by hand.
 *
 *   dmlconf __worker --backend NAME|plugin:PATH [--adapter WHICH] [--level L] [--seed N]
 *                    [--no-rerun] [--no-repro] [--repro-dir DIR]
 *                    [--batch-elements N] [--memory-limit BYTES] [--host-threads N]
 *                    [--backend-argument ARG]... -- [PATH...]
 *
 * Each --backend-argument is one of the backend's own arguments (the
 * exec backend's adapter command), in order.
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include "cli.h"

#include <dmlconf/integer_text.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#else
#include <signal.h>
#endif

int command_worker(int argc, char **argv)
{
    runner_worker spec;
    memset(&spec, 0, sizeof(spec));
    spec.config.rerun_failures = true;
    spec.config.shrink = true;
    spec.config.batch_elements = UINT64_C(1) << 22;
    const char *backend_name = NULL;
    bool understood = true, paths_follow = false;
    /* At most one backend argument per two of ours; NULL-terminated. */
    const char **backend_arguments = calloc((size_t)argc / 2 + 1, sizeof(*backend_arguments));
    size_t backend_argument_count = 0;
    if (!backend_arguments)
    {
        fprintf(stderr, "dmlconf __worker: out of memory\n");
        return 1;
    }
    int i = 1;
    while (understood && i < argc && !paths_follow)
    {
        const char *option = argv[i++];
        const char *value = i < argc ? argv[i] : NULL;
        uint64_t number;
        if (!strcmp(option, "--"))
            paths_follow = true;
        else if (!strcmp(option, "--no-rerun"))
            spec.config.rerun_failures = false;
        else if (!strcmp(option, "--no-repro"))
            spec.config.shrink = false;
        else if (value && !strcmp(option, "--backend"))
            backend_name = argv[i++];
        else if (value && !strcmp(option, "--adapter"))
            spec.backend_config.adapter = argv[i++];
        else if (value && !strcmp(option, "--backend-argument"))
            backend_arguments[backend_argument_count++] = argv[i++];
        else if (value && !strcmp(option, "--level") && dmlconf_feature_level_from_name(value, &spec.config.level))
            ++i;
        else if (value && !strcmp(option, "--seed") && dmlconf_parse_u64(value, 0, UINT64_MAX, &spec.config.seed))
            ++i;
        else if (value && !strcmp(option, "--repro-dir"))
            spec.config.repro_dir = argv[i++];
        else if (value && !strcmp(option, "--batch-elements") && dmlconf_parse_u64(value, 0, UINT64_MAX, &number))
        {
            spec.config.batch_elements = number;
            ++i;
        }
        else if (value && !strcmp(option, "--memory-limit") && dmlconf_parse_u64(value, 0, UINT64_MAX, &number))
        {
            spec.config.memory_limit = number;
            ++i;
        }
        else if (value && !strcmp(option, "--host-threads") && dmlconf_parse_u64(value, 0, 1024, &number))
        {
            spec.config.host_threads = (unsigned)number;
            ++i;
        }
        else
            understood = false;
    }
    if (!understood || !paths_follow || !backend_name)
    {
        fprintf(stderr, "dmlconf __worker: started with bad arguments (it is started by `dmlconf run`)\n");
        free(backend_arguments);
        return EXIT_USAGE;
    }
    spec.backend_config.feature_level = spec.config.level;
    runner_backend_choice choice;
    char why[1024];
    if (runner_backend_choose(backend_name, &choice, why, sizeof(why)))
    {
        fprintf(stderr, "dmlconf __worker: %s\n", why);
        free(backend_arguments);
        return EXIT_USAGE;
    }
    spec.backend_ops = choice.ops;
    /* A plugin's arguments are its path, from its name; the others' come
     * as --backend-argument. */
    spec.backend_config.arguments =
        choice.arguments ? choice.arguments : backend_argument_count ? backend_arguments : NULL;
#if defined(_WIN32)
    /* A crash ends this process with its exception code, no dialog. */
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
    _setmode(0, _O_BINARY);
    _setmode(1, _O_BINARY);
#else
    signal(SIGINT, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
#endif
    dmlconf_case_corpus corpus;
    runner_load_corpus_quietly(&corpus, argv + i, (size_t)(argc - i));
    size_t count = 0;
    const dmlconf_case **cases = runner_corpus_cases(&corpus, &count);
    int status = 1;
    if (cases)
    {
        spec.cases = cases;
        spec.case_count = count;
        status = runner_worker_serve(&spec, 0, 1);
    }
    free(cases);
    dmlconf_case_corpus_free(&corpus);
    runner_backend_choice_release(&choice);
    free(backend_arguments);
    return status;
}
