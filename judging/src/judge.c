/*
 * The comparator's rule for one element (the project's oracle notes, "The
 * comparator rule"), in the accumulation-bound form, and the two forms a
 * peer suite's case may ask for instead (tolerance.h): an absolute and
 * relative tolerance, and a plain ulp count. The proofs below are about the
 * bound form; the other two judge exactly what they say.
 *
 * Notation: o = the expected (oracle) value, y = the implementation's, S =
 * the exact prefix, m = the number of terms, A = sum |x| (rounded up), q =
 * the smallest exponent of a last significant bit, p and u = 2^-p the
 * accumulator's precision and unit roundoff, emin its smallest normal
 * exponent. ulp(v) is the output format's spacing at |v|.
 *
 * Why the bound holds for every legitimate evaluation order:
 * - Sums. Any scan algorithm (sequential, Hillis-Steele, Blelloch, chunked,
 *   decoupled look-back) computes each output as some binary tree of its m
 *   terms, that is m - 1 roundings, each within a relative u (D3D: within
 *   0.5 ulp). Higham's bound for every tree: |s^ - S| <= gamma_{m-1}(u) A,
 *   gamma_j(u) = j u / (1 - j u) (no bound when j u >= 1). A sum that lands
 *   in the subnormal range is exact, so gradual underflow adds nothing;
 *   flushing instead loses < 2^emin per flushed input (m) and per flushed
 *   result (m - 1): hence 2 m 2^emin with FTZ. Then |y - o| <= |y - S| +
 *   |S - o| <= E + ulp(o) / 2 <= U ulp(o) + E. The (1 + 2^-20) factor on
 *   the gamma term covers the rounding of this very computation in double.
 * - Products: relative error gamma_{m-1} |S| without underflow; each
 *   product rounded in the subnormal range (or flushed) adds an absolute
 *   tau that later factors can magnify, at most by 2^(2 Smax) (Smax: the
 *   largest log2 of a contiguous sub-range product): m tau 2^(2 max(Smax,
 *   0)), added when the smallest sub-range product is below 2^emin.
 * - Float16 output from float32 accumulation: y is the accumulated s^
 *   converted once, toward zero (D3D, saturating at +-max) or to nearest
 *   (overflowing to Inf). Toward zero is monotone and never crosses o, so
 *   |y - o| <= E + 1.5 ulp(o). To nearest adds ulp(s^) / 2 <= ulp(o) +
 *   2^-p_out (E + ulp(o) / 2) when |s^| > |o|: |y - o| <= (1.5 + 2^-12)
 *   ulp(o) + E (1 + 2^-p_out). U = 2 covers the ulps; the accumulation error
 *   E is scaled by 1 + 2^-p_out (the conversion factor).
 * - Inf without an Inf input is an overflow: in every comparison by value
 *   it stands for the output format's overflow threshold T = 2^(emax+1) (1 -
 *   2^-(p+1)), the smallest exact value that rounds to Inf; so an overflow of
 *   the final conversion passes exactly when T is within the bound.
 * - Range: an operation overflows only when its exact result reaches the
 *   accumulator's threshold. Every computed partial sum is at most (1 +
 *   gamma) A in magnitude, every computed partial product at most (1 +
 *   gamma) 2^Smax. Elements where that can happen (and those where the
 *   notes' Omega = FLT_MAX or 65504 is reached) are range-ambiguous.
 * - Exact by construction. Sums: every partial sum is a multiple of 2^q
 *   below A < 2^(q+p) in magnitude, so it is representable and every order
 *   computes S exactly (with FTZ, also q >= emin: no partial is subnormal).
 *   Products: when the odd parts of the significands have at most p bits
 *   in all (significand_bits) and every contiguous sub-range product is
 *   normal, every partial product is representable. Then y = o, or for a
 *   narrowing conversion y = RTZ(S), which is o or o's neighbour toward
 *   zero (for o = Inf, the largest finite value). A product with a zero
 *   factor is exactly +-0 in every order that does not overflow.
 */
#include "judging_internal.h"

#include <dmlconf/comparator.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Relative slack for the rounding of the bound's own computation. */
#define BOUND_FUDGE (1.0 + 0x1p-20)
/* Slack for the range classification: A is rounded up, so only the few
 * roundings of A (1 + gamma) need covering. */
#define RANGE_FUDGE (1.0 + 0x1p-40)
/* Slack, in log2 units, for the products' sub-range logarithms, which are
 * computed in double without a rigorous rounding direction. */
#define LOG2_MARGIN 0x1p-10
/* INFINITY is a float constant; the rule computes in double. */
#define INFINITE ((double)INFINITY)

/* ---- float formats -------------------------------------------------------- */

typedef struct float_format
{
    unsigned bits;
    int precision; /* significand bits, hidden bit included */
    int emin;
    int emax;
} float_format;

static const float_format format_f32 = {32, 24, -126, 127};
static const float_format format_f16 = {16, 11, -14, 15};

/* 2^k, exactly, for any int k (0 or Inf outside double's range). */
static double pow2i(long k)
{
    if (k >= -1022 && k <= 1023)
    {
        uint64_t bits = (uint64_t)(k + 1023) << 52;
        double value;
        memcpy(&value, &bits, sizeof(value));
        return value;
    }
    return k > 0 ? INFINITE : ldexp(1.0, k < -1100 ? -1100 : (int)k);
}

/* The largest finite value and the overflow threshold of a format. */
static double format_max(const float_format *f)
{
    return (2.0 - pow2i(1 - f->precision)) * pow2i(f->emax);
}

static double format_threshold(const float_format *f)
{
    return (2.0 - pow2i(-f->precision)) * pow2i(f->emax);
}

/* A float element's bits, classified. */
typedef struct element
{
    uint64_t bits;
    uint64_t magnitude; /* bits without the sign */
    bool negative;
    bool nan;
    bool inf;
    bool zero;
    double value; /* exact; +-Inf or NaN as the bits say */
} element;

static void decode(unsigned bits, uint64_t raw, element *e)
{
    if (bits == 32)
    {
        uint32_t b = (uint32_t)raw;
        float f;
        memcpy(&f, &b, sizeof(f));
        e->bits = b;
        e->magnitude = b & 0x7fffffffu;
        e->negative = (b >> 31) != 0;
        e->nan = e->magnitude > 0x7f800000u;
        e->inf = e->magnitude == 0x7f800000u;
        e->value = (double)f;
    }
    else
    {
        uint16_t b = (uint16_t)raw;
        e->bits = b;
        e->magnitude = b & 0x7fffu;
        e->negative = (b >> 15) != 0;
        e->nan = e->magnitude > 0x7c00u;
        e->inf = e->magnitude == 0x7c00u;
        e->value = (double)dmlconf_half_to_float(b);
    }
    e->zero = e->magnitude == 0;
}

/* Sign-magnitude to an ordered integer: +0 and -0 map to 0, each step of
 * the magnitude is one ulp, Inf is one step past the largest finite. */
static int64_t ordered(const element *e)
{
    return e->negative ? -(int64_t)e->magnitude : (int64_t)e->magnitude;
}

static double ordered_distance(const element *a, const element *b)
{
    if (a->nan || b->nan)
        return a->nan && b->nan ? 0.0 : INFINITE;
    int64_t x = ordered(a), y = ordered(b);
    return x > y ? (double)(uint64_t)(x - y) : (double)(uint64_t)(y - x);
}

/* The spacing of the format at a finite element, from its exponent field;
 * for Inf, the largest binade's spacing. */
static double element_ulp(const float_format *f, const element *e)
{
    long field = (long)(e->magnitude >> (f->precision - 1));
    if (field == 0)
        return pow2i(f->emin - f->precision + 1);
    if (e->inf)
        return pow2i(f->emax - f->precision + 1);
    return pow2i(field - f->emax - f->precision + 1);
}

static const float_format *float_format_of(dmlconf_data_type type)
{
    if (type == DMLCONF_DATA_TYPE_FLOAT32)
        return &format_f32;
    if (type == DMLCONF_DATA_TYPE_FLOAT16)
        return &format_f16;
    return NULL;
}

static unsigned integer_bits(dmlconf_data_type type)
{
    switch (type)
    {
    case DMLCONF_DATA_TYPE_INT32:
    case DMLCONF_DATA_TYPE_UINT32:
        return 32;
    case DMLCONF_DATA_TYPE_INT64:
    case DMLCONF_DATA_TYPE_UINT64:
        return 64;
    default:
        return 0;
    }
}

/* min(d, 2^w - d) for d = a - b modulo 2^w. */
static double modular_distance(unsigned bits, uint64_t a, uint64_t b)
{
    uint64_t mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    uint64_t d = (a - b) & mask, e = (b - a) & mask;
    return (double)(d < e ? d : e);
}

double dmlconf_ulp_distance(dmlconf_data_type type, uint64_t a_bits, uint64_t b_bits)
{
    const float_format *f = float_format_of(type);
    if (f)
    {
        element a, b;
        decode(f->bits, a_bits, &a);
        decode(f->bits, b_bits, &b);
        return ordered_distance(&a, &b);
    }
    unsigned bits = integer_bits(type);
    return bits ? modular_distance(bits, a_bits, b_bits) : INFINITE;
}

double dmlconf_ulp_of(dmlconf_data_type type, double value)
{
    const float_format *f = float_format_of(type);
    if (!f || isnan(value))
        return 0.0;
    double magnitude = fabs(value);
    if (magnitude < pow2i(f->emin))
        return pow2i(f->emin - f->precision + 1);
    if (magnitude > format_max(f))
        return pow2i(f->emax - f->precision + 1);
    int exponent;
    frexp(magnitude, &exponent); /* magnitude = fraction 2^exponent, fraction in [1/2, 1) */
    return pow2i((long)exponent - f->precision);
}

/* ---- the judge ------------------------------------------------------------ */

int dmlconf_judge_init(dmlconf_judge *judge, dmlconf_operator op, dmlconf_data_type type, const dmlconf_tolerance *tol,
                       dmlconf_error *err)
{
    memset(judge, 0, sizeof(*judge));
    judge->op = op;
    judge->type = type;
    bool known_type = dmlconf_tolerance_default(type, &judge->tol);
    if (tol)
        judge->tol = *tol;
    if (op != DMLCONF_OPERATOR_CUMULATIVE_SUMMATION && op != DMLCONF_OPERATOR_CUMULATIVE_PRODUCT)
    {
        judging_set_error(err, "operator %d is not a cumulative operator", (int)op);
        return -1;
    }
    if (!known_type || dmlconf_tolerance_check(type, &judge->tol, NULL, err))
    {
        if (!known_type)
        {
            const char *name = dmlconf_data_type_name(type);
            judging_set_error(err, "data type %s is not computable", name ? name : "(unknown)");
        }
        return -1;
    }

    const float_format *out = float_format_of(type);
    judge->valid = true;
    if (!out)
    {
        judge->out_bits = integer_bits(type);
        return 0;
    }
    const float_format *acc = judge->tol.accumulation == DMLCONF_DATA_TYPE_FLOAT16 ? &format_f16 : &format_f32;
    judge->is_float = true;
    judge->out_bits = out->bits;
    judge->out_precision = out->precision;
    judge->out_max = format_max(out);
    judge->out_threshold = format_threshold(out);
    judge->out_top_ulp = pow2i(out->emax - out->precision + 1);
    judge->narrowing = acc->precision > out->precision;
    judge->conversion_factor = judge->narrowing ? 1.0 + pow2i(-out->precision) : 1.0;
    judge->acc_precision = acc->precision;
    judge->acc_emin = acc->emin;
    judge->acc_emax = acc->emax;
    judge->acc_unit_roundoff = pow2i(-acc->precision);
    judge->acc_omega = format_max(acc);
    judge->acc_threshold = format_threshold(acc);
    judge->acc_log2_omega = log2(judge->acc_omega);
    judge->acc_min_normal = pow2i(acc->emin);
    /* Rounding to nearest in the subnormal range errs by at most half the
     * smallest subnormal, 2^(emin - p); a flush by less than 2^emin. */
    judge->acc_tau = judge->tol.ftz ? pow2i(acc->emin) : pow2i(acc->emin - acc->precision);
    /* A product of magnitude <= 2^(emin - p) may round to 0; with FTZ,
     * anything below 2^emin may be flushed. */
    judge->acc_zero_log2 = judge->tol.ftz ? (double)acc->emin : (double)(acc->emin - acc->precision);
    return 0;
}

/* gamma_{m-1}(u) = j u / (1 - j u) with j = m - 1; +INFINITE when j u >= 1.
 * j u is exact (j < 2^32, u a power of two) and so is 1 - j u. */
static double gamma_bound(uint32_t m, double u)
{
    if (m <= 1)
        return 0.0;
    double ju = (double)(m - 1) * u;
    if (ju >= 1.0)
        return INFINITE;
    return ju / (1.0 - ju);
}

/* |difference| / tolerance without NaN: 0 when equal, +INFINITE for any
 * difference against a zero tolerance, 0 against an infinite one. */
static double fraction_of(double difference, double tolerance)
{
    if (difference == 0.0)
        return 0.0;
    if (tolerance == 0.0)
        return INFINITE;
    if (isinf(tolerance))
        return isinf(difference) ? INFINITE : 0.0;
    return difference / tolerance;
}

static dmlconf_verdict finish(dmlconf_judgement *j, dmlconf_verdict verdict)
{
    j->verdict = verdict;
    if (verdict == DMLCONF_VERDICT_FAIL && !(j->tolerance_fraction > 1.0))
        j->tolerance_fraction = nextafter(1.0, 2.0); /* the division rounded down onto 1 */
    if (verdict == DMLCONF_VERDICT_PASS && j->tolerance_fraction > 1.0)
        j->tolerance_fraction = 1.0;
    return verdict;
}

static dmlconf_verdict judge_integer(const dmlconf_judge *jd, uint64_t expected, uint64_t actual, dmlconf_judgement *j)
{
    uint64_t mask = jd->out_bits == 64 ? UINT64_MAX : (UINT64_C(1) << jd->out_bits) - 1;
    j->rule = DMLCONF_RULE_INTEGER;
    j->tolerance = 0.0;
    j->error_ulps = modular_distance(jd->out_bits, expected, actual);
    bool equal = ((expected ^ actual) & mask) == 0;
    j->tolerance_fraction = equal ? 0.0 : INFINITE;
    return finish(j, equal ? DMLCONF_VERDICT_PASS : DMLCONF_VERDICT_FAIL);
}

/* Equal as values: any NaN equals any NaN; +0 equals -0 unless strict. */
static bool same_value(const dmlconf_judge *jd, const element *a, const element *b)
{
    if (a->nan || b->nan)
        return a->nan && b->nan;
    if (a->bits == b->bits)
        return true;
    return a->zero && b->zero && !jd->tol.strict_signed_zero;
}

/* The value an element stands for in a comparison by value: Inf as the
 * output format's overflow threshold. */
static double comparable(const dmlconf_judge *jd, const element *e)
{
    if (e->inf)
        return e->negative ? -jd->out_threshold : jd->out_threshold;
    return e->value;
}

/* A check with no tolerance: pass when the values are the same. */
static dmlconf_verdict judge_equal(const dmlconf_judge *jd, const element *o, const element *y, dmlconf_rule rule,
                                   dmlconf_judgement *j)
{
    j->rule = rule;
    j->tolerance = 0.0;
    bool pass = same_value(jd, o, y);
    j->tolerance_fraction = pass ? 0.0 : INFINITE;
    return finish(j, pass ? DMLCONF_VERDICT_PASS : DMLCONF_VERDICT_FAIL);
}

/* Exact by construction: y = o, or after a narrowing conversion (toward
 * zero or to nearest of the exact value S) RTZ(S), which differs from o =
 * RNE(S) only when S lies toward zero from o, past o's neighbour n toward
 * zero by at least half the gap d = |o - n|; then RTZ(S) = n. For a sum, S
 * is a multiple of 2^q, so with 2^q >= d, S = o; with 2^q = d/2, S can only
 * be the midpoint, which rounds to o only when o is even. Products (whose
 * exact value has no such q in the side data) and overflows (S beyond the
 * largest finite value; n = max) always allow n. The tolerance reported is
 * d; a deviation toward zero is measured against it, any other against 0. */
static dmlconf_verdict judge_exact(const dmlconf_judge *jd, const element *o, const element *y, int32_t q,
                                   dmlconf_judgement *j)
{
    j->rule = DMLCONF_RULE_EXACT;
    j->tolerance = 0.0;
    element neighbour;
    bool has_neighbour = jd->narrowing && !o->zero && !o->nan;
    if (has_neighbour)
    {
        decode(jd->out_bits, o->bits - 1, &neighbour); /* magnitude - 1, same sign */
        double gap = fabs(comparable(jd, o) - neighbour.value);
        j->tolerance = gap;
        if (!o->inf && jd->op == DMLCONF_OPERATOR_CUMULATIVE_SUMMATION && q != INT32_MAX)
        {
            double spacing = pow2i(q);
            if (spacing >= gap || (spacing == gap / 2.0 && (o->bits & 1u)))
            {
                has_neighbour = false;
                j->tolerance = 0.0;
            }
        }
    }
    if (same_value(jd, o, y))
    {
        j->tolerance_fraction = 0.0;
        return finish(j, DMLCONF_VERDICT_PASS);
    }
    if (has_neighbour && same_value(jd, &neighbour, y))
    {
        j->tolerance_fraction = 1.0;
        return finish(j, DMLCONF_VERDICT_PASS);
    }
    bool toward_zero = has_neighbour && !y->nan && !y->inf && (y->zero || y->negative == o->negative) &&
                       fabs(y->value) < fabs(comparable(jd, o));
    j->tolerance_fraction =
        toward_zero ? fraction_of(fabs(comparable(jd, y) - comparable(jd, o)), j->tolerance) : INFINITE;
    return finish(j, DMLCONF_VERDICT_FAIL);
}

/* The bound of rule 3 around o (Inf read as the threshold); +INFINITE when
 * gamma is. */
static double bound_for(const dmlconf_judge *jd, bool product, const element *o, const dmlconf_side_data *side,
                        double gamma)
{
    if (isinf(gamma))
        return INFINITE;
    double error;
    if (!product)
    {
        double a = side->abs_sum >= 0.0 ? side->abs_sum : INFINITE; /* NaN: unknown */
        error = a > 0.0 && gamma > 0.0 ? gamma * a * BOUND_FUDGE : 0.0;
        if (jd->tol.ftz)
            error += 2.0 * (double)side->terms * jd->acc_min_normal;
    }
    else
    {
        error = gamma * fabs(comparable(jd, o)) * BOUND_FUDGE;
        if (!(side->log2_min_partial >= (double)jd->acc_emin + LOG2_MARGIN))
        {
            double smax = side->log2_max_partial > 0.0 ? side->log2_max_partial : 0.0;
            error += (double)side->terms * jd->acc_tau * exp2(2.0 * smax);
        }
    }
    const float_format *out = jd->out_bits == 32 ? &format_f32 : &format_f16;
    double ulp = o->inf ? jd->out_top_ulp : element_ulp(out, o);
    double bound = jd->tol.ulp * ulp + error * jd->conversion_factor;
    return isnan(bound) ? INFINITE : bound; /* only from side data that no oracle writes */
}

/* Rule 3 (and the in-tolerance test of rule 2). */
static bool within_bound(const dmlconf_judge *jd, const element *o, const element *y, double bound,
                         dmlconf_judgement *j)
{
    j->tolerance = bound;
    if (y->nan)
    {
        j->tolerance_fraction = INFINITE;
        return false;
    }
    if (o->zero && y->zero)
    {
        bool pass = same_value(jd, o, y);
        j->tolerance_fraction = pass ? 0.0 : INFINITE;
        return pass;
    }
    double difference = fabs(comparable(jd, y) - comparable(jd, o));
    j->tolerance_fraction = fraction_of(difference, bound);
    return difference <= bound;
}

/* A peer suite's absolute and relative tolerance, as numpy's isclose reads
 * it: an infinite expected value needs the same infinity; otherwise actual
 * must be finite and |actual - expected| <= atol + rtol |expected|. */
static dmlconf_verdict judge_absolute_relative(const dmlconf_judge *jd, const element *o, const element *y,
                                               dmlconf_judgement *j)
{
    j->rule = DMLCONF_RULE_ABSOLUTE_RELATIVE;
    if (o->inf)
    {
        j->tolerance = 0.0;
        j->tolerance_fraction = y->bits == o->bits ? 0.0 : INFINITE;
        return finish(j, y->bits == o->bits ? DMLCONF_VERDICT_PASS : DMLCONF_VERDICT_FAIL);
    }
    double bound = jd->tol.atol + jd->tol.rtol * fabs(o->value);
    j->tolerance = bound;
    if (y->nan || y->inf)
    {
        j->tolerance_fraction = INFINITE;
        return finish(j, DMLCONF_VERDICT_FAIL);
    }
    double difference = fabs(y->value - o->value);
    j->tolerance_fraction = fraction_of(difference, bound);
    return finish(j, difference <= bound ? DMLCONF_VERDICT_PASS : DMLCONF_VERDICT_FAIL);
}

/* A peer suite's plain ulp count: at most ulp_count steps (j->error_ulps,
 * already measured) between the two values (dmlconf_ulp_distance's steps: Inf one past the largest finite
 * value, any NaN infinitely far from a number), with no allowance for the
 * accumulation. The tolerance reported is the count times ulp(expected). */
static dmlconf_verdict judge_ulp_count(const dmlconf_judge *jd, const element *o, dmlconf_judgement *j)
{
    const float_format *out = jd->out_bits == 32 ? &format_f32 : &format_f16;
    double allowed = jd->tol.ulp_count;
    j->rule = DMLCONF_RULE_ULP_COUNT;
    j->tolerance = allowed * element_ulp(out, o);
    j->tolerance_fraction = fraction_of(j->error_ulps, allowed);
    return finish(j, j->error_ulps <= allowed ? DMLCONF_VERDICT_PASS : DMLCONF_VERDICT_FAIL);
}

static dmlconf_verdict judge_float(const dmlconf_judge *jd, uint64_t expected, uint64_t actual,
                                   const dmlconf_side_data *side, dmlconf_judgement *j)
{
    static const dmlconf_side_data empty = {.terms = 0,
                                            .specials = 0,
                                            .min_lsb_exponent = INT32_MAX,
                                            .significand_bits = 0,
                                            .abs_sum = 0.0,
                                            .log2_max_partial = -INFINITE,
                                            .log2_min_partial = INFINITE};
    element o, y;
    decode(jd->out_bits, expected, &o);
    decode(jd->out_bits, actual, &y);
    j->error_ulps = ordered_distance(&o, &y);
    if (!side)
        side = &empty;

    /* A zero of the wrong sign is a failure of its own kind, whatever else
     * the rule would say about two values that are equal. */
    if (jd->tol.strict_signed_zero && o.zero && y.zero && o.negative != y.negative)
        return judge_equal(jd, &o, &y, DMLCONF_RULE_SIGNED_ZERO, j);
    if (jd->tol.bit_exact)
        return judge_equal(jd, &o, &y, DMLCONF_RULE_BIT_EXACT, j);
    if (o.nan)
        return judge_equal(jd, &o, &y, DMLCONF_RULE_NAN, j);
    if (jd->tol.form == DMLCONF_TOLERANCE_FORM_ABSOLUTE_RELATIVE)
        return judge_absolute_relative(jd, &o, &y, j);
    if (jd->tol.form == DMLCONF_TOLERANCE_FORM_ULP_COUNT)
        return judge_ulp_count(jd, &o, j);

    bool product = jd->op == DMLCONF_OPERATOR_CUMULATIVE_PRODUCT;
    uint32_t m = side->terms;
    double gamma = gamma_bound(m, jd->acc_unit_roundoff);
    bool exact, ambiguous, nan_possible;
    if (!product)
    {
        int32_t q = side->min_lsb_exponent;
        double a = side->abs_sum >= 0.0 ? side->abs_sum : INFINITE; /* NaN: unknown */
        exact = q == INT32_MAX || ((!jd->tol.ftz || q >= jd->acc_emin) && a < pow2i((long)q + jd->acc_precision));
        /* Some order overflows when a partial can reach the threshold:
         * |partial| <= (1 + gamma) A. */
        ambiguous =
            a > 0.0 && (isinf(gamma) || !(a < jd->acc_omega) || a * (1.0 + gamma) * RANGE_FUDGE >= jd->acc_threshold);
        /* A finite part overflowing against the Inf input makes a NaN. */
        nan_possible = ambiguous;
    }
    else
    {
        double smax = side->log2_max_partial, smin = side->log2_min_partial;
        bool unknown = isnan(smax) || isnan(smin);
        /* A computed sub-range product is within a factor (1 +- gamma) of
         * the exact one: log2(1 + gamma) <= gamma log2(e), and log2(1 -
         * gamma) >= -2 gamma log2(e) for gamma <= 1/2. */
        double growth = gamma * 1.4426950408889634 * BOUND_FUDGE; /* +INFINITE with gamma */
        double shrink = gamma <= 0.5 ? 2.0 * growth : INFINITE;
        exact = !unknown && !(side->specials & DMLCONF_SPECIAL_ZERO) &&
                side->significand_bits <= (uint32_t)jd->acc_precision && smin >= (double)jd->acc_emin + LOG2_MARGIN &&
                smax <= (double)(jd->acc_emax + 1) - LOG2_MARGIN;
        ambiguous = unknown || isinf(growth) || smax + growth + LOG2_MARGIN >= jd->acc_log2_omega;
        /* A finite part rounding or flushing to 0 against the Inf input. */
        nan_possible = unknown || isinf(shrink) || smin - shrink - LOG2_MARGIN <= jd->acc_zero_log2;
    }

    if (o.inf && (side->specials & (DMLCONF_SPECIAL_POS_INF | DMLCONF_SPECIAL_NEG_INF)))
    {
        j->rule = DMLCONF_RULE_INF_INPUT;
        j->tolerance = 0.0;
        if (y.bits == o.bits)
        {
            j->tolerance_fraction = 0.0;
            return finish(j, DMLCONF_VERDICT_PASS);
        }
        j->tolerance_fraction = INFINITE;
        return finish(j, y.nan && nan_possible ? DMLCONF_VERDICT_UNJUDGED : DMLCONF_VERDICT_FAIL);
    }
    if (exact)
        return judge_exact(jd, &o, &y, side->min_lsb_exponent, j);
    if (ambiguous)
    {
        j->rule = DMLCONF_RULE_AMBIGUOUS;
        double bound = bound_for(jd, product, &o, side, gamma);
        if (y.nan || y.inf)
        {
            /* Accepted as an overflow of some order; the fraction says
             * nothing then. */
            j->tolerance = bound;
            j->tolerance_fraction = 0.0;
            return finish(j, DMLCONF_VERDICT_UNJUDGED);
        }
        bool in = within_bound(jd, &o, &y, bound, j);
        return finish(j, in ? DMLCONF_VERDICT_UNJUDGED : DMLCONF_VERDICT_FAIL);
    }
    if (product && (side->specials & DMLCONF_SPECIAL_ZERO))
        return judge_equal(jd, &o, &y, DMLCONF_RULE_ZERO_PRODUCT, j);

    j->rule = jd->acc_precision == format_f16.precision ? DMLCONF_RULE_BOUND_FLOAT16 : DMLCONF_RULE_BOUND;
    bool in = within_bound(jd, &o, &y, bound_for(jd, product, &o, side, gamma), j);
    return finish(j, in ? DMLCONF_VERDICT_PASS : DMLCONF_VERDICT_FAIL);
}

bool judging_side_settled(const dmlconf_judge *jd, const dmlconf_side_data *current, bool exclusive)
{
    if (!jd->valid || !jd->is_float || jd->tol.bit_exact || jd->tol.form != DMLCONF_TOLERANCE_FORM_BOUND)
        return false;
    /* Every later element has at least this many terms, and gamma only
     * grows with them: once it is infinite, the bound is infinite (sums and
     * products alike are then range-ambiguous, whatever A or the partial
     * products' range). */
    uint32_t next_terms = current->terms + (exclusive ? 0u : 1u);
    if (next_terms < current->terms)
        return true; /* 2^32 terms: no later element */
    if (!isinf(gamma_bound(next_terms, jd->acc_unit_roundoff)))
        return false;
    /* Exactness can no longer pass: a sum's A only grows and q only falls
     * (while no nonzero term has come, it still might); a product's
     * significand bits only grow, and a zero term stays. */
    if (jd->op == DMLCONF_OPERATOR_CUMULATIVE_SUMMATION)
    {
        int32_t q = current->min_lsb_exponent;
        if (q == INT32_MAX)
            return false;
        bool flushed = jd->tol.ftz && q < jd->acc_emin;
        return flushed || !(current->abs_sum < pow2i((long)q + jd->acc_precision));
    }
    return (current->specials & DMLCONF_SPECIAL_ZERO) || current->significand_bits > (uint32_t)jd->acc_precision;
}

dmlconf_verdict dmlconf_judge_bits(const dmlconf_judge *judge, uint64_t expected_bits, uint64_t actual_bits,
                                   const dmlconf_side_data *side, dmlconf_judgement *out)
{
    dmlconf_judgement local;
    dmlconf_judgement *j = out ? out : &local;
    j->verdict = DMLCONF_VERDICT_FAIL;
    j->rule = DMLCONF_RULE_INVALID;
    j->error_ulps = 0.0;
    j->tolerance = 0.0;
    j->tolerance_fraction = 0.0;
    if (!judge->valid)
    {
        j->error_ulps = INFINITE;
        j->tolerance_fraction = INFINITE;
        return DMLCONF_VERDICT_FAIL;
    }
    if (!judge->is_float)
        return judge_integer(judge, expected_bits, actual_bits, j);
    return judge_float(judge, expected_bits, actual_bits, side, j);
}

dmlconf_verdict dmlconf_judge_element(dmlconf_operator op, dmlconf_data_type type, uint64_t expected_bits,
                                      uint64_t actual_bits, const dmlconf_side_data *side, const dmlconf_tolerance *tol,
                                      dmlconf_judgement *out)
{
    dmlconf_judge judge;
    dmlconf_judge_init(&judge, op, type, tol, NULL);
    return dmlconf_judge_bits(&judge, expected_bits, actual_bits, side, out);
}
