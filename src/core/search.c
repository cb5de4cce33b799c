/* Iterative deepening over a principal variation search, the exact solver at the root when
 * few squares are empty, and Lazy SMP: extra threads search the same root through the
 * shared transposition table, which fills it with results the main thread then reuses.
 * Only the main thread's result is reported, so exact scores do not depend on threads. */
#include "core/search.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/endgame.h"
#include "core/eval.h"
#include "core/movegen.h"
#include "core/stability.h"
#include "core/timing.h"

enum {
    SCORE_INFINITE = EVAL_LIMIT + 64 * EVAL_DISC + 1, /* beyond any score */
    MOVE_LIST_CAPACITY = 64,
    /* smaller subtrees are not worth sharing out: FForum 40-59 on two threads, one run
     * each after another, 516.6 s from 14 empties, 471.6 s from 16, 445.6 s from 18,
     * 476.0 s from 20 */
    SPLIT_MIN_EMPTIES = 18,
    PRESOLVE_MARGIN = 8, /* before an exact solve: midgame to empties - this, */
    PRESOLVE_MAX = 10,    /* but no deeper than this, */
    PRESOLVE_DEEP_MARGIN = 16, /* unless empties - this is deeper, */
    PRESOLVE_DEEP_MAX = 14,    /* up to this */
    /* discs by which a selective pass must prefer another root move to put it before the
     * midgame search's first one: see root_keep_first */
    SELECTIVE_REORDER_MARGIN = 4,
    /* the second, wider selective pass: from this many empties, where it costs 3-5% of
     * the exact solve, and only after a first pass scoring the position within this many
     * discs of a draw (near +-64 the network's scores saturate and its cuts err: at FForum
     * #59, +64, the wider pass scored G8 +51, and the solve took 217 M nodes against 13 M) */
    SELECTIVE_WIDE_EMPTIES = 26,
    SELECTIVE_WIDE_SCORE = 40,
    /* the table from this remaining depth: at depth 1 a probe costs more than it saves
     * (a depth-13 search 2.2 s against 3.5 s with the depth-1 ordering below, 5% more nodes);
     * but see Worker.presolve */
    MIDGAME_TT_DEPTH = 2
};


typedef struct SplitPool SplitPool;

typedef struct Worker {
    Search *search;
    const SearchLimits *limits;
    const Model *model;
    atomic_bool *run_stop;  /* raised when the main thread is done */
    SplitPool *pool;        /* NULL with one thread */
    struct SplitPoint *current; /* the split point whose move this thread works on */
    Solver solver;          /* node counting and limits, shared with the endgame solver */
    bool selective;         /* this iteration may use Multi-ProbCut (see worker_run) */
    /* The search before an exact solve keeps the table and the ordering at depth 1: the
     * solver takes its move hints from that table, and without the depth-1 entries FForum
     * #40-#48 took 681 M nodes against 639.5 M. */
    bool presolve;
    /* With several threads a midgame bound is taken from an entry of the same depth only:
     * another thread's deeper entries would make this one's shallow iterations report the
     * deeper result under their own depths (+1.62 at depths 3-7 where one thread finds
     * +2.33, +0.37, +1.30, -0.30, +1.62). In Othello each disc played is one ply, so a
     * position has one remaining depth per iteration and one thread never needs the rule. */
    bool same_depth;
    /* the main worker's progress reports while an iteration runs (worker_tick) */
    SearchResult *result;
    SearchProgress progress;
    void *context;
    double start, next_tick;
    int id;
    EvalState states[SEARCH_MAX_DEPTH + 4];
} Worker;

typedef struct RootMove {
    int move;
    int score;
    uint64_t flips;
} RootMove;

typedef struct OrderedMove {
    int square;
    int order;
    uint64_t flips;
} OrderedMove;

SearchLimits search_default_limits(void)
{
    SearchLimits limits = {.depth = 7, .exact_empties = 20, .lines = 1, .threads = 1,
                           .use_tt = true};
    return limits;
}

bool search_init(Search *search, size_t hash_megabytes, OctError *error)
{
    if (!tt_init(&search->tt, hash_megabytes))
        return error_set(error, "cannot allocate a %zu MB transposition table", hash_megabytes);
    search->model = NULL;
    search->probcut = (Probcut){0};
    atomic_init(&search->stop, false);
    return true;
}

void search_free(Search *search)
{
    tt_free(&search->tt);
}

void search_set_model(Search *search, const Model *model)
{
    search->model = model;
    search->probcut = model ? model->probcut : (Probcut){0};
    tt_clear(&search->tt); /* midgame entries were scored by the old model */
}

void search_set_probcut(Search *search, const Probcut *probcut)
{
    search->probcut = probcut ? *probcut : (Probcut){0};
    tt_clear(&search->tt); /* selective entries were cut with the old model */
}

void search_stop(Search *search)
{
    atomic_store(&search->stop, true);
}

void search_reset_stop(Search *search)
{
    atomic_store(&search->stop, false);
}

static inline int popcount(uint64_t x)
{
    return __builtin_popcountll(x);
}

static inline bool worker_stopped(Worker *worker)
{
    if (++worker->solver.nodes >= worker->solver.next_check)
        solver_should_stop(&worker->solver);
    return worker->solver.stopped;
}

static void moves_sort(OrderedMove *moves, int count)
{
    for (int i = 1; i < count; ++i) {
        OrderedMove item = moves[i];
        int j = i;
        while (j > 0 && moves[j - 1].order < item.order) {
            moves[j] = moves[j - 1];
            --j;
        }
        moves[j] = item;
    }
}

/* Moves of the position in states[ply], best guess first: the table's move, then by the
 * evaluation after the move (deep nodes) or by the opponent's replies (shallow ones). At
 * depth 1 every child is only evaluated, and ordering them by replies cost more than it
 * saved: they go in square order (a depth-13 search: 0.5% more nodes, a third less time). */
static int order_moves(Worker *worker, int ply, int depth, uint64_t moves, int tt_move,
                       OrderedMove *list)
{
    const EvalState *state = &worker->states[ply];
    const Board *board = &state->board;
    EvalState *scratch = &worker->states[ply + 1];
    int count = 0;
    if (depth <= 1 && !worker->presolve) { /* no table there either: no move to put first */
        for (; moves; moves &= moves - 1) {
            int square = __builtin_ctzll(moves);
            list[count++] = (OrderedMove){square, 0,
                                          movegen_flips(board->player, board->opponent, square)};
        }
        return count;
    }
    for (; moves; moves &= moves - 1) {
        int square = __builtin_ctzll(moves);
        uint64_t flips = movegen_flips(board->player, board->opponent, square);
        uint64_t replies = movegen_moves(board->opponent ^ flips,
                                         board->player ^ flips ^ (1ULL << square));
        int order = -(popcount(replies) + popcount(replies & STABILITY_CORNERS))
                  * (EVAL_DISC / 2);
        if (depth >= 3) {
            eval_copy(scratch, state);
            eval_play(scratch, worker->model, square, flips);
            order -= eval_score(scratch, worker->model);
        }
        if ((STABILITY_CORNERS >> square) & 1)
            order += EVAL_DISC;
        if (square == tt_move)
            order = 1 << 30;
        list[count++] = (OrderedMove){square, order, flips};
    }
    moves_sort(list, count);
    return count;
}

/* The contempt for the side to move at `ply`: limits->draw is the root mover's view, and
 * every ply, passes too, swaps it. */
static int draw_at(const Worker *worker, int ply)
{
    return ply & 1 ? -worker->limits->draw : worker->limits->draw;
}

/* A finished game's value for the side to move at `ply`: the disc count, or for a draw the
 * contempt. */
static int final_units(const Worker *worker, const Board *board, int ply)
{
    int discs = board_final_score(board);
    return discs ? discs * EVAL_DISC : draw_at(worker, ply);
}

/* An exact entry's bounds (discs) in the units of a midgame search that values a draw at
 * `draw` (nonzero, within +-SEARCH_MAX_DRAW). Exact scores are even, so the bounds tighten
 * to even discs first; a bound of 0 then means a draw or a score of 2 discs or more beyond
 * it, and a draw is the nearer of the two. */
static void exact_bounds_with_draw(int *lower, int *upper, int draw)
{
    int low = *lower + (*lower & 1), high = *upper - (*upper & 1);
    if (low > high) { /* no even score between them: keep them as they were */
        *lower *= EVAL_DISC;
        *upper *= EVAL_DISC;
        return;
    }
    *lower = low ? low * EVAL_DISC : draw;
    *upper = high ? high * EVAL_DISC : draw;
}

static int midgame(Worker *worker, int ply, int depth, int alpha, int beta, bool passed);

/* Multi-ProbCut: true, with the bound in `cut`, when a search of about half the depth
 * predicts the node's value PROBCUT_MID_T sigmas beyond the window (the prediction and its
 * error are fitted by `octuple-train mpc`). The shallow search uses the same table and cuts
 * in turn; the root is never cut, so a search always has a move. */
static bool probcut_try(Worker *worker, int ply, int depth, int alpha, int beta, int *cut)
{
    const Board *board = &worker->states[ply].board;
    const ProbcutPair *pair = probcut_mid(&worker->search->probcut, depth,
                                          board_count_empties(board));
    if (!pair)
        return false;
    int shallow = probcut_mid_shallow(depth);
    double width = PROBCUT_MID_T * pair->sigma;
    /* v_deep >= beta is likely when a * v_shallow + b - width >= beta */
    double high = ceil((beta + width - pair->b) / pair->a);
    if (beta < SCORE_INFINITE && high < SCORE_INFINITE) {
        int bound = (int)high;
        int value = midgame(worker, ply, shallow, bound - 1, bound, false);
        if (worker->solver.stopped)
            return false;
        if (value >= bound) {
            *cut = beta;
            return true;
        }
    }
    double low = floor((alpha - width - pair->b) / pair->a);
    if (alpha > -SCORE_INFINITE && low > -SCORE_INFINITE) {
        int bound = (int)low;
        int value = midgame(worker, ply, shallow, bound, bound + 1, false);
        if (worker->solver.stopped)
            return false;
        if (value <= bound) {
            *cut = alpha;
            return true;
        }
    }
    return false;
}

/* A cut's shallow searches take deeper bounds with several threads too, as with one: they
 * only predict, and held to their own depth they took two threads twice as long to
 * depth 17. */
static bool probcut_midgame(Worker *worker, int ply, int depth, int alpha, int beta, int *cut)
{
    bool same_depth = worker->same_depth;
    worker->same_depth = false;
    bool found = probcut_try(worker, ply, depth, alpha, beta, cut);
    worker->same_depth = same_depth;
    return found;
}

static int midgame(Worker *worker, int ply, int depth, int alpha, int beta, bool passed)
{
    if (worker_stopped(worker))
        return 0;
    EvalState *state = &worker->states[ply];
    const Board *board = &state->board;
    if (depth == 0 || ply >= SEARCH_MAX_DEPTH) {
        /* a finished game's value is known: a full board, or no move for either side (a
         * wipe-out, or empties nobody can take) */
        if (~(board->player | board->opponent)
            && (movegen_moves(board->player, board->opponent)
                || movegen_moves(board->opponent, board->player)))
            return eval_score(state, worker->model);
        return final_units(worker, board, ply);
    }

    uint64_t moves = movegen_moves(board->player, board->opponent);
    if (!moves) {
        if (passed)
            return final_units(worker, board, ply);
        eval_copy(&worker->states[ply + 1], state);
        eval_pass(&worker->states[ply + 1]);
        return -midgame(worker, ply + 1, depth, -beta, -alpha, true);
    }

    Tt *tt = worker->limits->use_tt && (depth >= MIDGAME_TT_DEPTH || worker->presolve)
           ? &worker->search->tt : NULL;
    int tt_move = MOVE_NONE;
    TtEntry entry;
    if (tt && tt_probe(tt, board, &entry)) {
        tt_move = entry.move;
        int lower = entry.lower, upper = entry.upper;
        bool usable = (worker->same_depth ? entry.depth == depth : entry.depth >= depth)
                   && entry.depth < TT_DEPTH_EXACT
                   && (!worker->limits->own_entries
                       || entry.generation == tt_current_generation(tt))
                   && (entry.level == TT_LEVEL_FULL || !worker->limits->draw);
        if (entry.depth >= TT_DEPTH_EXACT) {
            /* exact endgame bounds hold at any depth; a selective solve's are only likely */
            int draw = draw_at(worker, ply);
            if (draw) {
                exact_bounds_with_draw(&lower, &upper, draw);
            } else { /* as before contempt: the same tree, the same bench nodes */
                lower *= EVAL_DISC;
                upper *= EVAL_DISC;
            }
            usable = entry.level == TT_LEVEL_FULL;
        }
        if (usable) {
            if (lower >= beta)
                return lower;
            if (upper <= alpha)
                return upper;
            if (lower == upper)
                return lower;
            if (lower > alpha)
                alpha = lower;
            if (upper < beta)
                beta = upper;
        }
    }

    int cut;
    if (worker->selective && ply > 0 && probcut_midgame(worker, ply, depth, alpha, beta, &cut))
        return cut;

    OrderedMove list[MOVE_LIST_CAPACITY];
    int count = order_moves(worker, ply, depth, moves, tt_move, list);
    int original_alpha = alpha;
    int best = -SCORE_INFINITE;
    int best_move = list[0].square;
    EvalState *child = &worker->states[ply + 1];
    for (int i = 0; i < count; ++i) {
        eval_copy(child, state);
        eval_play(child, worker->model, list[i].square, list[i].flips);
        int value;
        if (i == 0) {
            value = -midgame(worker, ply + 1, depth - 1, -beta, -alpha, false);
        } else {
            value = -midgame(worker, ply + 1, depth - 1, -alpha - 1, -alpha, false);
            if (value > alpha && value < beta)
                value = -midgame(worker, ply + 1, depth - 1, -beta, -value, false);
        }
        if (worker->solver.stopped)
            return 0;
        if (value > best) {
            best = value;
            best_move = list[i].square;
            if (value >= beta)
                break;
            if (value > alpha)
                alpha = value;
        }
    }
    if (tt)
        tt_store(tt, board, depth, best > original_alpha ? best : -SCORE_INFINITE,
                 best < beta ? best : SCORE_INFINITE, best_move);
    return best;
}

static int floor_div(int value, int divisor)
{
    return value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor);
}

static int clamp_discs(int discs)
{
    return discs < -SCORE_MAX ? -SCORE_MAX : discs > SCORE_MAX ? SCORE_MAX : discs;
}

/* Parallel exact search (threads > 1), Young Brothers Wait: at a node with enough empties
 * the first move is searched alone, then the other moves are shared out; each is proven no
 * better than the best so far with a null window and re-searched only when it is better.
 * Any thread working on a shared move splits again below it, and a thread with nothing
 * to do (a helper, or an owner waiting for its split point to finish) joins the newest
 * split point that still has moves. The value is the one a single thread finds: only who
 * searches which move changes. */
typedef struct SplitPoint SplitPoint;

struct SplitPoint {
    Board children[MOVE_LIST_CAPACITY];
    int moves[MOVE_LIST_CAPACITY];
    int values[MOVE_LIST_CAPACITY]; /* fail-soft values, discs, of the moves searched */
    int count;
    atomic_int next;        /* next move to hand out */
    atomic_bool cutoff;     /* a move reached beta: the others may stop */
    atomic_bool incomplete; /* a move was taken and dropped by a stopped thread: the
                               result is no bound and must not be used or stored */
    int alpha, beta, best, best_move; /* under the pool's mutex */
    int busy;               /* threads inside, under the pool's mutex */
    int level;              /* the owner's selectivity, which the helpers take on */
    SplitPoint *parent;     /* the split point its owner was working for, or NULL */
};

enum { SPLIT_STACK = 64 };

struct SplitPool {
    pthread_mutex_t mutex;
    pthread_cond_t changed; /* a split point opened, lost a worker, or quit */
    SplitPoint *open[SPLIT_STACK]; /* split points whose owners have not returned */
    int open_count;
    bool quit;
};

static int split_search(Worker *worker, const Board *board, int alpha, int beta);

/* The newest open split point with moves left; the caller holds the mutex. */
/* The newest open split point with moves left below `within` (any when NULL); the caller
 * holds the mutex. An owner waiting for its own split point helps only below it: work
 * elsewhere would keep it from returning when its own is done. Ancestors stay open while
 * a descendant is, so the parent chains are safe to walk. */
static SplitPoint *split_find(SplitPool *pool, const SplitPoint *within)
{
    for (int i = pool->open_count - 1; i >= 0; --i) {
        SplitPoint *split = pool->open[i];
        if (atomic_load(&split->next) >= split->count || atomic_load(&split->cutoff))
            continue;
        const SplitPoint *ancestor = split;
        while (within && ancestor && ancestor != within)
            ancestor = ancestor->parent;
        if (!within || ancestor)
            return split;
    }
    return NULL;
}

/* Takes moves of the split point until none is left or a cutoff ends it. */
static void split_work(Worker *worker, SplitPoint *split)
{
    SplitPool *pool = worker->pool;
    Solver *solver = &worker->solver;
    const atomic_bool *saved_abort = solver->abort;
    bool saved_stopped = solver->stopped;
    int saved_level = solver->level;
    solver->abort = &split->cutoff;
    solver->level = split->level;
    SplitPoint *saved_current = worker->current;
    worker->current = split;
    for (;;) {
        int i = atomic_fetch_add(&split->next, 1);
        if (i >= split->count || atomic_load(&split->cutoff))
            break;
        pthread_mutex_lock(&pool->mutex);
        int alpha = split->alpha, beta = split->beta;
        pthread_mutex_unlock(&pool->mutex);
        int value = -split_search(worker, &split->children[i], -alpha - 1, -alpha);
        if (!solver->stopped && value > alpha && value < beta) {
            pthread_mutex_lock(&pool->mutex);
            int now = split->alpha > alpha ? split->alpha : alpha;
            pthread_mutex_unlock(&pool->mutex);
            if (now < beta)
                value = -split_search(worker, &split->children[i], -beta, -now);
        }
        if (solver->stopped) {
            if (!atomic_load(&split->cutoff))
                atomic_store(&split->incomplete, true);
            break;
        }
        pthread_mutex_lock(&pool->mutex);
        split->values[i] = value;
        if (value > split->best) {
            split->best = value;
            split->best_move = split->moves[i];
        }
        if (value > split->alpha)
            split->alpha = value;
        if (split->alpha >= split->beta)
            atomic_store(&split->cutoff, true);
        pthread_mutex_unlock(&pool->mutex);
    }
    solver->abort = saved_abort;
    solver->level = saved_level;
    worker->current = saved_current;
    if (solver->stopped && !saved_stopped) {
        /* stopped by this split point's cutoff alone: the work it abandoned is not needed */
        solver->stopped = false;
        solver_should_stop(solver);
    }
}

/* Joins `split`, works on it, and leaves it. */
static void split_join(Worker *worker, SplitPoint *split)
{
    SplitPool *pool = worker->pool;
    ++split->busy; /* the caller holds the mutex */
    pthread_mutex_unlock(&pool->mutex);
    split_work(worker, split);
    pthread_mutex_lock(&pool->mutex);
    --split->busy;
    pthread_cond_broadcast(&pool->changed);
}

/* Publishes the split point, works on it, helps elsewhere while others finish it, and
 * closes it. */
static void split_run(Worker *worker, SplitPoint *split)
{
    SplitPool *pool = worker->pool;
    pthread_mutex_lock(&pool->mutex);
    if (pool->open_count == SPLIT_STACK) { /* too deep: search it alone */
        pthread_mutex_unlock(&pool->mutex);
        split_work(worker, split);
        return;
    }
    split->busy = 0;
    pool->open[pool->open_count++] = split;
    pthread_cond_broadcast(&pool->changed);
    split_join(worker, split);
    while (split->busy > 0) {
        /* a stopped thread must not take moves it would only drop */
        SplitPoint *other = worker->solver.stopped ? NULL : split_find(pool, split);
        if (other && other != split)
            split_join(worker, other);
        else
            pthread_cond_wait(&pool->changed, &pool->mutex);
    }
    for (int i = 0; i < pool->open_count; ++i) /* remove it, keeping the order */
        if (pool->open[i] == split) {
            memmove(&pool->open[i], &pool->open[i + 1],
                    sizeof(SplitPoint *) * (size_t)(pool->open_count - i - 1));
            --pool->open_count;
            break;
        }
    pthread_mutex_unlock(&pool->mutex);
}

/* Helpers join split points until the search ends. */
static void split_serve(Worker *worker)
{
    SplitPool *pool = worker->pool;
    pthread_mutex_lock(&pool->mutex);
    while (!pool->quit) {
        SplitPoint *split = worker->solver.stopped ? NULL : split_find(pool, NULL);
        if (split)
            split_join(worker, split);
        else
            pthread_cond_wait(&pool->changed, &pool->mutex);
    }
    pthread_mutex_unlock(&pool->mutex);
}

/* Exact value (discs, fail-soft) of `board`, splitting at nodes with enough empties. */
static int split_search(Worker *worker, const Board *board, int alpha, int beta)
{
    Solver *solver = &worker->solver;
    int split_empties = worker->limits->split_empties > 0 ? worker->limits->split_empties
                                                          : SPLIT_MIN_EMPTIES;
    if (!board_can_move(board) || board_count_empties(board) < split_empties)
        return endgame_search(solver, board, alpha, beta);
    /* the opponent's stable discs cap the score, as in the one-thread solver: without this
     * cut FForum #59 (+64) took 181 s and 2.2 G nodes on two threads, 2.2 s on one */
    int cap = stability_cap(board->player, board->opponent, alpha, 0);
    if (cap <= alpha)
        return cap;
    if (cap < beta)
        beta = cap;
    int tt_move = MOVE_NONE;
    TtEntry entry;
    if (solver->tt && tt_probe(solver->tt, board, &entry)) {
        tt_move = entry.move;
        int empties = board_count_empties(board);
        int known;
        if (entry.depth >= TT_DEPTH_EXACT + empties && entry.level >= solver->level
            && tt_bounds_apply(entry.lower, entry.upper, &alpha, &beta, &known))
            return known;
    }
    /* the selective passes' probability cuts, as in the one-thread solver: without them the
     * passes cut nothing at the nodes shared out, and FForum #57 took 2.09 G nodes on two
     * threads against 1.36 G on one */
    int cut;
    if (endgame_probcut(solver, board, alpha, beta, &cut))
        return cut;
    /* enhanced transposition cutoffs, as in the one-thread solver: FForum #40-#52 on two
     * threads 4.44-4.45 G nodes and 59-61 s with them, 4.78-4.82 G and 67 s without */
    uint64_t moves = board_legal(board);
    if (endgame_etc(solver, board, moves, beta, &cut))
        return cut;
    /* the table's move first, alone: when it cuts, as it mostly does, the other moves'
     * ordering searches (deep ones this far from the end) are never paid for */
    int best = -SCORE_MAX - 1, best_move = MOVE_NONE;
    if (tt_move < 64 && ((moves >> tt_move) & 1)) {
        Board child = *board;
        board_play(&child, tt_move);
        best = -split_search(worker, &child, -beta, -alpha);
        best_move = tt_move;
        moves &= ~(1ULL << tt_move);
    }
    SplitPoint *split = NULL;
    if (moves && !solver->stopped && best < beta) {
        split = malloc(sizeof *split);
        if (!split)
            return endgame_search(solver, board, alpha, beta);
        int squares[MOVE_LIST_CAPACITY];
        int count = endgame_order(solver, board, moves, best > alpha ? best : alpha, squares);
        for (int i = 0; i < count; ++i) {
            split->children[i] = *board;
            board_play(&split->children[i], squares[i]);
            split->moves[i] = squares[i];
        }
        int first = 0;
        if (best_move == MOVE_NONE) { /* the eldest brother alone, then the others shared */
            best = -split_search(worker, &split->children[0], -beta, -alpha);
            best_move = squares[0];
            first = 1;
        }
        if (!solver->stopped && best < beta && count > first) {
            split->count = count;
            atomic_init(&split->next, first);
            atomic_init(&split->cutoff, false);
            atomic_init(&split->incomplete, false);
            split->alpha = best > alpha ? best : alpha;
            split->beta = beta;
            split->best = best;
            split->best_move = best_move;
            split->parent = worker->current;
            split->level = solver->level;
            split_run(worker, split);
            best = split->best;
            best_move = split->best_move;
            if (atomic_load(&split->incomplete))
                solver->stopped = true; /* some move went unsearched: no value to give */
        }
    }
    if (!solver->stopped && solver->tt) {
        int lower = best > alpha ? best : -SCORE_MAX;
        int upper = best < beta ? best : SCORE_MAX;
        tt_store_level(solver->tt, board, TT_DEPTH_EXACT + board_count_empties(board),
                       solver->level, lower, upper, best_move);
    }
    free(split);
    return best;
}

/* Score of one root move: midgame to `depth`, or exact in discs * EVAL_DISC. */
static int root_child(Worker *worker, const RootMove *root, int depth, bool exact, int alpha,
                      int beta)
{
    const EvalState *state = &worker->states[0];
    if (exact) {
        Board next = state->board;
        board_play(&next, root->move);
        /* the solver works in discs: widen the window outwards to whole discs, which keeps
         * fail-soft results valid bounds in evaluation units too */
        int a = clamp_discs(floor_div(alpha, EVAL_DISC));
        int b = clamp_discs(-floor_div(-beta, EVAL_DISC));
        if (a >= b)
            b = a + 1;
        if (worker->pool) /* parallel below the root move too */
            return -split_search(worker, &next, -b, -a) * EVAL_DISC;
        return -endgame_search(&worker->solver, &next, -b, -a) * EVAL_DISC;
    }
    EvalState *child = &worker->states[1];
    eval_copy(child, state);
    eval_play(child, worker->model, root->move, root->flips);
    return -midgame(worker, 1, depth - 1, -beta, -alpha, false);
}

static void root_sort(RootMove *moves, int count)
{
    for (int i = 1; i < count; ++i) {
        RootMove item = moves[i];
        int j = i;
        while (j > 0 && moves[j - 1].score < item.score) {
            moves[j] = moves[j - 1];
            --j;
        }
        moves[j] = item;
    }
}

/* An exact root move searched in the window (low, high), which widens on each failure,
 * twice as far each time, until the score falls inside it.
 * A selective pass (probability cuts) need not answer consistently: with the window below
 * a score it may fail high, and with the window above fail low, and a window anchored at
 * that score then swung between the two for ever (a match game hung this way at 15
 * empties, tests/check_search.c). So once the answers contradict each other (a bound
 * proven from above below one proven from below), the move gets one open window, whose
 * answer always lies inside it. An exact pass never contradicts itself. */
static int root_widen(Worker *worker, const RootMove *move, int depth, int low, int high)
{
    int delta = 2 * EVAL_DISC;
    int at_least = -SCORE_INFINITE, at_most = SCORE_INFINITE; /* what the answers proved */
    for (;;) {
        int value = root_child(worker, move, depth, true, low, high);
        if (worker->solver.stopped)
            return value;
        bool fails_low = value <= low && low > -SCORE_INFINITE;
        bool fails_high = !fails_low && value >= high && high < SCORE_INFINITE;
        if (!fails_low && !fails_high)
            return value;
        if (fails_low && value < at_most)
            at_most = value;
        if (fails_high && value > at_least)
            at_least = value;
        if (at_least > at_most)
            return root_child(worker, move, depth, true, -SCORE_INFINITE, SCORE_INFINITE);
        if (delta < SCORE_INFINITE)
            delta *= 2;
        if (fails_low) {
            high = low + 1;
            low = value - delta < -SCORE_INFINITE ? -SCORE_INFINITE : value - delta;
        } else {
            low = high - 1;
            high = value + delta > SCORE_INFINITE ? SCORE_INFINITE : value + delta;
        }
    }
}

/* The first root move of an exact solve, searched in a narrow window around the estimate
 * of the searches before: proving one score is far cheaper than a full window. Exact
 * scores are always even, so (g - 2, g + 2) asks exactly "is it g?". */
static int root_aspiration(Worker *worker, const RootMove *move, int depth, int guess)
{
    /* a guess of the contempt is a draw the searches before found: asked as a draw, where
     * rounding a contempt of +-1 disc would ask +-2 discs */
    int center = guess == worker->limits->draw && guess ? 0
               : 2 * EVAL_DISC * (int)lround((double)guess / (2 * EVAL_DISC));
    return root_widen(worker, move, depth, center - 2 * EVAL_DISC, center + 2 * EVAL_DISC);
}

/* The root moves after the first, shared out among the threads (exact, one line). */
static bool root_split(Worker *worker, RootMove *moves, int count)
{
    SplitPoint *split = malloc(sizeof *split);
    if (!split)
        return false;
    const Board *board = &worker->states[0].board;
    split->count = count - 1;
    for (int i = 1; i < count; ++i) {
        split->children[i - 1] = *board;
        board_play(&split->children[i - 1], moves[i].move);
        split->moves[i - 1] = moves[i].move;
        split->values[i - 1] = -SCORE_MAX - 1; /* not searched (after a cutoff) */
    }
    atomic_init(&split->next, 0);
    atomic_init(&split->cutoff, false);
    atomic_init(&split->incomplete, false);
    split->alpha = moves[0].score / EVAL_DISC;
    split->beta = SCORE_MAX;
    split->best = split->alpha;
    split->best_move = moves[0].move;
    split->parent = worker->current;
    split->level = worker->solver.level;
    split_run(worker, split);
    if (atomic_load(&split->incomplete))
        worker->solver.stopped = true;
    /* only the split point's best move is proven best: the others' values are bounds that
     * may tie with it, so they go just below it */
    int best = split->best * EVAL_DISC;
    for (int i = 1; i < count; ++i) {
        moves[i].score = split->values[i - 1] * EVAL_DISC;
        if (moves[i].move != split->best_move && moves[i].score >= best)
            moves[i].score = best - 1;
    }
    if (split->best_move != moves[0].move && moves[0].score >= best)
        moves[0].score = best - 1;
    free(split);
    return !worker->solver.stopped;
}

/* One iteration at the root. With several lines every move gets a full window, so the
 * scores are exact relative to each other; otherwise moves after the first are only
 * proven worse with null windows. Returns false when stopped. */
static bool root_iteration(Worker *worker, RootMove *moves, int count, int depth, bool exact,
                           int lines)
{
    if (exact && lines == 1 && worker->pool) {
        moves[0].score = root_aspiration(worker, &moves[0], depth, moves[0].score);
        if (worker->solver.stopped || (count > 1 && !root_split(worker, moves, count)))
            return false;
        root_sort(moves, count);
        return true;
    }
    int alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
    for (int i = 0; i < count; ++i) {
        int value;
        if (i == 0 && exact && lines == 1) {
            value = root_aspiration(worker, &moves[i], depth, moves[i].score);
        } else if (i == 0 || lines > 1) {
            value = root_child(worker, &moves[i], depth, exact, -SCORE_INFINITE, beta);
        } else {
            value = root_child(worker, &moves[i], depth, exact, alpha, alpha + 1);
            /* a move that beats the best so far: its score, from the bound the null
             * window proved. Exact, a narrow window that widens asks for less than
             * (value, beta): at FForum #54 C7 proved better than -4 took 1.37 G nodes to
             * find -2 with beta open */
            if (value > alpha && !worker->solver.stopped)
                value = exact
                    ? root_widen(worker, &moves[i], depth, value - EVAL_DISC, value + EVAL_DISC)
                    : root_child(worker, &moves[i], depth, exact, value, beta);
        }
        if (worker->solver.stopped)
            return false;
        /* a move proven no better than alpha keeps its upper bound: good enough to order
         * by, and the stable sort leaves it behind an equal best */
        moves[i].score = value;
        if (value > alpha)
            alpha = value;
    }
    root_sort(moves, count);
    return true;
}

/* A win/draw/loss iteration: each move's value becomes EVAL_DISC (a win), 0 (a draw) or
 * -EVAL_DISC (a loss). Exact scores are even, so the window (-1, 1) in discs holds only the
 * draw: a fail-soft value of 1 or more proves a win, -1 or less a loss. With one line a move
 * after the first need only beat the best outcome so far: a null window above a draw, and
 * no search at all once a win is found; with several lines each move gets (-1, 1). A move
 * proven no better than a draw goes just below it, a move not searched below a loss.
 * Returns false when stopped. */
static bool root_wld(Worker *worker, RootMove *moves, int count, int depth, int lines)
{
    int best = -2 * EVAL_DISC; /* nothing searched yet */
    for (int i = 0; i < count; ++i) {
        if (lines == 1 && best == EVAL_DISC) {
            moves[i].score = -2 * EVAL_DISC;
            continue;
        }
        int low = lines == 1 && best == 0 ? 0 : -EVAL_DISC;
        int value = root_child(worker, &moves[i], depth, true, low, EVAL_DISC);
        if (worker->solver.stopped)
            return false;
        int score;
        if (value >= EVAL_DISC)
            score = EVAL_DISC;
        else if (value > low)
            score = 0; /* inside (-1, 1) discs: low was -EVAL_DISC */
        else
            score = low == -EVAL_DISC ? -EVAL_DISC : low - 1;
        moves[i].score = score;
        if (score > best)
            best = score;
    }
    root_sort(moves, count);
    return true;
}

/* The legal moves of `position` into `squares`, `first` (the table's hint) first when it is
 * one; returns their count. */
static int hinted_moves(const Board *position, int first, int *squares)
{
    uint64_t legal = board_legal(position);
    int count = 0;
    if (first < 64 && (legal >> first & 1)) {
        squares[count++] = first;
        legal &= ~(1ULL << first);
    }
    for (; legal; legal &= legal - 1)
        squares[count++] = __builtin_ctzll(legal);
    return count;
}

/* The move that keeps a known exact value: `expected`, discs from the mover's view, among
 * the children of a position, `first` (the table's hint) tried first, each asked by a
 * window around the value with the search's table (its entries answer most of it: the
 * search has just proven the line); MOVE_NONE when none does within `*budget` nodes,
 * which it spends. */
static int exact_line_move(Tt *tt, const Board *position, int expected, int first,
                           uint64_t *budget)
{
    if (*budget == 0)
        return MOVE_NONE;
    Solver solver;
    solver_init(&solver, tt, NULL);
    solver.node_limit = *budget;
    int squares[MOVE_LIST_CAPACITY];
    int count = hinted_moves(position, first, squares);
    int found = MOVE_NONE;
    for (int i = 0; i < count && found == MOVE_NONE && !solver.stopped; ++i) {
        Board child = *position;
        board_play(&child, squares[i]);
        int value = -endgame_search(&solver, &child, -expected - 1, -expected + 1);
        if (!solver.stopped && value == expected)
            found = squares[i];
    }
    *budget = solver.stopped || solver.nodes >= *budget ? 0 : *budget - solver.nodes;
    return found;
}

/* The midgame search's choice at depth 1 (the position at `ply`): the child it rates best,
 * the first in square order on a tie (depth-1 nodes keep no table entry); a finished game
 * is worth its count there, or the contempt for a draw, as at midgame's leaves. */
static int static_line_move(const Worker *worker, const Board *position, int ply)
{
    int best_move = MOVE_NONE, best = 0;
    for (uint64_t m = board_legal(position); m; m &= m - 1) {
        int square = __builtin_ctzll(m);
        Board child = *position;
        board_play(&child, square);
        int value = board_is_over(&child) ? -final_units(worker, &child, ply + 1)
                                          : -eval_board(worker->search->model, &child);
        if (best_move == MOVE_NONE || value > best) {
            best = value;
            best_move = square;
        }
    }
    return best_move;
}

/* Whether a full-width exact entry of `board` is in the table; its bounds in `entry`. */
static bool exact_entry(Tt *tt, const Board *board, TtEntry *entry)
{
    return tt_probe(tt, board, entry) && entry->depth >= TT_DEPTH_EXACT
        && entry->level == TT_LEVEL_FULL;
}

/* A move the table proves to keep `expected` (the mover's exact value): the position's own
 * entry when it proved at least that much with its move (a cut or an exact value), else a
 * child whose entry proves it at most -expected for its mover (a node that failed low);
 * `first`, the table's move, is tried first. MOVE_NONE when no entry proves one. */
static int proven_line_move(Tt *tt, const Board *position, int expected, int first)
{
    TtEntry entry;
    int squares[MOVE_LIST_CAPACITY];
    int count = hinted_moves(position, first, squares);
    if (count > 0 && squares[0] == first && exact_entry(tt, position, &entry)
        && entry.move == first && entry.lower >= expected)
        return first;
    for (int i = 0; i < count; ++i) {
        Board child = *position;
        board_play(&child, squares[i]);
        if (exact_entry(tt, &child, &entry) && entry.upper <= -expected)
            return squares[i];
    }
    return MOVE_NONE;
}

/* The nodes an exact line may spend proving moves that no entry proves (about a second at
 * most): with the table the search left, FForum #45's line (24 empties) needed more than
 * 2 M of them and went to the end within the time of the solve's own noise, but a table
 * that lost the line's entries could make it as long as a solve. */
enum { EXACT_LINE_NODES = 20000000 };

/* The line of a root move from the table's moves into `pv` (at most `capacity`); returns
 * its length. A midgame line stops after `depth` moves (passes cost no depth): further
 * moves would come from older, deeper entries, not from this search; its last move, at a
 * depth-1 node that keeps no entry, is the one that node's search picks. An exact line (not
 * an outcome only, `wld`; `score`: the root move's value in discs) takes only moves that
 * keep that value: moves the table's bounds prove (proven_line_move), else moves proven by
 * solving (the table holds one bound of a position, so a line proven from both sides, and
 * the positions below 11 empties, need it), within EXACT_LINE_NODES; so it goes on to the
 * end of the game unless that budget runs out. */
static int collect_line(const Worker *worker, const Board *board, int first, int depth,
                        bool exact, bool wld, int score, int *pv, int capacity)
{
    Search *search = worker->search;
    Board position = *board;
    int length = 0, played = 0, move = first;
    int expected = score; /* the value of `position` for its mover, after each flip below */
    uint64_t budget = EXACT_LINE_NODES;
    while (length < capacity && move != MOVE_NONE && (exact || played < depth)) {
        if (!board_try_play(&position, move))
            break;
        pv[length++] = move;
        played += move != MOVE_PASS;
        expected = -expected;
        if (board_is_over(&position))
            break;
        if (!board_can_move(&position)) {
            move = MOVE_PASS;
            continue;
        }
        TtEntry entry;
        move = tt_probe(&search->tt, &position, &entry) && entry.move < 64
                   && (board_legal(&position) >> entry.move & 1) ? entry.move : MOVE_NONE;
        if (exact && !wld) {
            int proven = proven_line_move(&search->tt, &position, expected, move);
            move = proven != MOVE_NONE
                 ? proven : exact_line_move(&search->tt, &position, expected, move, &budget);
        }
        else if (exact) /* an outcome: the moves are the table's */
            continue;
        else if (move == MOVE_NONE && depth - played == 1 && search->model)
            move = static_line_move(worker, &position, length);
    }
    return length;
}

static void fill_result(Worker *worker, const RootMove *moves, int count, int depth, bool exact,
                        bool wld, int lines, SearchResult *result)
{
    result->move = moves[0].move;
    result->score = moves[0].score;
    result->exact = exact;
    result->wld = wld;
    result->depth = depth;
    /* cuts at PROBCUT_MID_T sigmas keep the errors within it: 2 Phi(t) - 1 of them */
    result->selectivity = !exact && !wld && worker->selective
                                  && worker->search->probcut.mid_enabled
                              ? (int)lround(100 * erf(PROBCUT_MID_T / sqrt(2.0)))
                              : 100;
    result->line_count = count < lines ? count : lines;
    const Board *board = &worker->states[0].board;
    result->pv_length = collect_line(worker, board, moves[0].move, depth, exact || wld,
                                     wld, moves[0].score / EVAL_DISC, result->pv,
                                     SEARCH_MAX_DEPTH);
    for (int i = 0; i < result->line_count; ++i) {
        SearchLine *line = &result->lines[i];
        *line = (SearchLine){moves[i].move, moves[i].score, {0}, 0};
        if (lines == 1)
            continue;
        if (i == 0) { /* the best line is the result's own */
            line->pv_length = result->pv_length < SEARCH_LINE_PV ? result->pv_length
                                                                  : SEARCH_LINE_PV;
            memcpy(line->pv, result->pv, sizeof(int) * (size_t)line->pv_length);
        } else { /* each of the others from its full-window search */
            line->pv_length = collect_line(worker, board, moves[i].move, depth,
                                           exact || wld, wld, moves[i].score / EVAL_DISC,
                                           line->pv, SEARCH_LINE_PV);
        }
    }
}

typedef struct RunShared {
    Search *search;
    const Board *board;
    const SearchLimits *limits;
    atomic_bool run_stop;
    double deadline;
    double start;
    atomic_uint_fast64_t nodes; /* over the threads, as of their last looks at the limits */
} RunShared;

static void worker_init(Worker *worker, RunShared *shared, int id)
{
    worker->search = shared->search;
    worker->limits = shared->limits;
    worker->model = shared->search->model;
    worker->run_stop = &shared->run_stop;
    worker->id = id;
    worker->selective = false;
    worker->presolve = false;
    worker->same_depth = shared->limits->threads > 1;
    worker->result = NULL;
    worker->progress = NULL;
    worker->context = NULL;
    worker->start = shared->start;
    worker->next_tick = shared->start + SEARCH_TICK_SECONDS;
    Tt *tt = shared->limits->use_tt ? &shared->search->tt : NULL;
    solver_init(&worker->solver, tt, &shared->search->stop);
    if (tt) /* without it the solver only has the shared table: slower, as right */
        solver_local_alloc(&worker->solver);
    worker->solver.stop2 = &shared->run_stop;
    worker->solver.model = worker->model;
    worker->solver.probcut = &shared->search->probcut;
    worker->solver.deadline = shared->deadline;
    worker->solver.node_limit = shared->limits->nodes;
    worker->solver.node_total = &shared->nodes;
    if (shared->limits->check_nodes > 0)
        worker->solver.check_interval = (uint64_t)shared->limits->check_nodes;
    eval_set(&worker->states[0], worker->model, shared->board);
}

/* Root moves in the order the worker starts with; helpers rotate it so that they explore
 * other moves first and leave different results in the shared table. */
static int root_moves(Worker *worker, RootMove *moves)
{
    const Board *board = &worker->states[0].board;
    int count = 0;
    for (uint64_t m = board_legal(board) & ~worker->limits->exclude; m; m &= m - 1) {
        int square = __builtin_ctzll(m);
        moves[count++] = (RootMove){square, 0, board_flips(board->player, board->opponent, square)};
    }
    if (worker->id > 0 && count > 1) {
        int shift = worker->id % count;
        RootMove rotated[MOVE_LIST_CAPACITY];
        for (int i = 0; i < count; ++i)
            rotated[i] = moves[(i + shift) % count];
        memcpy(moves, rotated, sizeof(RootMove) * (size_t)count);
    }
    return count;
}

/* The midgame search before a solve picks the first move and the first window. Far from
 * the end a wrong first move is dear and the midgame search cheap beside the solve: FForum
 * #57 (30 empties) took 564 s after a depth-10 search chose G7 (-20), 99 s after a
 * depth-14 one chose A6 (-10); nearer the end depth 14 costs more than it saves (FForum
 * 20-39: 15.9 s against 5.8 s). */
static int presolve_depth(int empties)
{
    int depth = empties - PRESOLVE_MARGIN;
    if (depth > PRESOLVE_MAX)
        depth = PRESOLVE_MAX;
    int deep = empties - PRESOLVE_DEEP_MARGIN;
    if (deep > depth)
        depth = deep > PRESOLVE_DEEP_MAX ? PRESOLVE_DEEP_MAX : deep;
    return depth < 1 ? 1 : depth;
}

/* After the selective passes: `first`, the midgame search's choice, goes back to the front
 * unless the passes rate another move SELECTIVE_REORDER_MARGIN discs higher. A pass cuts on
 * a network that errs by several discs, and the first move is the dearest to get wrong: at
 * FForum #57 the pass preferred G7 (-8) to A6 (-9), whose exact values are -20 and -10: the
 * solve took 12.5 G nodes, against 2.8 G without a pass (both an earlier version). */
static void root_keep_first(RootMove *moves, int count, int first)
{
    int j = 0;
    while (j < count && moves[j].move != first)
        ++j;
    if (j == 0 || j == count
        || moves[0].score - moves[j].score >= SELECTIVE_REORDER_MARGIN * EVAL_DISC)
        return;
    RootMove kept = moves[j];
    memmove(&moves[1], &moves[0], sizeof(RootMove) * (size_t)j);
    moves[0] = kept;
}

/* The nodes of every thread so far: this worker's exactly, the others' as of their last
 * looks at the limits (a few thousand nodes behind at most). */
static uint64_t worker_total_nodes(Worker *worker)
{
    Solver *solver = &worker->solver;
    atomic_fetch_add_explicit(solver->node_total, solver->nodes - solver->published,
                              memory_order_relaxed);
    solver->published = solver->nodes;
    return atomic_load_explicit(solver->node_total, memory_order_relaxed);
}

/* The main worker's look at the clock at each look at the limits (every few thousand nodes,
 * cheap beside them): a progress report with the nodes and time so far, so that a front end
 * shows life during a long iteration. */
static void worker_tick(void *argument)
{
    Worker *worker = argument;
    double now = monotonic_seconds();
    if (now < worker->next_tick)
        return;
    worker->next_tick = now + SEARCH_TICK_SECONDS;
    SearchResult *snapshot = malloc(sizeof *snapshot);
    if (!snapshot) /* a missed report only */
        return;
    *snapshot = *worker->result;
    snapshot->running = true;
    snapshot->probable = false;
    snapshot->nodes = worker_total_nodes(worker);
    snapshot->seconds = now - worker->start;
    worker->progress(worker->context, snapshot);
    free(snapshot);
}

/* A selective pass's moves as a progress report, apart from the result: an interrupted
 * solve still answers with its last midgame iteration, as before the passes were shown.
 * The line follows the table's moves (no solving, which would change the table). */
static void report_probable(Worker *worker, const RootMove *moves, int count, int empties,
                            int level, int lines, SearchProgress progress, void *context)
{
    SearchResult *pass = malloc(sizeof *pass);
    if (!pass) /* a missed report only */
        return;
    memset(pass, 0, sizeof *pass);
    pass->move = moves[0].move;
    pass->score = moves[0].score;
    pass->depth = empties;
    pass->probable = true;
    /* cuts at t sigmas keep the errors within it: 2 Phi(t) - 1 of them */
    pass->selectivity = (int)lround(100 * erf(probcut_t(level) / sqrt(2.0)));
    pass->line_count = count < lines ? count : lines;
    const Board *board = &worker->states[0].board;
    pass->pv_length = collect_line(worker, board, moves[0].move, empties, true, true, 0,
                                   pass->pv, SEARCH_MAX_DEPTH);
    for (int i = 0; i < pass->line_count; ++i) {
        SearchLine *line = &pass->lines[i];
        *line = (SearchLine){moves[i].move, moves[i].score, {0}, 0};
        if (lines > 1)
            line->pv_length = collect_line(worker, board, moves[i].move, empties, true, true,
                                           0, line->pv, SEARCH_LINE_PV);
    }
    pass->nodes = worker_total_nodes(worker);
    pass->seconds = monotonic_seconds() - worker->start;
    progress(context, pass);
    free(pass);
}

/* Iterative deepening; the main worker (id 0) reports, helpers only fill the table. */
static void worker_run(Worker *worker, SearchResult *result, SearchProgress progress,
                       void *context)
{
    if (worker->id == 0 && progress) {
        worker->result = result;
        worker->progress = progress;
        worker->context = context;
        worker->solver.on_check = worker_tick;
        worker->solver.check_context = worker;
    }
    const SearchLimits *limits = worker->limits;
    const Board *board = &worker->states[0].board;
    RootMove moves[MOVE_LIST_CAPACITY];
    int count = root_moves(worker, moves);
    int empties = board_count_empties(board);
    bool exact_wanted = empties <= limits->exact_empties;
    bool wld_wanted = !exact_wanted && empties <= limits->wld_empties;
    bool solve_wanted = exact_wanted || wld_wanted;
    int lines = limits->lines < 1 ? 1 : limits->lines;
    int last_depth = limits->depth < empties ? limits->depth : empties;
    if (solve_wanted) /* a shallow midgame search first orders the moves for the solver */
        last_depth = presolve_depth(empties);
    worker->presolve = solve_wanted;
    int start = 1 + (worker->id & 1);
    for (int depth = start; depth <= last_depth; ++depth) {
        /* Shallow searches cut nothing: at depth 7 the cuts saved a quarter of the time but
         * lost 41-59 to full-width depth 7 over 100 games; deeper, the time they save buys
         * more than they lose. Nor does the search before an exact solve: its first move and
         * window matter more than its cost (selective, the bench's 22-empty solve took
         * 154 M nodes against 117.5 M, FForum #40-#48 647.4 M against 639.5 M). */
        worker->selective = depth >= PROBCUT_MID_ROOT_DEPTH && !solve_wanted;
        /* the first iteration (a few dozen nodes) ignores the time budget, so that a timed
         * search always answers a searched move with a score, however loaded the machine;
         * a stop still ends it */
        double deadline = worker->solver.deadline;
        if (depth == 1)
            worker->solver.deadline = 0;
        bool done = root_iteration(worker, moves, count, depth, false, lines);
        worker->solver.deadline = deadline;
        if (!done)
            return;
        uint64_t nodes = worker_total_nodes(worker); /* the helpers' too, for the reports */
        if (worker->id == 0) {
            fill_result(worker, moves, count, depth, false, false, lines, result);
            result->nodes = nodes;
            if (progress) /* before a solve too: a front end shows the estimates */
                progress(context, result);
        }
    }
    if (solve_wanted && worker->search->probcut.enabled && worker->model
        && empties >= PROBCUT_MIN_EMPTIES + 4) {
        /* selective passes: each is far cheaper than the exact solve and leaves it the
         * best moves of the deep nodes and a close first guess */
        int first = moves[0].move;
        int wide_empties = limits->wide_pass_empties > 0 ? limits->wide_pass_empties
                                                         : SELECTIVE_WIDE_EMPTIES;
        for (int level = 0; level < PROBCUT_LEVELS; ++level) {
            if (level > 0 && (empties < wide_empties
                              || abs(moves[0].score) >= SELECTIVE_WIDE_SCORE * EVAL_DISC))
                break;
            worker->solver.level = level;
            bool done = root_iteration(worker, moves, count, empties, true, lines);
            worker->solver.level = TT_LEVEL_FULL;
            if (!done)
                return;
            if (worker->id == 0 && progress)
                report_probable(worker, moves, count, empties, level, lines, progress, context);
        }
        root_keep_first(moves, count, first);
    }
    if (solve_wanted) {
        bool done = exact_wanted ? root_iteration(worker, moves, count, empties, true, lines)
                                 : root_wld(worker, moves, count, empties, lines);
        if (!done)
            return;
        if (worker->id == 0) {
            fill_result(worker, moves, count, empties, exact_wanted, wld_wanted, lines, result);
            result->nodes = worker_total_nodes(worker);
            if (progress)
                progress(context, result);
        }
    }
}

typedef struct HelperThread {
    pthread_t thread;
    Worker *worker;
    bool started;
} HelperThread;

static void *helper_main(void *argument)
{
    Worker *worker = argument;
    if (worker->pool)
        split_serve(worker);
    else
        worker_run(worker, NULL, NULL, NULL);
    return NULL;
}

void search_run(Search *search, const Board *board, const SearchLimits *limits,
                SearchResult *result, SearchProgress progress, void *context)
{
    /* first, so that the clearing of a wrapped generation (see tt_new_search) is not
     * charged to the search's time */
    tt_new_search(&search->tt);
    double start = monotonic_seconds();
    memset(result, 0, sizeof *result);
    result->move = MOVE_NONE;

    uint64_t moves = board_legal(board);
    if (!moves) {
        Board passed = {board->opponent, board->player};
        if (board_legal(&passed) == 0) { /* game over: the score is the final count */
            result->score = board_final_score(board) * EVAL_DISC;
            result->exact = true;
        } else {
            SearchResult after;
            SearchLimits reply = *limits;
            reply.exclude = 0; /* the mask names this position's moves, not the reply's */
            reply.draw = -limits->draw; /* the other side moves */
            search_run(search, &passed, &reply, &after, NULL, NULL);
            *result = after;
            result->score = -after.score;
            result->move = MOVE_PASS;
            memmove(result->pv + 1, after.pv, sizeof(int) * (size_t)after.pv_length);
            result->pv[0] = MOVE_PASS;
            result->pv_length = after.pv_length + 1;
            result->line_count = 1;
            result->lines[0] = (SearchLine){MOVE_PASS, result->score, {0}, 0};
        }
        result->seconds = monotonic_seconds() - start;
        return;
    }
    moves &= ~limits->exclude;
    if (!moves) {
        result->seconds = monotonic_seconds() - start;
        return;
    }

    RunShared shared = {search, board, limits, false,
                        limits->seconds > 0 ? start + limits->seconds : 0.0, start, 0};
    atomic_init(&shared.run_stop, false);
    atomic_init(&shared.nodes, 0);
    int threads = limits->threads < 1 ? 1 : limits->threads > SEARCH_MAX_THREADS
                ? SEARCH_MAX_THREADS : limits->threads;
    Worker *workers = malloc(sizeof(Worker) * (size_t)threads);
    HelperThread helpers[SEARCH_MAX_THREADS];
    if (!workers) /* no memory for the workers: nothing sensible to search with */
        return;
    /* exact and win/draw/loss solves share out moves (split points); midgame searches use
     * Lazy SMP */
    int empties = board_count_empties(board);
    bool solve = empties <= limits->exact_empties || empties <= limits->wld_empties;
    SplitPool pool;
    bool use_pool = solve && threads > 1;
    if (use_pool) {
        pthread_mutex_init(&pool.mutex, NULL);
        pthread_cond_init(&pool.changed, NULL);
        pool.open_count = 0;
        pool.quit = false;
    }
    for (int i = 0; i < threads; ++i) {
        worker_init(&workers[i], &shared, i);
        workers[i].pool = use_pool ? &pool : NULL;
        workers[i].current = NULL;
    }
    for (int i = 1; i < threads; ++i) {
        helpers[i].worker = &workers[i];
        helpers[i].started = pthread_create(&helpers[i].thread, NULL, helper_main, &workers[i]) == 0;
    }
    /* a fallback so that an interrupted first iteration still names a legal move */
    result->move = __builtin_ctzll(moves);
    result->line_count = 1;
    result->lines[0] = (SearchLine){result->move, 0, {0}, 0};
    worker_run(&workers[0], result, progress, context);
    result->stopped = workers[0].solver.stopped;
    atomic_store(&shared.run_stop, true);
    if (use_pool) {
        pthread_mutex_lock(&pool.mutex);
        pool.quit = true;
        pthread_cond_broadcast(&pool.changed);
        pthread_mutex_unlock(&pool.mutex);
    }
    uint64_t nodes = 0;
    for (int i = 1; i < threads; ++i)
        if (helpers[i].started)
            pthread_join(helpers[i].thread, NULL);
    if (use_pool) {
        pthread_mutex_destroy(&pool.mutex);
        pthread_cond_destroy(&pool.changed);
    }
    for (int i = 0; i < threads; ++i) {
        nodes += workers[i].solver.nodes;
        solver_local_free(&workers[i].solver);
    }
    result->nodes = nodes;
    result->seconds = monotonic_seconds() - start;
    free(workers);
}
