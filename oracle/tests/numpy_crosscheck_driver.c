/*
 * numpy_crosscheck_driver: runs the oracle on requests from
 * numpy_crosscheck.py.
 *
 * Input (stdin): one request per line, whitespace-separated:
 *     DTYPE OP EXCLUSIVE DIRECTION AXIS RANK SIZE... VALUE...
 * DTYPE is a data type name (float32, float16, int32, uint32, int64, uint64),
 * OP cumulative_summation or cumulative_product, EXCLUSIVE 0 or 1, DIRECTION
 * 0 (increasing) or 1 (decreasing), then RANK sizes and one value per
 * element in row-major order, each the element's bit pattern in hex.
 *
 * Output (stdout): one line per request, in order: "ok" followed by the
 * output's bit patterns in hex, or "error" followed by a message.
 * Exits 0 unless reading or writing fails.
 */
#include <dmlconf/oracle.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads all of a stream into a NUL-terminated buffer; the caller frees it. */
static char *read_all(FILE *stream)
{
    size_t size = 0, capacity = 1 << 16;
    char *buffer = malloc(capacity);
    if (!buffer)
        return NULL;
    for (;;)
    {
        if (capacity - size < 2)
        {
            char *grown = realloc(buffer, capacity * 2);
            if (!grown)
            {
                free(buffer);
                return NULL;
            }
            buffer = grown;
            capacity *= 2;
        }
        size_t got = fread(buffer + size, 1, capacity - size - 1, stream);
        size += got;
        if (got == 0)
            break;
    }
    if (ferror(stream))
    {
        free(buffer);
        return NULL;
    }
    buffer[size] = '\0';
    return buffer;
}

/* Returns the next whitespace-separated token of *cursor (NUL-terminating
 * it in place), or NULL at the end of the line. */
static char *next_token(char **cursor)
{
    char *p = *cursor;
    while (*p == ' ' || *p == '\t' || *p == '\r')
        ++p;
    if (*p == '\0')
    {
        *cursor = p;
        return NULL;
    }
    char *start = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r')
        ++p;
    if (*p)
        *p++ = '\0';
    *cursor = p;
    return start;
}

static bool parse_u64(const char *token, int base, uint64_t *value)
{
    if (!token || !*token)
        return false;
    char *end;
    errno = 0;
    unsigned long long parsed = strtoull(token, &end, base);
    if (errno || *end || token[0] == '-')
        return false;
    *value = parsed;
    return true;
}

/* Handles one request line; writes one output line. */
static void handle(char *line)
{
    char *cursor = line;
    const char *dtype_name = next_token(&cursor), *op_name = next_token(&cursor);
    uint64_t exclusive, direction, axis, rank;
    dmlconf_data_type type;
    dmlconf_operator op;
    if (!dtype_name || !dmlconf_data_type_from_name(dtype_name, &type) || !op_name ||
        !dmlconf_operator_from_name(op_name, &op) || !parse_u64(next_token(&cursor), 10, &exclusive) ||
        !parse_u64(next_token(&cursor), 10, &direction) || !parse_u64(next_token(&cursor), 10, &axis) ||
        !parse_u64(next_token(&cursor), 10, &rank) || rank < 1 || rank > DMLCONF_MAX_DIMENSIONS || exclusive > 1 ||
        direction > 1 || axis >= rank)
    {
        printf("error malformed request header\n");
        return;
    }
    uint32_t sizes[DMLCONF_MAX_DIMENSIONS];
    uint64_t count = 1;
    for (uint64_t d = 0; d < rank; ++d)
    {
        uint64_t size;
        if (!parse_u64(next_token(&cursor), 10, &size) || size < 1 || size > 1u << 20)
        {
            printf("error malformed size %llu\n", (unsigned long long)d);
            return;
        }
        sizes[d] = (uint32_t)size;
        count *= size;
        if (count > 1u << 24)
        {
            printf("error tensor too large\n");
            return;
        }
    }
    unsigned bits = dmlconf_data_type_bits(type);
    if (!dmlconf_data_type_is_computable(type) || bits % 8)
    {
        printf("error data type %s is not computable\n", dtype_name);
        return;
    }
    size_t element = bits / 8;
    size_t bytes = ((size_t)count * element + 3) / 4 * 4;
    unsigned char *input = calloc(bytes, 1), *output = calloc(bytes, 1);
    if (!input || !output)
    {
        printf("error out of memory\n");
        goto done;
    }
    for (uint64_t i = 0; i < count; ++i)
    {
        uint64_t value;
        if (!parse_u64(next_token(&cursor), 16, &value) || (bits < 64 && value >> bits))
        {
            printf("error malformed value %llu\n", (unsigned long long)i);
            goto done;
        }
        /* The element's bit pattern in the host's byte order. */
        uint16_t v16 = (uint16_t)value;
        uint32_t v32 = (uint32_t)value;
        if (element == 2)
            memcpy(input + i * element, &v16, 2);
        else if (element == 4)
            memcpy(input + i * element, &v32, 4);
        else
            memcpy(input + i * element, &value, 8);
    }
    if (next_token(&cursor))
    {
        printf("error more values than elements\n");
        goto done;
    }

    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = op;
    desc.input.data_type = type;
    desc.input.dimension_count = (uint32_t)rank;
    memcpy(desc.input.sizes, sizes, sizeof(sizes[0]) * rank);
    desc.output = desc.input;
    desc.axis = (uint32_t)axis;
    desc.direction = direction ? DMLCONF_AXIS_DIRECTION_DECREASING : DMLCONF_AXIS_DIRECTION_INCREASING;
    desc.exclusive = exclusive != 0;
    dmlconf_error err;
    if (dmlconf_compute(&desc, input, bytes, output, bytes, NULL, &err))
    {
        printf("error %s\n", err.message);
        goto done;
    }
    fputs("ok", stdout);
    for (uint64_t i = 0; i < count; ++i)
    {
        uint64_t value = 0;
        if (element == 2)
        {
            uint16_t v;
            memcpy(&v, output + i * element, 2);
            value = v;
        }
        else if (element == 4)
        {
            uint32_t v;
            memcpy(&v, output + i * element, 4);
            value = v;
        }
        else
        {
            memcpy(&value, output + i * element, 8);
        }
        printf(" %llx", (unsigned long long)value);
    }
    putchar('\n');

done:
    free(input);
    free(output);
}

int main(void)
{
    char *text = read_all(stdin);
    if (!text)
    {
        fprintf(stderr, "numpy_crosscheck_driver: cannot read stdin\n");
        return 2;
    }
    char *line = text;
    while (*line)
    {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        if (*line)
            handle(line);
        if (!end)
            break;
        line = end + 1;
    }
    free(text);
    if (fflush(stdout) || ferror(stdout))
    {
        fprintf(stderr, "numpy_crosscheck_driver: cannot write stdout\n");
        return 2;
    }
    return 0;
}
