/* The self-play generator: games into a positions file, in game order, on several threads. */
#include "train/selfplay.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/board.h"
#include "core/eval.h"
#include "core/rng.h"
#include "core/search.h"
#include "core/timing.h"

SelfplayOptions selfplay_defaults(void)
{
    return (SelfplayOptions){.seed = 1, .games = 1000, .min_random = 8, .max_random = 50,
                             .depth = 7, .exact_empties = 20, .threads = 1,
                             .hash_megabytes = 16, .progress_seconds = 10};
}

bool selfplay_check(const SelfplayOptions *options, OctError *error)
{
    if (options->min_random < 0 || options->max_random > 60
        || options->min_random > options->max_random)
        return error_set(error, "random moves %d..%d: give 0 <= MIN <= MAX <= 60",
                         options->min_random, options->max_random);
    if (options->depth < 1 || options->depth > 20)
        return error_set(error, "depth %d: give 1..20", options->depth);
    if (options->exact_empties < 0 || options->exact_empties > 30)
        return error_set(error, "exact from %d empties: give 0..30", options->exact_empties);
    if (options->label_depth < 0 || options->label_depth > 20)
        return error_set(error, "label depth %d: give 0..20", options->label_depth);
    if (!(options->random_rate >= 0 && options->random_rate <= 1))
        return error_set(error, "random move rate %g: give 0..1", options->random_rate);
    if (options->games < 1 || options->first_game > UINT64_MAX - options->games)
        return error_set(error, "no games to play");
    return true;
}

/* The k-th legal move, k < the number of legal moves. */
static int nth_move(uint64_t legal, uint64_t k)
{
    while (k--)
        legal &= legal - 1;
    return __builtin_ctzll(legal);
}

static int16_t clamp_score(int score)
{
    int limit = 64 * EVAL_DISC;
    return (int16_t)(score < -limit ? -limit : score > limit ? limit : score);
}

void selfplay_game(Search *search, const SelfplayOptions *options, uint64_t number,
                   PosGame *game)
{
    uint64_t state = board_mix64(options->seed ^ board_mix64(number + 0x9e3779b97f4a7c15ULL));
    int span = options->max_random - options->min_random + 1;
    int randoms = options->min_random + (int)(rng_next(&state) % (uint64_t)span);
    game->seed = options->seed;
    game->number = number;
    game->count = 0;
    tt_clear(&search->tt); /* the game depends on nothing played before it */
    SearchLimits play = search_default_limits();
    play.depth = options->depth;
    play.exact_empties = options->exact_empties;
    SearchLimits label = play;
    label.depth = options->label_depth;
    Color sides[POSFILE_MAX_GAME_POSITIONS];
    int labelled_from = 0; /* positions before a random move are not labelled by the game */
    Board board;
    board_init(&board);
    Color side = COLOR_BLACK;
    for (int played = 0; !board_is_over(&board);) {
        uint64_t legal = board_legal(&board);
        if (!legal) {
            board_pass(&board);
            side = (Color)!side;
            continue;
        }
        int empties = board_count_empties(&board);
        bool random = played < randoms
                   || (empties > options->exact_empties && options->random_rate > 0
                       && rng_unit(&state) < options->random_rate);
        if (random) {
            board_play(&board, nth_move(legal, rng_next(&state) % (uint64_t)__builtin_popcountll(legal)));
            labelled_from = game->count;
            ++played;
            side = (Color)!side;
            continue;
        }
        PosRecord *record = &game->records[game->count];
        sides[game->count++] = side;
        record->board = board;
        record->flags = 0;
        record->search = 0;
        SearchResult result;
        search_run(search, &board, &play, &result, NULL, NULL);
        if (options->label_depth > 0) {
            record->flags |= POSFILE_SEARCH_LABEL;
            if (options->label_depth == options->depth || result.exact) {
                record->search = clamp_score(result.score);
            } else {
                SearchResult labelled;
                search_run(search, &board, &label, &labelled, NULL, NULL);
                record->search = clamp_score(labelled.score);
            }
        }
        board_play(&board, result.move);
        ++played;
        side = (Color)!side;
    }
    int final = board_final_score(&board);
    int black = side == COLOR_BLACK ? final : -final;
    int kept = 0;
    for (int i = 0; i < game->count; ++i) {
        PosRecord record = game->records[i];
        record.score = (int8_t)(sides[i] == COLOR_BLACK ? black : -black);
        if (i >= labelled_from) {
            record.flags |= POSFILE_GAME_LABEL;
            if (board_count_empties(&record.board) <= options->exact_empties)
                record.flags |= POSFILE_EXACT;
        } else {
            record.score = 0;
        }
        if (record.flags)
            game->records[kept++] = record;
    }
    game->count = kept;
}

static uint32_t hash_bytes(uint32_t crc, const void *data, size_t size)
{
    return (uint32_t)crc32(crc, data, (uInt)size);
}

uint32_t selfplay_settings_hash(const SelfplayOptions *options, const Model *model)
{
    int32_t shaping[] = {options->min_random, options->max_random, options->depth,
                         options->exact_empties, options->label_depth,
                         (int32_t)(options->random_rate * 1e9)};
    uint32_t crc = hash_bytes(crc32(0L, Z_NULL, 0), shaping, sizeof shaping);
    crc = hash_bytes(crc, &model->phase, sizeof model->phase);
    for (int s = 0; s < model->set_count; ++s) {
        const WeightSet *set = &model->sets[s];
        crc = hash_bytes(crc, &set->bias, sizeof set->bias);
        crc = hash_bytes(crc, set->values,
                         sizeof *set->values * model->shapes[set->shape].table_size);
    }
    const Probcut *cut = &model->probcut;
    double endgame[] = {cut->enabled, cut->base, cut->per_empty, cut->per_depth,
                        cut->mid_enabled};
    crc = hash_bytes(crc, endgame, sizeof endgame);
    if (cut->mid_enabled)
        crc = hash_bytes(crc, cut->mid, sizeof cut->mid);
    return crc;
}

typedef struct Runner {
    const SelfplayOptions *options;
    const Model *model;
    int fd;
    const char *path;
    FILE *log;
    pthread_mutex_t lock;
    pthread_cond_t moved;
    uint64_t done;         /* games an earlier run wrote */
    uint64_t first;        /* the first game this run plays */
    uint64_t total;        /* games this run plays */
    uint64_t taken;        /* handed to a thread */
    uint64_t written;      /* written to the file, in order */
    int window;
    PosGame **slots;       /* finished games waiting for the ones before them */
    bool *ready;
    unsigned char *block;
    size_t positions;
    double start, last_progress;
    bool failed;
    OctError error;
} Runner;

static void progress(Runner *runner, bool last)
{
    double now = monotonic_seconds();
    if (!runner->log || (!last && (runner->options->progress_seconds <= 0
                                   || now - runner->last_progress < runner->options->progress_seconds)))
        return;
    runner->last_progress = now;
    double elapsed = now - runner->start;
    double rate = elapsed > 0 ? (double)runner->written / elapsed : 0;
    double left = rate > 0 ? (double)(runner->total - runner->written) / rate : 0;
    fprintf(runner->log, "selfplay: %llu/%llu games, %zu positions, %.2f games/s, %s %d:%02d:%02d\n",
            (unsigned long long)(runner->done + runner->written),
            (unsigned long long)(runner->done + runner->total),
            runner->positions, rate, last ? "took" : "left",
            (int)((last ? elapsed : left) / 3600), (int)((last ? elapsed : left) / 60) % 60,
            (int)(last ? elapsed : left) % 60);
    fflush(runner->log);
}

static bool write_all(int fd, const unsigned char *data, size_t size)
{
    while (size) {
        ssize_t n = write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= (size_t)n;
    }
    return true;
}

/* Under the lock: writes the finished games that are next in order. */
static void flush_ready(Runner *runner)
{
    while (!runner->failed && runner->written < runner->total
           && runner->ready[runner->written % (uint64_t)runner->window]) {
        size_t slot = runner->written % (uint64_t)runner->window;
        const PosGame *game = runner->slots[slot];
        size_t length = posfile_block_encode(game, runner->block);
        if (!write_all(runner->fd, runner->block, length)) {
            runner->failed = true;
            error_set(&runner->error, "%s: cannot write: %s", runner->path, strerror(errno));
            break;
        }
        runner->positions += (size_t)game->count;
        runner->ready[slot] = false;
        ++runner->written;
        progress(runner, false);
    }
    pthread_cond_broadcast(&runner->moved);
}

static void *worker(void *arg)
{
    Runner *runner = arg;
    Search search;
    OctError error;
    PosGame *game = malloc(sizeof *game);
    if (!game || !search_init(&search, runner->options->hash_megabytes, &error)) {
        pthread_mutex_lock(&runner->lock);
        if (!runner->failed && game)
            error_set(&runner->error, "%s", error.message);
        else if (!runner->failed)
            error_set(&runner->error, "out of memory");
        runner->failed = true;
        pthread_cond_broadcast(&runner->moved);
        pthread_mutex_unlock(&runner->lock);
        free(game);
        return NULL;
    }
    search_set_model(&search, runner->model);
    pthread_mutex_lock(&runner->lock);
    while (!runner->failed && runner->taken < runner->total) {
        uint64_t k = runner->taken++;
        /* a slow game holds the file back: the others wait within the window */
        while (!runner->failed && k - runner->written >= (uint64_t)runner->window)
            pthread_cond_wait(&runner->moved, &runner->lock);
        if (runner->failed)
            break;
        pthread_mutex_unlock(&runner->lock);
        selfplay_game(&search, runner->options, runner->first + k, game);
        pthread_mutex_lock(&runner->lock);
        size_t slot = k % (uint64_t)runner->window;
        memcpy(runner->slots[slot], game, sizeof *game);
        runner->ready[slot] = true;
        flush_ready(runner);
    }
    pthread_mutex_unlock(&runner->lock);
    search_free(&search);
    free(game);
    return NULL;
}

/* Opens the output: a new file with its header, or an earlier run's file checked against
 * these settings, its cut-short tail removed. Sets the games already there. */
static int output_open(const SelfplayOptions *options, uint32_t settings, const char *path,
                       uint64_t *done, FILE *log, OctError *error)
{
    struct stat info;
    *done = 0;
    if (stat(path, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
        PosFile file;
        size_t valid;
        if (!posfile_read(path, true, &file, &valid, error))
            return -1;
        const PosHeader *h = &file.header;
        bool same = h->kind == POSFILE_KIND_GENERATED && h->seed == options->seed
                 && h->first_game == options->first_game && h->settings == settings;
        for (size_t g = 0; same && g < file.count; ++g)
            same = file.games[g].seed == options->seed
                && file.games[g].number == options->first_game + g;
        *done = file.count;
        posfile_free(&file);
        if (!same)
            return error_set(error, "%s exists and was made with other settings, seed, first "
                             "game or network: name another file to start anew", path), -1;
        if (*done > options->games)
            return error_set(error, "%s already holds %llu games, more than --games %llu", path,
                             (unsigned long long)*done, (unsigned long long)options->games), -1;
        int fd = open(path, O_WRONLY);
        if (fd < 0 || ftruncate(fd, (off_t)valid) != 0 || lseek(fd, 0, SEEK_END) < 0) {
            error_set(error, "%s: cannot reopen to resume: %s", path, strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        if (log && (off_t)valid < info.st_size)
            fprintf(log, "selfplay: %s: dropped a game cut short at byte %zu (interrupted run)\n",
                    path, valid);
        if (log && *done)
            fprintf(log, "selfplay: %s: resuming after %llu games\n", path,
                    (unsigned long long)*done);
        return fd;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return error_set(error, "%s: cannot create: %s", path, strerror(errno)), -1;
    PosHeader header = {options->seed, options->first_game, settings, POSFILE_KIND_GENERATED};
    unsigned char bytes[POSFILE_HEADER_SIZE];
    posfile_header_encode(&header, bytes);
    if (!write_all(fd, bytes, sizeof bytes)) {
        error_set(error, "%s: cannot write: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

bool selfplay_run(const SelfplayOptions *options, const Model *model, const char *path,
                  FILE *log, OctError *error)
{
    if (!selfplay_check(options, error))
        return false;
    uint64_t done;
    int fd = output_open(options, selfplay_settings_hash(options, model), path, &done, log,
                         error);
    if (fd < 0)
        return false;
    int threads = options->threads < 1 ? 1 : options->threads > 64 ? 64 : options->threads;
    Runner runner = {.options = options, .model = model, .fd = fd, .path = path, .log = log,
                     .done = done,
                     .first = options->first_game + done, .total = options->games - done,
                     .window = 4 * threads, .start = monotonic_seconds()};
    runner.last_progress = runner.start;
    runner.slots = calloc((size_t)runner.window, sizeof *runner.slots);
    runner.ready = calloc((size_t)runner.window, sizeof *runner.ready);
    runner.block = malloc(posfile_block_size(POSFILE_MAX_GAME_POSITIONS));
    bool ok = runner.slots && runner.ready && runner.block;
    for (int i = 0; ok && i < runner.window; ++i)
        ok = (runner.slots[i] = malloc(sizeof *runner.slots[i])) != NULL;
    if (!ok)
        error_set(error, "out of memory");
    pthread_mutex_init(&runner.lock, NULL);
    pthread_cond_init(&runner.moved, NULL);
    pthread_t ids[64];
    int started = 0;
    for (int t = 1; ok && t < threads; ++t)
        if (pthread_create(&ids[started], NULL, worker, &runner) == 0)
            ++started;
    if (ok)
        worker(&runner);
    for (int t = 0; t < started; ++t)
        pthread_join(ids[t], NULL);
    if (ok && runner.failed)
        ok = error_set(error, "%s", runner.error.message);
    if (ok && fsync(fd) != 0)
        ok = error_set(error, "%s: cannot write: %s", path, strerror(errno));
    if (close(fd) != 0 && ok)
        ok = error_set(error, "%s: cannot write: %s", path, strerror(errno));
    if (ok)
        progress(&runner, true);
    pthread_cond_destroy(&runner.moved);
    pthread_mutex_destroy(&runner.lock);
    for (int i = 0; runner.slots && i < runner.window; ++i)
        free(runner.slots[i]);
    free(runner.slots);
    free(runner.ready);
    free(runner.block);
    return ok;
}
