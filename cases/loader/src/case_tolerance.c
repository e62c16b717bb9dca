/*
 * case_tolerance.c: a case's tolerance, checked when the case loads with
 * the comparator's own check (dmlconf_tolerance_resolve) and reported at the
 * field's position, and turned into the tolerance a run judges with.
 */
#include "loader_internal.h"

#include <stdlib.h>
#include <string.h>

/* The form of the fields the case gives itself (not from defaults), or
 * DMLCONF_TOLERANCE_FORM_COUNT when it gives none that chooses one. */
static dmlconf_tolerance_form own_form(const dmlconf_case_tolerance *tolerance)
{
    unsigned f;

    for (f = 0; f < DMLCONF_TOLERANCE_FIELD_COUNT; ++f)
    {
        dmlconf_tolerance_form form = dmlconf_tolerance_field_form((dmlconf_tolerance_field)f);
        if (tolerance->overrides.set[f] && !tolerance->from_defaults[f] && form != DMLCONF_TOLERANCE_FORM_COUNT)
        {
            return form;
        }
    }
    return DMLCONF_TOLERANCE_FORM_COUNT;
}

/* Drops the defaults' fields of another form than the one the case's own
 * fields choose: a case that states {atol: ...} is not also bound by a
 * default {ulp: 2}. */
static void drop_other_form_defaults(dmlconf_case_tolerance *tolerance)
{
    dmlconf_tolerance_form form = own_form(tolerance);
    unsigned f;

    if (form == DMLCONF_TOLERANCE_FORM_COUNT)
    {
        return;
    }
    for (f = 0; f < DMLCONF_TOLERANCE_FIELD_COUNT; ++f)
    {
        dmlconf_tolerance_form field_form = dmlconf_tolerance_field_form((dmlconf_tolerance_field)f);
        if (tolerance->from_defaults[f] && field_form != DMLCONF_TOLERANCE_FORM_COUNT && field_form != form)
        {
            tolerance->overrides.set[f] = false;
            tolerance->from_defaults[f] = false;
            tolerance->marks[f] = (dmlconf_mark){0, 0, 0};
        }
    }
}

static bool given_by_case(const dmlconf_case_tolerance *tolerance)
{
    unsigned f;

    for (f = 0; f < DMLCONF_TOLERANCE_FIELD_COUNT; ++f)
    {
        if (tolerance->overrides.set[f] && !tolerance->from_defaults[f])
        {
            return true;
        }
    }
    return false;
}

void loader_check_tolerance(loader *L, loader_draft *d, bool negative)
{
    dmlconf_case_tolerance *tolerance = &d->tolerance;
    dmlconf_tolerance resolved;
    dmlconf_tolerance_field field;
    dmlconf_error err;
    dmlconf_mark mark;
    bool from_defaults;

    if (!d->set[DMLCONF_CASE_FIELD_TOLERANCE] || d->bad[DMLCONF_CASE_FIELD_TOLERANCE])
    {
        return;
    }
    if (negative)
    {
        /* A tolerance from the defaults means nothing here either. */
        if (given_by_case(tolerance))
        {
            loader_error(L, d->key_marks[DMLCONF_CASE_FIELD_TOLERANCE],
                         "a negative case (with expect_error) cannot have a tolerance: DirectML rejects it before "
                         "anything is compared");
        }
        return;
    }
    if (!d->set[DMLCONF_CASE_FIELD_DTYPE] || d->bad[DMLCONF_CASE_FIELD_DTYPE] ||
        !dmlconf_data_type_is_computable(d->dtype))
    {
        return;
    }
    if (d->dtype != DMLCONF_DATA_TYPE_FLOAT32 && d->dtype != DMLCONF_DATA_TYPE_FLOAT16)
    {
        /* A tolerance from the defaults means nothing for integers. */
        if (given_by_case(tolerance))
        {
            loader_error(L, d->key_marks[DMLCONF_CASE_FIELD_TOLERANCE],
                         "tolerance applies to float32 and float16 cases; %s results are compared bit for bit",
                         dmlconf_data_type_lower_name(d->dtype));
        }
        return;
    }
    drop_other_form_defaults(tolerance);
    if (!dmlconf_tolerance_resolve(d->dtype, &tolerance->overrides, &resolved, &field, &err))
    {
        return;
    }
    mark = field < DMLCONF_TOLERANCE_FIELD_COUNT ? tolerance->marks[field] : d->marks[DMLCONF_CASE_FIELD_TOLERANCE];
    from_defaults = field < DMLCONF_TOLERANCE_FIELD_COUNT ? tolerance->from_defaults[field]
                                                          : d->from_defaults[DMLCONF_CASE_FIELD_TOLERANCE];
    if (from_defaults)
    {
        loader_error(L, mark, "%s (in case '%s', value from defaults)", err.message, d->id ? d->id : "?");
    }
    else
    {
        loader_error(L, mark, "%s", err.message);
    }
}

void dmlconf_case_judging_tolerance(const dmlconf_case *c, bool exact_backend, dmlconf_tolerance *tol)
{
    dmlconf_data_type type = c->desc.output.data_type;
    bool has_tolerance = false;
    unsigned f;

    if (dmlconf_tolerance_resolve(type, &c->tolerance.overrides, tol, NULL, NULL))
    {
        /* Only an integer case's unused default tolerance can fail to
         * resolve (a loaded float case's always does): integers are bit-exact. */
        dmlconf_tolerance_default(type, tol);
    }
    for (f = 0; f < DMLCONF_TOLERANCE_FIELD_COUNT; ++f)
    {
        has_tolerance = has_tolerance || c->tolerance.overrides.set[f];
    }
    if (exact_backend && !(has_tolerance && c->expected.kind != DMLCONF_CASE_DATA_NONE))
    {
        tol->bit_exact = true;
        tol->strict_signed_zero = true;
    }
}
