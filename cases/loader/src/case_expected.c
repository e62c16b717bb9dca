/*
 * case_expected.c: the expected values a positive case gives (an inline list
 * or a .npy file), checked against the oracle when the case loads.
 *
 * The values are judged as the oracle backend's self-check would judge them
 * (dmlconf_case_judging_tolerance with exact_backend): bit for bit, signed
 * zeros included, when the case gives no tolerance (its values must be the
 * oracle's own, as bless writes them), else by the case's tolerance (a peer
 * suite's golden values, printed with fewer digits). So a case that loads
 * passes the self-check, and a run never blames a backend for a wrong
 * expected value: the case is an error before anything runs.
 *
 * The comparator does the judging: the given values play the output, the
 * oracle (computed line by line from the input, in chunks) the reference.
 * Inline values are in memory already; a .npy file is read in slabs of
 * whole lines along the dimensions before the axis, so memory stays bounded
 * by a slab however large the file (a tensor with no dimension before its
 * axis is one slab). Only when a value disagrees is its position found,
 * by reading the list's events again (list_marks.c).
 */
#include "loader_internal.h"

#include <dmlconf/comparator.h>
#include <dmlconf/large_memory.h>
#include <dmlconf/values.h>

#include <stdlib.h>
#include <string.h>

/* Elements of a .npy file's slab (whole lines: more when one outer index
 * holds more). */
#define SLAB_ELEMENTS (UINT64_C(1) << 22)

/* The comparator's reader of a slab's logical input. */
typedef struct slab_input
{
    const dmlconf_case *view;
    uint64_t first; /* logical index of the slab's first element */
} slab_input;

static int read_slab_input(void *context, uint64_t first, uint64_t count, void *out, char *why, size_t why_size)
{
    const slab_input *slab = context;

    return dmlconf_case_data_read(slab->view, &slab->view->input, slab->first + first, count, out, why, why_size);
}

/* A list shows its first DMLCONF_CASE_MAX_LIST_ERRORS bad values: the
 * comparator keeps at least as many mismatches of a slab. */
_Static_assert(DMLCONF_MISMATCH_SAMPLES >= DMLCONF_CASE_MAX_LIST_ERRORS,
               "the comparator must keep as many mismatches as a list shows");

/* What the slabs found: the count, and the first mismatches in logical
 * order with their indices and coordinates in the whole tensor. */
typedef struct check_findings
{
    uint64_t mismatches;
    size_t sample_count;
    dmlconf_mismatch samples[DMLCONF_CASE_MAX_LIST_ERRORS];
} check_findings;

/* Adds a slab's comparison (its first element at logical index `first` of
 * the tensor `whole`) to the findings. */
static void add_findings(check_findings *found, const dmlconf_comparison *cmp, uint64_t first,
                         const dmlconf_tensor_desc *whole)
{
    uint32_t i, d;
    uint64_t index;

    found->mismatches += cmp->mismatches;
    for (i = 0; i < cmp->sample_count && found->sample_count < DMLCONF_CASE_MAX_LIST_ERRORS; ++i)
    {
        dmlconf_mismatch *m = &found->samples[found->sample_count++];
        *m = cmp->samples[i];
        m->logical_index += first;
        m->dimension_count = whole->dimension_count;
        for (index = m->logical_index, d = whole->dimension_count; d-- > 0;)
        {
            m->coordinates[d] = (uint32_t)(index % whole->sizes[d]);
            index /= whole->sizes[d];
        }
    }
}

/* The slab of `lines` outer indices of the packed desc `packed` (whose
 * elements before the axis are flattened into one dimension, the axis and
 * those after it kept). */
static dmlconf_scan_desc slab_desc(const dmlconf_scan_desc *packed, uint64_t lines)
{
    dmlconf_scan_desc slab = *packed;
    uint32_t rank = packed->input.dimension_count, axis = packed->axis, d;

    if (!axis)
    {
        return slab; /* one slab: the whole tensor */
    }
    slab.input.dimension_count = rank - axis + 1u;
    slab.input.sizes[0] = (uint32_t)lines;
    for (d = axis; d < rank; ++d)
    {
        slab.input.sizes[d - axis + 1u] = packed->input.sizes[d];
    }
    slab.axis = 1;
    slab.output = slab.input;
    return slab;
}

/* "item 9 [0, 2, 1]" or "item 9" (a 1-D tensor), of a mismatch. */
static void describe_item(const dmlconf_mismatch *m, const char *word, char *text, size_t size)
{
    size_t used = (size_t)snprintf(text, size, "%s %" PRIu64, word, m->logical_index);
    uint32_t d;

    if (m->dimension_count < 2)
    {
        return;
    }
    for (d = 0; d < m->dimension_count && used < size; ++d)
    {
        used += (size_t)snprintf(text + used, size - used, "%s%" PRIu32, d ? ", " : " [", m->coordinates[d]);
    }
    if (used < size)
    {
        snprintf(text + used, size - used, "]");
    }
}

/* Whether the case judges its expected values bit for bit (no tolerance of
 * its own or from the defaults). */
static bool judged_bit_for_bit(const loader_draft *d)
{
    unsigned f;

    for (f = 0; f < DMLCONF_TOLERANCE_FIELD_COUNT; ++f)
    {
        if (d->tolerance.overrides.set[f])
        {
            return false;
        }
    }
    return true;
}

/* Reports every mismatch found (the first ones at their positions, the
 * rest counted). */
static void report(loader *L, const loader_draft *d, loader_data *data, const dmlconf_case_data *expected,
                   dmlconf_data_type type, uint64_t count, const check_findings *found)
{
    uint64_t indices[DMLCONF_CASE_MAX_LIST_ERRORS];
    dmlconf_mark marks[DMLCONF_CASE_MAX_LIST_ERRORS];
    char given[DMLCONF_ELEMENT_TEXT_SIZE], oracle[DMLCONF_ELEMENT_TEXT_SIZE], rule[DMLCONF_RULE_TEXT_SIZE];
    char item[DMLCONF_MAX_DIMENSIONS * 12 + 40], total[320];
    bool inline_values = expected->kind == DMLCONF_CASE_DATA_INLINE, positioned = false;
    const char *how;
    size_t i;

    for (i = 0; i < found->sample_count; ++i)
    {
        indices[i] = found->samples[i].logical_index;
    }
    if (inline_values)
    {
        positioned = !loader_list_item_marks(&L->source, data->mark, indices, found->sample_count, marks);
    }
    if (!dmlconf_data_type_is_float(type))
    {
        how = ""; /* integers are bit-exact, whatever the case says */
    }
    else if (judged_bit_for_bit(d))
    {
        how = " (without a tolerance, expected values must be the oracle's own bits, signed zeros included)";
    }
    else
    {
        how = " under the case's tolerance";
    }
    snprintf(total, sizeof(total), "; %" PRIu64 " of the %" PRIu64 " values %s with the oracle%s", found->mismatches,
             count, found->mismatches == 1 ? "disagrees" : "disagree", how);
    for (i = 0; i < found->sample_count; ++i)
    {
        const dmlconf_mismatch *m = &found->samples[i];
        dmlconf_format_element(type, m->actual_bits, given, sizeof(given));
        dmlconf_format_element(type, m->expected_bits, oracle, sizeof(oracle));
        dmlconf_format_rule(type, m, rule, sizeof(rule));
        if (inline_values)
        {
            describe_item(m, "item", item, sizeof(item));
            loader_data_error(L, data, positioned ? marks[i] : data->mark,
                              "expected %s: %s given, but the oracle computes %s; %s%s", item, given, oracle, rule,
                              i ? "" : total);
        }
        else
        {
            describe_item(m, "element", item, sizeof(item));
            loader_data_error(L, data, expected->npy_mark,
                              "expected: %s: %s: %s given, but the oracle computes %s; %s%s", expected->npy_text, item,
                              given, oracle, rule, i ? "" : total);
        }
    }
    /* The rest are counted, as a list's other bad values are. */
    data->errors += (size_t)(found->mismatches - found->sample_count);
    loader_data_error_summary(L, data, "expected");
}

void loader_check_expected(loader *L, const loader_draft *d, loader_data *data, const dmlconf_scan_desc *desc,
                           const dmlconf_case_data *input, const dmlconf_case_data *expected)
{
    uint64_t count = dmlconf_tensor_element_count(&desc->input), block = 1, outer, lines, first_line;
    dmlconf_data_type type = desc->output.data_type;
    size_t size = dmlconf_value_size(type);
    dmlconf_scan_desc packed, slab;
    dmlconf_comparison *cmp = NULL;
    check_findings found;
    dmlconf_tolerance tol;
    dmlconf_case view;
    dmlconf_error err;
    unsigned char *buffer = NULL;
    size_t buffer_bytes;
    char why[256];
    uint32_t k;

    if ((expected->kind != DMLCONF_CASE_DATA_INLINE && expected->kind != DMLCONF_CASE_DATA_NPY) ||
        input->kind == DMLCONF_CASE_DATA_NONE || !size || !count)
    {
        return;
    }
    if (L->options.expected_check == DMLCONF_EXPECTED_CHECK_NONE ||
        (L->options.expected_check != DMLCONF_EXPECTED_CHECK_ALL && count > DMLCONF_CASE_CHECK_EXPECTED_MAX_ELEMENTS))
    {
        return;
    }
    /* The case as far as reading its values and choosing its tolerance
     * need it (nothing here is owned). */
    memset(&view, 0, sizeof(view));
    view.desc = *desc;
    view.input = *input;
    view.expected = *expected;
    view.tolerance = d->tolerance;
    dmlconf_case_judging_tolerance(&view, true, &tol);

    /* The logical tensors, packed: layouts do not change the values. */
    packed = *desc;
    packed.input.has_strides = packed.output.has_strides = false;
    packed.input.total_size_bytes = packed.output.total_size_bytes = 0;
    packed.in_place = false;
    for (k = desc->axis; k < desc->input.dimension_count; ++k)
    {
        block *= desc->input.sizes[k];
    }
    outer = count / block;
    lines = outer;
    if (expected->kind == DMLCONF_CASE_DATA_NPY && desc->axis > 0)
    {
        lines = block >= SLAB_ELEMENTS ? 1 : SLAB_ELEMENTS / block;
        lines = lines < outer ? lines : outer;
    }
    /* A slab's values, where they are not used in place: a .npy file's, and
     * inline values whose tensor's minimum size is rounded up past them
     * (float16, an odd count). The size is rounded up to 4 bytes too. */
    buffer_bytes = lines * block <= (SIZE_MAX - 8u) / size ? (size_t)(lines * block) * size + 8u : 0;
    cmp = malloc(sizeof(*cmp));
    if (!cmp || !buffer_bytes)
    {
        goto out_of_memory;
    }
    memset(&found, 0, sizeof(found));
    for (first_line = 0; first_line < outer; first_line += lines)
    {
        uint64_t slab_lines = outer - first_line < lines ? outer - first_line : lines;
        uint64_t first = first_line * block, slab_count = slab_lines * block, need = 0;
        slab_input reader = {&view, first};
        const void *actual;

        slab = slab_lines == outer ? packed : slab_desc(&packed, slab_lines);
        if (!dmlconf_tensor_min_size_bytes(&slab.output, &need) || need > buffer_bytes)
        {
            goto out_of_memory;
        }
        if (expected->kind == DMLCONF_CASE_DATA_INLINE && need == slab_count * size)
        {
            actual = (const unsigned char *)expected->values + first * size;
        }
        else
        {
            if (!buffer && !(buffer = dmlconf_large_alloc(buffer_bytes)))
            {
                goto out_of_memory;
            }
            memset(buffer + slab_count * size, 0, (size_t)(need - slab_count * size));
            if (dmlconf_case_data_read(&view, &view.expected, first, slab_count, buffer, why, sizeof(why)))
            {
                loader_error(L, expected->npy_mark, "expected: %s", why);
                goto done;
            }
            actual = buffer;
        }
        dmlconf_compare_job job = {
            .desc = &slab,
            .input = {.read = read_slab_input, .context = &reader},
            .actual = actual,
            .actual_bytes = (size_t)need,
            .tol = &tol,
            .threads = 1,
        };
        if (dmlconf_compare_tensor(&job, cmp, &err))
        {
            loader_error(L, expected->kind == DMLCONF_CASE_DATA_NPY ? expected->npy_mark : data->mark,
                         "expected values cannot be checked against the oracle: %s", err.message);
            goto done;
        }
        add_findings(&found, cmp, first, &desc->input);
    }
    if (found.mismatches)
    {
        report(L, d, data, expected, type, count, &found);
    }

    goto done;

out_of_memory:
    loader_error(L, expected->kind == DMLCONF_CASE_DATA_NPY ? expected->npy_mark : data->mark,
                 "expected values cannot be checked against the oracle: out of memory for %" PRIu64 " values",
                 lines * block);
done:
    dmlconf_large_free(buffer);
    free(cmp);
}
