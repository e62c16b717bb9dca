/*
 * The adapter's handshake: the one JSON line with which an implementation
 * behind the process protocol names itself and declares what it supports
 * (docs/process-protocol.md, "The handshake").
 */
#ifndef DMLCONF_EXEC_HANDSHAKE_H
#define DMLCONF_EXEC_HANDSHAKE_H

#include <dmlconf/backend.h>

#include <stdbool.h>
#include <stddef.h>

/* The longest handshake line, its newline included. */
#define EXEC_MAX_HANDSHAKE_BYTES 65536u

/* What a handshake says. The strings are as the adapter gave them (each
 * within its field, or the handshake is refused). */
typedef struct exec_handshake
{
    char implementation[41];          /* [A-Za-z0-9._+-], 1 to 40 characters */
    char implementation_version[128]; /* "" when not given */
    char device[256];                 /* "" when not given */
    char driver[256];
    char runtime[256];
    bool software;
    dmlconf_feature_level feature_level; /* NONE when it claims none */
    dmlconf_backend_capabilities capabilities;
} exec_handshake;

/* Parses a handshake line (`length` bytes, without its newline; need not
 * be NUL-terminated). Returns 0 with *out filled, or -1 with a sentence in
 * `why` that names the first thing wrong: not JSON, not an object, another
 * protocol or version, a required key missing, a value of the wrong kind
 * or outside what dmlconf knows (an unknown data type, a rank of 9). */
int exec_parse_handshake(const char *line, size_t length, exec_handshake *out, char *why, size_t why_size);

/* True when two handshakes describe the same implementation with the same
 * capabilities (a restarted adapter must). */
bool exec_handshakes_agree(const exec_handshake *a, const exec_handshake *b);

#endif /* DMLCONF_EXEC_HANDSHAKE_H */
