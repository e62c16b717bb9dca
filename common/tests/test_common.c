/*
 * The platform layer: files and folders, child processes, threads, clocks.
 */
#define _POSIX_C_SOURCE 200809L

#include <dmlconf/clock.h>
#include <dmlconf/dynlib.h>
#include <dmlconf/file_system.h>
#include <dmlconf/glob.h>
#include <dmlconf/process.h>
#include <dmlconf/status_line.h>
#include <dmlconf/system_info.h>
#include <dmlconf/threads.h>

#include "test_helpers.h"

#include <check.h>
#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A fresh folder under the system's temporary folder. */
static char *make_temp_folder(void)
{
    char pattern[] = "/tmp/dmlconf-common-XXXXXX";
    char *folder = mkdtemp(pattern);
    ck_assert_ptr_nonnull(folder);
    char *copy = malloc(strlen(folder) + 1);
    strcpy(copy, folder);
    return copy;
}

static void remove_tree(const char *path)
{
    char why[256];
    dmlconf_path_kind kind;
    if (dmlconf_path_examine(path, &kind, NULL, why, sizeof(why)) || kind == DMLCONF_PATH_MISSING)
        return;
    if (kind == DMLCONF_PATH_DIRECTORY)
    {
        char **names = dmlconf_list_folder(path, why, sizeof(why));
        for (char **name = names; name && *name; ++name)
        {
            char *child = dmlconf_path_join(path, *name);
            remove_tree(child);
            free(child);
        }
        dmlconf_free_folder_names(names);
        rmdir(path);
        return;
    }
    unlink(path);
}

static void write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "wb");
    ck_assert_ptr_nonnull(file);
    fputs(text, file);
    fclose(file);
}

START_TEST(test_examine_and_open)
{
    char *folder = make_temp_folder();
    char *file = dmlconf_path_join(folder, "a.txt");
    char *fifo = dmlconf_path_join(folder, "fifo");
    char *missing = dmlconf_path_join(folder, "missing");
    char why[512];
    write_text(file, "hello");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);

    dmlconf_path_kind kind;
    uint64_t bytes = 0;
    ck_assert_int_eq(dmlconf_path_examine(file, &kind, &bytes, why, sizeof(why)), 0);
    ck_assert_int_eq(kind, DMLCONF_PATH_REGULAR);
    ck_assert_uint_eq(bytes, 5);
    ck_assert_int_eq(dmlconf_path_examine(folder, &kind, NULL, why, sizeof(why)), 0);
    ck_assert_int_eq(kind, DMLCONF_PATH_DIRECTORY);
    ck_assert_int_eq(dmlconf_path_examine(fifo, &kind, NULL, why, sizeof(why)), 0);
    ck_assert_int_eq(kind, DMLCONF_PATH_OTHER);
    ck_assert_int_eq(dmlconf_path_examine(missing, &kind, NULL, why, sizeof(why)), 0);
    ck_assert_int_eq(kind, DMLCONF_PATH_MISSING);

    FILE *opened = dmlconf_open_regular_file(file, &bytes, why, sizeof(why));
    ck_assert_ptr_nonnull(opened);
    char text[8] = "";
    ck_assert_uint_eq(fread(text, 1, sizeof(text), opened), 5);
    ck_assert_str_eq(text, "hello");
    fclose(opened);

    /* A FIFO with no writer: refused at once, never waited on. */
    double started = dmlconf_clock_seconds();
    ck_assert_ptr_null(dmlconf_open_regular_file(fifo, NULL, why, sizeof(why)));
    ck_assert_double_lt(dmlconf_clock_seconds() - started, 1.0);
    ck_assert_str_eq(why, "is a named pipe (FIFO), not a regular file");
    ck_assert_ptr_null(dmlconf_open_regular_file(folder, NULL, why, sizeof(why)));
    ck_assert_str_eq(why, "is a directory, not a regular file");
    ck_assert_ptr_null(dmlconf_open_regular_file("/dev/null", NULL, why, sizeof(why)));
    ck_assert_str_eq(why, "is a character device, not a regular file");
    ck_assert_ptr_null(dmlconf_open_regular_file(missing, NULL, why, sizeof(why)));
    ck_assert_str_eq(why, "cannot open: No such file or directory");

    /* Replacing: never over something that is not a regular file. */
    dmlconf_replacement replacement;
    ck_assert_int_eq(dmlconf_replacement_begin(&replacement, fifo, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "is a named pipe (FIFO), not a regular file; it is not replaced");

    remove_tree(folder);
    free(file);
    free(fifo);
    free(missing);
    free(folder);
}
END_TEST

START_TEST(test_folders_and_atomic_write)
{
    char *folder = make_temp_folder();
    char *deep = dmlconf_path_join(folder, "a/b/c");
    char why[512];
    ck_assert_int_eq(dmlconf_make_folders(deep, why, sizeof(why)), 0);
    ck_assert_int_eq(dmlconf_make_folders(deep, why, sizeof(why)), 0); /* exists: fine */
    ck_assert_int_eq(dmlconf_check_folder_writable(deep, why, sizeof(why)), 0);

    char *target = dmlconf_path_join(deep, "out.txt");
    write_text(target, "old");
    chmod(target, 0640);
    ck_assert_int_eq(dmlconf_write_file_atomically(target, "new text", 8, true, why, sizeof(why)), 0);
    struct stat info;
    ck_assert_int_eq(stat(target, &info), 0);
    ck_assert_int_eq(info.st_mode & 0777, 0640);
    FILE *file = fopen(target, "rb");
    char text[16] = "";
    ck_assert_uint_eq(fread(text, 1, sizeof(text), file), 8);
    fclose(file);
    ck_assert_str_eq(text, "new text");

    /* The folder holds exactly the file: no temporary left behind. */
    char **names = dmlconf_list_folder(deep, why, sizeof(why));
    ck_assert_ptr_nonnull(names);
    ck_assert_str_eq(names[0], "out.txt");
    ck_assert_ptr_null(names[1]);
    dmlconf_free_folder_names(names);

    /* A file where a folder is wanted. */
    char *blocked = dmlconf_path_join(target, "sub");
    ck_assert_int_eq(dmlconf_make_folders(blocked, why, sizeof(why)), -1);
    ck_assert_msg(strstr(why, "cannot create the folder"), "%s", why);
    ck_assert_int_eq(dmlconf_make_folders(target, why, sizeof(why)), -1);
    ck_assert_msg(strstr(why, "not a folder"), "%s", why);

    /* An unwritable folder (meaningless as root, who may write anywhere). */
    if (geteuid() != 0)
    {
        chmod(deep, 0500);
        ck_assert_int_eq(dmlconf_check_folder_writable(deep, why, sizeof(why)), -1);
        ck_assert_int_eq(dmlconf_write_file_atomically(target, "x", 1, false, why, sizeof(why)), -1);
        chmod(deep, 0700);
    }
    ck_assert_ptr_null(dmlconf_list_folder(target, why, sizeof(why)));

    remove_tree(folder);
    free(blocked);
    free(target);
    free(deep);
    free(folder);
}
END_TEST

/* A child function: echoes what it reads, upper-cased, until end of file. */
static int echo_upper(void *context, int input, int output)
{
    (void)context;
    char buffer[256];
    ssize_t n;
    while ((n = read(input, buffer, sizeof(buffer))) > 0)
    {
        for (ssize_t i = 0; i < n; ++i)
            if (buffer[i] >= 'a' && buffer[i] <= 'z')
                buffer[i] = (char)(buffer[i] - 'a' + 'A');
        if (write(output, buffer, (size_t)n) != n)
            return 2;
    }
    return 7;
}

static void read_exactly(dmlconf_process *p, char *buffer, size_t size)
{
    size_t got = 0;
    while (got < size)
    {
        long n = dmlconf_process_read(p, buffer + got, size - got, 10.0);
        ck_assert_int_gt(n, 0);
        got += (size_t)n;
    }
}

START_TEST(test_function_child)
{
    signal(SIGPIPE, SIG_IGN);
    dmlconf_process_options options = {0};
    options.function = echo_upper;
    dmlconf_process *p = NULL;
    char why[256];
    ck_assert_int_eq(dmlconf_process_start(&options, &p, why, sizeof(why)), 0);
    ck_assert_int_eq(dmlconf_process_write(p, "hello", 5), 0);
    char text[6] = "";
    read_exactly(p, text, 5);
    ck_assert_str_eq(text, "HELLO");
    /* Nothing more comes: a read times out. */
    ck_assert_int_eq(dmlconf_process_read(p, text, 5, 0.05), DMLCONF_PROCESS_TIMED_OUT);
    dmlconf_process_close_input(p);
    ck_assert_int_eq(dmlconf_process_read(p, text, 5, 10.0), 0);
    dmlconf_exit ended;
    dmlconf_process_finish(p, 10.0, &ended);
    ck_assert_int_eq(ended.kind, DMLCONF_EXIT_STATUS);
    ck_assert_uint_eq(ended.code, 7);
    ck_assert(!ended.killed_by_us);
}
END_TEST

START_TEST(test_exec_child_and_stderr_flood)
{
    /* The child floods stderr far past any pipe buffer and then answers:
     * it must not block, and only the tail is kept. */
    const char *argv[] = {"sh", "-c",
                          "i=0; while [ $i -lt 3000 ]; do echo \"noise line $i\" >&2; i=$((i+1)); done;"
                          " printf '\\033]0;title\\007last words' >&2; read x; echo \"got $x\"",
                          NULL};
    dmlconf_process_options options = {0};
    options.argv = argv;
    options.stderr_mode = DMLCONF_CHILD_STDERR_CAPTURE;
    options.stderr_tail_bytes = 256;
    dmlconf_process *p = NULL;
    char why[256];
    ck_assert_int_eq(dmlconf_process_start(&options, &p, why, sizeof(why)), 0);
    ck_assert_int_eq(dmlconf_process_write(p, "ping\n", 5), 0);
    char text[16] = "";
    read_exactly(p, text, 9);
    ck_assert_str_eq(text, "got ping\n");
    dmlconf_exit ended;
    /* The tail is complete once the child is gone. */
    dmlconf_process_close_input(p);
    ck_assert_int_eq(dmlconf_process_read(p, text, sizeof(text), 10.0), 0);
    dmlconf_clock_sleep(0.2);
    char *tail = dmlconf_process_stderr_tail(p);
    ck_assert_ptr_nonnull(tail);
    ck_assert_msg(strstr(tail, "earlier bytes]"), "%s", tail);
    ck_assert_msg(strstr(tail, "\\x1b]0;title\\x07last words"), "control characters escaped: %s", tail);
    ck_assert_msg(strlen(tail) < 400, "%zu", strlen(tail));
    free(tail);
    dmlconf_process_finish(p, 10.0, &ended);
    ck_assert_int_eq(ended.kind, DMLCONF_EXIT_STATUS);
    ck_assert_uint_eq(ended.code, 0);
}
END_TEST

START_TEST(test_missing_program)
{
    const char *argv[] = {"/nonexistent/adapter", "--x", NULL};
    dmlconf_process_options options = {0};
    options.argv = argv;
    dmlconf_process *p = NULL;
    char why[256];
    ck_assert_int_eq(dmlconf_process_start(&options, &p, why, sizeof(why)), -1);
    ck_assert_ptr_null(p);
    ck_assert_msg(strstr(why, "cannot run /nonexistent/adapter: No such file"), "%s", why);
}
END_TEST

START_TEST(test_kill_and_outside_kill)
{
    const char *argv[] = {"sleep", "30", NULL};
    dmlconf_process_options options = {0};
    options.argv = argv;
    options.stderr_mode = DMLCONF_CHILD_STDERR_DISCARD;
    dmlconf_process *p = NULL;
    char why[256], text[128];
    ck_assert_int_eq(dmlconf_process_start(&options, &p, why, sizeof(why)), 0);
    dmlconf_process_kill(p);
    dmlconf_exit ended;
    dmlconf_process_finish(p, 10.0, &ended);
    ck_assert_int_eq(ended.kind, DMLCONF_EXIT_SIGNAL);
    ck_assert(ended.killed_by_us);
    ck_assert(!dmlconf_exit_killed_from_outside(&ended));

    ck_assert_int_eq(dmlconf_process_start(&options, &p, why, sizeof(why)), 0);
    kill((pid_t)dmlconf_process_id(p), SIGTERM);
    bool ready = false;
    ck_assert_int_eq(dmlconf_process_wait_readable(&p, 1, 10.0, &ready), 1);
    ck_assert(ready);
    dmlconf_process_finish(p, 10.0, &ended);
    ck_assert(dmlconf_exit_killed_from_outside(&ended));
    dmlconf_exit_describe(&ended, text, sizeof(text));
    ck_assert_str_eq(text, "was killed by signal 15 (Terminated)");

    /* A child that never exits on its own is killed after the grace. */
    ck_assert_int_eq(dmlconf_process_start(&options, &p, why, sizeof(why)), 0);
    double started = dmlconf_clock_seconds();
    dmlconf_process_finish(p, 0.1, &ended);
    ck_assert_double_lt(dmlconf_clock_seconds() - started, 5.0);
    ck_assert(ended.killed_by_us);
}
END_TEST

/* Reads what a child writes until the end of its output. */
static size_t read_to_end(dmlconf_process *p, char *buffer, size_t size)
{
    size_t got = 0;
    for (;;)
    {
        ck_assert_uint_lt(got, size);
        long n = dmlconf_process_read(p, buffer + got, size - 1 - got, 10.0);
        ck_assert_int_ge(n, 0);
        if (n == 0)
            break;
        got += (size_t)n;
    }
    buffer[got] = '\0';
    return got;
}

START_TEST(test_stderr_to_output)
{
    /* Standard error joins standard output, in the order written. */
    const char *argv[] = {"sh", "-c", "echo one; echo two >&2; echo three", NULL};
    dmlconf_process_options options = {0};
    options.argv = argv;
    options.stderr_mode = DMLCONF_CHILD_STDERR_TO_OUTPUT;
    dmlconf_process *p = NULL;
    char why[256], text[64];
    ck_assert_int_eq(dmlconf_process_start(&options, &p, why, sizeof(why)), 0);
    read_to_end(p, text, sizeof(text));
    ck_assert_str_eq(text, "one\ntwo\nthree\n");
    dmlconf_exit ended;
    dmlconf_process_finish(p, 10.0, &ended);
    ck_assert_int_eq(ended.kind, DMLCONF_EXIT_STATUS);
    ck_assert_uint_eq(ended.code, 0);
}
END_TEST

START_TEST(test_request_stop)
{
    /* A child that catches the signal finishes its own way: its last words
     * and exit status are its own, not a kill's. */
    const char *argv[] = {"sh", "-c", "trap 'echo stopping; exit 5' TERM; echo ready; while :; do sleep 0.05; done",
                          NULL};
    dmlconf_process_options options = {0};
    options.argv = argv;
    options.stderr_mode = DMLCONF_CHILD_STDERR_DISCARD;
    dmlconf_process *p = NULL;
    char why[256], text[64] = "";
    ck_assert_int_eq(dmlconf_process_start(&options, &p, why, sizeof(why)), 0);
    read_exactly(p, text, 6);
    ck_assert_str_eq(text, "ready\n");
    ck_assert(dmlconf_process_request_stop(p, DMLCONF_STOP_TERMINATE));
    read_to_end(p, text, sizeof(text));
    ck_assert_str_eq(text, "stopping\n");
    dmlconf_exit ended;
    dmlconf_process_finish(p, 10.0, &ended);
    ck_assert_int_eq(ended.kind, DMLCONF_EXIT_STATUS);
    ck_assert_uint_eq(ended.code, 5);
    ck_assert(!ended.killed_by_us);

    /* A child that ignores it is killed once the grace is over. */
    const char *stubborn[] = {"sh", "-c", "trap '' INT; echo ready; while :; do sleep 0.05; done", NULL};
    options.argv = stubborn;
    ck_assert_int_eq(dmlconf_process_start(&options, &p, why, sizeof(why)), 0);
    memset(text, 0, sizeof(text));
    read_exactly(p, text, 6);
    ck_assert(dmlconf_process_request_stop(p, DMLCONF_STOP_INTERRUPT));
    double started = dmlconf_clock_seconds();
    dmlconf_process_finish(p, 0.3, &ended);
    ck_assert_double_lt(dmlconf_clock_seconds() - started, 5.0);
    ck_assert(ended.killed_by_us);
}
END_TEST

START_TEST(test_unset_environment)
{
    ck_assert_int_eq(dmlconf_set_environment("DMLCONF_TEST_UNSET", "1"), 0);
    ck_assert_str_eq(getenv("DMLCONF_TEST_UNSET"), "1");
    ck_assert_int_eq(dmlconf_unset_environment("DMLCONF_TEST_UNSET"), 0);
    ck_assert_ptr_null(getenv("DMLCONF_TEST_UNSET"));
    ck_assert_int_eq(dmlconf_unset_environment("DMLCONF_TEST_UNSET"), 0);
}
END_TEST

/* Sends `size` bytes through `cat` and reads them back, with non-blocking
 * writes and waits on both ends, as a conversation with a child that
 * answers while it is being sent must go: a blocking write of this much
 * would deadlock against a child whose own output is full. */
START_TEST(test_conversation_without_deadlock)
{
    signal(SIGPIPE, SIG_IGN);
    const size_t size = (size_t)8 << 20;
    unsigned char *sent = malloc(size), *received = malloc(size);
    ck_assert_ptr_nonnull(sent);
    ck_assert_ptr_nonnull(received);
    for (size_t i = 0; i < size; ++i)
        sent[i] = (unsigned char)(i * 2654435761u >> 13);
    const char *argv[] = {"cat", NULL};
    dmlconf_process_options options = {0};
    options.argv = argv;
    dmlconf_process *p = NULL;
    char why[256];
    ck_assert_int_eq(dmlconf_process_start(&options, &p, why, sizeof(why)), 0);
    size_t written = 0, read_back = 0;
    unsigned rounds = 0;
    while (read_back < size)
    {
        int wanted = DMLCONF_PROCESS_READABLE | (written < size ? DMLCONF_PROCESS_WRITABLE : 0);
        int ready = dmlconf_process_wait_io(p, wanted, 10.0);
        ck_assert_int_gt(ready, 0);
        ck_assert_int_eq(ready & ~wanted, 0);
        if (ready & DMLCONF_PROCESS_WRITABLE)
        {
            long n = dmlconf_process_write_some(p, sent + written, size - written);
            ck_assert_int_ge(n, 0);
            written += (size_t)n;
            if (written == size)
                dmlconf_process_close_input(p);
        }
        if (ready & DMLCONF_PROCESS_READABLE)
        {
            long n = dmlconf_process_read(p, received + read_back, size - read_back, 0.0);
            ck_assert_int_gt(n, 0);
            read_back += (size_t)n;
        }
        ++rounds;
    }
    ck_assert_msg(memcmp(sent, received, size) == 0, "the bytes came back changed");
    ck_assert_uint_gt(rounds, 2);
    /* The input is closed: waiting for room says so at once, and writing fails. */
    ck_assert_int_eq(dmlconf_process_wait_io(p, DMLCONF_PROCESS_WRITABLE, 10.0), DMLCONF_PROCESS_WRITABLE);
    ck_assert_int_eq(dmlconf_process_write_some(p, "x", 1), -1);
    ck_assert_int_eq(dmlconf_process_wait_io(p, 0, 10.0), 0);
    dmlconf_exit ended;
    dmlconf_process_finish(p, 10.0, &ended);
    ck_assert_int_eq(ended.kind, DMLCONF_EXIT_STATUS);
    ck_assert_uint_eq(ended.code, 0);
    free(sent);
    free(received);
}
END_TEST

/* A child that reads nothing: its input fills, write_some then takes
 * nothing and waiting for room times out; once it is gone, writing fails
 * (no SIGPIPE) and its output reads as ended. */
START_TEST(test_write_some_to_a_child_that_does_not_read)
{
    signal(SIGPIPE, SIG_IGN);
    const char *argv[] = {"sleep", "30", NULL};
    dmlconf_process_options options = {0};
    options.argv = argv;
    dmlconf_process *p = NULL;
    char why[256];
    ck_assert_int_eq(dmlconf_process_start(&options, &p, why, sizeof(why)), 0);
    static char block[65536];
    size_t taken = 0;
    long n;
    while ((n = dmlconf_process_write_some(p, block, sizeof(block))) > 0)
        taken += (size_t)n;
    ck_assert_int_eq(n, 0);
    ck_assert_uint_gt(taken, 0);
    ck_assert_uint_lt(taken, (size_t)64 << 20);
    double started = dmlconf_clock_seconds();
    ck_assert_int_eq(dmlconf_process_wait_io(p, DMLCONF_PROCESS_WRITABLE | DMLCONF_PROCESS_READABLE, 0.2), 0);
    ck_assert_double_ge(dmlconf_clock_seconds() - started, 0.15);
    dmlconf_process_kill(p);
    ck_assert_int_eq(dmlconf_process_wait_io(p, DMLCONF_PROCESS_READABLE, 10.0), DMLCONF_PROCESS_READABLE);
    char byte;
    ck_assert_int_eq(dmlconf_process_read(p, &byte, 1, 0.0), 0);
    ck_assert_int_eq(dmlconf_process_wait_io(p, DMLCONF_PROCESS_WRITABLE, 10.0), DMLCONF_PROCESS_WRITABLE);
    ck_assert_int_eq(dmlconf_process_write_some(p, block, sizeof(block)), -1);
    /* A blocking write after non-blocking ones fails too, rather than hang. */
    ck_assert_int_eq(dmlconf_process_write(p, block, sizeof(block)), -1);
    dmlconf_exit ended;
    dmlconf_process_finish(p, 10.0, &ended);
    ck_assert_int_eq(ended.kind, DMLCONF_EXIT_SIGNAL);
}
END_TEST

/* After write_some, dmlconf_process_write still delivers everything, even
 * more than the pipe holds at once. */
START_TEST(test_blocking_write_after_write_some)
{
    signal(SIGPIPE, SIG_IGN);
    const char *argv[] = {"sh", "-c", "wc -c", NULL};
    dmlconf_process_options options = {0};
    options.argv = argv;
    dmlconf_process *p = NULL;
    char why[256];
    ck_assert_int_eq(dmlconf_process_start(&options, &p, why, sizeof(why)), 0);
    static char block[1 << 20];
    memset(block, 'a', sizeof(block));
    ck_assert_int_gt(dmlconf_process_write_some(p, block, 10), 0);
    ck_assert_int_eq(dmlconf_process_write(p, block, sizeof(block)), 0);
    dmlconf_process_close_input(p);
    char text[64] = "";
    size_t got = 0;
    long n;
    while ((n = dmlconf_process_read(p, text + got, sizeof(text) - 1 - got, 10.0)) > 0)
        got += (size_t)n;
    text[got] = '\0';
    ck_assert_int_eq(strtol(text, NULL, 10), (long)sizeof(block) + 10);
    dmlconf_process_finish(p, 10.0, NULL);
}
END_TEST

/* dmlconf_process_end leaves the whole of a child's last words readable
 * at once, and finish then frees it with the same exit. */
START_TEST(test_end_keeps_last_words)
{
    signal(SIGPIPE, SIG_IGN);
    const char *argv[] = {"sh", "-c", "echo 'first words' >&2; read x; echo \"last words: $x\" >&2; exit 3", NULL};
    dmlconf_process_options options = {0};
    options.argv = argv;
    options.stderr_mode = DMLCONF_CHILD_STDERR_CAPTURE;
    dmlconf_process *p = NULL;
    char why[256];
    for (int round = 0; round < 20; ++round)
    {
        ck_assert_int_eq(dmlconf_process_start(&options, &p, why, sizeof(why)), 0);
        ck_assert_int_eq(dmlconf_process_write(p, "bye\n", 4), 0);
        char byte;
        ck_assert_int_eq(dmlconf_process_read(p, &byte, 1, 10.0), 0);
        dmlconf_exit ended, again;
        dmlconf_process_end(p, 10.0, &ended);
        ck_assert_int_eq(ended.kind, DMLCONF_EXIT_STATUS);
        ck_assert_uint_eq(ended.code, 3);
        char *tail = dmlconf_process_stderr_tail(p);
        ck_assert_ptr_nonnull(tail);
        ck_assert_msg(strstr(tail, "first words\nlast words: bye\n"), "round %d: %s", round, tail);
        free(tail);
        ck_assert_int_eq(dmlconf_process_write_some(p, "x", 1), -1);
        ck_assert_int_eq(dmlconf_process_read(p, &byte, 1, 0.0), 0);
        dmlconf_process_kill(p);
        dmlconf_process_finish(p, 0.0, &again);
        ck_assert_int_eq(again.kind, DMLCONF_EXIT_STATUS);
        ck_assert_uint_eq(again.code, 3);
        ck_assert(!again.killed_by_us);
    }
}
END_TEST

typedef struct counter
{
    dmlconf_mutex lock;
    long value;
    atomic_int started;
} counter;

static int count_up(void *argument)
{
    counter *c = argument;
    atomic_fetch_add(&c->started, 1);
    for (int i = 0; i < 100000; ++i)
    {
        dmlconf_mutex_lock(&c->lock);
        c->value++;
        dmlconf_mutex_unlock(&c->lock);
    }
    return 0;
}

START_TEST(test_threads)
{
    counter c = {.value = 0};
    atomic_init(&c.started, 0);
    ck_assert_int_eq(dmlconf_mutex_init(&c.lock), 0);
    dmlconf_thread threads[4];
    for (int i = 0; i < 4; ++i)
        ck_assert_int_eq(dmlconf_thread_start(&threads[i], count_up, &c), 0);
    for (int i = 0; i < 4; ++i)
        dmlconf_thread_join(&threads[i]);
    dmlconf_mutex_destroy(&c.lock);
    ck_assert_int_eq(c.value, 400000);
    ck_assert_int_eq(atomic_load(&c.started), 4);
    ck_assert_uint_ge(dmlconf_cpu_count(), 1);
}
END_TEST

/* A relay: each thread waits for its turn, takes it and hands the next turn
 * on; wrong wake-ups would lose a turn (a hang the test's timeout catches)
 * or let two threads in at once (a wrong order). */
typedef struct relay
{
    dmlconf_mutex lock;
    dmlconf_condition changed;
    int turn;
    int order[64];
    int taken;
} relay;

typedef struct relay_runner
{
    relay *r;
    int index;
} relay_runner;

static int run_relay(void *argument)
{
    relay_runner *runner = argument;
    relay *r = runner->r;
    for (int lap = 0; lap < 16; ++lap)
    {
        dmlconf_mutex_lock(&r->lock);
        while (r->turn % 4 != runner->index)
            dmlconf_condition_wait(&r->changed, &r->lock);
        r->order[r->taken++] = runner->index;
        r->turn++;
        dmlconf_condition_broadcast(&r->changed);
        dmlconf_mutex_unlock(&r->lock);
    }
    return 0;
}

START_TEST(test_condition)
{
    relay r = {.turn = 0, .taken = 0};
    ck_assert_int_eq(dmlconf_mutex_init(&r.lock), 0);
    ck_assert_int_eq(dmlconf_condition_init(&r.changed), 0);
    dmlconf_thread threads[4];
    relay_runner runners[4];
    for (int i = 3; i >= 0; --i)
    {
        runners[i] = (relay_runner){&r, i};
        ck_assert_int_eq(dmlconf_thread_start(&threads[i], run_relay, &runners[i]), 0);
    }
    for (int i = 0; i < 4; ++i)
        dmlconf_thread_join(&threads[i]);
    ck_assert_int_eq(r.taken, 64);
    for (int i = 0; i < 64; ++i)
        ck_assert_int_eq(r.order[i], i % 4);
    dmlconf_condition_destroy(&r.changed);
    dmlconf_condition_destroy(&r.changed); /* safe twice */
    dmlconf_mutex_destroy(&r.lock);
}
END_TEST

START_TEST(test_clock)
{
    double a = dmlconf_clock_seconds();
    dmlconf_clock_sleep(0.02);
    double b = dmlconf_clock_seconds();
    ck_assert_double_ge(b - a, 0.015);
    char text[32];
    dmlconf_clock_format_utc((time_t)0, text, sizeof(text));
    ck_assert_str_eq(text, "1970-01-01T00:00:00Z");
    char *self = dmlconf_process_self_path(text, sizeof(text));
    ck_assert_ptr_nonnull(self);
    ck_assert_msg(strstr(self, "test_common"), "%s", self);
    free(self);
}
END_TEST

START_TEST(test_glob_examples)
{
    ck_assert(dmlconf_glob_match("conf.sum.*", "conf.sum.f32.r1"));
    ck_assert(!dmlconf_glob_match("conf.sum.*", "conf.prod.f32.r1"));
    ck_assert(dmlconf_glob_match("*.r8.*", "conf.sum.f32.r8.a0"));
    ck_assert(dmlconf_glob_match("doc.?um.*", "doc.sum.example1"));
    ck_assert(dmlconf_glob_match("a[0-9]b", "a7b"));
    ck_assert(!dmlconf_glob_match("a[!0-9]b", "a7b"));
    ck_assert(dmlconf_glob_match("a\\*b", "a*b"));
    ck_assert(!dmlconf_glob_match("a\\*b", "axb"));
    ck_assert(dmlconf_glob_match("a/*", "a/b/c")); /* '/' is not special */
    ck_assert(dmlconf_glob_match("*", ""));
    ck_assert(!dmlconf_glob_match("?", ""));
    ck_assert(dmlconf_glob_match("[a-", "[a-")); /* a malformed set is literal */
}
END_TEST

/* On patterns where fnmatch (no flags) is defined the same way, the two
 * agree: random patterns and texts over a small alphabet. */
START_TEST(test_glob_against_fnmatch)
{
    static const char alphabet[] = "ab.*?[]!-";
    uint64_t state = 12345;
    unsigned compared = 0;
    for (int round = 0; round < 200000; ++round)
    {
        char pattern[10], text[10];
        state = state * 6364136223846793005u + 1442695040888963407u;
        size_t pattern_length = (size_t)(state >> 60) % 8, text_length = (size_t)(state >> 56) % 8;
        for (size_t i = 0; i < pattern_length; ++i)
        {
            state = state * 6364136223846793005u + 1442695040888963407u;
            pattern[i] = alphabet[(state >> 33) % (sizeof(alphabet) - 1)];
        }
        pattern[pattern_length] = '\0';
        for (size_t i = 0; i < text_length; ++i)
        {
            state = state * 6364136223846793005u + 1442695040888963407u;
            text[i] = "ab.[]-"[(state >> 33) % 6];
        }
        text[text_length] = '\0';
        /* Sets are where implementations legitimately differ in corner
         * cases (an unclosed '[', "[]" and "[!]"): compare without them. */
        if (strchr(pattern, '['))
            continue;
        ++compared;
        bool expected = fnmatch(pattern, text, 0) == 0;
        ck_assert_msg(dmlconf_glob_match(pattern, text) == expected, "pattern '%s' text '%s': fnmatch says %d", pattern,
                      text, expected);
    }
    ck_assert_uint_gt(compared, 10000);
}
END_TEST

/* A library's name is looked up by dmlconf_dynlib_open, and taken as a file
 * in the current folder by dmlconf_dynlib_open_file. */
START_TEST(test_dynlib_open_file_does_not_search)
{
    char why[512] = "";
    void *searched = dmlconf_dynlib_open("libm.so.6", why, sizeof(why));
    ck_assert_msg(searched != NULL, "%s", why);
    char path[1024];
    dmlconf_dynlib_path(searched, path, sizeof(path));
    dmlconf_dynlib_close(searched);

    char *folder = make_temp_folder();
    char *here = getcwd(NULL, 0);
    ck_assert_ptr_nonnull(here);
    ck_assert_int_eq(chdir(folder), 0);
    why[0] = '\0';
    ck_assert_ptr_null(dmlconf_dynlib_open_file("libm.so.6", why, sizeof(why)));
    ck_assert_msg(strstr(why, "./libm.so.6") != NULL, "%s", why);
    /* The same file, copied here, is found under the same name. */
    FILE *from = fopen(path, "rb"), *to = fopen("libm.so.6", "wb");
    ck_assert(from && to);
    char block[65536];
    size_t got;
    while ((got = fread(block, 1, sizeof(block), from)) > 0)
        ck_assert_uint_eq(fwrite(block, 1, got, to), got);
    fclose(from);
    ck_assert_int_eq(fclose(to), 0);
    void *local = dmlconf_dynlib_open_file("libm.so.6", why, sizeof(why));
    ck_assert_msg(local != NULL, "%s", why);
    ck_assert_ptr_nonnull(dmlconf_dynlib_symbol(local, "cos"));
    dmlconf_dynlib_close(local);
    remove("libm.so.6");
    ck_assert_int_eq(chdir(here), 0);
    rmdir(folder);
    free(here);
    free(folder);
}
END_TEST

/* In a log (a file here): nothing before the interval, a line of its own
 * each interval after, never a carriage return; quiet or no interval:
 * nothing at all. */
START_TEST(test_status_line_in_a_log)
{
    FILE *log = tmpfile();
    ck_assert_ptr_nonnull(log);
    dmlconf_status_line line;
    dmlconf_status_line_start(&line, log, false, 2.0, 100.0);
    ck_assert_int_eq(line.mode, DMLCONF_STATUS_LINE_LOG);
    ck_assert(!dmlconf_status_line_due(&line, 101.9));
    ck_assert(dmlconf_status_line_due(&line, 102.0));
    dmlconf_status_line_show(&line, "[2s] first", 102.0);
    ck_assert(!dmlconf_status_line_due(&line, 103.0));
    ck_assert(dmlconf_status_line_due(&line, 104.5));
    dmlconf_status_line_show(&line, "[4s] second", 104.5);
    dmlconf_status_line_end(&line);
    char text[64] = "";
    rewind(log);
    size_t got = fread(text, 1, sizeof(text) - 1, log);
    text[got] = '\0';
    ck_assert_str_eq(text, "[2s] first\n[4s] second\n");
    fclose(log);

    FILE *other = tmpfile();
    ck_assert_ptr_nonnull(other);
    dmlconf_status_line_start(&line, other, true, 2.0, 0.0);
    ck_assert_int_eq(line.mode, DMLCONF_STATUS_LINE_OFF);
    ck_assert(!dmlconf_status_line_due(&line, 1000.0));
    dmlconf_status_line_show(&line, "never", 1000.0);
    dmlconf_status_line_start(&line, other, false, 0.0, 0.0);
    ck_assert_int_eq(line.mode, DMLCONF_STATUS_LINE_OFF);
    dmlconf_status_line_show(&line, "never", 1000.0);
    ck_assert_int_eq(ftell(other), 0);
    fclose(other);
}
END_TEST

static Suite *common_suite(void)
{
    Suite *suite = suite_create("common");
    TCase *files = tcase_create("files");
    tcase_add_test(files, test_examine_and_open);
    tcase_add_test(files, test_folders_and_atomic_write);
    suite_add_tcase(suite, files);
    TCase *processes = tcase_create("processes");
    tcase_set_timeout(processes, 60);
    tcase_add_test(processes, test_function_child);
    tcase_add_test(processes, test_exec_child_and_stderr_flood);
    tcase_add_test(processes, test_missing_program);
    tcase_add_test(processes, test_kill_and_outside_kill);
    tcase_add_test(processes, test_conversation_without_deadlock);
    tcase_add_test(processes, test_write_some_to_a_child_that_does_not_read);
    tcase_add_test(processes, test_blocking_write_after_write_some);
    tcase_add_test(processes, test_end_keeps_last_words);
    tcase_add_test(processes, test_stderr_to_output);
    tcase_add_test(processes, test_request_stop);
    tcase_add_test(processes, test_unset_environment);
    suite_add_tcase(suite, processes);
    TCase *threads = tcase_create("threads");
    tcase_add_test(threads, test_threads);
    tcase_add_test(threads, test_condition);
    tcase_add_test(threads, test_clock);
    tcase_add_test(threads, test_status_line_in_a_log);
    suite_add_tcase(suite, threads);
    TCase *dynlib = tcase_create("dynlib");
    tcase_add_test(dynlib, test_dynlib_open_file_does_not_search);
    suite_add_tcase(suite, dynlib);
    TCase *glob = tcase_create("glob");
    tcase_add_test(glob, test_glob_examples);
    tcase_add_test(glob, test_glob_against_fnmatch);
    suite_add_tcase(suite, glob);
    suite_add_tcase(suite, reserve_tcase());
    suite_add_tcase(suite, buffer_tcase());
    suite_add_tcase(suite, why_tcase());
    suite_add_tcase(suite, integer_text_tcase());
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(common_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
