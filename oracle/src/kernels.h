/*
 * Internal interface of the oracle: the per-line kernels that dmlconf_compute
 * and dmlconf_scan_line dispatch to. Every kernel reads n contiguous input
 * elements in scan order and writes n contiguous outputs; `in` and `out` never
 * overlap (the caller gathers lines into scratch memory when they would).
 * An exclusive scan writes the identity (0 or 1) first and never the total.
 */
#ifndef DMLCONF_ORACLE_KERNELS_H
#define DMLCONF_ORACLE_KERNELS_H

#include <dmlconf/compiler.h>
#include <dmlconf/oracle.h>

/* Integer scans, wrapping modulo 2^32 / 2^64 (signedness does not change the
 * bits of a wrapping sum or product). Never fail. */
void oracle_scan_u32(dmlconf_operator op, bool exclusive, size_t n, const uint32_t *in, uint32_t *out);
void oracle_scan_u64(dmlconf_operator op, bool exclusive, size_t n, const uint64_t *in, uint64_t *out);

/* Exact float16 prefix sums (binary16 bit patterns). Never fail. */
void oracle_sum_f16(bool exclusive, size_t n, const uint16_t *in, uint16_t *out);

/* Exact float32 prefix sums. Never fail (no allocation). */
void oracle_sum_f32(bool exclusive, size_t n, const float *in, float *out);

/* Exact float32 / float16 prefix products. Return 0, or -1 with err set when
 * the exact fallback cannot allocate its scratch memory. */
int oracle_product_f32(bool exclusive, size_t n, const float *in, float *out, dmlconf_error *err);
int oracle_product_f16(bool exclusive, size_t n, const uint16_t *in, uint16_t *out, dmlconf_error *err);

/* Side data for one line, same conventions as the kernels. */
void oracle_side_data_integer(bool exclusive, size_t n, dmlconf_side_data *side);
void oracle_side_data_sum_f32(bool exclusive, size_t n, const float *in, dmlconf_side_data *side);
void oracle_side_data_sum_f16(bool exclusive, size_t n, const uint16_t *in, dmlconf_side_data *side);
void oracle_side_data_product_f32(bool exclusive, size_t n, const float *in, dmlconf_side_data *side);
void oracle_side_data_product_f16(bool exclusive, size_t n, const uint16_t *in, dmlconf_side_data *side);

/* Formats a message into err (when not NULL). */
void oracle_set_error(dmlconf_error *err, const char *format, ...)
    DMLCONF_PRINTF_LIKE(2, 3)
    ;

#endif /* DMLCONF_ORACLE_KERNELS_H */
