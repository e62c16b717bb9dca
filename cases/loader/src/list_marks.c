/*
 * list_marks.c: where items of an inline list are written, found again when
 * a message needs them. A list is parsed straight into packed values, with
 * no mark kept per item (a list of 10^6 values loads at the speed of
 * libyaml's events); a message about item k reads the list's events once
 * more and counts its scalars.
 *
 * The events are read from the list's own text where that text parses on
 * its own: a flow list from its '[', a block list from the start of its
 * line when only spaces come before its first '-'. Marks there are
 * relative to where the reading started and are moved back into the file.
 * Anywhere else, or when that reading does not reach every item, the file
 * is read from its start up to the list.
 */
#include "loader_internal.h"

#include <string.h>

/* Where a reading of the text starts: its byte offset, and the 0-based
 * line and character column of that offset in the file. */
typedef struct reading_start
{
    size_t offset;
    size_t line;
    size_t column;
} reading_start;

/* Reads events from `start` until the list at `list` ends or every index
 * has its mark. Returns how many of the indices were found. */
static size_t read_marks(const loader_source *source, reading_start start, dmlconf_mark list, const uint64_t *indices,
                         size_t count, dmlconf_mark *marks)
{
    yaml_parser_t parser;
    yaml_event_t event;
    uint64_t item = 0;
    uint32_t depth = 0;
    size_t found = 0, line, column;
    bool inside = false, done = false;

    if (!yaml_parser_initialize(&parser))
    {
        return 0;
    }
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
    yaml_parser_set_input_string(&parser, (const unsigned char *)source->text + start.offset,
                                 source->size - start.offset);
    while (!done && found < count && yaml_parser_parse(&parser, &event))
    {
        line = start.line + event.start_mark.line;
        column = event.start_mark.line ? event.start_mark.column : start.column + event.start_mark.column;
        switch (event.type)
        {
        case YAML_SEQUENCE_START_EVENT:
            if (inside)
            {
                ++depth;
            }
            else if (line + 1 == list.line && column + 1 == list.column)
            {
                inside = true;
                depth = 1;
            }
            break;
        case YAML_SEQUENCE_END_EVENT:
            done = inside && --depth == 0;
            break;
        case YAML_SCALAR_EVENT:
            if (!inside)
            {
                break;
            }
            while (found < count && indices[found] == item)
            {
                marks[found++] = loader_source_mark(source, line, column);
            }
            ++item;
            break;
        case YAML_NO_EVENT:
        case YAML_STREAM_END_EVENT:
            done = true; /* the text ended before the list did */
            break;
        case YAML_STREAM_START_EVENT:
        case YAML_DOCUMENT_START_EVENT:
        case YAML_DOCUMENT_END_EVENT:
        case YAML_ALIAS_EVENT:
        case YAML_MAPPING_START_EVENT:
        case YAML_MAPPING_END_EVENT:
        default:
            break;
        }
        yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    return found;
}

/* Where the list's own text starts, if it parses on its own; false when it
 * does not. */
static bool own_text(const loader_source *source, dmlconf_mark list, reading_start *start)
{
    size_t line_begin, i;

    if (!list.line || list.line > source->line_count || list.offset >= source->size)
    {
        return false;
    }
    if (source->text[list.offset] == '[')
    {
        start->offset = (size_t)list.offset;
        start->line = list.line - 1u;
        start->column = list.column - 1u;
        return true;
    }
    line_begin = source->line_starts[list.line - 1u];
    if (source->text[list.offset] != '-' || line_begin > list.offset)
    {
        return false;
    }
    for (i = line_begin; i < list.offset; ++i)
    {
        if (source->text[i] != ' ')
        {
            return false;
        }
    }
    start->offset = line_begin;
    start->line = list.line - 1u;
    start->column = 0;
    return true;
}

int loader_list_item_marks(const loader_source *source, dmlconf_mark list, const uint64_t *indices, size_t count,
                           dmlconf_mark *marks)
{
    reading_start start = {0, 0, 0};
    size_t i;

    for (i = 0; i < count; ++i)
    {
        memset(&marks[i], 0, sizeof(marks[i]));
    }
    if (!count)
    {
        return 0;
    }
    if (own_text(source, list, &start) && read_marks(source, start, list, indices, count, marks) == count)
    {
        return 0;
    }
    for (i = 0; i < count; ++i)
    {
        memset(&marks[i], 0, sizeof(marks[i]));
    }
    start.offset = start.line = start.column = 0;
    return read_marks(source, start, list, indices, count, marks) == count ? 0 : -1;
}
