/*
 * Generated cases of `dmlconf explore`: in-memory dmlconf_case objects that
 * runner_execute judges exactly as it judges loaded ones, and the same
 * cases written as case files by the case writer (exact values, hex
 * floats) that the loader reads back unchanged.
 */
#include "explore_internal.h"

#include <dmlconf/case_writer.h>
#include <dmlconf/text.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void explore_spec_free(explore_spec *spec)
{
    if (!spec)
        return;
    free(spec->values);
    memset(spec, 0, sizeof(*spec));
}

int explore_spec_copy(const explore_spec *spec, explore_spec *copy)
{
    *copy = *spec;
    copy->values = NULL;
    if (!spec->values)
        return 0;
    size_t bytes = (size_t)spec->count * (dmlconf_data_type_bits(spec->desc.input.data_type) / 8);
    copy->values = malloc(bytes ? bytes : 1);
    if (!copy->values)
    {
        memset(copy, 0, sizeof(*copy));
        return -1;
    }
    memcpy(copy->values, spec->values, bytes);
    return 0;
}

int explore_case_from_spec(const explore_spec *spec, const char *id, const char *file, dmlconf_case *c)
{
    memset(c, 0, sizeof(*c));
    c->id = dmlconf_strdup(id);
    if (!c->id)
        return -1;
    c->file = file;
    c->desc = spec->desc;
    c->min_feature_level = dmlconf_min_feature_level(&spec->desc, NULL);
    if (spec->negative)
    {
        c->expect_error.set = true;
        c->expect_error.reason = spec->reason;
        c->expect_error.feature_level = spec->level;
        return 0;
    }
    c->input.kind = DMLCONF_CASE_DATA_INLINE;
    c->input.values = spec->values;
    c->input.count = spec->count;
    return 0;
}

void explore_case_release(dmlconf_case *c)
{
    free(c->id);
    memset(c, 0, sizeof(*c));
}

int explore_write_case(dmlconf_buffer *text, const explore_spec *spec, const char *id, const char *notes)
{
    dmlconf_case c;
    if (explore_case_from_spec(spec, id, "(explore)", &c))
        return -1;
    char tag[] = "explore", *tags[1] = {tag}, *own_notes = notes ? dmlconf_strdup(notes) : NULL;
    c.tags = tags;
    c.tag_count = 1;
    c.notes = own_notes;
    dmlconf_case_write_options options = {.exact_floats = true};
    int failed = (notes && !own_notes) || dmlconf_case_write(text, &c, &options);
    free(own_notes);
    c.tags = NULL;
    c.notes = NULL;
    explore_case_release(&c);
    return failed ? -1 : 0;
}
