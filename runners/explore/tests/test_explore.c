/*
 * Tests of `dmlconf explore`'s parts: the cells of the desc space and how
 * descs fall into them, the generator (reproducible, valid, steered,
 * drawn at the boundaries a backend declares, broadcast values that agree),
 * invalid descs, generated cases written as case files that load back
 * unchanged, failure signatures and findings, the shrinker against
 * backends that fail only for some layouts, and the saved state.
 */
#define _POSIX_C_SOURCE 200809L

#include "explore_internal.h"

#include <check.h>
#include <dmlconf/oracle_backend.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- a backend that is wrong on purpose ---------------------------------------- */

/* Modes (the adapter string):
 *   "broadcast5"  the last element of the output is off by one when the
 *                 input is broadcast and the axis has 5 elements or more
 *   "in-place-exclusive"  the first element is off by one for exclusive
 *                 scans run in place
 *   anything else: the oracle's values. */
typedef struct wrong_backend
{
    dmlconf_backend base;
    char mode[32];
} wrong_backend;

static const dmlconf_backend_ops wrong_ops;

static int wrong_open(const dmlconf_backend_config *config, dmlconf_backend **out, char *why, size_t why_size)
{
    (void)why;
    (void)why_size;
    wrong_backend *b = calloc(1, sizeof(*b));
    ck_assert_ptr_nonnull(b);
    b->base.ops = &wrong_ops;
    snprintf(b->mode, sizeof(b->mode), "%s", config && config->adapter ? config->adapter : "");
    *out = &b->base;
    return 0;
}

static void wrong_close(dmlconf_backend *backend)
{
    free(backend);
}

static void wrong_info(dmlconf_backend *backend, dmlconf_backend_info *info)
{
    (void)backend;
    memset(info, 0, sizeof(*info));
    snprintf(info->backend, sizeof(info->backend), "wrong");
    info->feature_level = DMLCONF_FEATURE_LEVEL_5_0;
    info->capabilities = dmlconf_capabilities_all(0xffffffffu);
}

static bool broadcast_input(const dmlconf_scan_desc *desc)
{
    for (uint32_t d = 0; desc->input.has_strides && d < desc->input.dimension_count; ++d)
    {
        if (desc->input.sizes[d] > 1 && desc->input.strides[d] == 0)
            return true;
    }
    return false;
}

/* Adds one to the element at `offset` of the output (as integer bits). */
static void bump(const dmlconf_job *job, uint64_t offset)
{
    size_t element = dmlconf_data_type_bits(job->desc->output.data_type) / 8;
    unsigned char *p = (unsigned char *)job->output + offset * element;
    p[element == 2 ? 1 : element - 1] ^= 0x40u;
}

static int wrong_execute(dmlconf_backend *backend, dmlconf_job *jobs, size_t count)
{
    wrong_backend *b = (wrong_backend *)backend;
    for (size_t i = 0; i < count; ++i)
    {
        dmlconf_job *job = &jobs[i];
        dmlconf_validation validation;
        job->device_seconds = -1.0;
        if (!dmlconf_validate(job->desc, job->feature_level, &validation))
        {
            job->outcome = DMLCONF_JOB_REJECTED;
            job->reason = validation.reason;
            continue;
        }
        if (!job->output)
        {
            job->outcome = DMLCONF_JOB_DONE;
            continue;
        }
        dmlconf_error err;
        ck_assert_int_eq(
            dmlconf_compute(job->desc, job->input, job->input_bytes, job->output, job->output_bytes, NULL, &err), 0);
        const dmlconf_scan_desc *desc = job->desc;
        if (!strcmp(b->mode, "broadcast5") && broadcast_input(desc) && desc->input.sizes[desc->axis] >= 5)
        {
            uint64_t last = 0;
            for (uint32_t d = 0; d < desc->output.dimension_count; ++d)
                last += (uint64_t)(desc->output.sizes[d] - 1) * dmlconf_tensor_stride(&desc->output, d);
            bump(job, last);
        }
        if (!strcmp(b->mode, "in-place-exclusive") && desc->in_place && desc->exclusive)
            bump(job, 0);
        job->outcome = DMLCONF_JOB_DONE;
    }
    return 0;
}

static const dmlconf_backend_ops wrong_ops = {
    .name = "wrong",
    .description = "wrong on purpose, for tests",
    .open = wrong_open,
    .close = wrong_close,
    .info = wrong_info,
    .execute = wrong_execute,
};

/* ---- helpers ------------------------------------------------------------------------- */

static dmlconf_boundary test_boundaries[] = {
    {DMLCONF_BOUNDARY_AXIS_LENGTH, 0, 64, "chunk"},
    {DMLCONF_BOUNDARY_AXIS_LENGTH, DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_FLOAT32), 1000, "tile"},
    {DMLCONF_BOUNDARY_LINE_COUNT, 0, 32, "group"},
};

typedef struct fixture
{
    explore_generator generator;
    explore_coverage coverage;
} fixture;

static void set_up(fixture *f, uint64_t seed, const dmlconf_backend_capabilities *capabilities, bool boundaries,
                   uint64_t max_elements, unsigned negative_percent)
{
    memset(f, 0, sizeof(*f));
    f->generator.options.seed = seed;
    f->generator.options.level = DMLCONF_FEATURE_LEVEL_5_0;
    f->generator.options.max_elements = max_elements;
    f->generator.options.negative_percent = negative_percent;
    f->generator.capabilities = *capabilities;
    if (boundaries)
    {
        f->generator.boundaries.items = test_boundaries;
        f->generator.boundaries.count = sizeof(test_boundaries) / sizeof(test_boundaries[0]);
    }
    ck_assert_int_eq(
        explore_coverage_init(&f->coverage, DMLCONF_FEATURE_LEVEL_5_0, capabilities, &f->generator.boundaries), 0);
    f->generator.coverage = &f->coverage;
}

static void tear_down(fixture *f)
{
    explore_coverage_free(&f->coverage);
}

static dmlconf_scan_desc packed_desc(dmlconf_data_type type, uint32_t rank, const uint32_t *sizes, uint32_t axis)
{
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    desc.input.data_type = type;
    desc.input.dimension_count = rank;
    memcpy(desc.input.sizes, sizes, rank * sizeof(*sizes));
    desc.axis = axis;
    desc.output = desc.input;
    return desc;
}

static bool same_desc(const dmlconf_scan_desc *a, const dmlconf_scan_desc *b)
{
    bool same = a->op == b->op && a->axis == b->axis && a->direction == b->direction && a->exclusive == b->exclusive &&
                a->in_place == b->in_place;
    const dmlconf_tensor_desc *ta[2] = {&a->input, &a->output}, *tb[2] = {&b->input, &b->output};
    for (int t = 0; t < 2 && same; ++t)
    {
        same = ta[t]->data_type == tb[t]->data_type && ta[t]->dimension_count == tb[t]->dimension_count &&
               ta[t]->has_strides == tb[t]->has_strides;
        for (uint32_t d = 0; same && d < ta[t]->dimension_count && d < DMLCONF_MAX_DIMENSIONS; ++d)
            same =
                ta[t]->sizes[d] == tb[t]->sizes[d] && (!ta[t]->has_strides || ta[t]->strides[d] == tb[t]->strides[d]);
    }
    return same;
}

/* ---- cells ---------------------------------------------------------------------------- */

START_TEST(test_cell_index_round_trip)
{
    size_t existing = 0;
    for (size_t i = 0; i < EXPLORE_CELL_COUNT; ++i)
    {
        explore_cell cell = explore_cell_at(i);
        if (explore_cell_index(&cell) != i)
            ck_abort_msg("cell %zu comes back as %zu", i, explore_cell_index(&cell));
        if (!explore_cell_exists(&cell))
            continue;
        ++existing;
        char name[160];
        explore_cell_name(&cell, name, sizeof(name));
        if (strlen(name) > DMLCONF_CASE_MAX_ID_BYTES ||
            strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789._-") != strlen(name))
            ck_abort_msg("%s is not a case id", name);
    }
    ck_assert_uint_gt(existing, EXPLORE_CELL_COUNT / 2);
    ck_assert_uint_lt(existing, EXPLORE_CELL_COUNT);
}
END_TEST

START_TEST(test_size_classes)
{
    explore_boundaries b = {test_boundaries, 3};
    dmlconf_data_type f32 = DMLCONF_DATA_TYPE_FLOAT32, i32 = DMLCONF_DATA_TYPE_INT32;
    ck_assert_int_eq(explore_size_class_of(&b, f32, 1), EXPLORE_SIZE_ONE);
    ck_assert_int_eq(explore_size_class_of(&b, f32, 5), EXPLORE_SIZE_SMALL);
    ck_assert_int_eq(explore_size_class_of(&b, f32, 16), EXPLORE_SIZE_POWER);
    ck_assert_int_eq(explore_size_class_of(&b, f32, 17), EXPLORE_SIZE_NEAR_POWER);
    ck_assert_int_eq(explore_size_class_of(&b, f32, 37), EXPLORE_SIZE_OTHER);
    /* 64 and 3 x 64 + 1 are at the chunk boundary; 1000 only for float32. */
    ck_assert_int_eq(explore_size_class_of(&b, f32, 64), EXPLORE_SIZE_BOUNDARY);
    ck_assert_int_eq(explore_size_class_of(&b, i32, 193), EXPLORE_SIZE_BOUNDARY);
    ck_assert_int_eq(explore_size_class_of(&b, f32, 1001), EXPLORE_SIZE_BOUNDARY);
    ck_assert_int_eq(explore_size_class_of(&b, i32, 1001), EXPLORE_SIZE_OTHER);
    ck_assert_int_eq(explore_size_class_of(NULL, f32, 64), EXPLORE_SIZE_POWER);
    /* A line-count boundary says nothing about the axis. */
    ck_assert_int_eq(explore_size_class_of(&b, f32, 33), EXPLORE_SIZE_NEAR_POWER);
}
END_TEST

START_TEST(test_layout_classes)
{
    const uint32_t sizes[] = {3, 4};
    dmlconf_scan_desc desc = packed_desc(DMLCONF_DATA_TYPE_FLOAT32, 2, sizes, 1);
    ck_assert_int_eq(explore_layout_class_of(&desc), EXPLORE_LAYOUT_PACKED);
    desc.input.has_strides = true;
    desc.input.strides[0] = 4, desc.input.strides[1] = 1;
    ck_assert_int_eq(explore_layout_class_of(&desc), EXPLORE_LAYOUT_PACKED);
    desc.input.strides[0] = 5;
    ck_assert_int_eq(explore_layout_class_of(&desc), EXPLORE_LAYOUT_PADDED);
    desc.input.strides[0] = 1, desc.input.strides[1] = 3;
    ck_assert_int_eq(explore_layout_class_of(&desc), EXPLORE_LAYOUT_PERMUTED);
    desc.input.strides[0] = 0, desc.input.strides[1] = 1;
    ck_assert_int_eq(explore_layout_class_of(&desc), EXPLORE_LAYOUT_BROADCAST);
    desc.input.has_strides = false;
    desc.in_place = true;
    ck_assert_int_eq(explore_layout_class_of(&desc), EXPLORE_LAYOUT_IN_PLACE);
    /* Size-1 dimensions never make a layout special. */
    const uint32_t thin[] = {1, 4};
    desc = packed_desc(DMLCONF_DATA_TYPE_FLOAT32, 2, thin, 1);
    desc.output.has_strides = true;
    desc.output.strides[0] = 0, desc.output.strides[1] = 1;
    ck_assert_int_eq(explore_layout_class_of(&desc), EXPLORE_LAYOUT_PACKED);
}
END_TEST

START_TEST(test_cells_allowed)
{
    explore_boundaries none = {NULL, 0};
    dmlconf_backend_capabilities all = dmlconf_capabilities_all(0xffffffffu);
    explore_cell cell = {.type = 4,
                         .product = 0,
                         .rank = 3,
                         .axis_position = EXPLORE_AXIS_MIDDLE,
                         .layout = EXPLORE_LAYOUT_IN_PLACE,
                         .size_class = EXPLORE_SIZE_SMALL};
    ck_assert(explore_cell_allowed(&cell, DMLCONF_FEATURE_LEVEL_5_0, &all, &none));
    /* int64 needs 5_0, rank 3 needs 4_0. */
    ck_assert(!explore_cell_allowed(&cell, DMLCONF_FEATURE_LEVEL_4_1, &all, &none));
    cell.type = 0;
    ck_assert(explore_cell_allowed(&cell, DMLCONF_FEATURE_LEVEL_4_0, &all, &none));
    ck_assert(!explore_cell_allowed(&cell, DMLCONF_FEATURE_LEVEL_3_1, &all, &none));
    dmlconf_backend_capabilities no_in_place = all;
    no_in_place.features &= ~DMLCONF_CAN_IN_PLACE;
    ck_assert(!explore_cell_allowed(&cell, DMLCONF_FEATURE_LEVEL_5_0, &no_in_place, &none));
    cell.size_class = EXPLORE_SIZE_BOUNDARY;
    ck_assert(!explore_cell_allowed(&cell, DMLCONF_FEATURE_LEVEL_5_0, &all, &none));
    explore_boundaries some = {test_boundaries, 3};
    ck_assert(explore_cell_allowed(&cell, DMLCONF_FEATURE_LEVEL_5_0, &all, &some));
    /* A permutation needs two wide dimensions; the middle axis rank 3. */
    explore_cell thin = {.type = 0,
                         .rank = 2,
                         .axis_position = EXPLORE_AXIS_LAST,
                         .layout = EXPLORE_LAYOUT_PERMUTED,
                         .size_class = EXPLORE_SIZE_ONE};
    ck_assert(!explore_cell_exists(&thin));
    thin.size_class = EXPLORE_SIZE_SMALL;
    ck_assert(explore_cell_exists(&thin));
    thin.axis_position = EXPLORE_AXIS_MIDDLE;
    ck_assert(!explore_cell_exists(&thin));
}
END_TEST

/* ---- the generator ------------------------------------------------------------------------ */

START_TEST(test_same_seed_same_cases)
{
    dmlconf_backend_capabilities all = dmlconf_capabilities_all(0xffffffffu);
    fixture a, b, c;
    set_up(&a, 11, &all, true, 4096, 5);
    set_up(&b, 11, &all, true, 4096, 5);
    set_up(&c, 12, &all, true, 4096, 5);
    size_t differ = 0;
    for (uint64_t i = 0; i < 2000; ++i)
    {
        explore_spec x, y, z;
        if (explore_generate(&a.generator, i, &x) || explore_generate(&b.generator, i, &y) ||
            explore_generate(&c.generator, i, &z))
            ck_abort_msg("out of memory");
        if (!same_desc(&x.desc, &y.desc) || x.negative != y.negative || x.count != y.count ||
            (x.values &&
             memcmp(x.values, y.values, (size_t)x.count * dmlconf_data_type_bits(x.desc.input.data_type) / 8)))
            ck_abort_msg("case %llu differs between two runs of one seed", (unsigned long long)i);
        differ += !same_desc(&x.desc, &z.desc);
        explore_spec_free(&x);
        explore_spec_free(&y);
        explore_spec_free(&z);
    }
    ck_assert_uint_gt(differ, 1900);
    tear_down(&a);
    tear_down(&b);
    tear_down(&c);
}
END_TEST

/* Checks that logical elements sharing storage have equal values. */
static void check_broadcast_values(const explore_spec *spec)
{
    const dmlconf_tensor_desc *in = &spec->desc.input;
    size_t element = dmlconf_data_type_bits(in->data_type) / 8;
    uint64_t bytes = 0;
    ck_assert(dmlconf_tensor_min_size_bytes(in, &bytes));
    uint64_t slots = bytes / element + 1;
    int64_t *first = malloc(slots * sizeof(*first));
    ck_assert_ptr_nonnull(first);
    for (uint64_t s = 0; s < slots; ++s)
        first[s] = -1;
    for (uint64_t i = 0; i < spec->count; ++i)
    {
        uint64_t rest = i, offset = 0;
        for (uint32_t d = in->dimension_count; d-- > 0;)
        {
            offset += (rest % in->sizes[d]) * dmlconf_tensor_stride(in, d);
            rest /= in->sizes[d];
        }
        if (offset >= slots)
            ck_abort_msg("case %llu: element %llu lies past the buffer", (unsigned long long)spec->index,
                         (unsigned long long)i);
        if (first[offset] < 0)
            first[offset] = (int64_t)i;
        else if (memcmp((const char *)spec->values + i * element,
                        (const char *)spec->values + (uint64_t)first[offset] * element, element))
            ck_abort_msg("case %llu: elements %llu and %lld share storage but differ", (unsigned long long)spec->index,
                         (unsigned long long)i, (long long)first[offset]);
    }
    free(first);
}

START_TEST(test_generated_cases_are_valid)
{
    dmlconf_backend_capabilities all = dmlconf_capabilities_all(0xffffffffu);
    fixture f;
    set_up(&f, 3, &all, true, 2048, 10);
    size_t negatives = 0, layouts[EXPLORE_LAYOUT_COUNT] = {0}, on_boundary = 0;
    for (uint64_t i = 0; i < 6000; ++i)
    {
        explore_spec spec;
        ck_assert_int_eq(explore_generate(&f.generator, i, &spec), 0);
        dmlconf_validation validation;
        bool valid = dmlconf_validate(&spec.desc, DMLCONF_FEATURE_LEVEL_5_0, &validation);
        if (spec.negative)
        {
            ++negatives;
            ck_assert_msg(!valid, "case %llu: an invalid desc that validates", (unsigned long long)i);
            ck_assert_int_eq(validation.reason, spec.reason);
            explore_spec_free(&spec);
            continue;
        }
        if (!valid)
            ck_abort_msg("case %llu: %s", (unsigned long long)i, validation.message);
        size_t cell;
        if (dmlconf_tensor_self_overlaps(&spec.desc.output) || spec.count > 2048 ||
            spec.count != dmlconf_tensor_element_count(&spec.desc.input) ||
            !explore_spec_cell(&f.generator, &spec, &cell) || !f.coverage.allowed[cell])
            ck_abort_msg("case %llu: an overlapping output, too many elements or a cell not allowed",
                         (unsigned long long)i);
        layouts[explore_layout_class_of(&spec.desc)]++;
        on_boundary += explore_near_boundary(&f.generator.boundaries, spec.desc.input.data_type,
                                             spec.desc.input.sizes[spec.desc.axis]);
        check_broadcast_values(&spec);
        explore_spec_free(&spec);
    }
    /* About a tenth invalid; every layout class; many axes at a boundary. */
    ck_assert_uint_gt(negatives, 400);
    ck_assert_uint_lt(negatives, 800);
    for (unsigned l = 0; l < EXPLORE_LAYOUT_COUNT; ++l)
        ck_assert_uint_gt(layouts[l], 600);
    ck_assert_uint_gt(on_boundary, 600);
    tear_down(&f);
}
END_TEST

START_TEST(test_generation_respects_capabilities)
{
    dmlconf_backend_capabilities some = {DMLCONF_CAN_SUMMATION | DMLCONF_CAN_INCREASING | DMLCONF_CAN_INCLUSIVE,
                                         DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_INT32), 1, 3};
    fixture f;
    set_up(&f, 9, &some, false, 1024, 50);
    for (uint64_t i = 0; i < 2000; ++i)
    {
        explore_spec spec;
        ck_assert_int_eq(explore_generate(&f.generator, i, &spec), 0);
        /* No validation: no invalid descs; only what the backend runs. */
        ck_assert(!spec.negative);
        char why[128], needs[128];
        dmlconf_case c;
        ck_assert_int_eq(explore_case_from_spec(&spec, "t", "t.yaml", &c), 0);
        dmlconf_backend_info info;
        memset(&info, 0, sizeof(info));
        info.capabilities = some;
        ck_assert_msg(!runner_case_unsupported(&info, &c, needs, sizeof(needs), why, sizeof(why)), "case %llu: %s",
                      (unsigned long long)i, why);
        explore_case_release(&c);
        explore_spec_free(&spec);
    }
    tear_down(&f);
}
END_TEST

START_TEST(test_steering_fills_cells)
{
    /* A small space: float32 sums of rank 1 and 2. */
    dmlconf_backend_capabilities some = dmlconf_capabilities_all(DMLCONF_TYPE_BIT(DMLCONF_DATA_TYPE_FLOAT32));
    some.features &= ~(uint32_t)DMLCONF_CAN_PRODUCT;
    some.max_rank = 2;
    fixture f;
    set_up(&f, 5, &some, false, 512, 0);
    size_t allowed = f.coverage.allowed_count;
    ck_assert_uint_gt(allowed, 50);
    for (uint64_t i = 0; i < 4 * allowed; ++i)
    {
        explore_spec spec;
        ck_assert_int_eq(explore_generate(&f.generator, i, &spec), 0);
        explore_spec_free(&spec);
    }
    size_t exercised = 0;
    for (size_t k = 0; k < allowed; ++k)
        exercised += f.coverage.cells[f.coverage.allowed_list[k]].generated > 0;
    /* Uniform draws would leave about e^-4 (2%) of the cells empty and many
     * thin; steering fills nearly all. */
    ck_assert_msg(exercised * 100 >= allowed * 97, "%zu of %zu cells", exercised, allowed);
    tear_down(&f);
}
END_TEST

/* ---- cases as files and as in-memory cases ------------------------------------------------ */

START_TEST(test_written_cases_load_back)
{
    dmlconf_backend_capabilities all = dmlconf_capabilities_all(0xffffffffu);
    fixture f;
    set_up(&f, 21, &all, true, 300, 10);
    enum
    {
        COUNT = 400
    };
    explore_spec *specs = calloc(COUNT, sizeof(*specs));
    ck_assert_ptr_nonnull(specs);
    dmlconf_buffer text = {0};
    dmlconf_buffer_printf(&text, "cases:\n");
    for (uint64_t i = 0; i < COUNT; ++i)
    {
        ck_assert_int_eq(explore_generate(&f.generator, i, &specs[i]), 0);
        char id[32];
        snprintf(id, sizeof(id), "explore.%llu", (unsigned long long)i);
        ck_assert_int_eq(explore_write_case(&text, &specs[i], id, i % 7 ? NULL : "a \"quoted\" note\nover lines"), 0);
    }
    ck_assert(!text.failed);
    dmlconf_case_file file;
    size_t errors = dmlconf_case_file_load_buffer(&file, "explore.yaml", text.data, text.length, NULL);
    if (errors)
        dmlconf_diagnostics_print(&file.diagnostics, NULL, stderr);
    ck_assert_uint_eq(errors, 0);
    ck_assert_uint_eq(file.case_count, COUNT);
    for (size_t i = 0; i < COUNT; ++i)
    {
        const dmlconf_case *c = &file.cases[i];
        ck_assert_msg(same_desc(&c->desc, &specs[i].desc), "case %zu loads back as another desc", i);
        ck_assert_int_eq(c->expect_error.set, specs[i].negative);
        if (specs[i].negative)
        {
            ck_assert_int_eq(c->expect_error.reason, specs[i].reason);
            continue;
        }
        size_t element = dmlconf_data_type_bits(c->desc.input.data_type) / 8;
        void *values = malloc((size_t)specs[i].count * element);
        char why[128];
        ck_assert_int_eq(dmlconf_case_data_read(c, &c->input, 0, specs[i].count, values, why, sizeof(why)), 0);
        ck_assert_msg(!memcmp(values, specs[i].values, (size_t)specs[i].count * element), "case %zu: other values", i);
        free(values);
    }
    dmlconf_case_file_free(&file);
    dmlconf_buffer_free(&text);
    for (size_t i = 0; i < COUNT; ++i)
        explore_spec_free(&specs[i]);
    free(specs);
    tear_down(&f);
}
END_TEST

START_TEST(test_generated_cases_pass_on_the_oracle)
{
    dmlconf_backend_capabilities all = dmlconf_capabilities_all(0xffffffffu);
    fixture f;
    set_up(&f, 8, &all, true, 512, 10);
    runner_backend backend = {0};
    char why[256];
    ck_assert_int_eq(dmlconf_oracle_backend_ops.open(NULL, &backend.backend, why, sizeof(why)), 0);
    backend.backend->ops->info(backend.backend, &backend.info);
    runner_config config = {.level = DMLCONF_FEATURE_LEVEL_5_0};
    for (uint64_t i = 0; i < 1500; ++i)
    {
        explore_spec spec;
        ck_assert_int_eq(explore_generate(&f.generator, i, &spec), 0);
        dmlconf_case c;
        ck_assert_int_eq(explore_case_from_spec(&spec, "explore.t", "t", &c), 0);
        const dmlconf_case *cases[1] = {&c};
        dmlconf_case_result result;
        runner_execute(&backend, &config, cases, 1, &result);
        ck_assert_msg(result.status == DMLCONF_STATUS_PASS, "case %llu: %s: %s", (unsigned long long)i,
                      dmlconf_status_name(result.status), result.message);
        explore_case_release(&c);
        explore_spec_free(&spec);
    }
    backend.backend->ops->close(backend.backend);
    tear_down(&f);
}
END_TEST

/* ---- signatures and findings ---------------------------------------------------------------- */

START_TEST(test_signatures)
{
    const uint32_t sizes[] = {4, 9};
    explore_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.desc = packed_desc(DMLCONF_DATA_TYPE_INT32, 2, sizes, 1);
    dmlconf_case_result result;
    memset(&result, 0, sizeof(result));
    result.status = DMLCONF_STATUS_FAIL;
    result.failure = DMLCONF_FAILURE_VALUES;
    snprintf(result.message, sizeof(result.message), "3 of 36 elements outside tolerance; first element [0, 1]");
    result.comparison.has_earliest = true;
    result.comparison.earliest_position = 1;
    char signature[128];
    explore_signature(&spec, &result, signature, sizeof(signature));
    ck_assert_str_eq(signature, "fail.values.inclusive.at-1");
    spec.desc.exclusive = true;
    result.comparison.earliest_position = 7;
    explore_signature(&spec, &result, signature, sizeof(signature));
    ck_assert_str_eq(signature, "fail.values.exclusive.later");
    snprintf(result.message, sizeof(result.message), "36 of 36 elements outside tolerance (never written); first");
    result.failure = DMLCONF_FAILURE_UNWRITTEN;
    explore_signature(&spec, &result, signature, sizeof(signature));
    ck_assert_str_eq(signature, "fail.unwritten.exclusive.later");
    result.status = DMLCONF_STATUS_ERROR;
    snprintf(result.message, sizeof(result.message), "backend error: vkQueueSubmit failed: 0x8007000E");
    explore_signature(&spec, &result, signature, sizeof(signature));
    ck_assert_str_eq(signature, "error.backend.vkqueuesubmit-failed-nxnnnnnnne");
    result.status = DMLCONF_STATUS_CRASH;
    snprintf(result.message, sizeof(result.message), "the worker running the case was killed by signal 11");
    explore_signature(&spec, &result, signature, sizeof(signature));
    ck_assert_str_eq(signature, "crash.was-killed-by-signal-11");
    spec.negative = true;
    spec.reason = DMLCONF_REASON_AXIS_OUT_OF_RANGE;
    result.status = DMLCONF_STATUS_FAIL;
    result.failure = DMLCONF_FAILURE_ACCEPTED_INVALID;
    snprintf(result.message, sizeof(result.message), "accepted a desc that must be rejected at 5_0");
    explore_signature(&spec, &result, signature, sizeof(signature));
    ck_assert_str_eq(signature, "fail.accepted-invalid.axis_out_of_range");
}
END_TEST

START_TEST(test_findings_group_and_merge)
{
    const uint32_t sizes[] = {6};
    dmlconf_case_result result;
    memset(&result, 0, sizeof(result));
    result.status = DMLCONF_STATUS_FAIL;
    result.failure = DMLCONF_FAILURE_VALUES;
    snprintf(result.message, sizeof(result.message), "1 of 6 elements outside tolerance");
    result.comparison.has_earliest = true;
    explore_findings all = {0}, round = {0};
    explore_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.desc = packed_desc(DMLCONF_DATA_TYPE_FLOAT32, 1, sizes, 0);
    /* Results arrive out of order: the finding's first case is the
     * earliest in the sequence. */
    uint64_t indices[] = {40, 12, 30};
    for (size_t i = 0; i < 3; ++i)
    {
        spec.index = indices[i];
        ck_assert_int_eq(explore_findings_add(&round, &spec, &result, 1.0), 0);
    }
    result.comparison.earliest_position = 4;
    spec.index = 5;
    ck_assert_int_eq(explore_findings_add(&round, &spec, &result, 1.0), 1);
    ck_assert_uint_eq(round.count, 2);
    ck_assert_uint_eq(round.items[0].count, 3);
    ck_assert_uint_eq(round.items[0].first.index, 12);
    ck_assert_uint_eq(round.items[0].first_cases, 13);
    size_t added[2];
    ck_assert_int_eq(explore_findings_merge(&all, &round, added), 2);
    ck_assert_uint_eq(round.count, 0);
    /* Numbered by their first case: index 5 first. */
    ck_assert_str_eq(all.items[0].signature, "fail.values.inclusive.later");
    ck_assert_str_eq(all.items[1].signature, "fail.values.inclusive.at-0");
    /* A later round adds to a known finding. */
    spec.index = 99;
    result.comparison.earliest_position = 0;
    ck_assert_int_eq(explore_findings_add(&round, &spec, &result, 2.0), 0);
    ck_assert_int_eq(explore_findings_merge(&all, &round, added), 0);
    ck_assert_uint_eq(all.count, 2);
    ck_assert_uint_eq(all.items[1].count, 4);
    ck_assert_uint_eq(all.items[1].by_type[0], 4);
    /* Two findings that shrank to one case are one: the later merges into
     * the earlier, and its signature counts there from then on. */
    explore_findings_absorb(&all, 0, 1);
    ck_assert_uint_eq(all.count, 1);
    ck_assert_uint_eq(all.items[0].count, 5);
    ck_assert_str_eq(all.items[0].also, "fail.values.inclusive.at-0");
    spec.index = 120;
    ck_assert_int_eq(explore_findings_add(&all, &spec, &result, 3.0), 0);
    ck_assert_uint_eq(all.items[0].count, 6);
    /* A signature that only starts like a merged one is another. */
    result.comparison.earliest_position = 1;
    ck_assert_int_eq(explore_findings_add(&all, &spec, &result, 3.0), 1);
    explore_findings_free(&all);
    explore_findings_free(&round);
}
END_TEST

/* ---- shrinking ------------------------------------------------------------------------------- */

/* Generates cases until one fails on the backend in `mode`, shrinks it and
 * checks what remains. */
static void shrink_first_failure(const char *mode, explore_layout_class layout, uint32_t expected_axis_length,
                                 const char *expected_signature_head)
{
    dmlconf_backend_capabilities all = dmlconf_capabilities_all(0xffffffffu);
    fixture f;
    set_up(&f, 17, &all, false, 4096, 0);
    runner_backend backend = {0};
    char why[256];
    dmlconf_backend_config config = {.adapter = mode};
    ck_assert_int_eq(wrong_ops.open(&config, &backend.backend, why, sizeof(why)), 0);
    backend.backend->ops->info(backend.backend, &backend.info);
    runner_config run = {.level = DMLCONF_FEATURE_LEVEL_5_0};
    explore_spec spec;
    dmlconf_case_result result;
    bool found = false;
    for (uint64_t i = 0; i < 5000 && !found; ++i)
    {
        ck_assert_int_eq(explore_generate(&f.generator, i, &spec), 0);
        dmlconf_case c;
        ck_assert_int_eq(explore_case_from_spec(&spec, "explore.t", "t", &c), 0);
        const dmlconf_case *cases[1] = {&c};
        runner_execute(&backend, &run, cases, 1, &result);
        explore_case_release(&c);
        /* A case large enough to be worth shrinking. */
        found = result.status == DMLCONF_STATUS_FAIL && spec.count > 20 && spec.desc.input.dimension_count > 2;
        if (!found)
            explore_spec_free(&spec);
    }
    ck_assert_msg(found, "no random case failed in mode %s", mode);
    char signature[128];
    explore_signature(&spec, &result, signature, sizeof(signature));
    ck_assert_msg(!strncmp(signature, expected_signature_head, strlen(expected_signature_head)), "%s", signature);
    explore_shrink_options options = {&backend, &run, &f.generator.boundaries, 400, 30.0};
    explore_shrunk shrunk;
    ck_assert_int_eq(explore_shrink(&options, &spec, signature, &shrunk), 0);
    ck_assert(shrunk.reproduced);
    ck_assert_int_eq(shrunk.result.status, DMLCONF_STATUS_FAIL);
    const dmlconf_scan_desc *desc = &shrunk.spec.desc;
    ck_assert_msg(explore_layout_class_of(desc) == layout, "the shrunk case lost its %s layout",
                  explore_layout_name(layout));
    ck_assert_uint_eq(desc->input.sizes[desc->axis], expected_axis_length);
    ck_assert_uint_lt(shrunk.spec.count, spec.count);
    ck_assert_uint_le(desc->input.dimension_count, 2);

    /* Its reproducer loads as a standalone case that fails on the backend
     * and passes on the oracle. */
    explore_finding finding;
    memset(&finding, 0, sizeof(finding));
    snprintf(finding.signature, sizeof(finding.signature), "%s", signature);
    finding.first = spec;
    finding.count = 1;
    char folder[] = "/tmp/dmlconf-explore-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(folder));
    char path[256];
    snprintf(path, sizeof(path), "%s/repros/r.yaml", folder);
    explore_repro_context context = {&finding,       "wrong",      "dmlconf explore --replay 1",
                                     &shrunk.result, shrunk.tries, NULL};
    ck_assert_int_eq(explore_write_repro(path, &shrunk.spec, "explore.repro", &context, why, sizeof(why)), 0);
    dmlconf_case_file file;
    ck_assert_uint_eq(dmlconf_case_file_load(&file, path, NULL), 0);
    ck_assert_uint_eq(file.case_count, 1);
    const dmlconf_case *cases[1] = {&file.cases[0]};
    runner_execute(&backend, &run, cases, 1, &result);
    ck_assert_int_eq(result.status, DMLCONF_STATUS_FAIL);
    runner_backend oracle = {0};
    ck_assert_int_eq(dmlconf_oracle_backend_ops.open(NULL, &oracle.backend, why, sizeof(why)), 0);
    oracle.backend->ops->info(oracle.backend, &oracle.info);
    runner_execute(&oracle, &run, cases, 1, &result);
    ck_assert_int_eq(result.status, DMLCONF_STATUS_PASS);
    oracle.backend->ops->close(oracle.backend);
    dmlconf_case_file_free(&file);
    remove(path);
    snprintf(path, sizeof(path), "%s/repros", folder);
    rmdir(path);
    rmdir(folder);

    explore_spec_free(&shrunk.spec);
    explore_spec_free(&spec);
    backend.backend->ops->close(backend.backend);
    tear_down(&f);
}

START_TEST(test_shrink_keeps_a_broadcast_that_matters)
{
    /* The fault needs a broadcast input and an axis of 5 or more: the
     * shrunk case keeps both and loses the rest. */
    shrink_first_failure("broadcast5", EXPLORE_LAYOUT_BROADCAST, 5, "fail.values");
}
END_TEST

START_TEST(test_shrink_keeps_in_place)
{
    /* The first logical element is wrong: in scan order the first or the
     * last, by direction; the shrunk case is that element alone. */
    shrink_first_failure("in-place-exclusive", EXPLORE_LAYOUT_IN_PLACE, 1, "fail.values.exclusive");
}
END_TEST

/* ---- the state --------------------------------------------------------------------------------- */

START_TEST(test_state_round_trip)
{
    dmlconf_backend_capabilities all = dmlconf_capabilities_all(0xffffffffu);
    fixture f, g;
    set_up(&f, 2, &all, true, 256, 20);
    set_up(&g, 2, &all, true, 256, 20);
    explore_findings findings = {0}, loaded = {0};
    dmlconf_case_result result;
    memset(&result, 0, sizeof(result));
    result.status = DMLCONF_STATUS_CRASH;
    snprintf(result.message, sizeof(result.message), "the worker running the case was killed by signal 6");
    for (uint64_t i = 0; i < 500; ++i)
    {
        explore_spec spec;
        ck_assert_int_eq(explore_generate(&f.generator, i, &spec), 0);
        size_t cell;
        result.status = i % 50 ? DMLCONF_STATUS_PASS : DMLCONF_STATUS_CRASH;
        explore_coverage_record(&f.coverage, explore_spec_cell(&f.generator, &spec, &cell) ? cell : SIZE_MAX,
                                spec.negative, spec.reason, &result);
        if (result.status == DMLCONF_STATUS_CRASH)
            ck_assert_int_ge(explore_findings_add(&findings, &spec, &result, 0.5), 0);
        explore_spec_free(&spec);
    }
    snprintf(findings.items[0].repro, sizeof(findings.items[0].repro), "r/x.yaml");
    char path[] = "/tmp/dmlconf-explore-state-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    explore_state state = {0x1234, "options", 500, 3.5, &f.coverage, &findings};
    char why[256];
    ck_assert_msg(!explore_state_save(path, &state, why, sizeof(why)), "%s", why);
    explore_state back = {0};
    back.coverage = &g.coverage;
    back.findings = &loaded;
    ck_assert_msg(!explore_state_load(path, &back, why, sizeof(why)), "%s", why);
    ck_assert_uint_eq(back.fingerprint, 0x1234);
    ck_assert_uint_eq(back.next_index, 500);
    ck_assert(!memcmp(f.coverage.cells, g.coverage.cells, EXPLORE_CELL_COUNT * sizeof(*f.coverage.cells)));
    ck_assert(
        !memcmp(f.coverage.negative_generated, g.coverage.negative_generated, sizeof(f.coverage.negative_generated)));
    ck_assert_uint_eq(loaded.count, findings.count);
    ck_assert_str_eq(loaded.items[0].signature, findings.items[0].signature);
    ck_assert_uint_eq(loaded.items[0].count, findings.items[0].count);
    ck_assert_str_eq(loaded.items[0].repro, "r/x.yaml");
    ck_assert(same_desc(&loaded.items[0].first.desc, &findings.items[0].first.desc));
    /* Not a state: an error that says so. */
    FILE *junk = fopen(path, "w");
    fputs("{\"format\": \"something else\"}", junk);
    fclose(junk);
    ck_assert_int_eq(explore_state_load(path, &back, why, sizeof(why)), -1);
    ck_assert_ptr_nonnull(strstr(why, "not a state"));
    remove(path);
    explore_findings_free(&findings);
    explore_findings_free(&loaded);
    tear_down(&f);
    tear_down(&g);
}
END_TEST

static Suite *explore_suite(void)
{
    Suite *suite = suite_create("explore");
    TCase *space = tcase_create("space");
    tcase_add_test(space, test_cell_index_round_trip);
    tcase_add_test(space, test_size_classes);
    tcase_add_test(space, test_layout_classes);
    tcase_add_test(space, test_cells_allowed);
    suite_add_tcase(suite, space);
    TCase *generator = tcase_create("generator");
    tcase_set_timeout(generator, 120);
    tcase_add_test(generator, test_same_seed_same_cases);
    tcase_add_test(generator, test_generated_cases_are_valid);
    tcase_add_test(generator, test_generation_respects_capabilities);
    tcase_add_test(generator, test_steering_fills_cells);
    suite_add_tcase(suite, generator);
    TCase *cases = tcase_create("cases");
    tcase_set_timeout(cases, 120);
    tcase_add_test(cases, test_written_cases_load_back);
    tcase_add_test(cases, test_generated_cases_pass_on_the_oracle);
    suite_add_tcase(suite, cases);
    TCase *findings = tcase_create("findings");
    tcase_add_test(findings, test_signatures);
    tcase_add_test(findings, test_findings_group_and_merge);
    suite_add_tcase(suite, findings);
    TCase *shrink = tcase_create("shrink");
    tcase_set_timeout(shrink, 120);
    tcase_add_test(shrink, test_shrink_keeps_a_broadcast_that_matters);
    tcase_add_test(shrink, test_shrink_keeps_in_place);
    suite_add_tcase(suite, shrink);
    TCase *state = tcase_create("state");
    tcase_add_test(state, test_state_round_trip);
    suite_add_tcase(suite, state);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(explore_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
