/* Exact endgame solver: the final disc difference under perfect play. */
#ifndef OCTUPLE_ENDGAME_H
#define OCTUPLE_ENDGAME_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/board.h"
#include "core/model.h"
#include "core/probcut.h"
#include "core/tt.h"

enum { SCORE_MAX = 64 };

typedef struct LocalSlot LocalSlot;

typedef struct Solver {
    Tt *tt;                    /* may be NULL: no transposition table */
    const Model *model;        /* may be NULL; orders moves far from the end */
    const atomic_bool *stop;   /* may be NULL; when raised the search unwinds */
    const atomic_bool *stop2;  /* a second flag (the search's own), may be NULL */
    const atomic_bool *abort;  /* a parallel split's cutoff flag, may be NULL */
    double deadline;           /* monotonic_seconds (core/timing.h); 0: none */
    uint64_t node_limit;       /* 0: none */
    uint64_t nodes;
    uint64_t next_check;       /* node count at which to look at the limits again */
    uint64_t check_interval;   /* nodes between two looks (solver_init sets the default) */
    bool stopped;              /* the result is meaningless when set */
    int level;                 /* TT_LEVEL_FULL: exact; lower: probability cuts at this level */
    const Probcut *probcut;    /* the cuts' error model; NULL or disabled: never selective */
    LocalSlot *local;          /* this solver's own small table (solver_local_alloc); or NULL */
    /* at each look at the limits: the nodes counted since the last look are added to
     * `node_total` (may be NULL; a search's count over its threads), then `on_check` is
     * called (may be NULL; the search's progress reports while it runs) */
    atomic_uint_fast64_t *node_total;
    uint64_t published;        /* the nodes already added to node_total */
    void (*on_check)(void *context);
    void *check_context;
} Solver;

/* Looks at the flags, the deadline and the node limit; sets `stopped`. */
bool solver_should_stop(Solver *solver);

typedef struct SolveResult {
    int move;   /* best move (MOVE_PASS when the side must pass, MOVE_NONE when over) */
    int score;  /* exact score from the side to move's view (or bound in WLD mode) */
} SolveResult;

void solver_init(Solver *solver, Tt *tt, const atomic_bool *stop);
/* Gives the solver a small table of its own (half a megabyte) for the nodes just below
 * those the shared table takes; a solver without one (the default, and after a failed
 * allocation, which this reports with false) only has the shared table. Its entries hold
 * for the model and cuts of one search: a caller changing them frees the table or takes a
 * new one. Not to be shared between threads. */
bool solver_local_alloc(Solver *solver);
void solver_local_free(Solver *solver);
/* Fail-soft alpha-beta over the exact score: the result r satisfies
 * r <= alpha -> true <= r;  r >= beta -> true >= r;  otherwise r is exact. */
int endgame_search(Solver *solver, const Board *board, int alpha, int beta);
/* Alpha-beta over the evaluation to `depth` plies (final scores at the end of the game), in
 * evaluation units; fail-soft like endgame_search. Needs solver->model. The solver uses it to
 * order moves and for probability cuts; the trainer fits the cuts' error model with it. */
int endgame_shallow(Solver *solver, const Board *board, int depth, int alpha, int beta);
/* `moves` (legal in `board`) in the order the solver would try them at a node whose window
 * starts at `alpha` (-SCORE_MAX or below: order every move exactly); returns their count. */
int endgame_order(Solver *solver, const Board *board, uint64_t moves, int alpha, int *squares);
/* Enhanced transposition cutoff at `board`, whose legal moves are `moves`, from the
 * children's exact entries: true, with the bound in `cut`, when one of them already proves
 * a move worth at least `beta`. */
bool endgame_etc(const Solver *solver, const Board *board, uint64_t moves, int beta, int *cut);
/* A probability cut at `board` in a selective solve (solver->level below TT_LEVEL_FULL), as
 * the one-thread solver tries at its own nodes: true, with the bound in `cut`, when a shallow
 * search predicts a score beyond (alpha, beta). */
bool endgame_probcut(Solver *solver, const Board *board, int alpha, int beta, int *cut);
/* The best move and its exact score (window -64..64) or, with `wld`, only its sign
 * (window -1..1: score -1, 0 or 1 for loss, draw, win... as a bound). */
SolveResult endgame_solve(Solver *solver, const Board *board, bool wld);

#endif
