/*
 * What several subcommands' options share.
 */
#include "cli.h"

#include <dmlconf/system_info.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int cli_parse_bytes(const char *text, uint64_t *bytes)
{
    char *end = NULL;
    if (!*text || *text == '-')
        return -1;
    errno = 0;
    double value = strtod(text, &end);
    if (errno || end == text || value < 0.0)
        return -1;
    double scale = 1.0;
    if (*end == 'k' || *end == 'K')
        scale = 1e3, ++end;
    else if (*end == 'M')
        scale = 1e6, ++end;
    else if (*end == 'G')
        scale = 1e9, ++end;
    else if (*end == 'T')
        scale = 1e12, ++end;
    if (*end == 'B')
        ++end;
    if (*end || value * scale >= 1.8e19)
        return -1;
    *bytes = (uint64_t)(value * scale);
    return 0;
}

int cli_take_directml_option(const char *command, int option, const char *argument)
{
    static const char *const variables[] = {
        [CLI_OPTION_DIRECTML_DLL - CLI_OPTION_DIRECTML_DLL] = "DMLCONF_DIRECTML_DLL",
        [CLI_OPTION_DIRECTML_FLAGS - CLI_OPTION_DIRECTML_DLL] = "DMLCONF_DIRECTML_FLAGS",
        [CLI_OPTION_DIRECTML_GRAPH - CLI_OPTION_DIRECTML_DLL] = "DMLCONF_DIRECTML_GRAPH",
        [CLI_OPTION_DIRECTML_BINDING - CLI_OPTION_DIRECTML_DLL] = "DMLCONF_DIRECTML_BINDING",
    };
    if (option < CLI_OPTION_DIRECTML_DLL || option > CLI_OPTION_DIRECTML_BINDING)
        return 1;
    if (dmlconf_set_environment(variables[option - CLI_OPTION_DIRECTML_DLL], argument))
    {
        fprintf(stderr, "dmlconf %s: out of memory\n", command);
        return -1;
    }
    return 0;
}
