/*
 * The names of the comparator's rules (comparison.h), as results.jsonl and
 * the messages write them.
 */
#include <dmlconf/comparison.h>

#include <stddef.h>
#include <string.h>

static const char *const rule_names[DMLCONF_RULE_COUNT] = {
    [DMLCONF_RULE_INVALID] = "invalid",
    [DMLCONF_RULE_INTEGER] = "integer",
    [DMLCONF_RULE_BIT_EXACT] = "bit_exact",
    [DMLCONF_RULE_NAN] = "nan",
    [DMLCONF_RULE_INF_INPUT] = "inf_input",
    [DMLCONF_RULE_EXACT] = "exact",
    [DMLCONF_RULE_AMBIGUOUS] = "ambiguous",
    [DMLCONF_RULE_ZERO_PRODUCT] = "zero_product",
    [DMLCONF_RULE_BOUND] = "bound",
    [DMLCONF_RULE_SIGNED_ZERO] = "signed_zero",
    [DMLCONF_RULE_ABSOLUTE_RELATIVE] = "absolute_relative",
    [DMLCONF_RULE_ULP_COUNT] = "ulp_count",
    [DMLCONF_RULE_UNKNOWN] = "unknown",
    [DMLCONF_RULE_UNWRITTEN] = "unwritten",
    [DMLCONF_RULE_BOUND_FLOAT16] = "bound_float16",
};

const char *dmlconf_rule_name(dmlconf_rule rule)
{
    if ((unsigned)rule >= DMLCONF_RULE_COUNT)
        return NULL;
    return rule_names[rule];
}

bool dmlconf_rule_from_name(const char *name, dmlconf_rule *rule)
{
    if (!name)
        return false;
    for (unsigned i = 0; i < DMLCONF_RULE_COUNT; ++i)
    {
        if (!strcmp(rule_names[i], name))
        {
            *rule = (dmlconf_rule)i;
            return true;
        }
    }
    return false;
}
