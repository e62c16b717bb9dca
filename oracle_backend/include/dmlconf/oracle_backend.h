/*
 * The oracle as a backend: exact, every type, every level. Running the
 * corpus on it is dmlconf's self-check (every case must pass bit for bit);
 * it is never an implementation under test.
 */
#ifndef DMLCONF_ORACLE_BACKEND_H
#define DMLCONF_ORACLE_BACKEND_H

#include <dmlconf/backend.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The backend's table (name "oracle"); it always opens. */
extern const dmlconf_backend_ops dmlconf_oracle_backend_ops;

/* Computes a job as dmlconf_compute does (no side data), the same bits;
 * with `threads` > 1, lines of at least `min_length` elements that are
 * contiguous and increasing in both buffers, out of place, are each cut
 * into one segment a thread and computed on all of them at once. Returns 0,
 * or -1 with err (may be NULL) set, as dmlconf_compute. */
int dmlconf_oracle_compute_segmented(const dmlconf_scan_desc *desc, const void *input, size_t input_bytes,
                                     void *output, size_t output_bytes, unsigned threads, uint64_t min_length,
                                     dmlconf_error *err);

#ifdef __cplusplus
}
#endif

#endif /* DMLCONF_ORACLE_BACKEND_H */
