/*
 * Exact float32 prefix sums: every output is the exact real prefix sum S
 * rounded once to float32.
 *
 * The running sum is an unevaluated double-word s + t: s is the plain double
 * sum and t collects the exact TwoSum remainders, so the only error is the
 * rounding of the additions into t (each at most 2^-53 |t|) plus, after a
 * resynchronisation, the rounding of the exact value to s. A bound b is
 * carried along with |S - (s + t)| <= 2^-53 b (1 + 2^-30).
 *
 * - Blocks of CHUNK elements go first through a serial pass (the double-word
 *   sum, b growing by |t| at every step) and then a pass that the compiler
 *   can vectorise: with v = s + t and a radius r covering b, the rounding of
 *   v and the rounding of v -+ r, the interval [v - r, v + r] holds S, and
 *   when both ends round to the same float32, so does S, because rounding is
 *   monotone (subnormal results and overflow included). When every
 *   remainder in the block is zero, s is exact and (float)s is the answer.
 * - A block with an element that the test cannot decide is redone one
 *   element at a time. There, b only grows when an addition into t is
 *   inexact (checked exactly), so while b is zero S = s + t exactly and the
 *   result is decided from the two doubles, ties included: (float)(s + t)
 *   is right unless s + t rounds onto a float32 midpoint, and then the sign
 *   of the rounding error says which way. Otherwise the interval test runs,
 *   and where its radius (which the rounding of s + t to one double
 *   dominates) holds a rounding boundary, the pair s + t itself is compared
 *   with the two midpoints around its rounding, exactly but for one
 *   rounding, against twice the bound (round_near_boundary): on random
 *   data this decides every element, so the exact accumulator below is
 *   never brought up to date (on a 10^8-element line it used to be, five
 *   times, absorbing nearly every element).
 * - When that fails too (S within about 2^-52 b of a rounding boundary, a
 *   subnormal or zero sum after cancellation, a NaN or an infinity), a
 *   lagging exact accumulator absorbs the elements it has not seen yet
 *   (amortised O(1) per element) and rounds exactly. Then s is reset to the exact sum rounded to
 *   double and t to 0, with b = |s| when that rounding was inexact and 0
 *   when it was exact, so the bound does not stay inflated after a
 *   cancellation.
 * - The sign of a zero: s starts at -0 and stays -0 exactly while every term
 *   is -0 (IEEE addition), which is the rule for an exact zero sum; every
 *   other zero sum is +0.
 * - Once a NaN or an infinity is in the prefix every later output is special
 *   too; the rest of the line only tracks which specials occurred.
 */
#include "exact_accumulator.h"
#include "line_kernels.h"

#include <float.h>
#include <math.h>
#include <string.h>

static float f32_from_bits(uint32_t bits)
{
    float x;
    memcpy(&x, &bits, sizeof(x));
    return x;
}

static uint32_t f32_bits(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof(bits));
    return bits;
}

/* The float32 result of a prefix with these specials (at least one set). */
static float special_sum(uint32_t specials)
{
    bool pos = (specials & DMLCONF_SPECIAL_POS_INF) != 0;
    bool neg = (specials & DMLCONF_SPECIAL_NEG_INF) != 0;
    if ((specials & DMLCONF_SPECIAL_NAN) || (pos && neg))
        return f32_from_bits(0x7fc00000u);
    return f32_from_bits(pos ? 0x7f800000u : 0xff800000u);
}

/* Outputs for a tail of the line once the prefix holds a special value:
 * only the set of specials matters from here on (walk->specials gathers
 * them). */
static void special_tail(sum_f32_walk *walk, size_t n, const float *in, float *out)
{
    uint32_t specials = walk->specials;
    for (size_t i = 0; i < n; ++i)
    {
        uint32_t bits = f32_bits(in[i]);
        if ((bits & 0x7f800000u) == 0x7f800000u)
        {
            if (bits & 0x7fffffu)
                specials |= DMLCONF_SPECIAL_NAN;
            else
                specials |= (bits >> 31) ? DMLCONF_SPECIAL_NEG_INF : DMLCONF_SPECIAL_POS_INF;
        }
        out[i] = special_sum(specials);
    }
    walk->specials = specials;
}

/* True when the double d lies exactly halfway between two consecutive
 * float32 values of its binade (its low 29 fraction bits are 0x10000000).
 * Meaningful for |d| in the normal float32 range, where it also finds the
 * overflow threshold 2^128 (1 - 2^-25). */
static bool is_f32_midpoint(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof(bits));
    return (bits & UINT64_C(0x1fffffff)) == UINT64_C(0x10000000);
}

/* Elements per block of the fast path. */
#define CHUNK 32

/* The state of one line's scan is a sum_f32_walk (line_kernels.h): the
 * double-word sum s + t with its bound b, and the lagging exact accumulator
 * of the line's elements [0, absorbed). */
typedef sum_f32_walk sum_state;

/* Tries CHUNK elements at once: the serial pass, then the interval test
 * with the bound at the end of the block, which is at least every element's
 * own. Returns false, with the state unchanged, when some element needs more
 * care; `out` may then hold partial results, which the caller overwrites. */
static bool sum_chunk(sum_state *st, const float *in, float *out)
{
    double sums[CHUNK], remainders[CHUNK];
    double s = st->s, t = st->t, b = st->b;
    for (int k = 0; k < CHUNK; ++k)
    {
        double x = (double)in[k];
        double sum = s + x;
        double x_part = sum - s;
        double error = (s - (sum - x_part)) + (x - x_part);
        s = sum;
        t += error;
        b += fabs(t);
        sums[k] = s;
        remainders[k] = t;
    }
    if (b == 0.0)
    {
        /* Every remainder was zero (a NaN would make b NaN): s is exact. */
        for (int k = 0; k < CHUNK; ++k)
            out[k] = (float)sums[k];
        st->s = s;
        return true;
    }
    uint64_t start_bits;
    memcpy(&start_bits, &st->s, sizeof(start_bits));
    if (start_bits == UINT64_C(0x8000000000000000))
    {
        /* Every term so far is -0: an early prefix of the block may still
         * be a -0 sum, which the interval test would make +0. */
        return false;
    }
    int differ = 0;
    for (int k = 0; k < CHUNK; ++k)
    {
        double v = sums[k] + remainders[k];
        /* |S - v| <= 2^-53 (b (1 + 2^-30) + |v|); the radius is eight times
         * that, which also absorbs the rounding of v -+ r. */
        double r = (b + fabs(v)) * 0x1p-50;
        float low = (float)(v - r);
        float high = (float)(v + r);
        differ |= low != high;
        /* Equal ends: high is the result (+0, never -0, for a zero sum;
         * NaNs never compare equal). */
        out[k] = high;
    }
    if (differ)
        return false;
    st->s = s;
    st->t = t;
    st->b = b;
    return true;
}

/* Brings the lagging accumulator up to element `end` of the line (not
 * included): the elements before the piece, which starts at `position`,
 * come from the history, the others from `in`. Returns 0, or -1 with err
 * set when the history cannot give them. */
static int absorb_until(sum_state *st, uint64_t position, uint64_t end, const float *in, const oracle_history *history,
                        dmlconf_error *err)
{
    float earlier[256];
    while (st->absorbed < position && st->absorbed < end)
    {
        uint64_t stop = position < end ? position : end;
        size_t count = stop - st->absorbed < 256u ? (size_t)(stop - st->absorbed) : 256u;
        if (oracle_history_read(history, st->absorbed, count, earlier, err))
            return -1;
        exact_acc_add_f32_array(&st->acc, count, earlier);
        st->absorbed += count;
    }
    if (st->absorbed < end)
    {
        exact_acc_add_f32_array(&st->acc, (size_t)(end - st->absorbed), in + (st->absorbed - position));
        st->absorbed = end;
    }
    return 0;
}

/* The exact result for element i of the piece (which starts at element
 * `position` of the line), from the lagging accumulator; resets the
 * double-word sum to it. Returns 1, or 0 when the prefix holds a NaN or an
 * infinity (out[i] is then set and the caller finishes the line), or -1
 * with err set when the earlier elements cannot be read. */
static int sum_slow(sum_state *st, uint64_t position, size_t i, const float *in, float *out,
                    const oracle_history *history, dmlconf_error *err)
{
    if (absorb_until(st, position, position + i + 1, in, history, err))
        return -1;
    if (st->acc.specials)
    {
        out[i] = special_sum(st->acc.specials);
        return 0;
    }
    /* The exact sum S rounded to double is d. When that is exact, (float)d
     * rounds S once. When it is not, S is a normal-range value (a multiple
     * of 2^-149 needing more than 53 bits) strictly between d and a double
     * neighbour, and (float)d rounds S the same way unless d itself is a
     * float32 rounding midpoint: only then is the accumulator rounded to 24
     * bits directly. Here some term is not -0 (the exact paths took every
     * -0 prefix), so a zero sum is +0, which is what both roundings give. */
    bool inexact = false;
    double d = exact_acc_round(&st->acc, 53, -1074, 1024, &inexact);
    if (inexact && is_f32_midpoint(d))
        out[i] = exact_acc_round_f32(&st->acc);
    else
        out[i] = (float)d;
    st->s = d;
    st->t = 0.0;
    st->b = inexact ? fabs(d) : 0.0;
    return 1;
}

/* The float32 rounding of v + w, where v is v + w rounded to double (a
 * TwoSum pair). */
static float round_pair(double v, double w)
{
    if (w != 0.0 && is_f32_midpoint(v))
    {
        /* v + w is strictly on w's side of the midpoint v, within half a
         * double ulp: the double next to v on that side rounds like it. */
        uint64_t bits;
        memcpy(&bits, &v, sizeof(bits));
        bits = ((w > 0.0) == (v > 0.0)) ? bits + 1u : bits - 1u;
        memcpy(&v, &bits, sizeof(v));
    }
    return (float)v;
}

/* The float32 rounding of the exact sum s + t (b is 0: no rounding error so
 * far). */
static float round_exact_pair(double s, double t)
{
    if (t == 0.0)
        return (float)s; /* keeps the -0 of an all -0 prefix */
    double v = s + t;
    double t_part = v - s;
    double w = (s - (v - t_part)) + (t - t_part); /* S = v + w exactly */
    return round_pair(v, w);
}

/* The float32 rounding of S decided from the double-word s + t where the
 * interval test could not decide it (S near a rounding boundary, within
 * the test's radius, which is dominated by the rounding of s + t to one
 * double). S lies within 2^-53 b (1 + 2^-30) of s + t = v + w (TwoSum,
 * exact), and rounds to f, the rounding of v + w, when it lies strictly
 * between f's two rounding midpoints. With V = |v| and W = +-w (the sign of
 * v), so that the magnitude is V + W: V lies between those midpoints or on
 * one (it rounds to |f|, or is the midpoint that w leaves on f's side),
 * within a relative 2^-23 of each, so V's distance to each is exact
 * (Sterbenz); that distance plus or minus W, rounded once, is compared with
 * twice the bound (2^-52 b), which covers the one rounding and the bound's
 * own factor. Only a normal f below FLT_MAX is decided, whose neighbours
 * and midpoints are finite (a midpoint of two neighbouring floats is a
 * double); zeros, subnormals, the largest finite values, infinities, NaNs
 * and an infinite or NaN bound are left to the exact fallback. Sets *out
 * and returns true when decided. */
static bool round_near_boundary(double s, double t, double b, float *out)
{
    double v = s + t;
    double t_part = v - s;
    double w = (s - (v - t_part)) + (t - t_part);
    float f = round_pair(v, w);
    float magnitude = fabsf(f);
    if (!(magnitude >= FLT_MIN && magnitude < FLT_MAX))
        return false;
    uint32_t bits = f32_bits(magnitude);
    double m = (double)magnitude;
    double upper = (m + (double)f32_from_bits(bits + 1u)) * 0.5;
    double lower = (m + (double)f32_from_bits(bits - 1u)) * 0.5;
    double V = fabs(v), W = v < 0.0 ? -w : w;
    double twice_bound = b * 0x1p-52;
    if ((upper - V) - W > twice_bound && (V - lower) + W > twice_bound)
    {
        *out = f;
        return true;
    }
    return false;
}

/* Elements [i, end) of the piece one at a time. Returns 1, or 0 when a
 * special value ended the line (every output up to n is then written), or
 * -1 with err set when the exact fallback cannot read earlier elements. */
static int sum_elements(sum_state *st, uint64_t position, size_t i, size_t end, size_t n, const float *in, float *out,
                        const oracle_history *history, dmlconf_error *err)
{
    double s = st->s, t = st->t, b = st->b;
    for (; i < end; ++i)
    {
        double x = (double)in[i];
        double sum = s + x;
        double x_part = sum - s;
        double error = (s - (sum - x_part)) + (x - x_part);
        s = sum;
        double t_new = t + error;
        /* The addition was exact iff both differences give the operands
         * back (the larger operand's difference is always exact, so a
         * rounded sum fails one of them; a NaN fails both). */
        bool exact = t_new - t == error && t_new - error == t;
        t = t_new;
        if (!exact)
            b += fabs(t);
        if (b == 0.0)
        {
            out[i] = round_exact_pair(s, t);
            continue;
        }
        double v = s + t;
        double r = (b + fabs(v)) * 0x1p-50;
        float low = (float)(v - r);
        float high = (float)(v + r);
        if (low == high)
        {
            out[i] = high; /* +0, never -0, for a zero sum (as sum_chunk) */
            continue;
        }
        if (round_near_boundary(s, t, b, &out[i]))
            continue;
        int status = sum_slow(st, position, i, in, out, history, err);
        if (status < 0)
            return -1;
        if (status == 0)
        {
            st->special = true;
            st->specials = st->acc.specials;
            special_tail(st, n - i - 1, in + i + 1, out + i + 1);
            return 0;
        }
        s = st->s;
        t = st->t;
        b = st->b;
    }
    st->s = s;
    st->t = t;
    st->b = b;
    return 1;
}

void oracle_sum_f32_init(sum_f32_walk *walk)
{
    walk->s = -0.0;
    walk->t = 0.0;
    walk->b = 0.0;
    exact_acc_init(&walk->acc);
    walk->absorbed = 0;
    walk->special = false;
    walk->specials = 0;
}

/* The next n elements of the line, from element `position` on (see the file
 * comment; line_kernels.h for the contract). */
int oracle_sum_f32_next(sum_f32_walk *st, uint64_t position, size_t n, const float *in, float *out,
                        const oracle_history *history, dmlconf_error *err)
{
    if (st->special)
    {
        special_tail(st, n, in, out);
        return 0;
    }
    size_t i = 0;
    while (i < n)
    {
        if (n - i >= CHUNK && sum_chunk(st, in + i, out + i))
        {
            i += CHUNK;
            continue;
        }
        size_t end = n - i >= CHUNK ? i + CHUNK : n;
        int status = sum_elements(st, position, i, end, n, in, out, history, err);
        if (status < 0)
            return -1;
        if (status == 0)
            return 0;
        i = end;
    }
    /* Without a history, this piece's elements must be in the accumulator
     * before the piece is gone. */
    if (!history->read)
        return absorb_until(st, position, position + n, in, history, err);
    return 0;
}

/* ---- segment summaries ------------------------------------------------------ */

void oracle_sum_f32_summary_init(sum_f32_summary *s)
{
    exact_acc_init(&s->acc);
    s->all_negative_zero = true;
}

void oracle_sum_f32_summary_add(sum_f32_summary *s, size_t n, const float *in)
{
    exact_acc_add_f32_array(&s->acc, n, in);
    for (size_t i = 0; i < n && s->all_negative_zero; ++i)
        s->all_negative_zero = f32_bits(in[i]) == 0x80000000u;
}

void oracle_sum_f32_summary_combine(sum_f32_summary *into, const sum_f32_summary *next)
{
    exact_acc_add_acc(&into->acc, &next->acc);
    into->all_negative_zero = into->all_negative_zero && next->all_negative_zero;
}

/* The walk after the prefix (`position` elements), in the state its exact
 * fallback leaves: the double-word sum the exact prefix rounded to double,
 * its bound the rounding's error. Returns the prefix's inclusive result. */
float oracle_sum_f32_resume(sum_f32_walk *walk, const sum_f32_summary *prefix, uint64_t position, bool empty)
{
    oracle_sum_f32_init(walk);
    if (empty)
        return 0.0f; /* the identity: +0 */
    walk->acc = prefix->acc;
    walk->absorbed = position;
    if (walk->acc.specials)
    {
        walk->special = true;
        walk->specials = walk->acc.specials;
        return special_sum(walk->specials);
    }
    if (prefix->all_negative_zero)
    {
        walk->s = -0.0; /* still a run of -0 terms: their sum is -0 */
        return -0.0f;
    }
    bool inexact = false;
    double d = exact_acc_round(&walk->acc, 53, -1074, 1024, &inexact);
    walk->s = d;
    walk->t = 0.0;
    walk->b = inexact ? fabs(d) : 0.0;
    /* As sum_slow rounds: (float)d rounds the exact sum once unless d is a
     * float32 midpoint it was rounded onto. A zero sum is +0 here. */
    return inexact && is_f32_midpoint(d) ? exact_acc_round_f32(&walk->acc) : (float)d;
}
