#include "engine/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/bench.h"
#include "core/book.h"
#include "core/book_eval.h"
#include "core/fileio.h"
#include "core/endgame.h"
#include "core/eval.h"
#include "core/model.h"
#include "core/notation.h"
#include "core/timing.h"
#include "engine/paths.h"
#include "core/rng.h"
#include "core/search.h"
#include "core/weights.h"
#include "core/wpc.h"

enum {
    NOTICE_SIZE = 4096,
    /* engine_stop looks again this often in case the search thread missed the wakeup */
    STOP_RETRY_NANOSECONDS = 2 * 1000 * 1000
};

/* Default weights in order of preference, in each data directory (paths.h). */
static const char *const default_weights[] = {"octuple.ow", "jaskowski-all2.ow"};
static const char *const default_book[] = {"octuple.book"};

typedef struct Annotations {
    double evals[GAME_MOVE_CAPACITY];
    double times[GAME_MOVE_CAPACITY];
} Annotations;

struct Engine {
    EngineSettings settings;
    Search search;
    Model *model;
    char weights_path[SETTINGS_PATH_SIZE];
    char weights_name[MODEL_NAME_SIZE];
    char weights_notice[NOTICE_SIZE];
    char notice[NOTICE_SIZE * 2 + 8]; /* weights_notice and book_notice */
    Book *book;          /* NULL until a book is wanted and found */
    char book_path[SETTINGS_PATH_SIZE];
    char book_notice[NOTICE_SIZE];
    uint64_t rng;        /* book randomness */

    Game game;
    Annotations notes;   /* per move of `game` */
    int redo[GAME_MOVE_CAPACITY];
    double redo_evals[GAME_MOVE_CAPACITY], redo_times[GAME_MOVE_CAPACITY];
    int redo_count;      /* redo[redo_count - 1] is replayed first */
    GgfRecord header;    /* names, place, clock of the last record set (its game unused) */

    /* the running task */
    pthread_t thread;
    bool thread_started;
    pthread_mutex_t lock;
    pthread_cond_t done_cond;
    bool task_done;
    atomic_bool stop_requested;
    int wakeup[2];
    EngineRequest request;
    EngineListener listener;
    void *context;
    Game task_game;      /* the game the task works on (the engine's is not touched) */
    double task_start;
    /* the last think's answer: engine_play of that move in that position records the
     * value and time the front end did not give (a GUI plays the answer back without them) */
    bool answered;
    Board answered_board; /* the position searched, and how many moves led there */
    int answered_ply;
    int answered_move;
    double answered_eval; /* discs, the mover's view; NAN when the answer has no value */
    double answered_seconds;
};

static void clear_notes(Annotations *notes)
{
    for (int i = 0; i < GAME_MOVE_CAPACITY; ++i)
        notes->evals[i] = notes->times[i] = NAN;
}

bool engine_find_weights(const char *program, char *path, size_t size, char *searched,
                         size_t searched_size)
{
    return paths_find_data(program, default_weights, 2, path, size, searched, searched_size);
}

/* Loads the weights `settings` names, or the default ones, or the SWH fallback. */
static bool load_model(const EngineSettings *settings, Model **model, char *path,
                       char *notice, OctError *error)
{
    notice[0] = '\0';
    if (settings->weights[0]) {
        if (!model_load(settings->weights, model, error))
            return false;
        snprintf(path, SETTINGS_PATH_SIZE, "%s", settings->weights);
        return true;
    }
    char searched[2048];
    if (engine_find_weights(settings->program, path, SETTINGS_PATH_SIZE, searched,
                            sizeof searched)) {
        OctError load_error;
        if (model_load(path, model, &load_error))
            return true;
        snprintf(notice, NOTICE_SIZE, "cannot load the default weights (%s); using the weak "
                 "SWH piece-square table instead", load_error.message);
    } else {
        snprintf(notice, NOTICE_SIZE, "no weights file found (%s or %s in: %s; set "
                 "OCTUPLE_DATA_DIR or use --weights); using the weak SWH piece-square table",
                 default_weights[0], default_weights[1], searched);
    }
    path[0] = '\0';
    return wpc_model(wpc_swh(), "SWH piece-square table", model, error);
}

static void join_notices(Engine *engine)
{
    snprintf(engine->notice, sizeof engine->notice, "%s%s%s", engine->weights_notice,
             engine->weights_notice[0] && engine->book_notice[0] ? "; " : "",
             engine->book_notice);
}

bool engine_user_book_path(char *path, size_t size, bool create, OctError *error)
{
    char dir[PATHS_SIZE];
    if (!paths_user_dir(USER_DATA, create, dir, sizeof dir, error))
        return false;
    int written = snprintf(path, size, "%s/%s", dir, default_book[0]);
    if (written < 0 || (size_t)written >= size)
        return error_set(error, "%s: path too long", dir);
    return true;
}

/* The user's book grew from a copy of the shipped one; a newer shipped book (an upgrade)
 * adds its positions and deeper deviations, which the user's file would otherwise hide.
 * Nothing is written here: the next learned game saves the merged book. Without a shipped
 * book, or should it not load, the user's book is used as it is. */
static void merge_shipped_book(const EngineSettings *settings, Book *book)
{
    char shipped_path[SETTINGS_PATH_SIZE], searched[2048];
    Book *shipped;
    OctError ignored;
    if (!paths_find_data(settings->program, default_book, 1, shipped_path, sizeof shipped_path,
                         searched, sizeof searched)
        || !book_load(shipped_path, &shipped, &ignored))
        return;
    size_t changed;
    book_merge(book, shipped, &changed);
    book_free(shipped);
}

/* The book `settings` names; else the user's (grown by learning) when it exists; else the
 * shipped one. A missing or broken default book is a notice, not an error: the engine
 * then plays from search alone. An explicit book that fails is an error. */
static bool load_book(const EngineSettings *settings, Book **book, char *path, char *notice,
                      OctError *error)
{
    notice[0] = '\0';
    *book = NULL;
    path[0] = '\0';
    if (settings->book[0]) {
        if (!book_load(settings->book, book, error))
            return false;
        snprintf(path, SETTINGS_PATH_SIZE, "%s", settings->book);
        return true;
    }
    char searched[2048];
    OctError ignored, load_error;
    if (engine_user_book_path(path, SETTINGS_PATH_SIZE, false, &ignored)
        && access(path, F_OK) == 0) {
        if (book_load(path, book, &load_error)) {
            merge_shipped_book(settings, *book);
            return true;
        }
        /* a damaged grown book must not cost the shipped one, nor be overwritten by the
         * next learned game: it is kept aside */
        char aside[SETTINGS_PATH_SIZE + 8];
        snprintf(aside, sizeof aside, "%s.bad", path);
        bool moved = rename(path, aside) == 0;
        snprintf(notice, NOTICE_SIZE, "cannot load the learned opening book (%.1000s; %s "
                 "%s.bad); ", load_error.message, moved ? "kept as" : "not renamed to",
                 default_book[0]);
    }
    size_t used = strlen(notice);
    if (!paths_find_data(settings->program, default_book, 1, path, SETTINGS_PATH_SIZE,
                         searched, sizeof searched)) {
        snprintf(notice + used, NOTICE_SIZE - used, "no opening book found (%s in: %s; use "
                 "--book FILE or --no-book); playing without one", default_book[0], searched);
        path[0] = '\0';
        return true;
    }
    if (!book_load(path, book, &load_error)) {
        snprintf(notice + used, NOTICE_SIZE - used, "cannot load the opening book (%s); "
                 "playing without one", load_error.message);
        path[0] = '\0';
        return true;
    }
    if (used)
        snprintf(notice + used, NOTICE_SIZE - used, "using %s", path);
    return true;
}

/* Puts a newly loaded book (or none) in place of the old one. */
static void install_book(Engine *engine, Book *book, const char *path, const char *notice)
{
    book_free(engine->book);
    engine->book = book;
    strcpy(engine->book_path, path);
    strcpy(engine->book_notice, notice);
    join_notices(engine);
}

/* The learned games' file in the user's data directory. */
static const char learned_name[] = "learned.ggf";

/* A kill -9 while learned.ggf or the user's book was being saved leaves the temporary file
 * the save was writing; every start removes those of this program's files that no live
 * writer holds (file_remove_stale). Nothing else in the directory is touched. */
static void remove_stale_temporaries(void)
{
    char dir[PATHS_SIZE];
    OctError ignored;
    if (!paths_user_dir(USER_DATA, false, dir, sizeof dir, &ignored))
        return;
    file_remove_stale(dir, learned_name);
    file_remove_stale(dir, default_book[0]);
}

bool engine_create(const EngineSettings *settings, Engine **out, OctError *error)
{
    remove_stale_temporaries();
    Engine *engine = calloc(1, sizeof *engine);
    if (!engine)
        return error_set(error, "out of memory");
    engine->settings = *settings;
    if (!load_model(settings, &engine->model, engine->weights_path, engine->weights_notice,
                    error)) {
        free(engine);
        return false;
    }
    if (settings->use_book
        && !load_book(settings, &engine->book, engine->book_path, engine->book_notice, error)) {
        model_free(engine->model);
        free(engine);
        return false;
    }
    join_notices(engine);
    engine->rng = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^ (uintptr_t)engine;
    snprintf(engine->weights_name, sizeof engine->weights_name, "%s", engine->model->name);
    if (!search_init(&engine->search, (size_t)settings->hash_megabytes, error)) {
        model_free(engine->model);
        book_free(engine->book);
        free(engine);
        return false;
    }
    search_set_model(&engine->search, engine->model);
    if (pipe(engine->wakeup) != 0) {
        error_set(error, "cannot create a pipe: %s", strerror(errno));
        search_free(&engine->search);
        model_free(engine->model);
        book_free(engine->book);
        free(engine);
        return false;
    }
    for (int i = 0; i < 2; ++i) {
        fcntl(engine->wakeup[i], F_SETFL, fcntl(engine->wakeup[i], F_GETFL) | O_NONBLOCK);
        fcntl(engine->wakeup[i], F_SETFD, FD_CLOEXEC);
    }
    pthread_mutex_init(&engine->lock, NULL);
    pthread_cond_init(&engine->done_cond, NULL);
    atomic_init(&engine->stop_requested, false);
    ggf_init(&engine->header);
    engine_new_game(engine);
    *out = engine;
    return true;
}

void engine_free(Engine *engine)
{
    if (!engine)
        return;
    engine_stop(engine);
    pthread_mutex_destroy(&engine->lock);
    pthread_cond_destroy(&engine->done_cond);
    close(engine->wakeup[0]);
    close(engine->wakeup[1]);
    search_free(&engine->search);
    model_free(engine->model);
    book_free(engine->book);
    free(engine);
}

const char *engine_notice(const Engine *engine)
{
    return engine->notice;
}

const EngineSettings *engine_settings(const Engine *engine)
{
    return &engine->settings;
}

const Book *engine_book(const Engine *engine)
{
    return engine->settings.use_book ? engine->book : NULL;
}

const char *engine_book_path(const Engine *engine)
{
    return engine->book_path;
}

const Model *engine_model(const Engine *engine)
{
    return engine->model;
}

const char *engine_weights_path(const Engine *engine)
{
    return engine->weights_path;
}

const char *engine_weights_name(const Engine *engine)
{
    return engine->weights_name;
}

static bool refuse_busy(Engine *engine, OctError *error)
{
    if (engine->thread_started)
        return error_set(error, "a search is running (stop it first)");
    return true;
}

bool engine_configure(Engine *engine, const EngineSettings *settings, OctError *error)
{
    if (!refuse_busy(engine, error))
        return false;
    Model *model = NULL;
    char path[SETTINGS_PATH_SIZE], notice[NOTICE_SIZE];
    bool new_weights = strcmp(settings->weights, engine->settings.weights) != 0;
    if (new_weights && !load_model(settings, &model, path, notice, error))
        return false;
    /* a book is loaded when first wanted, and again when another file is named */
    Book *book = NULL;
    char book_path[SETTINGS_PATH_SIZE], book_notice[NOTICE_SIZE];
    bool new_book = settings->use_book
                    && (strcmp(settings->book, engine->settings.book) != 0
                        || (!engine->book && !engine->settings.use_book));
    if (new_book && !load_book(settings, &book, book_path, book_notice, error)) {
        model_free(model);
        return false;
    }
    /* midgame entries hold draws valued at the old contempt */
    if (settings->contempt != engine->settings.contempt)
        tt_clear(&engine->search.tt);
    if (settings->hash_megabytes != engine->settings.hash_megabytes) {
        /* free first: two big tables at once may not fit */
        search_free(&engine->search);
        if (!search_init(&engine->search, (size_t)settings->hash_megabytes, error)) {
            OctError ignored;
            if (!search_init(&engine->search, (size_t)engine->settings.hash_megabytes, &ignored))
                search_init(&engine->search, 1, &ignored);
            search_set_model(&engine->search, engine->model);
            model_free(model);
            book_free(book);
            return false;
        }
        search_set_model(&engine->search, engine->model);
    }
    if (new_weights) {
        search_set_model(&engine->search, model);
        model_free(engine->model);
        engine->model = model;
        strcpy(engine->weights_path, path);
        strcpy(engine->weights_notice, notice);
        snprintf(engine->weights_name, sizeof engine->weights_name, "%s", model->name);
    }
    if (new_book)
        install_book(engine, book, book_path, book_notice);
    join_notices(engine);
    engine->settings = *settings;
    return true;
}

/* ---- the game ---- */

static void clear_redo(Engine *engine)
{
    engine->redo_count = 0;
}

void engine_set_game(Engine *engine, const Game *game)
{
    /* an empty table for every new game or position: the moves of a game then do not
     * depend on the games played before it (matches repeat exactly) */
    tt_clear(&engine->search.tt);
    engine->game = *game;
    clear_notes(&engine->notes);
    clear_redo(engine);
    engine->answered = false; /* a new game, or the same one taken back */
}

void engine_new_game(Engine *engine)
{
    Game game;
    game_init(&game);
    ggf_init(&engine->header);
    engine_set_game(engine, &game);
}

void engine_restart(Engine *engine)
{
    Game game;
    game_init_from(&game, &engine->game.start, engine->game.start_side);
    engine_set_game(engine, &game);
}

void engine_set_position(Engine *engine, const Board *board, Color side)
{
    Game game;
    game_init_from(&game, board, side);
    ggf_init(&engine->header);
    engine_set_game(engine, &game);
}

void engine_set_record(Engine *engine, const GgfRecord *record)
{
    engine_set_game(engine, &record->game);
    engine->header = *record;
    for (int i = 0; i < record->game.move_count; ++i) {
        engine->notes.evals[i] = record->evals[i];
        engine->notes.times[i] = record->times[i];
    }
}

/* Whether `move` is the last think's answer, in the position it was searched in. */
static bool is_answer(const Engine *engine, int move)
{
    if (!engine->answered || engine->answered_move != move
        || engine->answered_ply != engine->game.move_count)
        return false;
    Board board;
    Color side;
    game_position(&engine->game, engine->game.move_count, &board, &side);
    return board_equal(&board, &engine->answered_board);
}

bool engine_play(Engine *engine, int move, double eval, double seconds, OctError *error)
{
    if (!refuse_busy(engine, error))
        return false;
    bool answer = is_answer(engine, move);
    if (answer && isnan(eval))
        eval = engine->answered_eval;
    if (answer && isnan(seconds))
        seconds = engine->answered_seconds;
    int before = engine->game.move_count;
    if (!game_append(&engine->game, move, error))
        return false;
    for (int i = before; i < engine->game.move_count; ++i)
        engine->notes.evals[i] = engine->notes.times[i] = NAN;
    int last = engine->game.move_count - 1;
    engine->notes.evals[last] = eval;
    engine->notes.times[last] = seconds;
    /* the same move as the next redo one keeps the redo list; anything else forks */
    if (engine->game.move_count == before + 1 && engine->redo_count > 0 &&
        engine->redo[engine->redo_count - 1] == move)
        --engine->redo_count;
    else
        clear_redo(engine);
    engine->answered = false; /* one answer, played back once */
    return true;
}

static int pop_move(Engine *engine)
{
    int last = --engine->game.move_count;
    int move = engine->game.moves[last];
    engine->redo[engine->redo_count] = move;
    engine->redo_evals[engine->redo_count] = engine->notes.evals[last];
    engine->redo_times[engine->redo_count] = engine->notes.times[last];
    ++engine->redo_count;
    return move;
}

static bool push_move(Engine *engine);

int engine_undo(Engine *engine)
{
    if (engine->thread_started)
        return 0;
    int undone = 0;
    bool real = false;
    while (engine->game.move_count > 0 && !real) {
        ++undone;
        real = pop_move(engine) != MOVE_PASS;
    }
    /* passes alone (the automatic pass of a position whose side to move has none): taking
     * them back would leave that side to move with no move, so nothing is undone */
    for (int i = 0; !real && i < undone; ++i)
        push_move(engine);
    return real ? undone : 0;
}

static bool push_move(Engine *engine)
{
    int index = engine->redo_count - 1;
    Game work = engine->game;
    if (!game_append(&work, engine->redo[index], NULL) ||
        work.move_count != engine->game.move_count + 1) {
        clear_redo(engine); /* cannot happen with a consistent list; do not replay junk */
        return false;
    }
    engine->game = work;
    engine->notes.evals[work.move_count - 1] = engine->redo_evals[index];
    engine->notes.times[work.move_count - 1] = engine->redo_times[index];
    --engine->redo_count;
    return true;
}

int engine_redo(Engine *engine)
{
    if (engine->thread_started || engine->redo_count == 0)
        return 0;
    int redone = 0;
    if (push_move(engine))
        ++redone;
    while (redone && engine->redo_count > 0 && engine->redo[engine->redo_count - 1] == MOVE_PASS &&
           push_move(engine))
        ++redone;
    return redone;
}

const Game *engine_game(const Engine *engine)
{
    return &engine->game;
}

void engine_position(const Engine *engine, Board *board, Color *side)
{
    game_position(&engine->game, engine->game.move_count, board, side);
}

void engine_record(const Engine *engine, GgfRecord *record)
{
    *record = engine->header;
    record->game = engine->game;
    for (int i = 0; i < GAME_MOVE_CAPACITY; ++i) {
        bool used = i < engine->game.move_count;
        record->evals[i] = used ? engine->notes.evals[i] : NAN;
        record->times[i] = used ? engine->notes.times[i] : NAN;
    }
    if (!record->place[0])
        snprintf(record->place, sizeof record->place, "Octuple");
    if (!record->date[0]) {
        time_t now = time(NULL);
        struct tm utc;
        gmtime_r(&now, &utc);
        strftime(record->date, sizeof record->date, "%Y-%m-%d %H:%M:%S GMT", &utc);
    }
    if (!record->black[0])
        snprintf(record->black, sizeof record->black, "?");
    if (!record->white[0])
        snprintf(record->white, sizeof record->white, "?");
    if (!record->type[0])
        snprintf(record->type, sizeof record->type, "8");
    if (game_is_over(&engine->game))
        snprintf(record->result, sizeof record->result, "%+d", game_black_score(&engine->game));
    else
        snprintf(record->result, sizeof record->result, "?");
}

/* ---- learning ---- */

bool engine_learned_path(char *path, size_t size, bool create, OctError *error)
{
    char dir[PATHS_SIZE];
    if (!paths_user_dir(USER_DATA, create, dir, sizeof dir, error))
        return false;
    int written = snprintf(path, size, "%s/%s", dir, learned_name);
    if (written < 0 || (size_t)written >= size)
        return error_set(error, "%s: path too long", dir);
    return true;
}

/* The book in use, refused when it is off or missing. */
static Book *book_in_use(Engine *engine, OctError *error)
{
    if (!engine->settings.use_book) {
        error_set(error, "the opening book is off (book on turns it on)");
        return NULL;
    }
    if (!engine->book)
        error_set(error, "no opening book is loaded");
    return engine->book;
}

bool engine_book_set_depth(Engine *engine, int depth, OctError *error)
{
    if (depth < 1 || depth > BOOK_GROW_MAX_DEPTH)
        return error_set(error, "%d is not a depth from 1 to %d", depth, BOOK_GROW_MAX_DEPTH);
    if (!refuse_busy(engine, error))
        return false;
    Book *book = book_in_use(engine, error);
    if (!book)
        return false;
    book_set_depth(book, depth);
    return true;
}

bool engine_book_save(Engine *engine, const char *path, OctError *error)
{
    if (!refuse_busy(engine, error))
        return false;
    Book *book = book_in_use(engine, error);
    return book && book_save(book, path, error);
}

bool engine_book_load(Engine *engine, const char *path, OctError *error)
{
    if (!refuse_busy(engine, error))
        return false;
    EngineSettings settings = engine->settings;
    if (strlen(path) >= sizeof settings.book)
        return error_set(error, "the file name is too long");
    strcpy(settings.book, path);
    settings.use_book = true;
    Book *book;
    char book_path[SETTINGS_PATH_SIZE], notice[NOTICE_SIZE];
    if (!load_book(&settings, &book, book_path, notice, error))
        return false;
    install_book(engine, book, book_path, notice);
    engine->settings = settings;
    return true;
}

bool engine_book_add(Engine *engine, const Game *games, size_t count, int *added,
                     const atomic_bool *stop, OctError *error)
{
    if (added)
        *added = 0;
    if (!refuse_busy(engine, error))
        return false;
    Book *book = book_in_use(engine, error);
    if (!book)
        return false;
    /* a book the user named is the one grown; else the user's own, never the shipped one */
    char file[SETTINGS_PATH_SIZE];
    if (engine->settings.book[0])
        snprintf(file, sizeof file, "%s", engine->settings.book);
    else if (!engine_user_book_path(file, sizeof file, true, error))
        return false;
    /* every game checked before any is added: a bad one leaves the book as it was */
    for (size_t i = 0; i < count; ++i)
        if (!game_is_standard(&games[i]))
            return error_set(error, "game %zu: it does not start from the standard position",
                             i + 1);
    /* the games go into a copy, which replaces the book once it is saved: a failed or
     * interrupted evaluation or save leaves the book in memory as it was, as on disk */
    Book *grown = book_copy(book);
    if (!grown)
        return error_set(error, "out of memory");
    int fresh = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < count; ++i) {
        int one = 0;
        ok = book_add_game(grown, &games[i], &one, error); /* out of memory only */
        fresh += one;
    }
    /* a book built by the trainer at a greater depth is grown at BOOK_GROW_MAX_DEPTH (each
     * entry records its own depth) and keeps its own depth in its header */
    int depth = book_depth(grown);
    if (depth > BOOK_GROW_MAX_DEPTH)
        book_set_depth(grown, BOOK_GROW_MAX_DEPTH);
    ok = ok && book_evaluate(grown, engine->model, engine->settings.threads, stop, NULL, NULL,
                             error);
    book_set_depth(grown, depth);
    ok = ok && book_save(grown, file, error);
    if (!ok) {
        book_free(grown);
        return false;
    }
    book_free(engine->book);
    engine->book = grown;
    strcpy(engine->book_path, file);
    if (added)
        *added = fresh;
    return true;
}

bool engine_learn(Engine *engine, char *path, size_t size, const atomic_bool *stop,
                  OctError *error)
{
    if (!refuse_busy(engine, error))
        return false;
    if (!game_is_over(&engine->game))
        return error_set(error, "the game is not over (%d moves played); nothing learned",
                         engine->game.move_count);
    GgfRecord record;
    engine_record(engine, &record);
    char *line = malloc(GGF_LINE_SIZE + 2);
    if (!line)
        return error_set(error, "out of memory");
    char file[PATHS_SIZE];
    bool ok = ggf_format(&record, line, GGF_LINE_SIZE, error) &&
              engine_learned_path(file, sizeof file, true, error);
    /* the book first: when it cannot take the game (a book file that cannot be written),
     * the game is not recorded in learned.ggf either, and the error changed nothing; should
     * the append fail after the book was saved, the book keeps the game */
    if (ok && engine->book && engine->settings.use_book && game_is_standard(&engine->game))
        ok = engine_book_add(engine, &engine->game, 1, NULL, stop, error);
    if (ok) {
        strcat(line, "\n");
        ok = paths_append_atomic(file, line, error);
    }
    free(line);
    if (ok && path)
        snprintf(path, size, "%s", file);
    return ok;
}

/* ---- searching ---- */

typedef struct ProgressContext {
    Engine *engine;
    EngineReport *report;
    uint64_t nodes_before; /* of earlier positions of the task */
} ProgressContext;

/* The report structs of engine.h are copies of the search's and the book's results, of
 * the same sizes. */
_Static_assert((int)ENGINE_MAX_DEPTH == (int)SEARCH_MAX_DEPTH
                   && (int)ENGINE_MAX_LINES == (int)SEARCH_MAX_LINES
                   && (int)ENGINE_LINE_PV == (int)SEARCH_LINE_PV
                   && (int)ENGINE_BOOK_MOVES == (int)BOOK_MAX_MOVES
                   && (int)ENGINE_BOOK_PV == (int)BOOK_PV_SIZE
                   && (int)ENGINE_BOOK_MAX_DEPTH == (int)BOOK_GROW_MAX_DEPTH,
               "engine.h's sizes are the search's and the book's");

static void result_export(const SearchResult *from, EngineResult *to)
{
    to->move = from->move;
    to->score = from->score;
    to->exact = from->exact;
    to->wld = from->wld;
    to->depth = from->depth;
    to->selectivity = from->selectivity;
    to->probable = from->probable;
    memcpy(to->pv, from->pv, sizeof to->pv);
    to->pv_length = from->pv_length;
    to->line_count = from->line_count;
    for (int i = 0; i < from->line_count && i < ENGINE_MAX_LINES; ++i) {
        to->lines[i].move = from->lines[i].move;
        to->lines[i].score = from->lines[i].score;
        memcpy(to->lines[i].pv, from->lines[i].pv, sizeof to->lines[i].pv);
        to->lines[i].pv_length = from->lines[i].pv_length;
    }
    to->nodes = from->nodes;
    to->seconds = from->seconds;
    to->stopped = from->stopped;
}

static EngineBookMove book_move_export(const BookMove *move)
{
    return (EngineBookMove){move->move, move->value, move->games, move->in_book};
}

static void on_progress(void *context, const SearchResult *result)
{
    ProgressContext *progress = context;
    Engine *engine = progress->engine;
    if (atomic_load(&engine->stop_requested))
        search_stop(&engine->search);
    EngineReport *report = progress->report;
    /* a selective pass before a solve comes as a result of its own (probable); the search's
     * own result, which the task reports at its end, goes on from it */
    report->event = result->running ? ENGINE_PROGRESS : ENGINE_ITERATION;
    result_export(result, &report->result);
    report->nodes = progress->nodes_before + result->nodes;
    report->seconds = monotonic_seconds() - engine->task_start;
    engine->listener(engine->context, report);
}

_Static_assert(SETTINGS_MAX_CONTEMPT * EVAL_DISC / 100 <= SEARCH_MAX_DRAW,
               "every contempt setting leaves exact play unchanged");

/* The contempt (centidiscs, Black's view) as a draw value in evaluation units for the side
 * to move. */
static int contempt_units(int contempt, Color side)
{
    int units = (contempt * EVAL_DISC + (contempt < 0 ? -50 : 50)) / 100;
    return side == COLOR_BLACK ? units : -units;
}

static SearchLimits task_limits(const Engine *engine)
{
    SearchLimits limits = search_default_limits();
    limits.depth = engine->settings.depth;
    limits.exact_empties = engine->settings.exact;
    /* an analysis compares the scores of moves: an outcome alone would not measure a loss */
    limits.wld_empties = engine->request.task == ENGINE_ANALYZE ? 0 : engine->settings.wld;
    limits.threads = engine->settings.threads;
    limits.seconds = engine->request.task == ENGINE_HINT ? 0.0 : engine->settings.seconds;
    limits.lines = 1;
    limits.own_entries = engine->request.task == ENGINE_ANALYZE;
    if (engine->request.task == ENGINE_HINT) {
        int lines = engine->request.lines;
        limits.lines = lines < 1 ? 1 : lines > SEARCH_MAX_LINES ? SEARCH_MAX_LINES : lines;
    }
    return limits;
}

/* The book's answer for THINK and HINT: false when the book is off or does not know the
 * position. */
static bool book_result(Engine *engine, EngineReport *report)
{
    const Book *book = engine_book(engine);
    EngineTask task = engine->request.task;
    if (!book || (task != ENGINE_THINK && task != ENGINE_HINT))
        return false;
    BookMove chosen;
    int randomness = task == ENGINE_THINK ? engine->settings.book_randomness : 0;
    if (book_choose(book, &report->board, randomness, &engine->rng, &chosen) == MOVE_NONE)
        return false;
    int count = 0;
    if (task == ENGINE_THINK) {
        report->book_moves[count++] = book_move_export(&chosen);
    } else {
        BookMove all[BOOK_MAX_MOVES];
        int total = book_moves(book, &report->board, all);
        int lines = engine->request.lines < 1 ? 1 : engine->request.lines;
        int in_book = 0;
        for (int i = 0; i < total; ++i)
            in_book += all[i].in_book;
        /* asked for more moves than the book values (NBoard's "all moves" view asks for
         * 64): the search values them all, at one depth, rather than a few book lines and
         * blanks */
        if (in_book < lines && in_book < __builtin_popcountll(board_legal(&report->board)))
            return false;
        for (int i = 0; i < total && count < lines; ++i)
            if (all[i].in_book) /* the deviation is no book move: it is not offered as one */
                report->book_moves[count++] = book_move_export(&all[i]);
    }
    EngineResult *result = &report->result;
    memset(result, 0, sizeof *result);
    for (int i = 0; i < count; ++i) {
        const EngineBookMove *move = &report->book_moves[i];
        report->book_pv_lengths[i] = book_line(book, &report->board, move->move,
                                               report->book_pvs[i], BOOK_PV_SIZE);
        result->lines[i] = (EngineLine){move->move, move->value * EVAL_DISC, {0}, 0};
    }
    result->move = report->book_moves[0].move;
    result->score = report->book_moves[0].value * EVAL_DISC;
    result->depth = book_depth(book);
    result->pv_length = report->book_pv_lengths[0];
    memcpy(result->pv, report->book_pvs[0], sizeof(int) * (size_t)result->pv_length);
    result->line_count = count;
    report->from_book = true;
    report->book_count = count;
    return true;
}

/* Fills `result` without searching when the choice is forced (THINK only). */
static bool forced_result(const Board *board, EngineResult *result)
{
    uint64_t moves = board_legal(board);
    if (moves & (moves - 1))
        return false;
    memset(result, 0, sizeof *result);
    if (moves) {
        result->move = __builtin_ctzll(moves);
    } else if (board_is_over(board)) {
        result->move = MOVE_NONE;
        result->score = board_final_score(board) * EVAL_DISC;
        result->exact = true;
        return true;
    } else {
        result->move = MOVE_PASS;
    }
    result->pv[0] = result->move;
    result->pv_length = 1;
    result->line_count = 1;
    result->lines[0] = (EngineLine){result->move, 0, {0}, 0};
    return true;
}

/* An analysed position: the score of the game's move there, searched as deep as the best
 * move was (a search of the position after it would be a ply deeper, and at another
 * parity). Returns the nodes it took. */
static uint64_t analysis_score_played(Engine *engine, const Game *game,
                                      const SearchLimits *limits, EngineReport *report)
{
    report->played_known = false;
    if (report->ply >= game->move_count)
        return 0;
    int played = game->moves[report->ply];
    if (report->result.stopped && report->result.depth < 1 && !report->result.exact)
        return 0; /* no search completed: the move named is only a legal one */
    if (played == report->result.move || played == MOVE_PASS) {
        report->played_known = true;
        report->played_score = report->result.score;
        return 0;
    }
    SearchLimits only = *limits;
    only.exclude = board_legal(&report->board) & ~(1ULL << played);
    /* no time limit of its own: a search that ends only at its depth (or a stop) gets to the
     * depth the best move's did, and one move costs about what they all did. With the limit
     * again, a search that had completed in time left the played move unscored when its own
     * search ran out (2 ms analyses on the Zen 5 host of 2026-11-28) */
    only.seconds = 0;
    if (report->result.stopped) {
        /* the time limit ended the search: the played move gets the depth it completed,
         * without a limit, when that is the same kind of search. A solve stopped in its
         * midgame stage has searched without cuts and with the table at every depth, a
         * search the played move's could not repeat: no score then */
        int empties = board_count_empties(&report->board);
        if (report->result.exact || report->result.wld || empties <= limits->exact_empties
            || empties <= limits->wld_empties)
            return 0;
        only.depth = report->result.depth;
    }
    SearchResult result;
    search_run(&engine->search, &report->board, &only, &result, NULL, NULL);
    if (!result.stopped && result.move == played) {
        report->played_known = true;
        report->played_score = result.score;
    }
    return result.nodes;
}

/* Keeps a think's answer for engine_play (see `answered`): a move, its value when the
 * search gave one (not a forced move, nor a search stopped before its first depth), its
 * time. */
static void answer_keep(Engine *engine, const EngineReport *report)
{
    const EngineResult *result = &report->result;
    engine->answered = result->move != MOVE_NONE;
    if (!engine->answered)
        return;
    const Game *game = &engine->task_game;
    Color side;
    game_position(game, game->move_count, &engine->answered_board, &side);
    engine->answered_ply = game->move_count;
    engine->answered_move = result->move;
    bool valued = !report->forced
                  && (result->exact || result->wld || result->depth >= 1 || report->from_book);
    engine->answered_eval = valued ? engine_discs(result->score) : NAN;
    engine->answered_seconds = report->seconds;
}

static void *task_main(void *argument)
{
    Engine *engine = argument;
    EngineReport report;
    memset(&report, 0, sizeof report);
    report.task = engine->request.task;
    SearchLimits limits = task_limits(engine);
    const Game *game = &engine->task_game;
    int last = game->move_count;
    int first = engine->request.task == ENGINE_ANALYZE ? engine->request.first_ply : last;
    if (first < 0)
        first = 0;
    if (first > last)
        first = last;
    uint64_t nodes = 0;
    for (int ply = last; ply >= first; --ply) {
        game_position(game, ply, &report.board, &report.side);
        report.ply = ply;
        if (atomic_load(&engine->stop_requested)) {
            /* stopped before any search: still name a legal move, never a made-up one */
            uint64_t legal = board_legal(&report.board);
            report.result.move = legal ? __builtin_ctzll(legal)
                               : board_is_over(&report.board) ? MOVE_NONE : MOVE_PASS;
            report.stopped = true;
            break;
        }
        report.forced = false;
        report.played_known = false;
        report.from_book = false;
        report.book_count = 0;
        if (engine->request.task == ENGINE_THINK &&
            forced_result(&report.board, &report.result)) {
            report.forced = true;
        } else if (book_result(engine, &report)) {
            /* answered from the book */
        } else {
            ProgressContext progress = {engine, &report, nodes};
            /* an analysis measures moves in discs: a draw counts 0 there, as in its exact
             * plies, or the first midgame ply would show a drawn move as a loss */
            limits.draw = engine->request.task == ENGINE_ANALYZE
                        ? 0 : contempt_units(engine->settings.contempt, report.side);
            if (engine->request.task == ENGINE_THINK && engine->request.clocked) {
                double share = gameclock_budget(&engine->request.clock,
                                                board_count_empties(&report.board));
                if (limits.seconds <= 0 || share < limits.seconds)
                    limits.seconds = share;
            }
            SearchResult searched;
            search_run(&engine->search, &report.board, &limits, &searched, on_progress,
                       &progress);
            result_export(&searched, &report.result);
            nodes += report.result.nodes;
            if (engine->request.task == ENGINE_ANALYZE && !atomic_load(&engine->stop_requested))
                nodes += analysis_score_played(engine, game, &limits, &report);
            /* only engine_stop counts: the time limit ends a search normally */
            if (atomic_load(&engine->stop_requested))
                report.stopped = true;
        }
        report.event = ENGINE_POSITION;
        report.nodes = nodes;
        report.seconds = monotonic_seconds() - engine->task_start;
        engine->listener(engine->context, &report);
        if (report.stopped)
            break;
    }
    report.event = ENGINE_FINISHED;
    report.nodes = nodes;
    report.seconds = monotonic_seconds() - engine->task_start;
    if (engine->request.task == ENGINE_THINK)
        answer_keep(engine, &report); /* before the listener: the answer may be played at once */
    engine->listener(engine->context, &report);

    pthread_mutex_lock(&engine->lock);
    engine->task_done = true;
    pthread_cond_broadcast(&engine->done_cond);
    pthread_mutex_unlock(&engine->lock);
    ssize_t ignored = write(engine->wakeup[1], "", 1);
    (void)ignored; /* a full pipe is already readable */
    return NULL;
}

bool engine_start(Engine *engine, const EngineRequest *request, EngineListener listener,
                  void *context, OctError *error)
{
    if (!refuse_busy(engine, error))
        return false;
    engine->request = *request;
    engine->listener = listener;
    engine->context = context;
    engine->task_game = engine->game;
    engine->task_done = false;
    engine->task_start = monotonic_seconds();
    atomic_store(&engine->stop_requested, false);
    search_reset_stop(&engine->search);
    /* the search threads (and the helpers they start) block signals, so that a front end's
     * Ctrl-C interrupts the front end's own wait instead of landing in a search thread */
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    int status = pthread_create(&engine->thread, NULL, task_main, engine);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (status != 0)
        return error_set(error, "cannot start the search thread: %s", strerror(status));
    engine->thread_started = true;
    return true;
}

bool engine_busy(Engine *engine)
{
    if (!engine->thread_started)
        return false;
    pthread_mutex_lock(&engine->lock);
    bool done = engine->task_done;
    pthread_mutex_unlock(&engine->lock);
    return !done;
}

static void collect(Engine *engine)
{
    pthread_join(engine->thread, NULL);
    engine->thread_started = false;
    char drain[16];
    while (read(engine->wakeup[0], drain, sizeof drain) > 0)
        continue;
}

void engine_stop(Engine *engine)
{
    if (!engine->thread_started)
        return;
    atomic_store(&engine->stop_requested, true);
    pthread_mutex_lock(&engine->lock);
    while (!engine->task_done) {
        search_stop(&engine->search);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += STOP_RETRY_NANOSECONDS;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec += 1;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&engine->done_cond, &engine->lock, &until);
    }
    pthread_mutex_unlock(&engine->lock);
    collect(engine);
}

void engine_interrupt(Engine *engine)
{
    /* two stores: no lock, so that another thread or a signal handler may call it */
    atomic_store(&engine->stop_requested, true);
    search_stop(&engine->search);
}

void engine_wait(Engine *engine)
{
    if (!engine->thread_started)
        return;
    pthread_mutex_lock(&engine->lock);
    while (!engine->task_done)
        pthread_cond_wait(&engine->done_cond, &engine->lock);
    pthread_mutex_unlock(&engine->lock);
    collect(engine);
}

int engine_wakeup_fd(const Engine *engine)
{
    return engine->wakeup[0];
}

bool engine_run(Engine *engine, const EngineRequest *request, EngineListener listener,
                void *context, OctError *error)
{
    if (!engine_start(engine, request, listener, context, error))
        return false;
    engine_wait(engine);
    return true;
}

void engine_format_moves(const int *moves, int count, Color side, const char *separator,
                         char *out, size_t size)
{
    size_t used = 0;
    if (size)
        out[0] = '\0';
    for (int i = 0; i < count; ++i) {
        char name[3];
        move_format_colored(moves[i], side, name);
        int written = snprintf(out + used, size - used, "%s%s", i ? separator : "", name);
        if (written < 0 || (size_t)written >= size - used) {
            out[used] = '\0'; /* whole moves only */
            break;
        }
        used += (size_t)written;
        side = (Color)!side;
    }
}

/* ---- batch work, in the caller's thread ---- */

static int sign(int value)
{
    return (value > 0) - (value < 0);
}

bool engine_solve(Engine *engine, const Board *board, bool outcome_only, bool bare,
                  const atomic_bool *cancel, EngineSolve *out, OctError *error)
{
    if (!refuse_busy(engine, error))
        return false;
    memset(out, 0, sizeof *out);
    Search *search = &engine->search;
    /* cleared before `cancel` is read: a raise after the reset stops the search, one
     * before it is seen here */
    search_reset_stop(search);
    if (cancel && atomic_load(cancel)) {
        out->move = MOVE_NONE;
        out->stopped = true;
        return true;
    }
    tt_clear(&search->tt);
    if (!bare) {
        SearchLimits limits = search_default_limits();
        limits.exact_empties = outcome_only ? 0 : 64;
        limits.wld_empties = outcome_only ? 64 : 0;
        limits.threads = engine->settings.threads;
        SearchResult result;
        search_run(search, board, &limits, &result, NULL, NULL);
        out->move = result.move;
        /* a position without moves for either side is scored exactly even here */
        out->score = outcome_only ? sign(result.score) : result.score / EVAL_DISC;
        out->nodes = result.nodes;
    } else {
        Solver solver;
        solver_init(&solver, &search->tt, &search->stop);
        solver_local_alloc(&solver); /* optional: the solve is right without it */
        SolveResult result = endgame_solve(&solver, board, outcome_only);
        solver_local_free(&solver);
        out->move = result.move;
        out->score = outcome_only ? sign(result.score) : result.score;
        out->nodes = solver.nodes;
    }
    out->stopped = cancel && atomic_load(cancel);
    return true;
}

bool engine_bench(Engine *engine, FILE *out, uint64_t *nodes, OctError *error)
{
    if (!refuse_busy(engine, error))
        return false;
    search_reset_stop(&engine->search);
    BenchTotals totals;
    bench_run(&engine->search, BENCH_POSITIONS, out, &totals);
    if (nodes)
        *nodes = totals.nodes;
    return true;
}

/* ---- the book, for front ends ---- */

bool engine_book_info(const Engine *engine, EngineBookInfo *info)
{
    const Book *book = engine_book(engine);
    if (!book)
        return false;
    info->positions = book_count(book);
    info->plies = book_plies(book);
    info->depth = book_depth(book);
    return true;
}

int engine_book_moves(const Engine *engine, EngineBookMove *moves,
                      int pvs[][ENGINE_BOOK_PV], int *pv_lengths)
{
    const Book *book = engine_book(engine);
    if (!book)
        return 0;
    Board board;
    Color side;
    game_position(&engine->game, engine->game.move_count, &board, &side);
    BookMove found[BOOK_MAX_MOVES];
    int count = book_moves(book, &board, found);
    for (int i = 0; i < count; ++i) {
        moves[i] = book_move_export(&found[i]);
        pv_lengths[i] = book_line(book, &board, found[i].move, pvs[i], BOOK_PV_SIZE);
    }
    return count;
}
