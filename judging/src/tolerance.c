/*
 * Tolerances (tolerance.h): the defaults per output type, the check that a
 * tolerance is usable, and the overrides of a case applied to the defaults.
 * The case loader and the comparator both call dmlconf_tolerance_resolve /
 * dmlconf_tolerance_check, so a tolerance that loads is one the comparator
 * accepts.
 */
#include "judging_internal.h"

#include <dmlconf/tolerance.h>

#include <math.h>
#include <stddef.h>
#include <string.h>

static const char *const field_names[DMLCONF_TOLERANCE_FIELD_COUNT] = {
    [DMLCONF_TOLERANCE_FIELD_ULP] = "ulp",
    [DMLCONF_TOLERANCE_FIELD_ACCUMULATION] = "accumulation",
    [DMLCONF_TOLERANCE_FIELD_FTZ] = "ftz",
    [DMLCONF_TOLERANCE_FIELD_SIGNED_ZERO] = "signed_zero",
    [DMLCONF_TOLERANCE_FIELD_BIT_EXACT] = "bit_exact",
    [DMLCONF_TOLERANCE_FIELD_ATOL] = "atol",
    [DMLCONF_TOLERANCE_FIELD_RTOL] = "rtol",
    [DMLCONF_TOLERANCE_FIELD_ULP_COUNT] = "ulp_count",
};

const char *dmlconf_tolerance_field_name(dmlconf_tolerance_field field)
{
    if ((unsigned)field >= DMLCONF_TOLERANCE_FIELD_COUNT)
        return NULL;
    return field_names[field];
}

const char *dmlconf_tolerance_form_name(dmlconf_tolerance_form form)
{
    switch (form)
    {
    case DMLCONF_TOLERANCE_FORM_BOUND:
        return "bound";
    case DMLCONF_TOLERANCE_FORM_ABSOLUTE_RELATIVE:
        return "absolute_relative";
    case DMLCONF_TOLERANCE_FORM_ULP_COUNT:
        return "ulp_count";
    case DMLCONF_TOLERANCE_FORM_COUNT:
        break;
    }
    return NULL;
}

bool dmlconf_tolerance_default(dmlconf_data_type type, dmlconf_tolerance *tol)
{
    memset(tol, 0, sizeof(*tol)); /* every field, the canary's included */
    tol->ulp = 1.0;
    tol->accumulation = DMLCONF_DATA_TYPE_FLOAT32;
    tol->ftz = true;
    tol->strict_signed_zero = false;
    tol->bit_exact = false;
    tol->form = DMLCONF_TOLERANCE_FORM_BOUND;
    tol->atol = 0.0;
    tol->rtol = 0.0;
    tol->ulp_count = 0.0;
    tol->ulp_count_axis_length_minus_1 = false;
    switch (type)
    {
    case DMLCONF_DATA_TYPE_FLOAT32:
        return true;
    case DMLCONF_DATA_TYPE_FLOAT16:
        tol->ulp = 2.0;
        tol->ftz = false;
        return true;
    case DMLCONF_DATA_TYPE_INT32:
    case DMLCONF_DATA_TYPE_UINT32:
    case DMLCONF_DATA_TYPE_INT64:
    case DMLCONF_DATA_TYPE_UINT64:
        tol->ulp = 0.0;
        tol->ftz = false;
        tol->bit_exact = true;
        return true;
    default:
        return false;
    }
}

/* Records the field at fault and returns -1. */
static int fault(dmlconf_tolerance_field *field, dmlconf_tolerance_field which)
{
    if (field)
        *field = which;
    return -1;
}

static bool finite_non_negative(double value)
{
    return value >= 0.0 && !isinf(value); /* false for NaN too */
}

/* The checks of the BOUND form's fields. */
static int check_bound(dmlconf_data_type type, const dmlconf_tolerance *tol, dmlconf_tolerance_field *field,
                       dmlconf_error *err)
{
    if (!finite_non_negative(tol->ulp))
    {
        judging_set_error(err, "tolerance ulp must be a finite number >= 0, not %g", tol->ulp);
        return fault(field, DMLCONF_TOLERANCE_FIELD_ULP);
    }
    if (tol->accumulation != DMLCONF_DATA_TYPE_FLOAT32 && tol->accumulation != DMLCONF_DATA_TYPE_FLOAT16)
    {
        judging_set_error(err, "tolerance accumulation must be float32 or float16, not %s",
                          dmlconf_data_type_lower_name(tol->accumulation));
        return fault(field, DMLCONF_TOLERANCE_FIELD_ACCUMULATION);
    }
    if (tol->accumulation == DMLCONF_DATA_TYPE_FLOAT16 && type != DMLCONF_DATA_TYPE_FLOAT16)
    {
        judging_set_error(err, "accumulation float16 applies to float16 data only, not to %s",
                          dmlconf_data_type_lower_name(type));
        return fault(field, DMLCONF_TOLERANCE_FIELD_ACCUMULATION);
    }
    return 0;
}

int dmlconf_tolerance_check(dmlconf_data_type type, const dmlconf_tolerance *tol, dmlconf_tolerance_field *field,
                            dmlconf_error *err)
{
    if (field)
        *field = DMLCONF_TOLERANCE_FIELD_NONE;
    if (!tol)
    {
        judging_set_error(err, "no tolerance given");
        return -1;
    }
    if (!dmlconf_data_type_is_computable(type))
    {
        judging_set_error(err, "data type %s has no tolerance: it is not computable",
                          dmlconf_data_type_lower_name(type));
        return -1;
    }
    if (type != DMLCONF_DATA_TYPE_FLOAT32 && type != DMLCONF_DATA_TYPE_FLOAT16)
        return 0; /* integers are bit-exact whatever the float settings say */
    switch (tol->form)
    {
    case DMLCONF_TOLERANCE_FORM_BOUND:
        return check_bound(type, tol, field, err);
    case DMLCONF_TOLERANCE_FORM_ABSOLUTE_RELATIVE:
        if (!finite_non_negative(tol->atol))
        {
            judging_set_error(err, "tolerance atol must be a finite number >= 0, not %g", tol->atol);
            return fault(field, DMLCONF_TOLERANCE_FIELD_ATOL);
        }
        if (!finite_non_negative(tol->rtol))
        {
            judging_set_error(err, "tolerance rtol must be a finite number >= 0, not %g", tol->rtol);
            return fault(field, DMLCONF_TOLERANCE_FIELD_RTOL);
        }
        return 0;
    case DMLCONF_TOLERANCE_FORM_ULP_COUNT:
        if (!tol->ulp_count_axis_length_minus_1 &&
            (!finite_non_negative(tol->ulp_count) || tol->ulp_count != floor(tol->ulp_count)))
        {
            judging_set_error(err, "tolerance ulp_count must be a whole number >= 0, not %g", tol->ulp_count);
            return fault(field, DMLCONF_TOLERANCE_FIELD_ULP_COUNT);
        }
        return 0;
    case DMLCONF_TOLERANCE_FORM_COUNT:
        break;
    }
    judging_set_error(err, "tolerance form %d is not a known form", (int)tol->form);
    return -1;
}

dmlconf_tolerance_form dmlconf_tolerance_field_form(dmlconf_tolerance_field field)
{
    switch (field)
    {
    case DMLCONF_TOLERANCE_FIELD_ULP:
    case DMLCONF_TOLERANCE_FIELD_ACCUMULATION:
    case DMLCONF_TOLERANCE_FIELD_FTZ:
        return DMLCONF_TOLERANCE_FORM_BOUND;
    case DMLCONF_TOLERANCE_FIELD_ATOL:
    case DMLCONF_TOLERANCE_FIELD_RTOL:
        return DMLCONF_TOLERANCE_FORM_ABSOLUTE_RELATIVE;
    case DMLCONF_TOLERANCE_FIELD_ULP_COUNT:
        return DMLCONF_TOLERANCE_FORM_ULP_COUNT;
    default:
        return DMLCONF_TOLERANCE_FORM_COUNT;
    }
}

/* The form the set fields select, or an error at the field that changes
 * the form when fields of two forms are set. Fields are looked at in enum
 * order, so the form-changing field (atol, rtol, ulp_count) is the later. */
static int select_form(const bool set[DMLCONF_TOLERANCE_FIELD_COUNT], dmlconf_tolerance_form *form,
                       dmlconf_tolerance_field *field, dmlconf_error *err)
{
    dmlconf_tolerance_field first = DMLCONF_TOLERANCE_FIELD_NONE;
    *form = DMLCONF_TOLERANCE_FORM_BOUND;
    for (unsigned f = 0; f < DMLCONF_TOLERANCE_FIELD_COUNT; ++f)
    {
        dmlconf_tolerance_form of = dmlconf_tolerance_field_form((dmlconf_tolerance_field)f);
        if (!set[f] || of == DMLCONF_TOLERANCE_FORM_COUNT)
            continue;
        if (first != DMLCONF_TOLERANCE_FIELD_NONE && of != dmlconf_tolerance_field_form(first))
        {
            judging_set_error(err,
                              "%s cannot be combined with %s: a tolerance is either the accumulation bound (ulp, "
                              "accumulation, ftz), an absolute and relative tolerance (atol, rtol) or a plain ulp "
                              "count (ulp_count)",
                              field_names[f], field_names[first]);
            return fault(field, (dmlconf_tolerance_field)f);
        }
        if (first == DMLCONF_TOLERANCE_FIELD_NONE)
            first = (dmlconf_tolerance_field)f;
        *form = of;
    }
    return 0;
}

int dmlconf_tolerance_resolve(dmlconf_data_type type, const dmlconf_tolerance_overrides *overrides,
                              dmlconf_tolerance *tol, dmlconf_tolerance_field *field, dmlconf_error *err)
{
    if (field)
        *field = DMLCONF_TOLERANCE_FIELD_NONE;
    bool known = dmlconf_tolerance_default(type, tol);
    if (!overrides)
        return known ? 0 : dmlconf_tolerance_check(type, tol, field, err);
    const bool *set = overrides->set;
    const dmlconf_tolerance *values = &overrides->values;
    dmlconf_tolerance result = *tol;
    if (select_form(set, &result.form, field, err))
        return -1;
    if (set[DMLCONF_TOLERANCE_FIELD_ULP])
        result.ulp = values->ulp;
    if (set[DMLCONF_TOLERANCE_FIELD_ACCUMULATION])
        result.accumulation = values->accumulation;
    if (set[DMLCONF_TOLERANCE_FIELD_FTZ])
        result.ftz = values->ftz;
    if (set[DMLCONF_TOLERANCE_FIELD_SIGNED_ZERO])
        result.strict_signed_zero = values->strict_signed_zero;
    if (set[DMLCONF_TOLERANCE_FIELD_BIT_EXACT])
        result.bit_exact = values->bit_exact;
    if (set[DMLCONF_TOLERANCE_FIELD_ATOL])
        result.atol = values->atol;
    if (set[DMLCONF_TOLERANCE_FIELD_RTOL])
        result.rtol = values->rtol;
    if (set[DMLCONF_TOLERANCE_FIELD_ULP_COUNT])
    {
        result.ulp_count = values->ulp_count;
        result.ulp_count_axis_length_minus_1 = values->ulp_count_axis_length_minus_1;
    }
    if (dmlconf_tolerance_check(type, &result, field, err))
        return -1;
    *tol = result;
    return 0;
}
