/* The facade every front end goes through: the Engine owns the game (a start position and
 * its moves, with undo and redo), the settings, the evaluation weights and the search, and
 * runs searches in a thread of its own so that a front end keeps reading its input.
 * Front ends format what the engine reports; they never search themselves.
 *
 * Threading: engine_start launches a task (think, hint, analyze) in a new thread and
 * returns at once. The listener is called from that thread; while a task runs the front
 * end may only call engine_busy, engine_stop, engine_interrupt, engine_wait and
 * engine_wakeup_fd. Every
 * other call first needs the task to be over (they refuse with an error otherwise, and
 * engine_game etc. would race). engine_stop interrupts promptly (the search checks its stop
 * flag every 1024 nodes; measured in tests/check_nboard.c) and returns when the thread has
 * ended, after its last report. */
#ifndef OCTUPLE_ENGINE_H
#define OCTUPLE_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/book.h"
#include "core/error.h"
#include "core/eval.h"
#include "core/game.h"
#include "core/gameclock.h"
#include "core/ggf.h"
#include "core/model.h"
#include "core/search.h"
#include "engine/settings.h"

typedef struct Engine Engine;

typedef enum EngineTask {
    ENGINE_THINK,  /* choose a move in the current position (not played) */
    ENGINE_HINT,   /* score the best `lines` moves; not limited by the clock */
    ENGINE_ANALYZE /* every position of the game from the end back to `first_ply` */
} EngineTask;

typedef struct EngineRequest {
    EngineTask task;
    int lines;     /* HINT: moves to score, 1..SEARCH_MAX_LINES */
    int first_ply; /* ANALYZE: the earliest position analysed (0 = the start) */
    bool clocked;    /* THINK: the mover plays on `clock`, whose share (gameclock_budget)
                        caps the search, as the `time` setting does */
    GameClock clock;
} EngineRequest;

typedef enum EngineEvent {
    ENGINE_ITERATION, /* a search iteration completed: a midgame depth, a selective pass
                         before a solve (result.probable) or the exact solve */
    ENGINE_PROGRESS,  /* about every SEARCH_TICK_SECONDS while a search runs: nodes and
                         seconds so far; result as of the last iteration */
    ENGINE_POSITION,  /* the final result for one position (analyze: one per position) */
    ENGINE_FINISHED   /* the task is over; nothing is reported after this */
} EngineEvent;

typedef struct EngineReport {
    EngineEvent event;
    EngineTask task;
    Board board;         /* the position searched, side to move relative */
    Color side;          /* its colour to move */
    int ply;             /* moves (passes included) of the game before it */
    SearchResult result; /* ITERATION: so far; POSITION, FINISHED: the last final result */
    bool forced;         /* THINK: one legal move or a pass, answered without searching */
    bool stopped;        /* the task was interrupted by engine_stop */
    bool from_book;      /* THINK, HINT: the result comes from the opening book, not a search:
                            `result` holds the book's moves (depth = the book's search depth) */
    int book_count;      /* from_book: the book moves, best first (HINT: at most `lines`) */
    BookMove book_moves[BOOK_MAX_MOVES];
    int book_pv_lengths[BOOK_MAX_MOVES]; /* each book move's line through the book */
    int book_pvs[BOOK_MAX_MOVES][BOOK_PV_SIZE];
    bool played_known;   /* ANALYZE, POSITION: the game's move here was scored as below */
    int played_score;    /* its score from the same search depth as `result`, the mover's view:
                            the best move's score when it is the best move, else a search of
                            the position with every other move excluded */
    uint64_t nodes;      /* over the whole task so far */
    double seconds;      /* since the task began */
} EngineReport;

/* Called from the search thread. */
typedef void (*EngineListener)(void *context, const EngineReport *report);

/* Loads the weights the settings name (or the default ones, paths.h) and allocates the
 * search. When no default weights exist the engine falls back to the SWH piece-square
 * table (wpc.h) and says so in engine_notice; explicit weights that fail are an error. */
bool engine_create(const EngineSettings *settings, Engine **out, OctError *error);
void engine_free(Engine *engine);

/* The opening book in use (NULL: none loaded, or the settings turn it off) and its file. */
const Book *engine_book(const Engine *engine);
const char *engine_book_path(const Engine *engine);
/* The search depth of the book positions evaluated from now on (learning, book add),
 * 1..BOOK_GROW_MAX_DEPTH. */
bool engine_book_set_depth(Engine *engine, int depth, OctError *error);
/* Writes the book in use to `path` (atomically). */
bool engine_book_save(Engine *engine, const char *path, OctError *error);
/* Loads `path` as the book in use (again, if it is the one in use) and turns the book on;
 * on error nothing changes. */
bool engine_book_load(Engine *engine, const char *path, OctError *error);
/* Adds games to the book in use: their first book_plies(book) positions, the new ones
 * searched at the book's depth on the engine's threads; `added` receives the count of new
 * positions. The book is then saved: to the file named by the `book` setting when there is
 * one, else to the user's book file (engine_user_book_path), which the engine prefers to the
 * shipped book from then on. Refused while the book is off. `stop` (may be NULL), raised
 * from another thread or a signal handler, ends the searches early. On any error, an
 * interruption included, the book in memory and its file stay as they were. */
bool engine_book_add(Engine *engine, const Game *games, size_t count, int *added,
                     const atomic_bool *stop, OctError *error);
/* $XDG_DATA_HOME/octuple/octuple.book (see paths.h). */
bool engine_user_book_path(char *path, size_t size, bool create, OctError *error);

/* A warning from creation for the user ("" when none). */
const char *engine_notice(const Engine *engine);
const EngineSettings *engine_settings(const Engine *engine);
/* Applies new settings: reallocates the table when `hash` changed, reloads the weights
 * when `weights` changed. On error nothing changes. */
bool engine_configure(Engine *engine, const EngineSettings *settings, OctError *error);
const Model *engine_model(const Engine *engine);
const char *engine_weights_path(const Engine *engine); /* "" for the built-in fallback */
const char *engine_weights_name(const Engine *engine);

/* The game. Every change but play/undo/redo clears the redo list. */
void engine_new_game(Engine *engine);                 /* standard start, no moves */
void engine_restart(Engine *engine);                  /* same start position, no moves */
void engine_set_position(Engine *engine, const Board *board, Color side);
void engine_set_game(Engine *engine, const Game *game);
/* A whole record (NBoard `set game`, `load`): the game plus names, place and per-move
 * evaluations and times, kept for engine_record. */
void engine_set_record(Engine *engine, const GgfRecord *record);
/* Plays a move (or MOVE_PASS) for the side to move; a move while the side to move has
 * none is preceded by the implicit pass. `eval` (discs, mover's view) and `seconds` are
 * remembered for the record; NAN when unknown. Replaying the next redo move keeps the
 * rest of the redo list. */
bool engine_play(Engine *engine, int move, double eval, double seconds, OctError *error);
/* Takes back the last move, and the move before it while the taken-back one was a pass
 * (a position where the side to move must pass is not worth returning to). Returns the
 * number of plies taken back (0: nothing to undo). */
int engine_undo(Engine *engine);
/* Replays the last move taken back, and then any pass that followed it. */
int engine_redo(Engine *engine);
const Game *engine_game(const Engine *engine);
void engine_position(const Engine *engine, Board *board, Color *side);
/* The current game as a GGF record: the names and clock of the last record set, place
 * "Octuple" otherwise, RE the result when the game is over ("?" else). */
void engine_record(const Engine *engine, GgfRecord *record);

/* Searches. Returns false (error set) when a task is already running or the thread cannot
 * be created. */
bool engine_start(Engine *engine, const EngineRequest *request, EngineListener listener,
                  void *context, OctError *error);
bool engine_busy(Engine *engine);
void engine_stop(Engine *engine);
void engine_wait(Engine *engine);
/* Asks the running task to end, as engine_stop does, without waiting for it: another
 * thread, or a signal handler, may call it while the front end waits in engine_wait. A
 * call with no task running is forgotten when the next one starts. */
void engine_interrupt(Engine *engine);
/* Readable from when a task has finished until engine_wait/engine_stop collects it: a
 * front end can poll it together with its input. */
int engine_wakeup_fd(const Engine *engine);
/* engine_start + engine_wait. */
bool engine_run(Engine *engine, const EngineRequest *request, EngineListener listener,
                void *context, OctError *error);

/* Appends the current game, which must be over, to the learned-games file (GGF, one record
 * per line) in the user data directory, and adds it to the opening book in use, if any and
 * if the game starts from the standard position (engine_book_add, with `stop`); `path` (may
 * be NULL) receives the learned-games file's name. The book is grown first: when that
 * fails, the game is not appended either (and nothing changed); when the append fails
 * after the book was saved, the book keeps the game. */
bool engine_learn(Engine *engine, char *path, size_t size, const atomic_bool *stop,
                  OctError *error);
/* The learned-games file: paths_user_dir(USER_DATA)/learned.ggf. */
bool engine_learned_path(char *path, size_t size, bool create, OctError *error);

/* Writes moves[0..count) as one token, upper case for black and lower case for white
 * starting with `side` ("F5d6C3", passes "PA"/"pa"), separated by `separator`. */
void engine_format_moves(const int *moves, int count, Color side, const char *separator,
                         char *out, size_t size);

/* Engine score units to discs. */
static inline double engine_discs(int score)
{
    return (double)score / EVAL_DISC;
}

#endif
