/*
 * Small string helpers.
 */
#include <dmlconf/text.h>

#include <stdlib.h>
#include <string.h>

char *dmlconf_strdup(const char *text)
{
    if (!text)
        return NULL;
    size_t size = strlen(text) + 1;
    char *copy = malloc(size);
    if (copy)
        memcpy(copy, text, size);
    return copy;
}
