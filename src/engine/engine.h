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
#include <stdio.h>

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "core/gameclock.h"
#include "core/ggf.h"
#include "core/scale.h"
#include "engine/settings.h"

/* Front ends see the engine, its book and its network only as opaque types, and what it
 * found in the report structs below, not the search, evaluation or book internals. */
typedef struct Engine Engine;
typedef struct Book Book;
typedef struct Model Model;

enum {
    ENGINE_MAX_DEPTH = 60,  /* midgame depths 1..ENGINE_MAX_DEPTH */
    ENGINE_MAX_LINES = 64,  /* HINT: moves scored at most */
    ENGINE_LINE_PV = 40,    /* a line's moves at most (an exact line from 30 empties) */
    ENGINE_BOOK_MOVES = 34, /* book moves of a position at most */
    ENGINE_BOOK_PV = 24,    /* a book move's line through the book at most */
    ENGINE_BOOK_MAX_DEPTH = 20 /* the deepest search of positions added to the book */
};

/* One scored move of a HINT. */
typedef struct EngineLine {
    int move;
    int score;              /* engine units (EVAL_DISC a disc), side to move's view */
    int pv[ENGINE_LINE_PV]; /* with several lines: this move's line, as EngineResult.pv */
    int pv_length;          /* 0 with one line (EngineResult.pv is the line) */
} EngineLine;

/* What a search found. */
typedef struct EngineResult {
    int move;          /* MOVE_PASS when forced to pass, MOVE_NONE when the game is over */
    int score;         /* engine units, side to move's view; exact: discs * EVAL_DISC */
    bool exact;        /* an exact endgame result (score is a disc count) */
    bool wld;          /* a proven win, draw or loss: score is +1, 0 or -1 disc (times
                          EVAL_DISC), its sign the outcome; lines too */
    int depth;         /* last completed depth (exact: the empties) */
    int selectivity;   /* midgame: 100, or the percent of the evaluation's errors inside the
                          Multi-ProbCut width when cuts could prune (console: 9@87%) */
    bool probable;     /* a selective pass before a solve (ENGINE_ITERATION reports only):
                          depth is the empties, selectivity the pass's confidence */
    int pv[ENGINE_MAX_DEPTH + 4];
    int pv_length;
    int line_count;    /* HINT: best first */
    EngineLine lines[ENGINE_MAX_LINES];
    uint64_t nodes;
    double seconds;
    bool stopped;      /* interrupted: the result is the last completed iteration */
} EngineResult;

/* A move of the opening book. */
typedef struct EngineBookMove {
    int move;       /* square or MOVE_PASS */
    int value;      /* discs, the mover's view */
    uint32_t games; /* games through the position after it (0: the deviation) */
    bool in_book;   /* the position after it is in the book */
} EngineBookMove;

typedef enum EngineTask {
    ENGINE_THINK,  /* choose a move in the current position (not played) */
    ENGINE_HINT,   /* score the best `lines` moves; not limited by the clock */
    ENGINE_ANALYZE /* every position of the game from the end back to `first_ply` */
} EngineTask;

typedef struct EngineRequest {
    EngineTask task;
    int lines;     /* HINT: moves to score, 1..ENGINE_MAX_LINES */
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
    EngineResult result; /* ITERATION: so far; POSITION, FINISHED: the last final result */
    bool forced;         /* THINK: one legal move or a pass, answered without searching */
    bool stopped;        /* the task was interrupted by engine_stop */
    bool from_book;      /* THINK, HINT: the result comes from the opening book, not a search:
                            `result` holds the book's moves (depth = the book's search depth) */
    int book_count;      /* from_book: the book moves, best first (HINT: at most `lines`) */
    EngineBookMove book_moves[ENGINE_BOOK_MOVES];
    int book_pv_lengths[ENGINE_BOOK_MOVES]; /* each book move's line through the book */
    int book_pvs[ENGINE_BOOK_MOVES][ENGINE_BOOK_PV];
    bool played_known;   /* ANALYZE, POSITION: the game's move here was scored as below */
    int played_score;    /* its score from the same search depth as `result`, the mover's view:
                            the best move's score when it is the best move, else a search of
                            the position with every other move excluded */
    uint64_t nodes;      /* over the whole task so far */
    double seconds;      /* since the task began */
} EngineReport;

/* Called from the search thread. */
typedef void (*EngineListener)(void *context, const EngineReport *report);

/* The default network, the file every program loads when none is named: octuple.ow, else
 * jaskowski-all2.ow, in the data directories of `program` (paths.h). False when neither
 * exists; `searched` (may be NULL) then lists the directories tried. */
bool engine_find_weights(const char *program, char *path, size_t size, char *searched,
                         size_t searched_size);

/* Loads the weights the settings name (or the default ones, paths.h) and allocates the
 * search. When no default weights exist the engine falls back to the SWH piece-square
 * table (wpc.h) and says so in engine_notice; explicit weights that fail are an error. */
bool engine_create(const EngineSettings *settings, Engine **out, OctError *error);
void engine_free(Engine *engine);

/* The opening book in use (NULL: none loaded, or the settings turn it off) and its file. */
const Book *engine_book(const Engine *engine);
const char *engine_book_path(const Engine *engine);
typedef struct EngineBookInfo {
    size_t positions; /* in the book */
    int plies;        /* positions after at most this many moves */
    int depth;        /* the search depth of the deviations */
} EngineBookInfo;
/* The book in use: false when there is none. */
bool engine_book_info(const Engine *engine, EngineBookInfo *info);
/* The book's moves in the current position, best first (at most ENGINE_BOOK_MOVES), each
 * with its line through the book: their count, 0 when the position is not in the book or
 * no book is in use. */
int engine_book_moves(const Engine *engine, EngineBookMove *moves,
                      int pvs[][ENGINE_BOOK_PV], int *pv_lengths);
/* The search depth of the book positions evaluated from now on (learning, book add),
 * 1..ENGINE_BOOK_MAX_DEPTH. */
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
 * remembered for the record; NAN when unknown, and then, when the move is the last think's
 * answer in the position it was searched in, that answer's value and time (once: a GUI
 * plays the engine's own move back without them). Replaying the next redo move keeps the
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

/* Batch work in the caller's thread, on the engine's search, evaluation and table (octuple
 * --solve and --bench, the console's solve). Refused while a task runs. */
typedef struct EngineSolve {
    int move;       /* MOVE_PASS when forced to pass, MOVE_NONE when the game is over */
    int score;      /* the disc difference, or the outcome's sign (-1, 0, 1) */
    uint64_t nodes;
    bool stopped;   /* `cancel` was raised: the result proves nothing */
} EngineSolve;

/* Solves `board` exactly, or for win, draw or loss only (`outcome_only`), from an empty
 * table on the engine's threads: through the search, whose evaluation orders the moves, or
 * by the bare endgame solver (`bare`). `cancel` (may be NULL), raised before or during the
 * solve together with engine_interrupt, stops it. */
bool engine_solve(Engine *engine, const Board *board, bool outcome_only, bool bare,
                  const atomic_bool *cancel, EngineSolve *out, OctError *error);
/* The fixed search workload of core/bench.h on one thread, a row per position and the
 * total to `out`; `nodes` (may be NULL) receives the node count. */
bool engine_bench(Engine *engine, FILE *out, uint64_t *nodes, OctError *error);

/* Writes moves[0..count) as one token, upper case for black and lower case for white
 * starting with `side` ("F5d6C3", passes "PA"/"pa"), separated by `separator`. */
void engine_format_moves(const int *moves, int count, Color side, const char *separator,
                         char *out, size_t size);

/* Engine score units to discs. */
static inline double engine_discs(int score)
{
    return (double)score / EVAL_DISC;
}

/* The word for an outcome from the sign of a score: "win", "draw" or "loss". */
static inline const char *engine_outcome(int score)
{
    return score > 0 ? "win" : score == 0 ? "draw" : "loss";
}

#endif
