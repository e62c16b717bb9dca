/*
 * DXBC containers: the chunked file format that wraps a shader program (and
 * root signatures), with its MD5-based checksum.
 */
#ifndef DMLCONF_DXBC_CONTAINER_H
#define DMLCONF_DXBC_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The size of a container's fixed header before the chunk offsets. */
#define DXBC_HEADER_BYTES 32u
/* The checksum covers the bytes from this offset to the end. */
#define DXBC_CHECKSUM_START 20u

/* MD5's compression function: folds one 64-byte block into `state`. */
void dxbc_md5_compress(uint32_t state[4], const unsigned char block[64]);

/* The DXBC checksum of `size` bytes at `data` (normally a container's bytes
 * from offset 20): MD5's compression and initial state with DXBC's own final
 * padding. Writes the four state words to out. */
void dxbc_checksum(const void *data, size_t size, uint32_t out[4]);

/* Wraps a shader program (`words` little-endian tokens, as built by
 * dxbc_program) into a container with one SHEX chunk, checksum filled in. Returns 0 with *blob (malloc'ed, the caller
 * frees it) and *size set, or -1 when out of memory. */
int dxbc_container_build(const uint32_t *words, size_t count, void **blob, size_t *size);

/* True when `blob` is a well-formed container: magic, version 1, the size
 * field equal to `size`, chunks inside it, and a correct checksum. */
bool dxbc_container_check(const void *blob, size_t size);

#endif /* DMLCONF_DXBC_CONTAINER_H */
