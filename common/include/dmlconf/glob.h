/*
 * Shell-style patterns on case ids, the same on every platform.
 */
#ifndef DMLCONF_GLOB_H
#define DMLCONF_GLOB_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* True when `text` matches `pattern` as a whole: '*' matches any run of
 * characters (empty too), '?' any one character, "[abc]", "[a-z]" and
 * "[!a-z]" (or "[^a-z]") one character of (or not of) a set, and '\'
 * makes the next character literal. Unlike fnmatch, '/' and a leading '.'
 * are not special (ids are not paths). A malformed set ("[a-") is taken
 * literally. Runs in time linear in the product of the lengths at worst. */
bool dmlconf_glob_match(const char *pattern, const char *text);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_GLOB_H */
