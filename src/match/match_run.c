#include "match/match_run.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/timing.h"
#include "match/match_game.h"

enum {
    START_FAILURES_FATAL = 3, /* consecutive failed restarts of one engine end the match */
    OUTPUT_LIMIT = 1 << 30
};

static const char PLACE_PREFIX[] = "octuple-match ";

typedef struct Runner {
    const MatchConfig *config;
    pthread_mutex_t lock;
    MatchStats *stats;
    bool *taken;             /* per game: finished before or being played */
    size_t total;
    int played;
    int to_play;             /* games missing when this run started */
    double started;
    int output;              /* fd, -1 when none */
    bool ever_started[MATCH_ENGINES];
    bool failed;             /* a fatal error happened (message in `error`) */
    OctError error;
    char progress[256];
    bool progress_shown;
} Runner;

static int opening_of(int game)
{
    return game / 2;
}

static int black_engine(int game)
{
    return game % 2;
}

/* Engine whose move is move `index` of the game. */
static void mover_colors(const Game *game, Color *colors)
{
    Color side = game->start_side;
    for (int i = 0; i < game->move_count; ++i) {
        colors[i] = side;
        side = (Color)!side;
    }
}

bool match_result_from_record(const MatchConfig *config, const GgfRecord *record, int *game,
                              MatchResult *result, OctError *error)
{
    size_t prefix = sizeof PLACE_PREFIX - 1;
    char *end;
    if (strncmp(record->place, PLACE_PREFIX, prefix))
        return error_set(error, "PC[%s] is not an octuple-match game number", record->place);
    long number = strtol(record->place + prefix, &end, 10);
    if (end == record->place + prefix || *end || number < 0 ||
        (size_t)number >= 2 * config->opening_count)
        return error_set(error, "PC[%s]: no such game in this match (%zu games)",
                         record->place, 2 * config->opening_count);
    int g = (int)number;
    const Game *opening = &config->openings[opening_of(g)];
    const Game *played = &record->game;
    if (played->start_side != opening->start_side ||
        !board_equal(&played->start, &opening->start) ||
        played->move_count < opening->move_count ||
        memcmp(played->moves, opening->moves, (size_t)opening->move_count * sizeof(int)))
        return error_set(error, "game %d does not start with opening %d of this match", g,
                         opening_of(g) + 1);
    int black = black_engine(g);
    if (strcmp(record->black, config->engines[black].name) ||
        strcmp(record->white, config->engines[1 - black].name))
        return error_set(error, "game %d: PB[%s] PW[%s], expected %s and %s", g, record->black,
                         record->white, config->engines[black].name,
                         config->engines[1 - black].name);
    char clock[GGF_TEXT_SIZE];
    match_clock_format(&config->clock, clock, sizeof clock);
    if (strcmp(record->clock, clock))
        return error_set(error, "game %d: TI[%s], but this match plays %s%s%s", g, record->clock,
                         clock[0] ? "TI[" : "no clock", clock, clock[0] ? "]" : "");

    int black_score;
    bool forfeit = strchr(record->result, ':') != NULL;
    if (forfeit) {
        black_score = (int)strtol(record->result, &end, 10);
        if (end == record->result || (strcmp(end, ":r") && strcmp(end, ":t")) || !black_score)
            return error_set(error, "game %d: bad result RE[%s]", g, record->result);
    } else {
        if (!game_is_over(played))
            return error_set(error, "game %d is unfinished (RE[%s])", g, record->result);
        black_score = game_black_score(played);
    }
    memset(result, 0, sizeof *result);
    result->opening = opening_of(g);
    result->black = black;
    result->discs = black == 0 ? black_score : -black_score;
    /* a forfeit is lost by the side the score is against */
    result->forfeit = !forfeit ? -1 : black_score < 0 ? black : 1 - black;
    Color colors[GAME_MOVE_CAPACITY];
    mover_colors(played, colors);
    for (int i = opening->move_count; i < played->move_count; ++i) {
        if (played->moves[i] == MOVE_PASS || !isfinite(record->times[i]))
            continue;
        int engine = colors[i] == COLOR_BLACK ? black : 1 - black;
        ++result->moves[engine];
        result->seconds[engine] += record->times[i];
    }
    *game = g;
    return true;
}

/* Formats "1:02:03". */
static void format_duration(double seconds, char *out, size_t size)
{
    if (!isfinite(seconds) || seconds < 0) {
        snprintf(out, size, "?");
        return;
    }
    long s = (long)(seconds + 0.5);
    snprintf(out, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}

/* With the lock held. */
static void show_progress(Runner *runner)
{
    const MatchConfig *config = runner->config;
    if (!config->log || !config->progress)
        return;
    char line[200];
    match_stats_progress(runner->stats, line, sizeof line);
    char eta[32];
    double elapsed = monotonic_seconds() - runner->started;
    int left = runner->to_play - runner->played;
    format_duration(runner->played ? elapsed / runner->played * left : NAN, eta, sizeof eta);
    snprintf(runner->progress, sizeof runner->progress, "[%d/%zu] %s  ETA %s",
             runner->stats->games, runner->total, line, eta);
    if (config->progress_tty) {
        fprintf(config->log, "\r\033[K%s", runner->progress);
        runner->progress_shown = true;
    } else {
        fprintf(config->log, "%s\n", runner->progress);
    }
    fflush(config->log);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void log_event(Runner *runner, const char *format, ...)
{
    const MatchConfig *config = runner->config;
    char text[2048];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    if (config->log) {
        if (runner->progress_shown)
            fputs("\r\033[K", config->log);
        fprintf(config->log, "octuple-match: %s\n", text);
        if (runner->progress_shown)
            fputs(runner->progress, config->log);
        fflush(config->log);
    }
    if (config->event_log) {
        char date[64];
        time_t now = time(NULL);
        struct tm tm;
        strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", localtime_r(&now, &tm));
        fprintf(config->event_log, "%s %s\n", date, text);
        fflush(config->event_log);
    }
}

static void fail(Runner *runner, const OctError *error)
{
    if (!runner->failed) {
        runner->failed = true;
        runner->error = *error;
    }
    atomic_store(runner->config->stop, 1);
}

/* One line, one write, then fsync: a crash leaves whole records and at most a torn last
 * line, which resuming cuts off. With the lock held. */
static bool append_record(Runner *runner, const GgfRecord *record, OctError *error)
{
    if (runner->output < 0)
        return true;
    char line[GGF_LINE_SIZE + 1];
    if (!ggf_format(record, line, sizeof line - 1, error))
        return false;
    size_t length = strlen(line);
    line[length++] = '\n';
    size_t written = 0;
    while (written < length) {
        ssize_t n = write(runner->output, line + written, length - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return error_set(error, "%s: %s", runner->config->output, strerror(errno));
        written += (size_t)n;
    }
    if (fsync(runner->output) && errno != EINVAL)
        return error_set(error, "%s: %s", runner->config->output, strerror(errno));
    return true;
}

static void date_now(char *out, size_t size)
{
    time_t now = time(NULL);
    struct tm tm;
    strftime(out, size, "%Y-%m-%d %H:%M:%S GMT", gmtime_r(&now, &tm));
}

static void *worker(void *argument)
{
    Runner *runner = argument;
    const MatchConfig *config = runner->config;
    MatchEngine engines[MATCH_ENGINES];
    bool running[MATCH_ENGINES] = {false, false};
    int start_failures[MATCH_ENGINES] = {0, 0};
    for (;;) {
        if (atomic_load(config->stop))
            break;
        pthread_mutex_lock(&runner->lock);
        int g = -1;
        for (size_t i = 0; i < runner->total; ++i)
            if (!runner->taken[i]) {
                runner->taken[i] = true;
                g = (int)i;
                break;
            }
        pthread_mutex_unlock(&runner->lock);
        if (g < 0)
            break;

        for (int e = 0; e < MATCH_ENGINES && !atomic_load(config->stop); ++e) {
            if (running[e])
                continue;
            OctError error;
            double timeout = config->start_timeout > 0 ? config->start_timeout : config->timeout;
            if (match_engine_start(&engines[e], &config->engines[e], config->stop, timeout,
                                   &error)) {
                running[e] = true;
                start_failures[e] = 0;
                pthread_mutex_lock(&runner->lock);
                runner->ever_started[e] = true;
                pthread_mutex_unlock(&runner->lock);
                continue;
            }
            if (atomic_load(config->stop))
                break;
            pthread_mutex_lock(&runner->lock);
            ++start_failures[e];
            if (!runner->ever_started[e] || start_failures[e] >= START_FAILURES_FATAL) {
                if (runner->ever_started[e])
                    error_prefix(&error, "restarting %d times failed: ", START_FAILURES_FATAL);
                fail(runner, &error);
            } else {
                log_event(runner, "game %d: %s", g + 1, error.message);
            }
            pthread_mutex_unlock(&runner->lock);
        }
        if (atomic_load(config->stop))
            break;

        int black = black_engine(g);
        MatchEngine *by_color[2] = {running[black] ? &engines[black] : NULL,
                                    running[1 - black] ? &engines[1 - black] : NULL};
        GgfRecord header;
        ggf_init(&header);
        snprintf(header.place, sizeof header.place, "%s%d", PLACE_PREFIX, g);
        snprintf(header.black, sizeof header.black, "%s", config->engines[black].name);
        snprintf(header.white, sizeof header.white, "%s", config->engines[1 - black].name);
        date_now(header.date, sizeof header.date);
        snprintf(header.type, sizeof header.type, "8");
        match_clock_format(&config->clock, header.clock, sizeof header.clock);
        MatchGameOutcome *outcome = malloc(sizeof *outcome);
        if (!outcome) {
            OctError error;
            error_set(&error, "out of memory");
            pthread_mutex_lock(&runner->lock);
            fail(runner, &error);
            pthread_mutex_unlock(&runner->lock);
            break;
        }
        match_game_play(&header, &config->openings[opening_of(g)], by_color, config->timeout,
                        &config->clock, outcome);
        if (outcome->interrupted) {
            free(outcome);
            break;
        }
        for (int c = 0; c < 2; ++c)
            if (outcome->restart[c])
                running[c == COLOR_BLACK ? black : 1 - black] = false;

        pthread_mutex_lock(&runner->lock);
        if (outcome->event[0])
            log_event(runner, "game %d (opening %d): %s", g + 1, opening_of(g) + 1,
                      outcome->event);
        OctError error;
        MatchResult result;
        int number;
        if (!append_record(runner, &outcome->record, &error) ||
            !match_result_from_record(config, &outcome->record, &number, &result, &error)) {
            fail(runner, &error);
        } else {
            match_stats_add(runner->stats, &result);
            ++runner->played;
            show_progress(runner);
        }
        pthread_mutex_unlock(&runner->lock);
        free(outcome);
    }
    for (int e = 0; e < MATCH_ENGINES; ++e)
        if (running[e])
            match_engine_close(&engines[e]);
    return NULL;
}

static bool only_blank(const char *from, const char *to)
{
    for (; from < to; ++from)
        if (!isspace((unsigned char)*from))
            return false;
    return true;
}

/* Reads the games already in the output; a torn last line is cut off the file. */
static bool resume_from(Runner *runner, MatchRunInfo *info, OctError *error)
{
    const MatchConfig *config = runner->config;
    struct stat status;
    if (stat(config->output, &status) && errno == ENOENT)
        return true;
    char *text;
    size_t size;
    if (!file_read_all(config->output, OUTPUT_LIMIT, &text, &size, error))
        return false;
    const char *p = text;
    size_t good_end = 0; /* end of the last whole line holding records */
    int record_number = 0;
    bool ok = true;
    GgfRecord *record = malloc(sizeof *record);
    if (!record) {
        free(text);
        return error_set(error, "out of memory");
    }
    while (ok && strstr(p, "(;")) {
        const char *end;
        ++record_number;
        if (!only_blank(p, strstr(p, "(;"))) {
            ok = error_set(error, "%s: text that is no game before record %d: not a match's "
                           "output, so not resumed", config->output, record_number);
            break;
        }
        if (!ggf_parse(p, record, &end, error)) {
            if (strchr(strstr(p, "(;"), '\n')) {
                ok = error_prefix(error, "%s: record %d: ", config->output, record_number);
            } else {
                log_event(runner, "%s: record %d is incomplete (the last line): removed",
                          config->output, record_number);
                if (truncate(config->output, (off_t)good_end))
                    ok = error_set(error, "%s: %s", config->output, strerror(errno));
            }
            break;
        }
        int g;
        MatchResult result;
        if (!match_result_from_record(config, record, &g, &result, error)) {
            ok = error_prefix(error, "%s: record %d: ", config->output, record_number);
            break;
        }
        if (runner->taken[g]) {
            ok = error_set(error, "%s: record %d: game %d (PC[%s%d]) appears twice",
                           config->output, record_number, g + 1, PLACE_PREFIX, g);
            break;
        }
        runner->taken[g] = true;
        match_stats_add(runner->stats, &result);
        ++info->resumed;
        p = end;
        const char *newline = strchr(p, '\n');
        if (!only_blank(p, newline ? newline : text + size)) {
            ok = error_set(error, "%s: text that is no game after record %d on its line: not "
                           "a match's output, so not resumed", config->output, record_number);
            break;
        }
        good_end = newline ? (size_t)(newline + 1 - text) : size;
    }
    /* text after the last record that holds none (a torn record that parsed as far as its
     * ';' was cut off above): another kind of file, which games must not be appended to */
    if (ok && good_end < size && !strstr(text + good_end, "(;")
        && !only_blank(text + good_end, text + size)) {
        const char *rest = text + good_end;
        while (isspace((unsigned char)*rest))
            ++rest;
        if (!strcmp(rest, "(")) {
            /* a record torn before its ';' on the last line: a record is written with one
             * write, so nothing else of it can be there, and a '(' followed by anything is
             * somebody's text */
            log_event(runner, "%s: the last line holds a record's torn start: removed",
                      config->output);
            if (truncate(config->output, (off_t)good_end))
                ok = error_set(error, "%s: %s", config->output, strerror(errno));
        } else {
            ok = error_set(error, "%s: text that is no game %s: not a match's output, so not "
                           "resumed", config->output, record_number ? "after the last record"
                                                                    : "and no record");
        }
    }
    /* a record without its newline (torn after ";)") gets one before more are appended */
    if (ok && good_end == size && size && text[size - 1] != '\n') {
        int fd = file_open_append(config->output, 0, error);
        if (fd < 0)
            ok = false;
        else if (write(fd, "\n", 1) != 1)
            ok = error_set(error, "%s: %s", config->output, strerror(errno));
        if (fd >= 0)
            close(fd);
    }
    free(record);
    free(text);
    return ok;
}

bool match_run(const MatchConfig *config, MatchStats *stats, MatchRunInfo *info,
               OctError *error)
{
    memset(info, 0, sizeof *info);
    if (!match_stats_init(stats, config->opening_count))
        return error_set(error, "out of memory");
    if (!strcmp(config->engines[0].name, config->engines[1].name))
        return error_set(error, "the engines need different names (both are '%s')",
                         config->engines[0].name);
    /* GTP sets a game up by clear_board and moves: only from the standard start */
    Board standard;
    board_init(&standard);
    for (int e = 0; e < MATCH_ENGINES; ++e)
        for (size_t i = 0; config->engines[e].protocol == MATCH_GTP && i < config->opening_count;
             ++i) {
            const Game *opening = &config->openings[i];
            if (opening->start_side != COLOR_BLACK || opening->start.player != standard.player
                || opening->start.opponent != standard.opponent)
                return error_set(error, "opening %zu starts from a position of its own, which "
                                 "GTP (engine '%s') cannot be given: GTP games start from the "
                                 "standard position", i + 1, config->engines[e].name);
        }
    Runner runner;
    memset(&runner, 0, sizeof runner);
    runner.config = config;
    runner.stats = stats;
    runner.total = 2 * config->opening_count;
    runner.output = -1;
    info->total = (int)runner.total;
    runner.taken = calloc(runner.total ? runner.total : 1, sizeof *runner.taken);
    if (!runner.taken)
        return error_set(error, "out of memory");
    pthread_mutex_init(&runner.lock, NULL);
    bool ok = true;
    if (config->output) {
        if (config->resume) {
            ok = resume_from(&runner, info, error);
        } else if (!config->overwrite) {
            struct stat status;
            if (!stat(config->output, &status) && status.st_size > 0)
                ok = error_set(error, "%s exists: continue it with --resume, or replace it "
                               "with --force", config->output);
        }
        if (ok) {
            runner.output = file_open_append(config->output,
                                             O_CREAT | (config->resume ? 0 : O_TRUNC), error);
            ok = runner.output >= 0;
        }
    }
    if (ok && config->banner && config->banner_out) {
        fprintf(config->banner_out, "%s\n", config->banner);
        fflush(config->banner_out);
    }
    if (ok) {
        runner.to_play = (int)runner.total - info->resumed;
        runner.started = monotonic_seconds();
        int threads = config->concurrency < 1 ? 1 : config->concurrency;
        if (threads > runner.to_play)
            threads = runner.to_play;
        pthread_t *ids = calloc(threads > 0 ? (size_t)threads : 1, sizeof *ids);
        int created = 0;
        for (int i = 0; ids && i < threads; ++i) {
            if (pthread_create(&ids[i], NULL, worker, &runner))
                break;
            ++created;
        }
        if (threads > 0 && !created) {
            ok = error_set(error, "cannot start worker threads");
        }
        for (int i = 0; i < created; ++i)
            pthread_join(ids[i], NULL);
        free(ids);
        if (runner.progress_shown && config->log) {
            fputc('\n', config->log);
            fflush(config->log);
        }
        if (runner.failed) {
            *error = runner.error;
            ok = false;
        }
        info->played = runner.played;
        info->interrupted = info->resumed + info->played < info->total;
    }
    if (runner.output >= 0)
        close(runner.output);
    pthread_mutex_destroy(&runner.lock);
    free(runner.taken);
    return ok;
}
