/* Octuple as a library: the engine of the `octuple` program for programs that embed it (a
 * GUI, a bot, a binding), through this header alone.
 *
 *     cc app.c $(pkg-config --cflags --libs octuple)
 *
 * or, from another language, load the shared copy liboctuple.so.1 (installed beside the
 * static library where the build makes it) and call these functions.
 *
 * A handle owns one game (with undo and redo), the settings, the evaluation weights, the
 * opening book and the search; handles are independent of each other.
 *
 * Squares are numbered 0..63 row by row from a1: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ...,
 * h8 = 63. OCTUPLE_PASS stands for a pass. Scores are in discs from the view of the side to
 * move: +4 means it wins by 4 discs. Functions that can fail return false (or -1) and write
 * one line saying what was wrong into `error` (`error_size` bytes, OCTUPLE_ERROR_SIZE are
 * always enough; `error` may be NULL); the game and the settings are then unchanged.
 *
 * Threads: a handle is used by one thread at a time, except for octuple_stop, which any
 * thread (or a signal handler) may call while a search runs. The search runs on the
 * handle's own threads (the `threads` option) and reports progress through the callback
 * of octuple_set_progress. octuple_think, octuple_hint and octuple_analyze block until it
 * is over; octuple_think_start, octuple_hint_start and octuple_analyze_start return at
 * once, and octuple_wait (octuple_wait_analysis) collects the result (an event loop can
 * poll octuple_wakeup_fd). While a search runs, the
 * calls that change the game or the settings refuse (octuple_new_game does nothing). */
#ifndef OCTUPLE_H
#define OCTUPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OCTUPLE_API_VERSION 2 /* 2: game records, learning, a started analysis */

enum {
    OCTUPLE_PASS = 64,         /* the move of a side that has no legal move */
    OCTUPLE_NO_MOVE = 65,      /* no move: the game is over */
    OCTUPLE_MAX_LINE = 64,     /* moves of a principal variation, passes included */
    OCTUPLE_MAX_HINTS = 64,    /* the most moves octuple_hint scores */
    OCTUPLE_BOARD_TEXT = 67,   /* bytes of octuple_board's text, the final NUL included */
    OCTUPLE_GAME_TEXT = 16384, /* bytes that hold any game record of octuple_get_game */
    OCTUPLE_ERROR_SIZE = 512   /* bytes that hold any error message */
};

typedef enum OctupleColor {
    OCTUPLE_BLACK = 0,
    OCTUPLE_WHITE = 1,
    OCTUPLE_EMPTY = 2 /* an empty square; as the side to move: the game is over */
} OctupleColor;

typedef struct Octuple Octuple;

/* What a search found for one move. */
typedef struct OctupleResult {
    int move;          /* 0..63, OCTUPLE_PASS, or OCTUPLE_NO_MOVE when the game is over */
    double score;      /* discs, the mover's view (see `exact`, `outcome_only`, `forced`) */
    bool exact;        /* proven by solving the game to its end: the final disc difference
                          under best play from both sides */
    bool outcome_only; /* proven win, draw or loss only (the `wld` option): the sign of
                          `score` is the outcome */
    bool from_book;    /* the opening book's move and value, not a search */
    bool forced;       /* the only legal move or a pass, answered without a search: `score`
                          means nothing */
    bool stopped;      /* octuple_stop ended the search: this is its last completed depth;
                          with `depth` 0 none completed, and `move` is only a legal move
                          and `score` 0 means nothing */
    int depth;         /* plies searched; for exact and outcome-only results, the empties */
    int selectivity;   /* percent: 100 for a full-width search, less when probability cuts
                          could prune (the console's 12@87%) */
    int line[OCTUPLE_MAX_LINE]; /* the expected continuation, `move` first */
    int line_length;
    uint64_t nodes;    /* of the whole search */
    double seconds;
} OctupleResult;

/* The clock of the side to move, for a search that must not lose a game on time: the
 * search spends a share of `seconds_left` (plus most of the increment). */
typedef struct OctupleClock {
    double seconds_left;
    double increment;  /* seconds added to the clock after each move, 0 for none */
} OctupleClock;

/* One position of a game's analysis (octuple_analyze). */
typedef struct OctupleAnalysis {
    int ply;             /* the position after this many moves of the game (passes count) */
    int played;          /* the game's move there; OCTUPLE_NO_MOVE for its last position */
    bool played_scored;  /* `played_score` holds the played move's score */
    double played_score; /* discs, the mover's view, searched as deep as `best`: the best
                            move's score when it was played */
    OctupleResult best;  /* the engine's move there and its score */
} OctupleAnalysis;

/* Called from a search thread after every completed depth with the best result so far;
 * of the handle's functions it may call only octuple_stop. */
typedef void (*OctupleProgress)(void *context, const OctupleResult *so_far);

/* "Octuple VERSION". */
const char *octuple_version(void);
/* The OCTUPLE_API_VERSION the library was built with: a program that loads the shared copy
 * at run time checks it before calling what a later version added. */
int octuple_api_version(void);

/* A new engine at the start of a game, with the settings of the `octuple` program's
 * defaults (depth 7, exact solves from 20 empties, one thread per core, a 128 MB table, the
 * opening book when one is installed). `weights`: an Octuple weights file (.ow), or NULL for
 * the default: $OCTUPLE_WEIGHTS when set, else the installed octuple.ow. NULL on failure. */
Octuple *octuple_open(const char *weights, char *error, size_t error_size);
/* Stops any search and frees everything; NULL is allowed. */
void octuple_close(Octuple *octuple);
/* What the engine would warn a user about (no opening book found, ...), "" when nothing. */
const char *octuple_notice(const Octuple *octuple);
/* The name recorded in the weights file in use. */
const char *octuple_weights_name(const Octuple *octuple);

/* Settings by the names of the program's command-line options without their dashes, values
 * as written there: "depth" "12", "exact" "24", "level" "10" (depth and exact together),
 * "wld" "26", "threads" "2", "hash" "512" (MB), "time" "2.5" (seconds per search, 0 for no
 * limit), "book" "on" or "off" or a book file, "book-randomness" "2", "contempt" "-100"
 * (centidiscs for black), "weights" FILE. `octuple --help` lists them all; "game-time",
 * the console's clock, is refused: octuple_think takes an OctupleClock instead. */
bool octuple_set_option(Octuple *octuple, const char *name, const char *value, char *error,
                        size_t error_size);
/* The option's value as the console's `options` command shows it, into `value`: "12",
 * "128 MB", "0 (no limit)", "off" for a book not in use (turned off or none found).
 * Refused when it does not fit in `value_size` bytes. */
bool octuple_get_option(const Octuple *octuple, const char *name, char *value,
                        size_t value_size, char *error, size_t error_size);

/* The standard start, black to move (nothing happens while a search runs). */
void octuple_new_game(Octuple *octuple);
/* A new game from a position: 64 squares a1..h8 row by row (X x B b * black, O o W w
 * white, - . empty; spaces ignored), then the side to move (X or B black, O or W white):
 * the text octuple_board writes. */
bool octuple_set_board(Octuple *octuple, const char *text, char *error, size_t error_size);
/* A whole game, so that undo steps back through its moves: a GGF record as GGS and NBoard
 * write it ("(;GM[Othello]...BO[8 ...]B[f5]W[d6/-1.5]...;)": its start position, moves,
 * players and evaluations), or a move string from the standard start ("f5d6c3", passes
 * as "pa" or left out; spaces between moves allowed). Text after the first record is
 * ignored. */
bool octuple_set_game(Octuple *octuple, const char *text, char *error, size_t error_size);
/* The game as a one-line GGF record (start position, moves with the evaluations the engine
 * gave them, players, result when over) into `out`, `size` bytes (OCTUPLE_GAME_TEXT are
 * always enough): octuple_set_game reads it back. */
bool octuple_get_game(const Octuple *octuple, char *out, size_t size, char *error,
                      size_t error_size);
/* Plays `move` (0..63 or OCTUPLE_PASS) for the side to move. A pass is legal only when the
 * side to move has no move; a move while it has none passes for it first. The move that
 * octuple_think (octuple_wait of octuple_think_start) just answered for this position is
 * recorded with its value and time, which octuple_get_game then writes. */
bool octuple_play(Octuple *octuple, int move, char *error, size_t error_size);
/* Takes back the last move, and the move before it when the last was a pass (a side that
 * must pass is not left to move): the number of moves taken back, passes included. 0 when
 * there is nothing to take back or only passes are left. */
int octuple_undo(Octuple *octuple);
/* Replays the last move taken back; the number of moves replayed. */
int octuple_redo(Octuple *octuple);

/* "a1".."h8" (either case), "pa" or "pass" -> the move; -1 for anything else. */
int octuple_move_parse(const char *text);
/* The name of a move: "a1".."h8", "pa" for a pass, "--" for OCTUPLE_NO_MOVE; `out` holds 3
 * bytes. Returns `out`. */
char *octuple_move_name(int move, char *out);

/* The position. */
OctupleColor octuple_side_to_move(const Octuple *octuple); /* OCTUPLE_EMPTY: game over */
OctupleColor octuple_square(const Octuple *octuple, int square);
/* The legal moves of the side to move, in square order, into `moves` (64 entries): their
 * count, 0 when it must pass or the game is over. */
int octuple_legal_moves(const Octuple *octuple, int *moves);
/* The discs of `color` on the board; with OCTUPLE_EMPTY, the empty squares. */
int octuple_discs(const Octuple *octuple, OctupleColor color);
/* Moves played since the start position, passes included. */
int octuple_ply(const Octuple *octuple);
/* The position as text (see octuple_set_board); `out` holds OCTUPLE_BOARD_TEXT bytes. */
char *octuple_board(const Octuple *octuple, char *out);

/* The move the engine would play now (not played), searched at the settings' depth and time
 * and, when `clock` is not NULL, within a share of the mover's clock. With the game over
 * the result's move is OCTUPLE_NO_MOVE. */
bool octuple_think(Octuple *octuple, const OctupleClock *clock, OctupleResult *result,
                   char *error, size_t error_size);
/* The `count` best moves (1..OCTUPLE_MAX_HINTS) with their scores, best first, into
 * `results`: how many were written (fewer when there are fewer moves), -1 on error. Not
 * limited by any clock. */
int octuple_hint(Octuple *octuple, int count, OctupleResult *results, char *error,
                 size_t error_size);
/* Ends the running search soon (within milliseconds); it then returns its last completed
 * depth with `stopped` set (octuple_learn ends without learning). Does nothing when no
 * search runs: a stop from another thread that comes before a blocking call
 * (octuple_think, octuple_hint, octuple_analyze, octuple_learn) has started is not
 * remembered, so a program that may stop a search at once
 * starts it with octuple_think_start, octuple_hint_start or octuple_analyze_start. */
void octuple_stop(Octuple *octuple);

/* The positions of the game from ply `first_ply` (0: the start) to its current one,
 * searched at the settings' depth (and exact threshold) without a time limit other than
 * the `time` option's per position, from the last back to the first (a game's move that is
 * not the best one then gets a search of its own, to the depth the best one reached and
 * without a time limit, so that its score is comparable); into `analyses` in the order of
 * the game: how many, -1 on error. `capacity` must hold every position
 * (octuple_ply - first_ply + 1), else the call is refused before any search. A stop ends
 * the analysis with the positions done so far: the earliest ones are then missing, and
 * the one searched when the stop came is kept when it completed a depth (`best.stopped`
 * set; its played move may lack a score). */
int octuple_analyze(Octuple *octuple, int first_ply, OctupleAnalysis *analyses, int capacity,
                    char *error, size_t error_size);

/* Adds the finished game to the opening book in use and saves the book (the user's
 * learned book, never a shipped one, unless the `book` option names a file), then appends
 * the game to the user's learned.ggf: what NBoard's `learn` does. Refused when the game
 * is not over. With the book off (or none found), or a game from another start than the
 * standard one, only learned.ggf grows. Blocks while the book's new positions are
 * searched (2.3 s for a random game with the shipped book and weights, one thread);
 * octuple_stop from another thread ends that once the position in hand is done, and then
 * nothing was learned. Files go under $XDG_DATA_HOME/octuple (else
 * ~/.local/share/octuple). */
bool octuple_learn(Octuple *octuple, char *error, size_t error_size);

/* octuple_think's, octuple_hint's and octuple_analyze's searches, started without waiting
 * for them: false (or with an error) when one is already running or the request is bad. */
bool octuple_think_start(Octuple *octuple, const OctupleClock *clock, char *error,
                         size_t error_size);
bool octuple_hint_start(Octuple *octuple, int count, char *error, size_t error_size);
bool octuple_analyze_start(Octuple *octuple, int first_ply, char *error, size_t error_size);
/* Whether the started search is still running. */
bool octuple_busy(Octuple *octuple);
/* A file descriptor that is readable once the started search is over, until octuple_wait
 * collects it: for a program's own poll or select loop. */
int octuple_wakeup_fd(const Octuple *octuple);
/* Waits for the started search to end and writes its results (one for a think, up to the
 * count asked for a hint) into `results`, `capacity` entries: how many. -1 when no search
 * was started, when it is an analysis (see octuple_wait_analysis), or with no room
 * (`results` NULL, `capacity` below 1): the search is then still there to collect. */
int octuple_wait(Octuple *octuple, OctupleResult *results, int capacity, char *error,
                 size_t error_size);
/* The same for a started analysis: its positions into `analyses` as octuple_analyze
 * writes them; `capacity` must hold every position it was started for, else -1 and the
 * analysis is still there to collect. */
int octuple_wait_analysis(Octuple *octuple, OctupleAnalysis *analyses, int capacity,
                          char *error, size_t error_size);
/* The callback for the searches started from now on (not one already running); NULL for
 * none. */
void octuple_set_progress(Octuple *octuple, OctupleProgress progress, void *context);

#ifdef __cplusplus
}
#endif

#endif
