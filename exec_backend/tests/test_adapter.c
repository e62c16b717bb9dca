/*
 * dmlconf_test_adapter: an adapter for the process protocol that computes
 * with the oracle, written from docs/process-protocol.md alone (it shares
 * no code with the backend), and that misbehaves on demand. Its correct
 * mode is the protocol's reference adapter; its other modes are the faults
 * the exec backend must contain.
 *
 * Usage: dmlconf_test_adapter [--mode MODE] [--trigger-elements N] [--delay SECONDS]
 *            [--name NAME] [--validates] [--sums-only] [--types LIST]
 *            [--ranks LOW-HIGH] [--no-strides] [--no-in-place]
 *            [--feature-level L] [--marker PATH]
 *
 * Modes that act on a job act on the jobs whose input has N elements
 * (--trigger-elements, default 7); the others are answered correctly:
 *   good          every job answered correctly (the default)
 *   crash         last words on stderr, then abort()
 *   exit          last words on stderr, then exit status 3
 *   hang          last words on stderr, then sleep for ever
 *   stall         half the answer's output, then sleep for ever
 *   garbage       text instead of an answer
 *   short         an answer with 4 output bytes too few
 *   long          an answer with 4 output bytes too many
 *   truncated     half the answer's output, then exit status 0
 *   trailing      a correct answer followed by stray bytes
 *   flood         32 MiB on stderr, then a correct answer
 *   wrong         a correct answer with its first element's bits flipped
 *   untouched     the output buffer sent back as it came
 *   unsupported   "unsupported" with a reason
 *   early         "unsupported" before reading the job's buffers
 *   failed        "failed" with a reason
 *   slow          a correct answer after --delay SECONDS (default 1)
 * Modes that act between batches:
 *   exit-after-batch  exits (status 0) after answering each batch
 *   late-bytes        writes stray bytes a moment after each batch
 * Modes that act at the start:
 *   bad-handshake     a line that is not JSON
 *   wrong-version     a handshake of protocol version 99
 *   exit-at-once      last words, then exit status 1 before any handshake
 *   no-handshake      sleep for ever before the handshake
 *   chatty            stray bytes after the handshake line
 *   restart-fails     crash as `crash` does; a start that finds --marker's
 *                     file (the crash creates it) exits at once
 *   restart-differs   the same, but that start names another implementation
 *   orphan            (POSIX) starts a helper process that sleeps for ever
 *                     with the adapter's standard output and error open, then
 *                     answers every job correctly: only ending the adapter's
 *                     whole process group closes its pipes
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include <dmlconf/clock.h>
#include <dmlconf/oracle.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#else
#include <unistd.h>
#endif

#define JOB_HEADER_BYTES 224u
#define TENSOR_BYTES     96u

typedef struct options
{
    const char *mode;
    uint64_t trigger_elements;
    const char *name;
    bool validates;
    bool sums_only;
    const char *types;
    unsigned min_rank, max_rank;
    bool strides;
    bool in_place;
    const char *feature_level;
    const char *marker;
    double delay; /* slow: seconds before each triggered answer */
} options;

static uint32_t get_u32(const unsigned char *in)
{
    return (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 | (uint32_t)in[3] << 24;
}

static uint64_t get_u64(const unsigned char *in)
{
    return (uint64_t)get_u32(in) | (uint64_t)get_u32(in + 4) << 32;
}

static void put_u32(unsigned char *out, uint32_t value)
{
    for (unsigned i = 0; i < 4; ++i)
        out[i] = (unsigned char)(value >> (8 * i));
}

static void put_u64(unsigned char *out, uint64_t value)
{
    put_u32(out, (uint32_t)value);
    put_u32(out + 4, (uint32_t)(value >> 32));
}

static bool read_exactly(void *buffer, size_t size)
{
    return fread(buffer, 1, size, stdin) == size;
}

static void write_exactly(const void *buffer, size_t size)
{
    if (size && fwrite(buffer, 1, size, stdout) != size)
        exit(5);
}

static void sleep_for_ever(void)
{
    for (;;)
        dmlconf_clock_sleep(1.0);
}

static bool mode_is(const options *o, const char *mode)
{
    return !strcmp(o->mode, mode);
}

static bool marker_exists(const options *o)
{
    FILE *file = o->marker ? fopen(o->marker, "r") : NULL;
    if (file)
        fclose(file);
    return file != NULL;
}

static void print_handshake(const options *o)
{
    bool restarted = o->marker && marker_exists(o);
    if (restarted && mode_is(o, "restart-fails"))
    {
        fprintf(stderr, "test adapter: cannot start again after a crash\n");
        exit(1);
    }
    if (mode_is(o, "exit-at-once"))
    {
        fprintf(stderr, "test adapter: cannot start: no device here\n");
        exit(1);
    }
    if (mode_is(o, "no-handshake"))
    {
        fprintf(stderr, "test adapter: thinking about it\n");
        fflush(stderr);
        sleep_for_ever();
    }
    if (mode_is(o, "bad-handshake"))
    {
        fprintf(stderr, "test adapter: greeting in prose\n");
        printf("hello, dmlconf\n");
        fflush(stdout);
        return;
    }
    const char *name = restarted && mode_is(o, "restart-differs") ? "someone-else" : o->name;
    /* "a,b" as "\"a\", \"b\"" */
    char list[400] = "\"";
    size_t used = 1;
    for (const char *c = o->types; *c && used + 5 < sizeof(list); ++c)
    {
        if (*c == ',')
        {
            memcpy(list + used, "\", \"", 4);
            used += 4;
        }
        else
            list[used++] = *c;
    }
    list[used++] = '"';
    list[used] = '\0';
    char level[32] = "null";
    if (o->feature_level)
        snprintf(level, sizeof(level), "\"%s\"", o->feature_level);
    printf("{\"protocol\": \"dmlconf-exec\", \"version\": %d, \"implementation\": \"%s\", "
           "\"implementation_version\": \"1.0\", \"device\": \"the oracle, over a pipe\", \"driver\": \"none\", "
           "\"runtime\": \"C\", \"software\": true, \"operators\": [\"cumulative_summation\"%s], "
           "\"data_types\": [%s], \"directions\": [\"increasing\", \"decreasing\"], "
           "\"modes\": [\"inclusive\", \"exclusive\"], \"ranks\": [%u, %u], \"strides\": %s, \"broadcast\": %s, "
           "\"in_place\": %s, \"validates\": %s, \"feature_level\": %s, \"unknown_key\": {\"ignored\": true}}\n",
           mode_is(o, "wrong-version") ? 99 : 1, name, o->sums_only ? "" : ", \"cumulative_product\"", list,
           o->min_rank, o->max_rank, o->strides ? "true" : "false", o->strides ? "true" : "false",
           o->in_place ? "true" : "false", o->validates ? "true" : "false", level);
    if (mode_is(o, "chatty"))
        printf("and another thing");
    fflush(stdout);
}

static void decode_tensor(const unsigned char *in, dmlconf_tensor_desc *t, uint64_t *buffer_bytes)
{
    memset(t, 0, sizeof(*t));
    t->data_type = (dmlconf_data_type)get_u32(in);
    t->dimension_count = get_u32(in + 4);
    for (unsigned d = 0; d < DMLCONF_MAX_DIMENSIONS; ++d)
    {
        t->sizes[d] = get_u32(in + 8 + 4 * d);
        t->strides[d] = get_u32(in + 40 + 4 * d);
    }
    t->has_strides = (get_u32(in + 72) & 1u) != 0;
    t->total_size_bytes = get_u64(in + 80);
    *buffer_bytes = get_u64(in + 88);
}

/* Writes one answer: header, message, output, and `extra` stray bytes in
 * the same write. */
static void answer_with(uint32_t index, uint32_t status, uint32_t reason, uint64_t declared_bytes, const char *message,
                        const void *output, uint64_t output_bytes, const char *extra)
{
    unsigned char header[40] = {'D', 'M', 'L', 'A'};
    put_u32(header + 4, index);
    put_u32(header + 8, status);
    put_u32(header + 12, reason);
    double seconds = -1.0;
    uint64_t bits;
    memcpy(&bits, &seconds, sizeof(bits));
    put_u64(header + 16, bits);
    put_u64(header + 24, declared_bytes);
    put_u32(header + 32, (uint32_t)strlen(message));
    write_exactly(header, sizeof(header));
    write_exactly(message, strlen(message));
    write_exactly(output, (size_t)output_bytes);
    write_exactly(extra, strlen(extra));
    /* Each answer goes out at once: a hang later in the batch is then
     * blamed on the job that hangs. */
    fflush(stdout);
}

static void answer(uint32_t index, uint32_t status, uint32_t reason, uint64_t declared_bytes, const char *message,
                   const void *output, uint64_t output_bytes)
{
    answer_with(index, status, reason, declared_bytes, message, output, output_bytes, "");
}

static void last_words(const char *words)
{
    fprintf(stderr, "test adapter: %s\n", words);
    fflush(stderr);
}

static void touch_marker(const options *o)
{
    FILE *file = o->marker ? fopen(o->marker, "w") : NULL;
    if (file)
        fclose(file);
}

/* Misbehaves (or not) on a triggered job whose correct output is ready. */
static void answer_triggered(const options *o, uint32_t index, unsigned char *output, uint64_t bytes)
{
    if (mode_is(o, "crash") || mode_is(o, "restart-fails") || mode_is(o, "restart-differs"))
    {
        touch_marker(o);
        last_words("about to crash on purpose");
        abort();
    }
    if (mode_is(o, "exit"))
    {
        last_words("giving up with status 3");
        exit(3);
    }
    if (mode_is(o, "hang"))
    {
        last_words("stuck for ever");
        sleep_for_ever();
    }
    if (mode_is(o, "garbage"))
    {
        last_words("answering in prose");
        printf("this is not an answer, it is a sentence of some length\n");
        fflush(stdout);
        sleep_for_ever();
    }
    if (mode_is(o, "stall") || mode_is(o, "truncated"))
    {
        answer(index, 0, 0, bytes, "", output, bytes / 2);
        fflush(stdout);
        last_words("half an answer is all there is");
        if (mode_is(o, "truncated"))
            exit(0);
        sleep_for_ever();
    }
    if (mode_is(o, "short") || mode_is(o, "long"))
    {
        last_words("miscounted the output");
        uint64_t declared = mode_is(o, "short") ? bytes - 4 : bytes + 4;
        unsigned char *padded = calloc(1, (size_t)bytes + 4);
        if (!padded)
            exit(5);
        memcpy(padded, output, (size_t)bytes);
        answer(index, 0, 0, declared, "", padded, declared);
        free(padded);
        return;
    }
    if (mode_is(o, "trailing"))
    {
        last_words("one more thing");
        answer_with(index, 0, 0, bytes, "", output, bytes, "PS: stray bytes!");
        return;
    }
    if (mode_is(o, "flood"))
    {
        static char noise[65536];
        memset(noise, 'n', sizeof(noise));
        for (int i = 0; i < 512; ++i)
            fwrite(noise, 1, sizeof(noise), stderr);
        last_words("done flooding");
    }
    if (mode_is(o, "wrong"))
        output[0] ^= 0x5a;
    if (mode_is(o, "slow"))
        dmlconf_clock_sleep(o->delay);
    if (mode_is(o, "unsupported"))
    {
        answer(index, 2, 0, 0, "the test adapter does not run this one", NULL, 0);
        return;
    }
    if (mode_is(o, "failed"))
    {
        answer(index, 3, 0, 0, "the device fell over", NULL, 0);
        return;
    }
    answer(index, 0, 0, bytes, "", output, bytes);
}

/* One job: read it, compute it (or validate it), answer it. */
static void serve_job(const options *o, uint32_t expected_index)
{
    unsigned char header[JOB_HEADER_BYTES];
    if (!read_exactly(header, sizeof(header)) || memcmp(header, "DMLJ", 4) || get_u32(header + 4) != JOB_HEADER_BYTES ||
        get_u32(header + 8) != expected_index)
    {
        fprintf(stderr, "test adapter: a job header is not as the protocol says\n");
        exit(4);
    }
    dmlconf_scan_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.op = (dmlconf_operator)get_u32(header + 12);
    desc.axis = get_u32(header + 16);
    desc.direction = (dmlconf_axis_direction)get_u32(header + 20);
    uint32_t flags = get_u32(header + 24);
    desc.exclusive = (flags & 1u) != 0;
    desc.in_place = (flags & 2u) != 0;
    bool validate_only = (flags & 4u) != 0;
    dmlconf_feature_level level = (dmlconf_feature_level)get_u32(header + 28);
    uint64_t input_bytes, output_bytes;
    decode_tensor(header + 32, &desc.input, &input_bytes);
    decode_tensor(header + 32 + TENSOR_BYTES, &desc.output, &output_bytes);
    uint64_t elements = dmlconf_tensor_element_count(&desc.input);
    bool triggered = elements == o->trigger_elements;

    if (triggered && mode_is(o, "early"))
    {
        /* Answered before its buffers are read: dmlconf must take the
         * answer while it is still sending them. */
        answer(expected_index, 2, 0, 0, "answered early", NULL, 0);
        fflush(stdout);
    }
    unsigned char *input = input_bytes ? malloc((size_t)input_bytes) : NULL;
    unsigned char *output = output_bytes ? malloc((size_t)output_bytes) : NULL;
    if ((input_bytes && !input) || (output_bytes && !output) || (input_bytes && !read_exactly(input, input_bytes)) ||
        (output_bytes && !read_exactly(output, output_bytes)))
    {
        fprintf(stderr, "test adapter: cannot read a job's buffers\n");
        exit(4);
    }
    if (triggered && mode_is(o, "early"))
        goto done;
    dmlconf_validation validation;
    if (validate_only || o->validates)
    {
        if (!dmlconf_validate(&desc, level, &validation))
        {
            answer(expected_index, 1, (uint32_t)validation.reason, 0, validation.message, NULL, 0);
            goto done;
        }
        if (validate_only)
        {
            answer(expected_index, 0, 0, 0, "accepted", NULL, 0);
            goto done;
        }
    }
    if (!(triggered && mode_is(o, "untouched")))
    {
        dmlconf_error err;
        const void *source = desc.in_place ? output : input;
        if (dmlconf_compute(&desc, source, desc.in_place ? (size_t)output_bytes : (size_t)input_bytes, output,
                            (size_t)output_bytes, NULL, &err))
        {
            answer(expected_index, 3, 0, 0, err.message, NULL, 0);
            goto done;
        }
    }
    if (triggered)
        answer_triggered(o, expected_index, output, output_bytes);
    else
        answer(expected_index, 0, 0, output_bytes, "", output, output_bytes);
done:
    free(input);
    free(output);
}

static int parse_options(int argc, char **argv, options *o)
{
    *o = (options){"good", 7,    "test-adapter", false, false, "float32,float16,int32,uint32,int64,uint64", 1, 8,
                   true,   true, NULL,           NULL,  1.0};
    for (int i = 1; i < argc; ++i)
    {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--validates"))
            o->validates = true;
        else if (!strcmp(argv[i], "--sums-only"))
            o->sums_only = true;
        else if (!strcmp(argv[i], "--no-strides"))
            o->strides = false;
        else if (!strcmp(argv[i], "--no-in-place"))
            o->in_place = false;
        else if (value && !strcmp(argv[i], "--mode"))
            o->mode = argv[++i];
        else if (value && !strcmp(argv[i], "--trigger-elements"))
            o->trigger_elements = strtoull(argv[++i], NULL, 10);
        else if (value && !strcmp(argv[i], "--name"))
            o->name = argv[++i];
        else if (value && !strcmp(argv[i], "--types"))
            o->types = argv[++i];
        else if (value && !strcmp(argv[i], "--feature-level"))
            o->feature_level = argv[++i];
        else if (value && !strcmp(argv[i], "--marker"))
            o->marker = argv[++i];
        else if (value && !strcmp(argv[i], "--delay"))
            o->delay = strtod(argv[++i], NULL);
        else if (value && !strcmp(argv[i], "--ranks"))
        {
            char *end = NULL;
            o->min_rank = (unsigned)strtoul(argv[++i], &end, 10);
            o->max_rank = end && *end == '-' ? (unsigned)strtoul(end + 1, NULL, 10) : o->min_rank;
        }
        else
        {
            fprintf(stderr, "dmlconf_test_adapter: unknown argument '%s'\n", argv[i]);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    options o;
    if (parse_options(argc, argv, &o))
        return 2;
#if !defined(_WIN32)
    if (mode_is(&o, "orphan"))
    {
        /* A helper that outlives the adapter, holding its pipes. */
        pid_t helper = fork();
        if (helper == 0)
        {
            for (;;)
                pause();
        }
    }
#endif
#if defined(_WIN32)
    /* The protocol is bytes: no text-mode translation of line ends. */
    _setmode(_fileno(stdin), _O_BINARY);
    _setmode(_fileno(stdout), _O_BINARY);
#endif
    print_handshake(&o);
    for (;;)
    {
        unsigned char batch[16];
        size_t got = fread(batch, 1, sizeof(batch), stdin);
        if (got == 0 && feof(stdin))
            return 0;
        if (got != sizeof(batch) || memcmp(batch, "DMLB", 4) || get_u32(batch + 4) != 1 || get_u32(batch + 8) == 0)
        {
            fprintf(stderr, "test adapter: a batch header is not as the protocol says\n");
            return 4;
        }
        uint32_t count = get_u32(batch + 8);
        for (uint32_t i = 0; i < count; ++i)
            serve_job(&o, i);
        fflush(stdout);
        if (mode_is(&o, "exit-after-batch"))
            return 0;
        if (mode_is(&o, "late-bytes"))
        {
            dmlconf_clock_sleep(0.1);
            last_words("a late remark");
            write_exactly("late!", 5);
            fflush(stdout);
        }
    }
}
