/*
 * Small string helpers shared by every dmlconf library.
 */
#ifndef DMLCONF_TEXT_H
#define DMLCONF_TEXT_H

#include <dmlconf/compiler.h>

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A copy of `text` the caller frees, or NULL when memory runs out (or text
 * is NULL). */
char *dmlconf_strdup(const char *text);

/* Reads one line of any length from `file` into *line (grown as needed,
 * the caller frees it; *capacity tracks its size), without its '\n' or
 * "\r\n". Returns 1 with a line, 0 at the end of the file, or -1 on a
 * read error or when memory runs out. */
int dmlconf_read_line(FILE *file, char **line, size_t *capacity);

#include <stdbool.h>
#include <stdint.h>

/* The length of the UTF-8 character at text[0] (2 to 4 bytes; ASCII is
 * not decoded here) and its code point in *code; 0 when the bytes there are
 * not a valid sequence (overlong, a surrogate, past U+10FFFF, cut short by
 * the NUL). */
size_t dmlconf_utf8_decode(const char *text, uint32_t *code);

/* Whether a terminal acts on the code point rather than shows it: C0
 * controls (tab and line feed only when `allow_tab_and_newline`), DEL, C1
 * controls, and the invisible ones that reorder or break the text around
 * them (bidirectional marks, embeddings, overrides and isolates, line and
 * paragraph separators). */
bool dmlconf_text_is_control(uint32_t code, bool allow_tab_and_newline);

/* The first character of `text` that dmlconf_text_is_control names, or
 * U+FFFD for bytes that are not UTF-8; 0 when there is none. Used to refuse
 * text from outside (case files, an adapter's handshake, a plugin's
 * description) that would act on a console or hide what follows it. */
uint32_t dmlconf_text_first_control(const char *text, bool allow_tab_and_newline);

/* Replaces, in place, every character dmlconf_text_first_control would name
 * with '?' (one byte for the whole sequence; the text never grows). For
 * text from outside that is shown rather than refused (a plugin's message
 * about a job). NULL is ignored. */
void dmlconf_text_make_printable(char *text, bool allow_tab_and_newline);

/* Length of a fixed buffer's string: stops at `size` when there is no NUL. */
size_t dmlconf_bounded_length(const char *text, size_t size);

/* A bounded text buffer that keeps counting past its end, as snprintf does:
 * `length` is the length the full text has, so a caller can tell that it
 * was cut (length >= size). Start it as {buf, size, 0}; buf may be NULL
 * when size is 0. It never allocates. */
typedef struct dmlconf_text
{
    char *buf;
    size_t size;
    size_t length;
} dmlconf_text;

/* Appends the formatted text, as much of it as fits (always NUL-terminated
 * when size > 0), and counts all of it in text->length. */
void dmlconf_text_appendf(dmlconf_text *text, const char *format, ...) DMLCONF_PRINTF_LIKE(2, 3);

/* Whether a POSIX shell word may hold `c` unquoted (letters, digits and
 * _./:,+@%-). */
bool dmlconf_text_shell_safe(unsigned char c);

/* Appends `length` bytes of `word` as one word for a POSIX shell: as it is
 * when it holds only letters, digits and _./:,+@%-, else in single quotes
 * (a quote inside as '\''; an empty word as ''). */
void dmlconf_text_append_shell_word(dmlconf_text *text, const char *word, size_t length);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_TEXT_H */
