/*
 * yaml_events.c: the stream of libyaml events a case file is read from, with
 * the guards against hostile files (aliases, anchors, deep nesting, huge
 * scalars) and libyaml's syntax errors turned into positioned diagnostics.
 */
#include "loader_internal.h"

#include <string.h>

dmlconf_mark loader_event_mark(loader *L)
{
    return loader_source_mark_yaml(&L->source, &L->event.start_mark);
}

dmlconf_mark loader_last_end(loader *L)
{
    return loader_source_mark_yaml(&L->source, &L->last_end);
}

dmlconf_mark loader_event_end(loader *L)
{
    return loader_source_mark_yaml(&L->source, &L->event.end_mark);
}

bool loader_yaml_problem(const loader_source *source, const yaml_parser_t *parser, dmlconf_mark *mark, char *message,
                         size_t size)
{
    dmlconf_mark context;
    const char *problem = parser->problem ? parser->problem : "unknown problem", *hint;

    switch (parser->error)
    {
    case YAML_MEMORY_ERROR:
        return false;
    case YAML_READER_ERROR:
        *mark = loader_source_mark_at_offset(source, parser->problem_offset);
        snprintf(message, size, "cannot read the file as YAML text: %s", problem);
        break;
    case YAML_NO_ERROR:
    case YAML_SCANNER_ERROR:
    case YAML_PARSER_ERROR:
    case YAML_COMPOSER_ERROR:
    case YAML_WRITER_ERROR:
    case YAML_EMITTER_ERROR:
    default:
        *mark = loader_source_mark(source, parser->problem_mark.line, parser->problem_mark.column);
        hint = mark->offset < source->size && source->text[mark->offset] == '\t'
                   ? " (a tab: YAML indents with spaces only)"
                   : "";
        if (parser->context)
        {
            context = loader_source_mark(source, parser->context_mark.line, parser->context_mark.column);
            snprintf(message, size,
                     "YAML syntax error: %s %s (which started at line %" PRIu32 ", column %" PRIu32 ")%s", problem,
                     parser->context, context.line, context.column, hint);
        }
        else
        {
            snprintf(message, size, "YAML syntax error: %s%s", problem, hint);
        }
        break;
    }
    return true;
}

/* Reports libyaml's error (syntax or reader) and stops the file. */
static void report_parser_error(loader *L)
{
    dmlconf_mark mark;
    char message[512];

    if (!loader_yaml_problem(&L->source, &L->parser, &mark, message, sizeof(message)))
    {
        loader_out_of_memory(L);
        return;
    }
    loader_error(L, mark, "%s", message);
    L->stop = true;
}

/* Checks one fresh event for what case files refuse. Returns false (stop). */
static bool guard_event(loader *L)
{
    const yaml_event_t *event = &L->event;
    const yaml_char_t *anchor = NULL;
    bool flow = false;

    switch (event->type)
    {
    case YAML_ALIAS_EVENT:
        loader_error(L, loader_event_mark(L), "aliases are not supported in case files (alias '*%s')",
                     (const char *)event->data.alias.anchor);
        L->stop = true;
        return false;
    case YAML_SCALAR_EVENT:
        anchor = event->data.scalar.anchor;
        if (event->data.scalar.length > L->options.max_scalar_bytes)
        {
            loader_error(L, loader_event_mark(L), "a scalar of %zu bytes is longer than the limit of %" PRIu32 " bytes",
                         event->data.scalar.length, L->options.max_scalar_bytes);
            L->stop = true;
            return false;
        }
        L->last_end = event->end_mark;
        break;
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        if (event->type == YAML_SEQUENCE_START_EVENT)
        {
            anchor = event->data.sequence_start.anchor;
            flow = event->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
        }
        else
        {
            anchor = event->data.mapping_start.anchor;
            flow = event->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
        }
        if (L->depth >= L->options.max_depth)
        {
            loader_error(L, loader_event_mark(L), "nesting is deeper than the limit of %" PRIu32 " levels",
                         L->options.max_depth);
            L->stop = true;
            return false;
        }
        L->flow[++L->depth] = flow;
        break;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        if (L->depth && L->flow[L->depth])
        {
            L->last_end = event->end_mark;
        }
        if (L->depth)
        {
            --L->depth;
        }
        break;
    case YAML_DOCUMENT_START_EVENT:
        if (event->data.document_start.version_directive || event->data.document_start.tag_directives.start)
        {
            loader_error(L, loader_event_mark(L), "directives (%%YAML, %%TAG) are not supported in case files");
        }
        break;
    case YAML_NO_EVENT:
    case YAML_STREAM_START_EVENT:
    case YAML_STREAM_END_EVENT:
    case YAML_DOCUMENT_END_EVENT:
    default:
        break;
    }
    if (anchor)
    {
        loader_error(L, loader_event_mark(L), "anchors and aliases are not supported in case files (anchor '&%s')",
                     (const char *)anchor);
        L->stop = true;
        return false;
    }
    return true;
}

bool loader_peek(loader *L)
{
    if (L->stop)
    {
        return false;
    }
    if (L->have_event)
    {
        return true;
    }
    if (!yaml_parser_parse(&L->parser, &L->event))
    {
        report_parser_error(L);
        return false;
    }
    L->have_event = true;
    return guard_event(L);
}

void loader_consume(loader *L)
{
    if (L->have_event)
    {
        yaml_event_delete(&L->event);
        L->have_event = false;
    }
}

bool loader_skip_node(loader *L)
{
    uint32_t depth = 0;

    do
    {
        if (!loader_peek(L))
        {
            return false;
        }
        switch (L->event.type)
        {
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            ++depth;
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            --depth;
            break;
        case YAML_NO_EVENT:
        case YAML_STREAM_START_EVENT:
        case YAML_STREAM_END_EVENT:
        case YAML_DOCUMENT_START_EVENT:
        case YAML_DOCUMENT_END_EVENT:
            /* Not inside a node: nothing to skip. */
            return true;
        case YAML_ALIAS_EVENT:
        case YAML_SCALAR_EVENT:
        default:
            break;
        }
        loader_consume(L);
    } while (depth);
    return true;
}

const char *loader_event_kind(const loader *L)
{
    switch (L->event.type)
    {
    case YAML_SCALAR_EVENT:
        return L->event.data.scalar.length ? "a scalar" : "an empty value";
    case YAML_SEQUENCE_START_EVENT:
        return "a list";
    case YAML_MAPPING_START_EVENT:
        return "a mapping";
    case YAML_NO_EVENT:
    case YAML_STREAM_START_EVENT:
    case YAML_STREAM_END_EVENT:
    case YAML_DOCUMENT_START_EVENT:
    case YAML_DOCUMENT_END_EVENT:
    case YAML_ALIAS_EVENT:
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
    default:
        return "nothing";
    }
}

bool loader_wrong_node(loader *L, const char *expected)
{
    if (L->event.type == YAML_SCALAR_EVENT && L->event.data.scalar.length)
    {
        loader_error(L, loader_event_mark(L), "expected %s, found the scalar '%s'", expected,
                     (const char *)L->event.data.scalar.value);
    }
    else
    {
        loader_error(L, loader_event_mark(L), "expected %s, found %s", expected, loader_event_kind(L));
    }
    return loader_skip_node(L);
}
