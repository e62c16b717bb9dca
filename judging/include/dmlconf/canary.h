/*
 * The canary an output buffer is filled with before a backend runs: a bit
 * pattern per element that no correct result is likely to have (a
 * signalling NaN with a payload for floats, 0xa5... or 0x5a... for
 * integers), so that an implementation that writes nothing is seen. The
 * comparator fails an element that still holds it (rule UNWRITTEN); where
 * the expected value happens to be the canary itself, the case runs again
 * with the other one. After the buffer's end a guard of canary bytes shows
 * a write past the output's range; the bytes between strided elements
 * (padding) are checked too, and reported (DirectML allows writing them).
 */
#ifndef DMLCONF_CANARY_H
#define DMLCONF_CANARY_H

#include <dmlconf/oracle.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of canary after an output buffer's end: a write past the tensor's
 * range changes them. */
#define DMLCONF_CANARY_GUARD 64u

/* The canary element of `type` for attempt 0 or 1 (two different
 * patterns: a case whose expected values include the first runs again
 * with the second), zero extended. */
uint64_t dmlconf_canary_bits(dmlconf_data_type type, unsigned attempt);

/* Fills `bytes` bytes with the canary element (of `element` bytes,
 * little-endian) repeated from the start. */
void dmlconf_canary_fill(void *buffer, size_t bytes, size_t element, uint64_t bits);

/* How many bytes in [from, to) of a canary-filled buffer changed. */
size_t dmlconf_canary_changed(const void *buffer, size_t from, size_t to, size_t element, uint64_t bits);

/* How many padding bytes of an output buffer (bytes that hold no element
 * of `desc`) no longer hold the canary. Returns 0, or UINT64_MAX when
 * memory for the check runs out (the caller says the padding was not
 * checked). */
uint64_t dmlconf_canary_padding_written(const dmlconf_tensor_desc *desc, const void *buffer, size_t bytes,
                                        uint64_t bits);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_CANARY_H */
