/*
 * Whole numbers written as text by people and by dmlconf itself: command
 * line options, knobs in environment variables, shard numbers, counters
 * in dmlconf's own files. (Case files have their own grammar, with signs
 * and data types: cases/loader's values.h.)
 */
#ifndef DMLCONF_INTEGER_TEXT_H
#define DMLCONF_INTEGER_TEXT_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parses the whole of `text` as an unsigned integer in [min, max]: decimal
 * digits, or "0x" (or "0X") and hexadecimal digits. Nothing else passes: no
 * sign, no blank before or after, no empty text, no octal (a leading 0 is
 * decimal: "010" is 10), no digit after the number's end. Returns true with
 * *value set; false, leaving *value as it was, when text is NULL or
 * malformed or its value lies outside [min, max] (a value past UINT64_MAX
 * too: nothing wraps). Never reads the locale or errno. */
bool dmlconf_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *value);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_INTEGER_TEXT_H */
