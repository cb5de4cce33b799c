/* The Engine facade in-process: settings and options tables, data and user paths, the game
 * with undo/redo and passes, records, think/hint/analyze reports, prompt stops, learning. */
#include <check.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/endgame.h"
#include "engine/engine.h"
#include "core/fileio.h"
#include "core/model.h"
#include "core/notation.h"
#include "core/obf.h"
#include "cli/options.h"
#include "engine/paths.h"
#include "core/perft.h"
#include "session.h"
#include "engine/settings.h"
#include "testutil.h"
#include "cli/tools.h"

static const char *const default_weights = TOP_SRCDIR "/weights/jaskowski-all2.ow";

static Engine *new_engine(int depth)
{
    EngineSettings settings;
    settings_init(&settings, NULL);
    settings.threads = 1;
    settings.hash_megabytes = 8;
    settings.depth = depth;
    settings.exact = settings_exact_for_depth(depth);
    settings.use_book = false; /* these tests search; check_book tests the book */
    strcpy(settings.weights, default_weights);
    Engine *engine;
    OctError error;
    ck_assert_msg(engine_create(&settings, &engine, &error), "%s", error.message);
    return engine;
}

static void play(Engine *engine, const char *moves)
{
    for (const char *p = moves; *p; p += 2) {
        OctError error;
        int move = move_parse(p, NULL);
        ck_assert_msg(engine_play(engine, move, NAN, NAN, &error), "%.2s: %s", p, error.message);
    }
}

/* ---- settings and options ---- */

START_TEST(test_level_table)
{
    ck_assert_int_eq(settings_exact_for_depth(1), 8);
    ck_assert_int_eq(settings_exact_for_depth(6), 18);
    ck_assert_int_eq(settings_exact_for_depth(7), 20);
    ck_assert_int_eq(settings_exact_for_depth(9), 21);
    ck_assert_int_eq(settings_exact_for_depth(16), 24);
    ck_assert_int_eq(settings_exact_for_depth(59), 40);
    ck_assert_int_eq(settings_exact_for_depth(60), 60);
    for (int depth = 2; depth <= 60; ++depth)
        ck_assert_int_ge(settings_exact_for_depth(depth), settings_exact_for_depth(depth - 1));
}
END_TEST

START_TEST(test_settings_defaults_and_table)
{
    EngineSettings settings;
    setenv("OCTUPLE_WEIGHTS", "/some/file.ow", 1);
    settings_init(&settings, "prog");
    unsetenv("OCTUPLE_WEIGHTS");
    ck_assert_int_eq(settings.depth, 7);
    ck_assert_int_eq(settings.exact, 20);
    ck_assert_int_eq(settings.hash_megabytes, 128);
    ck_assert_int_ge(settings.threads, 1);
    ck_assert_int_eq((long)settings.threads, sysconf(_SC_NPROCESSORS_ONLN) > 64 ? 64
                     : sysconf(_SC_NPROCESSORS_ONLN));
    ck_assert_str_eq(settings.weights, "/some/file.ow");
    ck_assert(settings.use_book);
    int count;
    const SettingSpec *specs = settings_table(&count);
    OctError error;
    for (int i = 0; i < count; ++i) {
        ck_assert_ptr_eq(settings_find_command(specs[i].command), &specs[i]);
        ck_assert_ptr_eq(settings_find_option(specs[i].option, strlen(specs[i].option)),
                         &specs[i]);
        EngineSettings copy = settings;
        /* any text is a file or a name */
        if (strcmp(specs[i].command, "weights") && strcmp(specs[i].command, "book-file")
            && strcmp(specs[i].command, "name")) {
            /* a bad value fails and changes nothing */
            ck_assert(!specs[i].apply(&copy, "bad", &error));
            ck_assert(!memcmp(&copy, &settings, sizeof copy));
        }
        char shown[SETTINGS_PATH_SIZE + 64];
        specs[i].show(&settings, shown, sizeof shown);
        ck_assert(shown[0]);
    }
    ck_assert_ptr_eq(settings_find_command("DEPTH"), settings_find_command("depth"));
    ck_assert(settings_find_command("level")->apply(&settings, "3", &error));
    ck_assert_int_eq(settings.depth, 3);
    ck_assert_int_eq(settings.exact, 12);
}
END_TEST

/* A table larger than the physical memory is refused: the allocation may succeed (memory
 * is overcommitted), but a new game clears the whole table and the kernel then kills the
 * engine. The command-line option and every front end's command go through this. */
START_TEST(test_hash_beyond_physical_memory)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    ck_assert(pages > 0 && page > 0);
    long long physical = (long long)pages * page / (1 << 20);
    int limit = settings_max_hash();
    ck_assert_int_eq(limit, physical < SETTINGS_MAX_HASH ? physical : SETTINGS_MAX_HASH);
    EngineSettings settings, copy;
    settings_init(&settings, NULL);
    copy = settings;
    OctError error;
    const SettingSpec *hash = settings_find_command("hash");
    char value[32];
    if (limit < SETTINGS_MAX_HASH) {
        snprintf(value, sizeof value, "%d", limit + 1);
        ck_assert(!hash->apply(&settings, value, &error));
        char expected[160];
        snprintf(expected, sizeof expected,
                 "%d MB is more than this machine's physical memory (%d MB)", limit + 1, limit);
        ck_assert_str_eq(error.message, expected);
        ck_assert(!memcmp(&settings, &copy, sizeof copy));
        char *args[] = {"octuple", "--hash", value, NULL};
        Options options;
        ck_assert(!options_parse(3, args, &options, &error));
        ck_assert_msg(strstr(error.message, "physical memory"), "%s", error.message);
    }
    snprintf(value, sizeof value, "%d", limit); /* the settings only: nothing is allocated */
    ck_assert_msg(hash->apply(&settings, value, &error), "%s", error.message);
    ck_assert_int_eq(settings.hash_megabytes, limit);
    ck_assert(!hash->apply(&settings, "65537", &error));
    ck_assert_msg(strstr(error.message, "is not a size from 1 to 65536 MB"), "%s", error.message);
}
END_TEST

START_TEST(test_options)
{
    Options options;
    OctError error;
    char *ok[] = {"octuple", "--nboard", "--depth", "9", "--exact=14", "--book", "b.bk",
                  "--threads", "3", "--weights", "w.ow", NULL};
    ck_assert_msg(options_parse(11, ok, &options, &error), "%s", error.message);
    ck_assert_int_eq(options.action, ACTION_NBOARD);
    ck_assert_int_eq(options.settings.depth, 9);
    ck_assert_int_eq(options.settings.exact, 14);
    ck_assert_int_eq(options.settings.threads, 3);
    ck_assert_str_eq(options.settings.book, "b.bk");
    ck_assert_str_eq(options.settings.weights, "w.ow");
    char *none[] = {"octuple", NULL};
    ck_assert(options_parse(1, none, &options, &error));
    ck_assert_int_eq(options.action, ACTION_REPL);
    char *level[] = {"octuple", "--level", "4", "--no-book", "--bench", NULL};
    ck_assert(options_parse(5, level, &options, &error));
    ck_assert_int_eq(options.settings.exact, 14);
    ck_assert(!options.settings.use_book);
    ck_assert_int_eq(options.action, ACTION_BENCH);
    char *bad[] = {"octuple", "--depth", "0", NULL};
    ck_assert(!options_parse(3, bad, &options, &error));
    ck_assert_str_eq(error.message, "--depth: '0' is not a depth from 1 to 60");
    char *unknown[] = {"octuple", "--nope", NULL};
    ck_assert(!options_parse(2, unknown, &options, &error));
}
END_TEST

/* ---- paths ---- */

START_TEST(test_user_dirs)
{
    char dir[PATHS_SIZE], expected[PATHS_SIZE];
    OctError error;
    ck_assert(paths_user_dir(USER_DATA, true, dir, sizeof dir, &error));
    snprintf(expected, sizeof expected, "%s/data/octuple", session_home());
    ck_assert_str_eq(dir, expected);
    struct stat info;
    ck_assert_int_eq(stat(dir, &info), 0);
    ck_assert(S_ISDIR(info.st_mode));
    /* relative XDG values are ignored: the home default applies */
    setenv("XDG_STATE_HOME", "relative/state", 1);
    ck_assert(paths_user_dir(USER_STATE, false, dir, sizeof dir, &error));
    snprintf(expected, sizeof expected, "%s/.local/state/octuple", session_home());
    ck_assert_str_eq(dir, expected);
    unsetenv("XDG_STATE_HOME");
    ck_assert(paths_user_dir(USER_STATE, true, dir, sizeof dir, &error));
    ck_assert_str_eq(dir, expected);
    ck_assert_int_eq(stat(dir, &info), 0);
}
END_TEST

START_TEST(test_append_atomic)
{
    char path[PATHS_SIZE];
    snprintf(path, sizeof path, "%s/appended.txt", session_home());
    unlink(path);
    OctError error;
    ck_assert(paths_append_atomic(path, "one\n", &error));
    ck_assert(paths_append_atomic(path, "two\n", &error));
    char *text;
    size_t size;
    ck_assert(file_read_all(path, 1000, &text, &size, &error));
    ck_assert_str_eq(text, "one\ntwo\n");
    free(text);
    ck_assert(!paths_append_atomic("/nonexistent/dir/file", "x", &error));
}
END_TEST

/* The read limit: a regular file over it is refused by its size, before any read (a sparse
 * file of 1 GB costs nothing to make); a device is read to the limit and one byte more,
 * never twice the limit; a file of exactly the limit is read whole. */
START_TEST(test_read_limit)
{
    char path[PATHS_SIZE];
    snprintf(path, sizeof path, "%s/sparse.bin", session_home());
    FILE *file = fopen(path, "wb");
    ck_assert_ptr_nonnull(file);
    ck_assert_int_eq(ftruncate(fileno(file), (off_t)1 << 30), 0);
    fclose(file);
    OctError error;
    char *data = NULL;
    size_t size;
    ck_assert(!file_read_all(path, 1000, &data, &size, &error));
    ck_assert_msg(strstr(error.message, "larger than 1000 bytes"), "%s", error.message);
    ck_assert_ptr_null(data);
    ck_assert(!file_read_all("/dev/zero", 100000, &data, &size, &error));
    ck_assert_msg(strstr(error.message, "/dev/zero: larger than 100000 bytes"), "%s",
                  error.message);
    ck_assert(truncate(path, 1000) == 0);
    ck_assert(file_read_all(path, 1000, &data, &size, &error));
    ck_assert_uint_eq(size, 1000);
    free(data);
    ck_assert(truncate(path, 1001) == 0);
    ck_assert(!file_read_all(path, 1000, &data, &size, &error));
    unlink(path);
}
END_TEST

static size_t declares_none(const unsigned char *head, size_t have)
{
    (void)head;
    (void)have;
    return 0;
}

static size_t declares_100(const unsigned char *head, size_t have)
{
    (void)head;
    (void)have;
    return 100;
}

/* more than the first chunk of 64 KB: the later reads stop one byte past it */
static size_t declares_200000(const unsigned char *head, size_t have)
{
    (void)head;
    (void)have;
    return 200000;
}

/* A header's declared length bounds the read: a head that declares none stops it after the
 * first chunk (64 KB), one that declares 100 bytes refuses the 101st; a text read stops at
 * the first NUL. All three on /dev/zero, which the plain read takes to its limit. */
START_TEST(test_read_declared)
{
    OctError error;
    char *data = NULL;
    size_t size = 0;
    ck_assert(file_read_declared("/dev/zero", (size_t)1 << 30, declares_none, &data, &size,
                                 &error));
    ck_assert_uint_eq(size, 65536);
    free(data);
    data = NULL;
    ck_assert(!file_read_declared("/dev/zero", (size_t)1 << 30, declares_100, &data, &size,
                                  &error));
    ck_assert_msg(strstr(error.message, "/dev/zero: longer than the 100 bytes its header "
                         "declares"), "%s", error.message);
    ck_assert_ptr_null(data);
    /* the limit speaks before a larger declared length */
    ck_assert(!file_read_declared("/dev/zero", 50, declares_100, &data, &size, &error));
    ck_assert_msg(strstr(error.message, "/dev/zero: larger than 50 bytes"), "%s",
                  error.message);
    ck_assert(!file_read_declared("/dev/zero", (size_t)1 << 30, declares_200000, &data, &size,
                                  &error));
    ck_assert_msg(strstr(error.message, "longer than the 200000 bytes its header declares"),
                  "%s", error.message);
    /* a regular file of exactly the declared length is read whole, one byte more refused */
    char path[PATHS_SIZE];
    snprintf(path, sizeof path, "%s/declared.bin", session_home());
    FILE *file = fopen(path, "wb");
    ck_assert_ptr_nonnull(file);
    fclose(file);
    ck_assert_int_eq(truncate(path, 200000), 0);
    ck_assert(file_read_declared(path, (size_t)1 << 30, declares_200000, &data, &size, &error));
    ck_assert_uint_eq(size, 200000);
    free(data);
    data = NULL;
    ck_assert_int_eq(truncate(path, 200001), 0);
    ck_assert(!file_read_declared(path, (size_t)1 << 30, declares_200000, &data, &size, &error));
    ck_assert_msg(strstr(error.message, "longer than the 200000 bytes"), "%s", error.message);
    ck_assert_ptr_null(data);
    unlink(path);
    ck_assert(!file_read_text("/dev/zero", (size_t)1 << 30, &data, &error));
    ck_assert_msg(strstr(error.message, "/dev/zero: line 1: a NUL byte"), "%s", error.message);
    ck_assert_ptr_null(data);
}
END_TEST

/* A named pipe that no process writes reads as empty after a few seconds instead of
 * waiting for a writer for ever (a weights file named by mistake); one whose writer comes
 * a little after the open is read whole; a pipe with a writer is read to its end, waiting
 * for data that comes later, as `--weights <(command)` needs. */
START_TEST(test_read_pipes)
{
    char fifo[PATHS_SIZE];
    snprintf(fifo, sizeof fifo, "%s/read-fifo", session_home());
    unlink(fifo);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    OctError error;
    char *data = NULL;
    size_t size = 1;
    ck_assert(file_read_all(fifo, 1000, &data, &size, &error)); /* a hang fails by time-out */
    ck_assert_uint_eq(size, 0);
    free(data);
    pid_t writer = fork();
    ck_assert_int_ge(writer, 0);
    if (writer == 0) {
        usleep(300000); /* after the reader's open */
        FILE *file = fopen(fifo, "w");
        _exit(file && fputs("late", file) >= 0 && fclose(file) == 0 ? 0 : 1);
    }
    ck_assert_msg(file_read_all(fifo, 1000, &data, &size, &error), "%s", error.message);
    ck_assert_str_eq(data, "late");
    free(data);
    int written;
    ck_assert_int_eq(waitpid(writer, &written, 0), writer);
    ck_assert(WIFEXITED(written) && WEXITSTATUS(written) == 0);
    unlink(fifo);

    int ends[2];
    ck_assert_int_eq(pipe(ends), 0);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        close(ends[0]);
        ssize_t first = write(ends[1], "first ", 6);
        usleep(200000); /* the reader has opened the pipe and read the first part by now */
        ssize_t second = write(ends[1], "second", 6);
        _exit(first == 6 && second == 6 ? 0 : 1);
    }
    close(ends[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", ends[0]);
    ck_assert_msg(file_read_all(path, 1000, &data, &size, &error), "%s", error.message);
    ck_assert_str_eq(data, "first second");
    free(data);
    close(ends[0]);
    int status;
    ck_assert_int_eq(waitpid(child, &status, 0), child);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
END_TEST

/* A file name of the longest length a directory takes is written: the temporary file's
 * name is cut to fit, and nothing else is left in the directory. */
START_TEST(test_write_atomic_long_names)
{
    char dir[PATHS_SIZE], path[PATHS_SIZE + 300];
    snprintf(dir, sizeof dir, "%s/long-names", session_home());
    mkdir(dir, 0700);
    char name[256];
    memset(name, 'n', 255);
    name[255] = '\0';
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
    OctError error;
    for (int i = 0; i < 2; ++i) /* made, then replaced */
        ck_assert_msg(file_write_atomic(path, "long\n", 5, &error), "%s", error.message);
    char *text;
    size_t size;
    ck_assert(file_read_all(path, 100, &text, &size, &error));
    ck_assert_str_eq(text, "long\n");
    free(text);
    unlink(path);
    ck_assert_int_eq(rmdir(dir), 0); /* empty: no temporary file was left */
}
END_TEST

/* A file in `dir`, with its modification time `age` seconds ago. */
static void make_aged(const char *dir, const char *name, int age)
{
    char path[PATHS_SIZE + 300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    test_write_text(path, "partial");
    struct timespec times[2] = {{time(NULL) - age, 0}, {time(NULL) - age, 0}};
    ck_assert_int_eq(utimensat(AT_FDCWD, path, times, 0), 0);
}

static bool present(const char *dir, const char *name)
{
    char path[PATHS_SIZE + 300];
    struct stat info;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return lstat(path, &info) == 0;
}

/* The temporary file of a save that a signal which cannot wait interrupts stays behind
 * (once, kill -9 during `learn` left 8 learned.ggf.tmp-* files in 71 tries). An engine's
 * start removes its own stale ones from the user's data directory; a live writer's, a fresh
 * one, and every other file stay. */
START_TEST(test_stale_temporaries_removed_at_start)
{
    char dir[PATHS_SIZE];
    OctError error;
    session_home();
    ck_assert(paths_user_dir(USER_DATA, true, dir, sizeof dir, &error));
    char learned[PATHS_SIZE + 32];
    snprintf(learned, sizeof learned, "%s/learned.ggf", dir);
    test_write_text(learned, "(;GM[Othello];)\n");

    /* a save killed half-way, as kill -9 does (SIGXFSZ's default action kills at a fixed
     * point of the write: the file-size limit) */
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        struct rlimit limit = {4096, 4096};
        setrlimit(RLIMIT_FSIZE, &limit);
        static char big[65536];
        memset(big, 'x', sizeof big);
        OctError ignored;
        file_write_atomic(learned, big, sizeof big, &ignored);
        _exit(0);
    }
    int status;
    ck_assert_int_eq(waitpid(child, &status, 0), child);
    ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ);
    char left[300] = "";
    DIR *listing = opendir(dir);
    for (struct dirent *entry; (entry = readdir(listing));)
        if (!strncmp(entry->d_name, "learned.ggf.tmp-", 16))
            snprintf(left, sizeof left, "%s", entry->d_name);
    closedir(listing);
    ck_assert_msg(left[0], "the killed save left no temporary file");

    /* a live writer's file (it holds its lock) looks like it; so do files of other names */
    make_aged(dir, "learned.ggf.tmp-Live01", 3600);
    int ready[2];
    ck_assert_int_eq(pipe(ready), 0);
    pid_t writer = fork();
    ck_assert_int_ge(writer, 0);
    if (writer == 0) {
        char path[PATHS_SIZE + 64];
        snprintf(path, sizeof path, "%s/learned.ggf.tmp-Live01", dir);
        int fd = open(path, O_RDONLY);
        if (fd < 0 || flock(fd, LOCK_EX) != 0 || write(ready[1], "!", 1) != 1)
            _exit(1);
        pause();
        _exit(0);
    }
    char byte;
    ck_assert_int_eq(read(ready[0], &byte, 1), 1);
    make_aged(dir, "octuple.book.tmp-Ab12Cd", 3600);
    make_aged(dir, "learned.ggf.tmp-abc", 3600);      /* not a temporary name */
    make_aged(dir, "other.ggf.tmp-Ab12Cd", 3600);     /* another file's */
    make_aged(dir, "learned.ggf.tmp-Ab12Ce", 10);     /* too recent to judge */
    char target[PATHS_SIZE + 64], link[PATHS_SIZE + 64];
    snprintf(target, sizeof target, "%s/other.ggf.tmp-Ab12Cd", dir);
    snprintf(link, sizeof link, "%s/learned.ggf.tmp-Link01", dir);
    ck_assert_int_eq(symlink(target, link), 0);        /* a link is never followed */

    /* the killed save's file is fresh: kept until it has not changed for a while */
    engine_free(new_engine(1));
    ck_assert(present(dir, left));
    make_aged(dir, left, FILE_STALE_SECONDS + 1);
    engine_free(new_engine(1));
    ck_assert(!present(dir, left));
    ck_assert(!present(dir, "octuple.book.tmp-Ab12Cd"));
    ck_assert(present(dir, "learned.ggf.tmp-Live01"));
    ck_assert(present(dir, "learned.ggf.tmp-abc"));
    ck_assert(present(dir, "other.ggf.tmp-Ab12Cd"));
    ck_assert(present(dir, "learned.ggf.tmp-Ab12Ce"));
    ck_assert(present(dir, "learned.ggf.tmp-Link01"));
    ck_assert(present(dir, "learned.ggf"));

    /* once its writer is killed, its file goes at the next start */
    kill(writer, SIGKILL);
    ck_assert_int_eq(waitpid(writer, &status, 0), writer);
    ck_assert_int_eq(file_remove_stale(dir, "learned.ggf"), 1);
    ck_assert(!present(dir, "learned.ggf.tmp-Live01"));
    ck_assert_int_eq(file_remove_stale(dir, "learned.ggf"), 0);
    close(ready[0]);
    close(ready[1]);
    static const char *const rest[] = {"learned.ggf.tmp-abc", "other.ggf.tmp-Ab12Cd",
                                       "learned.ggf.tmp-Ab12Ce", "learned.ggf.tmp-Link01",
                                       "learned.ggf"};
    for (size_t i = 0; i < sizeof rest / sizeof rest[0]; ++i) {
        char path[PATHS_SIZE + 64];
        snprintf(path, sizeof path, "%s/%s", dir, rest[i]);
        ck_assert_int_eq(unlink(path), 0);
    }
}
END_TEST

/* A save never puts a regular file in the place of a pipe, a directory or a device (save
 * /dev/null), nor through a link to one (a link to the engine's own output). */
START_TEST(test_write_atomic_refuses_special_files)
{
    char fifo[PATHS_SIZE], link[PATHS_SIZE], dir[PATHS_SIZE];
    snprintf(fifo, sizeof fifo, "%s/a-fifo", session_home());
    snprintf(link, sizeof link, "%s/fifo-link", session_home());
    snprintf(dir, sizeof dir, "%s/a-dir", session_home());
    unlink(fifo);
    unlink(link);
    rmdir(dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(symlink(fifo, link), 0);
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    OctError error;
    /* not /dev/null itself: run as root, a regression would replace it for the machine */
    const char *const paths[] = {fifo, link, dir};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; ++i) {
        ck_assert(!paths_write_atomic(paths[i], "x", &error));
        ck_assert_msg(strstr(error.message, "not a regular file") != NULL, "%s", error.message);
    }
    struct stat info;
    ck_assert_int_eq(stat(fifo, &info), 0);
    ck_assert(S_ISFIFO(info.st_mode));
    ck_assert_int_eq(lstat(link, &info), 0);
    ck_assert(S_ISLNK(info.st_mode));
    unlink(link);
    unlink(fifo);
    rmdir(dir);
}
END_TEST

START_TEST(test_find_data)
{
    char dir[PATHS_SIZE], path[PATHS_SIZE], searched[4096];
    snprintf(dir, sizeof dir, "%s/datadir", session_home());
    OctError error;
    ck_assert(paths_make_dirs(dir, &error));
    char file[PATHS_SIZE + 32];
    snprintf(file, sizeof file, "%s/second.ow", dir);
    ck_assert(paths_write_atomic(file, "x", &error));
    setenv("OCTUPLE_DATA_DIR", dir, 1);
    static const char *const names[] = {"first.ow", "second.ow"};
    ck_assert(paths_find_data(NULL, names, 2, path, sizeof path, searched, sizeof searched));
    char resolved[PATHS_SIZE];
    ck_assert_ptr_nonnull(realpath(file, resolved));
    ck_assert_str_eq(path, resolved);
    /* the data directory is first: a preferred name in a later directory does not win */
    static const char *const missing[] = {"nothing-like-this.ow"};
    ck_assert(!paths_find_data(NULL, missing, 1, path, sizeof path, searched, sizeof searched));
    ck_assert_ptr_nonnull(strstr(searched, "datadir"));
    unsetenv("OCTUPLE_DATA_DIR");
    /* in an in-tree build, ../weights beside this test program holds the shipped ones */
    static const char *const shipped[] = {"jaskowski-all2.ow"};
    char source[PATHS_SIZE], build[PATHS_SIZE];
    if (realpath(OCTUPLE_SRCDIR, source) && realpath(OCTUPLE_BUILDDIR, build) &&
        !strcmp(source, build))
        ck_assert_msg(paths_find_data(NULL, shipped, 1, path, sizeof path, searched,
                                      sizeof searched), "searched %s", searched);
}
END_TEST

/* The default network is found by the engine's one lookup: octuple.ow first, else
 * jaskowski-all2.ow, in a data directory. */
START_TEST(test_find_weights)
{
    char dir[PATHS_SIZE], path[PATHS_SIZE], searched[4096];
    snprintf(dir, sizeof dir, "%s/weightsdir", session_home());
    OctError error;
    ck_assert(paths_make_dirs(dir, &error));
    char file[PATHS_SIZE + 32], resolved[PATHS_SIZE];
    snprintf(file, sizeof file, "%s/jaskowski-all2.ow", dir);
    ck_assert(paths_write_atomic(file, "x", &error));
    setenv("OCTUPLE_DATA_DIR", dir, 1);
    ck_assert(engine_find_weights(NULL, path, sizeof path, searched, sizeof searched));
    ck_assert_ptr_nonnull(realpath(file, resolved));
    ck_assert_str_eq(path, resolved);
    snprintf(file, sizeof file, "%s/octuple.ow", dir);
    ck_assert(paths_write_atomic(file, "x", &error));
    ck_assert(engine_find_weights(NULL, path, sizeof path, searched, sizeof searched));
    ck_assert_ptr_nonnull(realpath(file, resolved));
    ck_assert_str_eq(path, resolved);
    unsetenv("OCTUPLE_DATA_DIR");
}
END_TEST

/* ---- the game ---- */

START_TEST(test_play_undo_redo)
{
    Engine *engine = new_engine(2);
    OctError error;
    play(engine, "f5d6c3");
    ck_assert_int_eq(engine_game(engine)->move_count, 3);
    ck_assert(!engine_play(engine, move_parse("a1", NULL), NAN, NAN, &error));
    ck_assert(!engine_play(engine, MOVE_PASS, NAN, NAN, &error));
    ck_assert_int_eq(engine_game(engine)->move_count, 3);
    ck_assert_int_eq(engine_undo(engine), 1);
    ck_assert_int_eq(engine_undo(engine), 1);
    ck_assert_int_eq(engine_redo(engine), 1);
    ck_assert_int_eq(engine_game(engine)->moves[1], move_parse("d6", NULL));
    /* replaying the next redo move keeps the list; another move forks it */
    play(engine, "c3");
    ck_assert_int_eq(engine_redo(engine), 0);
    ck_assert_int_eq(engine_undo(engine), 1);
    play(engine, "c5");
    ck_assert_int_eq(engine_redo(engine), 0);
    while (engine_undo(engine))
        continue;
    ck_assert_int_eq(engine_game(engine)->move_count, 0);
    ck_assert_int_eq(engine_undo(engine), 0);
    /* a set-up position whose side to move has no move starts with its pass (the console
     * plays it): undo does not take back that pass alone, which would leave white to move
     * with no move */
    Board board = {1ULL << 0, 1ULL << 1}; /* black a1, white b1: white to move, no move */
    Board white_view = {board.opponent, board.player};
    engine_set_position(engine, &white_view, COLOR_WHITE);
    ck_assert_int_eq(board_legal(&white_view), 0);
    ck_assert(engine_play(engine, MOVE_PASS, NAN, NAN, &error));
    ck_assert_int_eq(engine_undo(engine), 0);
    ck_assert_int_eq(engine_game(engine)->move_count, 1);
    ck_assert_int_eq(engine_redo(engine), 0);
    engine_free(engine);
}
END_TEST

/* The passes game of check_nboard: passes at plies 48 and 50. */
static const char *const passes_game =
    "e6f6f5d6e7f7d7g5c5f3g4c7e8d8c6b7g8b6c8h5a6g6b4g7h7a5h3f4a4f8c3h8d3b5g2h1e2d1f1a8e3h6g3"
    "c4a7b8h4a3pah2pab3c2b1d2f2g1e1b2a2a1c1";

START_TEST(test_undo_redo_passes)
{
    Engine *engine = new_engine(2);
    play(engine, passes_game);
    const Game *game = engine_game(engine);
    ck_assert_int_eq(game->move_count, 62);
    ck_assert(game_is_over(game));
    while (game->move_count > 52)
        engine_undo(engine);
    /* moves 47.. are a3 pa h2 pa b3: a position where the side to move must pass is
     * skipped, so the pass goes back with the move before it */
    ck_assert_int_eq(engine_undo(engine), 1); /* b3 */
    ck_assert_int_eq(game->move_count, 51);
    ck_assert_int_eq(engine_undo(engine), 2); /* pa, h2 */
    ck_assert_int_eq(game->move_count, 49);
    ck_assert_int_eq(engine_undo(engine), 2); /* pa, a3 */
    ck_assert_int_eq(game->move_count, 47);
    ck_assert_int_eq(engine_redo(engine), 2); /* a3 and the forced pass */
    ck_assert_int_eq(game->move_count, 49);
    ck_assert_int_eq(engine_redo(engine), 2);
    ck_assert_int_eq(engine_redo(engine), 1);
    ck_assert_int_eq(game->moves[51], move_parse("b3", NULL));
    /* a move after a forced pass may be played directly: the pass is inserted */
    while (game->move_count > 47)
        engine_undo(engine);
    ck_assert_int_eq(game->move_count, 47);
    play(engine, "a3h2"); /* black cannot move after a3: pass before h2 */
    ck_assert_int_eq(game->move_count, 50);
    ck_assert_int_eq(game->moves[49], move_parse("h2", NULL));
    ck_assert_int_eq(game->moves[48], MOVE_PASS);
    engine_free(engine);
}
END_TEST

START_TEST(test_records)
{
    Engine *engine = new_engine(2);
    GgfRecord record;
    OctError error;
    const char *text = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[a]PW[b]RE[?]"
                       "TI[15:00]TY[8]BO[8 ---------------------------O*------*O-------------"
                       "-------------- *]B[F5/1.50]W[F6//2.5]B[D3]W[C5];)";
    ck_assert(ggf_parse(text, &record, NULL, &error));
    engine_set_record(engine, &record);
    Board now_board;
    engine_position(engine, &now_board, NULL);
    int legal = __builtin_ctzll(board_legal(&now_board));
    ck_assert(engine_play(engine, legal, 0.25, 1.5, &error));
    GgfRecord out;
    engine_record(engine, &out);
    ck_assert_str_eq(out.black, "a");
    ck_assert_str_eq(out.white, "b");
    ck_assert_str_eq(out.result, "?");
    ck_assert_int_eq(out.game.move_count, 5);
    ck_assert(out.evals[0] == 1.5 && isnan(out.times[0]));
    ck_assert(out.times[1] == 2.5);
    ck_assert(out.evals[4] == 0.25 && out.times[4] == 1.5);
    char line[GGF_LINE_SIZE];
    ck_assert(ggf_format(&out, line, sizeof line, &error));
    GgfRecord back;
    ck_assert(ggf_parse(line, &back, NULL, &error));
    ck_assert_int_eq(back.game.move_count, 5);
    /* set_position and restart */
    Board board;
    Color side;
    ck_assert(board_parse("---------------------------OX------XO--------------------------- O",
                          &board, &side, &error));
    engine_set_position(engine, &board, side);
    play(engine, "f4");
    engine_restart(engine);
    Color now;
    Board position;
    engine_position(engine, &position, &now);
    ck_assert_int_eq(now, COLOR_WHITE);
    ck_assert(board_equal(&position, &board));
    engine_new_game(engine);
    engine_position(engine, &position, &now);
    ck_assert_int_eq(now, COLOR_BLACK);
    engine_free(engine);
}
END_TEST

/* ---- searches ---- */

typedef struct Collected {
    int iterations, positions, finished;
    int plies[80];
    int best[80], played[80]; /* analysis: the best move's and the game move's scores */
    bool played_known[80];
    bool searched[80]; /* the best move's search completed a depth (or solved) */
    EngineReport last;
    bool order_ok;
} Collected;

static void collect(void *context, const EngineReport *report)
{
    Collected *collected = context;
    ck_assert_int_eq(collected->finished, 0); /* nothing after ENGINE_FINISHED */
    switch (report->event) {
    case ENGINE_ITERATION:
        ++collected->iterations;
        break;
    case ENGINE_PROGRESS: /* the nodes so far: nothing new to collect */
        break;
    case ENGINE_POSITION:
        if (collected->positions < 80) {
            collected->plies[collected->positions] = report->ply;
            collected->best[collected->positions] = report->result.score;
            collected->played[collected->positions] = report->played_score;
            collected->played_known[collected->positions] = report->played_known;
            collected->searched[collected->positions] = report->result.depth >= 1
                                                        || report->result.exact;
        }
        ++collected->positions;
        collected->last = *report;
        break;
    case ENGINE_FINISHED:
        ++collected->finished;
        break;
    }
}

START_TEST(test_think_hint_analyze)
{
    Engine *engine = new_engine(4);
    OctError error;
    play(engine, "f5d6c3");
    Collected think = {0};
    EngineRequest request = {.task = ENGINE_THINK, .lines = 1};
    ck_assert(engine_run(engine, &request, collect, &think, &error));
    ck_assert_int_eq(think.iterations, 4);
    ck_assert_int_eq(think.positions, 1);
    ck_assert_int_eq(think.finished, 1);
    Board board;
    engine_position(engine, &board, NULL);
    ck_assert(board_legal(&board) >> think.last.result.move & 1);
    ck_assert_int_eq(think.last.ply, 3);
    ck_assert(!think.last.stopped && !think.last.forced);
    ck_assert_int_eq(engine_game(engine)->move_count, 3); /* not played */

    Collected hint = {0};
    request = (EngineRequest){.task = ENGINE_HINT, .lines = 4};
    ck_assert(engine_run(engine, &request, collect, &hint, &error));
    const EngineResult *result = &hint.last.result;
    ck_assert_int_eq(result->line_count, 4);
    for (int i = 1; i < 4; ++i)
        ck_assert_int_le(result->lines[i].score, result->lines[i - 1].score);

    Collected analysis = {0};
    request = (EngineRequest){.task = ENGINE_ANALYZE, .lines = 1, .first_ply = 1};
    ck_assert(engine_run(engine, &request, collect, &analysis, &error));
    ck_assert_int_eq(analysis.positions, 3); /* plies 3, 2, 1 */
    ck_assert_int_eq(analysis.plies[0], 3);
    ck_assert_int_eq(analysis.plies[2], 1);
    engine_free(engine);
}
END_TEST

/* The engine keeps its last think's answer: played back without a value and a time (as a
 * GUI plays the engine's move), the move gets the answer's own in the record; once only,
 * and only in the position searched. */
START_TEST(test_answer_played_back)
{
    Engine *engine = new_engine(3);
    OctError error;
    play(engine, "f5d6c3");
    Collected think = {0};
    EngineRequest request = {.task = ENGINE_THINK, .lines = 1};
    ck_assert(engine_run(engine, &request, collect, &think, &error));
    int answer = think.last.result.move;
    ck_assert(engine_play(engine, answer, NAN, NAN, &error));
    GgfRecord record;
    engine_record(engine, &record);
    ck_assert(fabs(record.evals[3] - engine_discs(think.last.result.score)) < 1e-9);
    /* the task's time at its end, which is after its last position's report */
    ck_assert(!isnan(record.times[3]) && record.times[3] >= think.last.seconds);
    /* played back once: the same move again after an undo has no value of its own */
    ck_assert_int_eq(engine_undo(engine), 1);
    ck_assert(engine_play(engine, answer, NAN, NAN, &error));
    engine_record(engine, &record);
    ck_assert(isnan(record.evals[3]) && isnan(record.times[3]));
    /* a value given is kept */
    ck_assert_int_eq(engine_undo(engine), 1);
    Collected again = {0};
    ck_assert(engine_run(engine, &request, collect, &again, &error));
    ck_assert(engine_play(engine, again.last.result.move, 1.5, NAN, &error));
    engine_record(engine, &record);
    ck_assert(record.evals[3] == 1.5 && !isnan(record.times[3]));
    /* another game, even through the same position, forgets the answer */
    ck_assert_int_eq(engine_undo(engine), 1);
    Collected forgotten = {0};
    ck_assert(engine_run(engine, &request, collect, &forgotten, &error));
    engine_new_game(engine);
    play(engine, "f5d6c3");
    ck_assert(engine_play(engine, forgotten.last.result.move, NAN, NAN, &error));
    engine_record(engine, &record);
    ck_assert(isnan(record.evals[3]) && isnan(record.times[3]));
    engine_free(engine);
}
END_TEST

/* An analysis scores the game's move by the same search depth as the best move, with only
 * this position's table entries: at the start, whose four moves are alike, the game's f5
 * loses nothing, and no move ever scores above the best. (It used to take minus the score
 * of the next position, a ply deeper: f5 lost 0.54 discs at depth 5, and a best move played
 * showed a negative loss at depth 4.) */
START_TEST(test_analysis_scores_moves_alike)
{
    /* depth 8 with a time limit that ends most searches early: every row still scores its
     * move (each at the depth its best move's search completed) */
    for (int depth = 4; depth <= 8; depth += depth == 5 ? 3 : 1) {
        /* the shipped network scores all 8 images of a position alike (Figure 7's does not) */
        EngineSettings settings;
        settings_init(&settings, NULL);
        settings.threads = 1;
        settings.hash_megabytes = 8;
        settings.depth = depth;
        settings.seconds = depth == 8 ? 0.002 : 0;
        settings.exact = settings_exact_for_depth(depth);
        settings.use_book = false;
        strcpy(settings.weights, TOP_SRCDIR "/weights/octuple.ow");
        Engine *engine;
        OctError error;
        ck_assert_msg(engine_create(&settings, &engine, &error), "%s", error.message);
        play(engine, "f5f4e3f6d3");
        Collected analysis = {0};
        EngineRequest request = {.task = ENGINE_ANALYZE, .lines = 1};
        ck_assert(engine_run(engine, &request, collect, &analysis, &error));
        ck_assert_int_eq(analysis.positions, 6); /* plies 5 .. 0 */
        for (int i = 0; i < analysis.positions; ++i) {
            int ply = analysis.plies[i];
            /* the timed search may complete no depth on a loaded machine (2 ms): then the
             * game's move has no score either */
            bool searched = depth < 8 || analysis.searched[i];
            ck_assert_msg(analysis.played_known[i] == (ply < 5 && searched), "ply %d", ply);
            if (analysis.played_known[i])
                ck_assert_msg(analysis.played[i] <= analysis.best[i],
                              "depth %d ply %d: played %d above best %d", depth, ply,
                              analysis.played[i], analysis.best[i]);
        }
        ck_assert_int_eq(analysis.plies[5], 0);
        if (depth < 8) /* timed, the alike moves may be searched to different depths */
            ck_assert_int_eq(analysis.played[5], analysis.best[5]); /* f5 at the start */
        engine_free(engine);
    }
}
END_TEST

START_TEST(test_forced_think)
{
    Engine *engine = new_engine(6);
    OctError error;
    play(engine, passes_game);
    /* game over */
    Collected over = {0};
    EngineRequest request = {.task = ENGINE_THINK, .lines = 1};
    ck_assert(engine_run(engine, &request, collect, &over, &error));
    ck_assert_int_eq(over.last.result.move, MOVE_NONE);
    ck_assert(over.last.forced);
    /* a forced pass: black after a3 (ply 47) */
    engine_new_game(engine);
    char prefix[100];
    snprintf(prefix, sizeof prefix, "%.96s", passes_game);
    play(engine, prefix);
    ck_assert_int_eq(engine_game(engine)->move_count, 48);
    Collected pass = {0};
    ck_assert(engine_run(engine, &request, collect, &pass, &error));
    ck_assert_int_eq(pass.last.result.move, MOVE_PASS);
    ck_assert(pass.last.forced);
    ck_assert_int_eq(pass.iterations, 0);
    engine_free(engine);
}
END_TEST

/* A game of a match (book against no book, depth 7, the shipped network) whose white player
 * hung at 15 empties: the selective pass before the solve answered b5's windows
 * inconsistently (at least -15 with one, at most -16 with the next), and the root's widening
 * swung between them for ever. Replayed with the searches of the side that hung, so the
 * table holds what it held then; the last search must end by itself with b5, -16. */
START_TEST(test_selective_pass_terminates)
{
    static const char *const moves =
        "d3e3f6c3f4g5f2d2g4g3d1g1b4e6f5g6f3e2d6c7h4c1b1c2f1c6c4c5b3a4h3a3h7b2h5h6g7f8e7h8a1e1"
        "a2h2a5";
    EngineSettings settings;
    settings_init(&settings, NULL);
    settings.threads = 1;
    settings.use_book = false;
    strcpy(settings.weights, TOP_SRCDIR "/weights/octuple.ow");
    Engine *engine;
    OctError error;
    ck_assert_msg(engine_create(&settings, &engine, &error), "%s", error.message);
    Game game;
    game_init(&game);
    for (int i = 0; i < 8; ++i)
        ck_assert(game_append(&game, move_parse(moves + 2 * i, NULL), NULL));
    engine_set_game(engine, &game);
    EngineRequest think = {.task = ENGINE_THINK, .lines = 1};
    size_t count = strlen(moves) / 2;
    for (size_t i = 8; i <= count; ++i) {
        Board board;
        Color side;
        engine_position(engine, &board, &side);
        if (side == COLOR_WHITE) {
            Collected collected = {0};
            ck_assert(engine_start(engine, &think, collect, &collected, &error));
            struct pollfd wake = {engine_wakeup_fd(engine), POLLIN, 0};
            bool ended = poll(&wake, 1, 60000) == 1;
            engine_stop(engine);
            ck_assert_msg(ended, "white's search at move %zu did not end", i + 1);
            if (i == count) {
                ck_assert_int_eq(collected.last.result.move, move_parse("b5", NULL));
                ck_assert(collected.last.result.exact);
                ck_assert_int_eq(collected.last.result.score, -16 * EVAL_DISC);
            }
        }
        if (i < count)
            ck_assert(engine_play(engine, move_parse(moves + 2 * i, NULL), NAN, NAN, &error));
    }
    engine_free(engine);
}
END_TEST

/* A search that would last for ever stops promptly. */
START_TEST(test_stop_is_prompt)
{
    Engine *engine = new_engine(60);
    OctError error;
    Collected collected = {0};
    EngineRequest request = {.task = ENGINE_HINT, .lines = 64};
    ck_assert(engine_start(engine, &request, collect, &collected, &error));
    ck_assert(!engine_start(engine, &request, collect, &collected, &error)); /* busy */
    ck_assert(!engine_play(engine, move_parse("f5", NULL), NAN, NAN, &error));
    EngineSettings settings = *engine_settings(engine);
    ck_assert(!engine_configure(engine, &settings, &error));
    usleep(200 * 1000);
    ck_assert(engine_busy(engine));
    double begin = session_now();
    engine_stop(engine);
    double took = session_now() - begin;
    fprintf(stderr, "check_engine: engine_stop took %.2f ms\n", took * 1000);
    ck_assert_msg(took < 0.5, "stop took %.0f ms", took * 1000);
    ck_assert(!engine_busy(engine));
    ck_assert_int_eq(collected.finished, 1);
    ck_assert(collected.last.stopped);
    /* stopping right after starting loses no stop (the search clears its flag at start) */
    for (int i = 0; i < 20; ++i) {
        Collected again = {0};
        ck_assert(engine_start(engine, &request, collect, &again, &error));
        engine_stop(engine);
        ck_assert_int_eq(again.finished, 1);
    }
    /* the wake-up descriptor is readable once a task ended, until collected */
    engine_set_position(engine, &(Board){0x0000000810000000ULL, 0x0000001008000000ULL},
                        COLOR_BLACK);
    request = (EngineRequest){.task = ENGINE_THINK, .lines = 1};
    settings.depth = 1;
    settings.exact = 0;
    ck_assert(engine_configure(engine, &settings, &error));
    Collected quick = {0};
    ck_assert(engine_start(engine, &request, collect, &quick, &error));
    struct pollfd wake = {engine_wakeup_fd(engine), POLLIN, 0};
    ck_assert_int_eq(poll(&wake, 1, 30000), 1);
    engine_wait(engine);
    ck_assert_int_eq(quick.finished, 1);
    ck_assert_int_eq(poll(&wake, 1, 0), 0);
    engine_free(engine);
}
END_TEST

START_TEST(test_configure)
{
    Engine *engine = new_engine(3);
    EngineSettings settings = *engine_settings(engine);
    OctError error;
    strcpy(settings.weights, "/nonexistent.ow");
    ck_assert(!engine_configure(engine, &settings, &error));
    ck_assert_str_eq(engine_settings(engine)->weights, default_weights);
    settings = *engine_settings(engine);
    settings.hash_megabytes = 4;
    settings.depth = 5;
    ck_assert(engine_configure(engine, &settings, &error));
    ck_assert_int_eq(engine_settings(engine)->depth, 5);
    ck_assert_str_eq(engine_weights_path(engine), default_weights);
    ck_assert_str_eq(engine_notice(engine), "");
    Collected think = {0};
    EngineRequest request = {.task = ENGINE_THINK, .lines = 1};
    ck_assert(engine_run(engine, &request, collect, &think, &error));
    ck_assert_int_eq(think.iterations, 5);
    engine_free(engine);
    /* explicit weights that do not load are an error */
    settings_init(&settings, NULL);
    settings.hash_megabytes = 4;
    strcpy(settings.weights, "/nonexistent.ow");
    ck_assert(!engine_create(&settings, &engine, &error));
}
END_TEST

START_TEST(test_learn)
{
    Engine *engine = new_engine(2);
    OctError error;
    char path[PATHS_SIZE];
    ck_assert(engine_learned_path(path, sizeof path, false, &error));
    unlink(path);
    play(engine, "f5d6");
    ck_assert(!engine_learn(engine, NULL, 0, NULL, &error));
    ck_assert_ptr_nonnull(strstr(error.message, "not over"));
    engine_new_game(engine);
    play(engine, passes_game);
    char written[PATHS_SIZE];
    ck_assert_msg(engine_learn(engine, written, sizeof written, NULL, &error), "%s", error.message);
    ck_assert_str_eq(written, path);
    ck_assert(engine_learn(engine, NULL, 0, NULL, &error));
    GgfRecord *records;
    size_t count;
    ck_assert_msg(ggf_read_file(path, &records, &count, &error), "%s", error.message);
    ck_assert_int_eq(count, 2);
    ck_assert_int_eq(records[1].game.move_count, 62);
    char result[16];
    snprintf(result, sizeof result, "%+d", game_black_score(&records[1].game));
    ck_assert_str_eq(records[1].result, result);
    free(records);
    engine_free(engine);
}
END_TEST

START_TEST(test_format_moves)
{
    int moves[] = {37, 43, MOVE_PASS, 18};
    char out[64];
    engine_format_moves(moves, 4, COLOR_BLACK, "", out, sizeof out);
    ck_assert_str_eq(out, "F5d6PAc3");
    engine_format_moves(moves, 4, COLOR_WHITE, " ", out, sizeof out);
    ck_assert_str_eq(out, "f5 D6 PA C3");
    engine_format_moves(moves, 4, COLOR_BLACK, "", out, 6); /* whole moves only */
    ck_assert_str_eq(out, "F5d6");
}
END_TEST

/* An engine for the batch solver: the given table size, threads and win/draw/loss
 * threshold, the test network (any evaluation orders the moves), no book. */
static Engine *solve_engine(int hash_megabytes, int threads, int wld)
{
    EngineSettings settings;
    settings_init(&settings, NULL);
    settings.hash_megabytes = hash_megabytes;
    settings.threads = threads;
    settings.wld = wld;
    settings.use_book = false;
    strcpy(settings.weights, default_weights);
    Engine *engine;
    OctError error;
    ck_assert_msg(engine_create(&settings, &engine, &error), "%s", error.message);
    return engine;
}

/* One run of the batch solver over the file test_solve_wld writes (see there): by the bare
 * solver or through the engine's search. */
static void check_solve_wld(const char *obf, bool bare, int exact_rows)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(out);
    /* win/draw/loss up to 10 empties, exact above: both kinds of row in one run */
    Engine *engine = solve_engine(4, 2, 10);
    int status = tools_solve_with(engine, bare, obf, NULL, NULL, out, out);
    engine_free(engine);
    fclose(out);
    ck_assert_int_eq(status, 1);
    ck_assert_msg(strstr(text, "solved 24 positions: 1 wrong scores, 0 wrong moves, "), "%s", text);
    /* the processor time of the solves, the line before the last */
    double cpu = -1;
    const char *cpu_line = strstr(text, "\nprocessor time of the solves: ");
    ck_assert_msg(cpu_line && sscanf(cpu_line, "\nprocessor time of the solves: %lf s", &cpu) == 1
                  && cpu >= 0 && !strncmp(strchr(cpu_line + 1, '\n'), "\nsolved 24", 10),
                  "%s", text);
    int words = 0, numbers = 0;
    for (char *row = strchr(text, '\n') + 1; *row && strncmp(row, "processor", 9);
         row = strchr(row, '\n') + 1) {
        int number, empties;
        char move[4], score[8];
        ck_assert_int_eq(sscanf(row, "%d %d %3s %7s", &number, &empties, move, score), 4);
        if (empties <= 10) {
            ck_assert_msg(!strcmp(score, "win") || !strcmp(score, "draw") || !strcmp(score, "loss"),
                          "row %d: %s", number, score);
            ++words;
        } else {
            ck_assert_msg(score[0] == '+' || score[0] == '-', "row %d: %s", number, score);
            ++numbers;
        }
    }
    ck_assert_int_eq(words, 24 - exact_rows);
    ck_assert_int_eq(numbers, exact_rows);
    free(text);
}

/* The batch solver with `wld`: positions of at most `wld` empties are solved for win, draw or
 * loss only, their rows say so, and they are judged by the sign of the file's best score; a
 * file whose score has the wrong sign counts as a wrong score. The scores in the file come
 * from the exact solver on positions reached by a fixed pseudo-random playout. */
START_TEST(test_solve_wld)
{
    char obf[] = "/tmp/octuple-wld-XXXXXX";
    int fd = mkstemp(obf);
    ck_assert_int_ge(fd, 0);
    FILE *file = fdopen(fd, "w");
    ck_assert_ptr_nonnull(file);
    TestRandom random = {12345};
    int written = 0, outcomes[3] = {0, 0, 0}, exact_rows = 0;
    while (written < 24) {
        Board board;
        board_init(&board);
        Color side = COLOR_BLACK;
        int empties = 9 + written % 4;
        while (board_count_empties(&board) > empties && !board_is_over(&board)) {
            int move = test_random_move(&random, &board);
            if (move == MOVE_PASS)
                board_pass(&board);
            else
                board_play(&board, move);
            side = !side;
        }
        if (board_count_empties(&board) != empties || !board_legal(&board))
            continue;
        Solver solver;
        solver_init(&solver, NULL, NULL);
        SolveResult exact = endgame_solve(&solver, &board, false);
        /* the last position, a win, is listed as a loss: one wrong score, and whatever
         * winning move the solver picks is no wrong move */
        if (written == 23 && exact.score <= 0)
            continue;
        ObfPosition position = {.board = board, .side = side, .move_count = 1};
        position.moves[0] = exact.move;
        position.scores[0] = written == 23 ? -2 : exact.score;
        char line[OBF_LINE_SIZE];
        OctError error;
        ck_assert_msg(obf_format_line(&position, line, sizeof line, &error), "%s", error.message);
        fprintf(file, "%s\n", line);
        if (written < 23)
            ++outcomes[(exact.score > 0) - (exact.score < 0) + 1];
        exact_rows += empties > 10;
        ++written;
    }
    ck_assert_int_eq(fclose(file), 0);
    ck_assert_int_gt(outcomes[0], 0);
    ck_assert_int_gt(outcomes[2], 0);
    /* the bare solver, then the full search (any evaluation orders its moves) */
    check_solve_wld(obf, true, exact_rows);
    check_solve_wld(obf, false, exact_rows);
    unlink(obf);
}
END_TEST

/* Raises an Interrupt after a while, as the console's Ctrl-C handler would. */
static void *raise_later(void *argument)
{
    usleep(200000);
    interrupt_raise(argument);
    return NULL;
}

/* The console's Ctrl-C for the work in its own thread: perft and the batch solver stop
 * early, say so, and return 1; a solve of the whole game (which never ends) stops while its
 * search runs, with no position counted. */
START_TEST(test_interrupts)
{
    Board start;
    board_init(&start);
    atomic_bool raised, calm;
    atomic_init(&raised, true);
    atomic_init(&calm, false);
    ck_assert_uint_eq(perft_count_until(&start, 8, &calm), 390216);
    ck_assert_uint_lt(perft_count_until(&start, 8, &raised), 390216);

    Interrupt interrupt;
    atomic_init(&interrupt.raised, false);
    atomic_init(&interrupt.engine, NULL);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(out);
    pthread_t thread;
    ck_assert_int_eq(pthread_create(&thread, NULL, raise_later, &interrupt), 0);
    ck_assert_int_eq(tools_perft_from(&start, PERFT_MAX_DEPTH, &interrupt, out), 1);
    pthread_join(thread, NULL);
    fclose(out);
    ck_assert_msg(strstr(text, "perft  8:          390216 leaves"), "%s", text);
    ck_assert_msg(strstr(text, ": interrupted after "), "%s", text);
    free(text);

    char obf[] = "/tmp/octuple-interrupt-XXXXXX";
    int fd = mkstemp(obf);
    ck_assert_int_ge(fd, 0);
    const char *line = "---------------------------OX------XO--------------------------- X;\n";
    ck_assert_int_eq(write(fd, line, strlen(line)), (ssize_t)strlen(line));
    close(fd);
    Engine *engine = solve_engine(4, 1, 0);
    for (int pass = 0; pass < 2; ++pass) { /* raised before the start, then during the solve */
        atomic_store(&interrupt.raised, pass == 0);
        out = open_memstream(&text, &size);
        ck_assert_ptr_nonnull(out);
        if (pass == 1)
            ck_assert_int_eq(pthread_create(&thread, NULL, raise_later, &interrupt), 0);
        ck_assert_int_eq(tools_solve_with(engine, false, obf, NULL, &interrupt, out, out), 1);
        if (pass == 1)
            pthread_join(thread, NULL);
        fclose(out);
        ck_assert_msg(strstr(text, "interrupted: 0 of 1 positions solved\nsolved 0 positions: "),
                      "%s", text);
        ck_assert_ptr_null(atomic_load(&interrupt.engine));
        free(text);
    }
    engine_free(engine);
    unlink(obf);
}
END_TEST

int main(void)
{
    session_home();
    Suite *suite = suite_create("engine");
    TCase *tc = tcase_create("engine");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_level_table);
    tcase_add_test(tc, test_settings_defaults_and_table);
    tcase_add_test(tc, test_options);
    tcase_add_test(tc, test_hash_beyond_physical_memory);
    tcase_add_test(tc, test_user_dirs);
    tcase_add_test(tc, test_append_atomic);
    tcase_add_test(tc, test_read_limit);
    tcase_add_test(tc, test_read_declared);
    tcase_add_test(tc, test_read_pipes);
    tcase_add_test(tc, test_write_atomic_long_names);
    tcase_add_test(tc, test_stale_temporaries_removed_at_start);
    tcase_add_test(tc, test_write_atomic_refuses_special_files);
    tcase_add_test(tc, test_find_data);
    tcase_add_test(tc, test_find_weights);
    tcase_add_test(tc, test_play_undo_redo);
    tcase_add_test(tc, test_undo_redo_passes);
    tcase_add_test(tc, test_records);
    tcase_add_test(tc, test_think_hint_analyze);
    tcase_add_test(tc, test_answer_played_back);
    tcase_add_test(tc, test_analysis_scores_moves_alike);
    tcase_add_test(tc, test_forced_think);
    tcase_add_test(tc, test_stop_is_prompt);
    tcase_add_test(tc, test_selective_pass_terminates);
    tcase_add_test(tc, test_configure);
    tcase_add_test(tc, test_learn);
    tcase_add_test(tc, test_format_moves);
    tcase_add_test(tc, test_solve_wld);
    tcase_add_test(tc, test_interrupts);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
