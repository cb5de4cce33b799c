/* The one search entry point: a position and limits in, best move, score, principal
 * variation and statistics out. Midgame positions get iterative-deepening PVS over the
 * evaluation; positions with at most `exact_empties` empties are solved exactly, and those
 * with at most `wld_empties` (and more than `exact_empties`) for win, draw or loss only. */
#ifndef OCTUPLE_SEARCH_H
#define OCTUPLE_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "core/eval.h"
#include "core/model.h"
#include "core/probcut.h"
#include "core/tt.h"

enum {
    SEARCH_MAX_DEPTH = 60,
    SEARCH_MAX_THREADS = 64,
    SEARCH_MAX_LINES = 64,
    /* 2 discs: every final score is even, so a draw valued within this stays between a
     * 2-disc loss and a 2-disc win, and exact play is the same with or without it */
    SEARCH_MAX_DRAW = 2 * EVAL_DISC
};
#define SEARCH_TICK_SECONDS 0.5 /* between two `running` progress reports */

typedef struct SearchLimits {
    int depth;           /* midgame depth in plies, 1..SEARCH_MAX_DEPTH */
    int exact_empties;   /* solve exactly at or below this many empties (0: never) */
    int wld_empties;     /* above exact_empties, up to this many empties: prove only win,
                            draw or loss (0: never) */
    int lines;           /* how many best moves to score (multi-PV); 1 for play */
    double seconds;      /* time budget; 0 = none. The first iteration always completes */
    uint64_t nodes;      /* node budget; 0 = none */
    int threads;         /* 1..SEARCH_MAX_THREADS */
    bool use_tt;         /* false only for tests */
    int split_empties;   /* parallel solves share out nodes with at least this many empties;
                            0 = the tuned default (tests lower it to exercise the threads) */
    int wide_pass_empties; /* the second, wider selective pass before a solve from this many
                            empties; 0 = the tuned default (tests lower it) */
    int check_nodes;     /* nodes between looks at stop flags and cutoffs; 0 = default (tests
                            look often, to make rare thread interleavings common) */
    uint64_t exclude;    /* root moves left out (the book's deviation search); when it would
                            leave none, the result is MOVE_NONE with no line */
    int draw;            /* contempt: a drawn game's value for the side to move at the root,
                            in evaluation units, within +-SEARCH_MAX_DRAW. Midgame searches
                            give it to the draws they reach; exact and win/draw/loss solves
                            report a draw as 0, and no draw value in that range changes
                            their choice (see search.c, final_units) */
    bool own_entries;    /* midgame bounds only from this search's own table entries (exact
                            ones still count): a game's analysis scores every position on the
                            same footing, where entries from the deeper searches of later
                            positions made one of four symmetric first moves look better */
} SearchLimits;

enum { SEARCH_LINE_PV = 40 }; /* an exact line from 30 empties, passes included */

typedef struct SearchLine {
    int move;
    int score; /* evaluation units (1/EVAL_DISC disc), side to move's view */
    int pv[SEARCH_LINE_PV]; /* with several lines: this move's line, as SearchResult.pv */
    int pv_length;          /* 0 with one line (SearchResult.pv is the line) */
} SearchLine;

typedef struct SearchResult {
    int move;              /* MOVE_PASS when forced to pass, MOVE_NONE when the game is over */
    int score;             /* evaluation units, side to move's view; exact: discs * EVAL_DISC */
    bool exact;            /* an exact endgame result (score is a disc count) */
    bool wld;              /* a proven win, draw or loss: score is +1, 0 or -1 disc (times
                              EVAL_DISC), its sign the outcome; lines too */
    int depth;             /* last completed depth (exact: the empties) */
    int selectivity;       /* midgame: 100, or the percent of the evaluation's errors inside
                              the Multi-ProbCut width when cuts could prune (console: 9@87%) */
    int pv[SEARCH_MAX_DEPTH + 4];
    int pv_length;
    int line_count;        /* multi-PV: best first */
    SearchLine lines[SEARCH_MAX_LINES];
    uint64_t nodes;
    double seconds;
    bool stopped;          /* interrupted: the result is the last completed iteration */
    bool probable;         /* a progress report of a selective pass before a solve: depth is
                              the empties, selectivity the share of the evaluation's errors
                              its cuts allow (console: 22@87%); never in a final result */
    bool running;          /* a progress report while an iteration runs (about every
                              SEARCH_TICK_SECONDS): nodes and seconds so far, the rest as of
                              the last report; never in a final result */
} SearchResult;

/* The word for an outcome from the sign of a score: "win", "draw" or "loss". */
static inline const char *search_outcome(int score)
{
    return score > 0 ? "win" : score == 0 ? "draw" : "loss";
}

/* Called after each completed iteration with the result so far (nodes: over every thread),
 * after each selective pass before a solve (`probable`), and about every
 * SEARCH_TICK_SECONDS while an iteration runs (`running`), always from the thread that
 * called search_run. */
typedef void (*SearchProgress)(void *context, const SearchResult *result);

typedef struct Search {
    Tt tt;
    const Model *model; /* not owned; NULL: disc count evaluation */
    Probcut probcut;    /* disabled unless set: exact solves then skip the selective passes */
    atomic_bool stop;
} Search;

bool search_init(Search *search, size_t hash_megabytes, OctError *error);
void search_free(Search *search);
void search_set_model(Search *search, const Model *model);
/* Probability cuts for the passes before an exact solve (NULL disables them). */
void search_set_probcut(Search *search, const Probcut *probcut);
/* Runs to completion or until search_stop; `progress` may be NULL. The stop flag is not
 * cleared here, so a stop raised just before the search starts still ends it: a caller
 * that stops searches clears the flag (search_reset_stop) before starting the next. */
void search_run(Search *search, const Board *board, const SearchLimits *limits,
                SearchResult *result, SearchProgress progress, void *context);
/* Callable from any thread while search_run works. */
void search_stop(Search *search);
void search_reset_stop(Search *search);
/* The default limits: depth 7, exact at 20 empties, one line, one thread, no budgets. */
SearchLimits search_default_limits(void);

#endif
