/* Iterative deepening over a principal variation search, the exact solver at the root when
 * few squares are empty, and Lazy SMP: extra threads search the same root through the
 * shared transposition table, which fills it with results the main thread then reuses.
 * Only the main thread's result is reported, so exact scores do not depend on threads. */
#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "endgame.h"
#include "eval.h"

enum {
    SCORE_INFINITE = EVAL_LIMIT + 64 * EVAL_DISC + 1, /* beyond any score */
    MOVE_LIST_CAPACITY = 64,
    CHECK_INTERVAL = 1024,
    PRESOLVE_MARGIN = 8, /* before an exact solve: midgame to empties - this, */
    PRESOLVE_MAX = 10     /* but no deeper than this */
};

#define CORNER_SQUARES 0x8100000000000081ULL

typedef struct Worker {
    Search *search;
    const SearchLimits *limits;
    const Model *model;
    atomic_bool *run_stop;  /* raised when the main thread is done */
    Solver solver;          /* node counting and limits, shared with the endgame solver */
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
    SearchLimits limits = {7, 20, 1, 0.0, 0, 1, true};
    return limits;
}

bool search_init(Search *search, size_t hash_megabytes, OctError *error)
{
    if (!tt_init(&search->tt, hash_megabytes))
        return error_set(error, "cannot allocate a %zu MB transposition table", hash_megabytes);
    search->model = NULL;
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
    tt_clear(&search->tt); /* midgame entries were scored by the old model */
}

void search_stop(Search *search)
{
    atomic_store(&search->stop, true);
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
 * evaluation after the move (deep nodes) or by the opponent's replies (shallow ones). */
static int order_moves(Worker *worker, int ply, int depth, uint64_t moves, int tt_move,
                       OrderedMove *list)
{
    const EvalState *state = &worker->states[ply];
    const Board *board = &state->board;
    EvalState *scratch = &worker->states[ply + 1];
    int count = 0;
    for (; moves; moves &= moves - 1) {
        int square = __builtin_ctzll(moves);
        uint64_t flips = board_flips(board->player, board->opponent, square);
        uint64_t replies = board_moves(board->opponent ^ flips,
                                       board->player ^ flips ^ (1ULL << square));
        int order = -(popcount(replies) + popcount(replies & CORNER_SQUARES)) * (EVAL_DISC / 2);
        if (depth >= 3) {
            eval_copy(scratch, state);
            eval_play(scratch, worker->model, square, flips);
            order -= eval_score(scratch, worker->model);
        }
        if ((CORNER_SQUARES >> square) & 1)
            order += EVAL_DISC;
        if (square == tt_move)
            order = 1 << 30;
        list[count++] = (OrderedMove){square, order, flips};
    }
    moves_sort(list, count);
    return count;
}

static int final_units(const Board *board)
{
    return board_final_score(board) * EVAL_DISC;
}

static int midgame(Worker *worker, int ply, int depth, int alpha, int beta, bool passed)
{
    if (worker_stopped(worker))
        return 0;
    EvalState *state = &worker->states[ply];
    const Board *board = &state->board;
    if (depth == 0 || ply >= SEARCH_MAX_DEPTH)
        return eval_score(state, worker->model);

    uint64_t moves = board_legal(board);
    if (!moves) {
        if (passed)
            return final_units(board);
        eval_copy(&worker->states[ply + 1], state);
        eval_pass(&worker->states[ply + 1]);
        return -midgame(worker, ply + 1, depth, -beta, -alpha, true);
    }

    Tt *tt = worker->limits->use_tt ? &worker->search->tt : NULL;
    int tt_move = MOVE_NONE;
    TtEntry entry;
    if (tt && tt_probe(tt, board, &entry)) {
        tt_move = entry.move;
        int lower = entry.lower, upper = entry.upper;
        bool usable = entry.depth >= depth && entry.depth < TT_DEPTH_EXACT;
        if (entry.depth >= TT_DEPTH_EXACT) { /* exact endgame bounds hold at any depth */
            lower *= EVAL_DISC;
            upper *= EVAL_DISC;
            usable = true;
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

/* One iteration at the root. With several lines every move gets a full window, so the
 * scores are exact relative to each other; otherwise moves after the first are only
 * proven worse with null windows. Returns false when stopped. */
/* The first root move of an exact solve, searched in a narrow window around the midgame
 * estimate that widens on failure: proving one score is far cheaper than a full window.
 * Exact scores are always even, so (g - 2, g + 2) asks exactly "is it g?". */
static int root_aspiration(Worker *worker, const RootMove *move, int depth, int guess)
{
    int delta = 2 * EVAL_DISC;
    int center = 2 * EVAL_DISC * (int)lround((double)guess / (2 * EVAL_DISC));
    int low = center - delta, high = center + delta;
    for (;;) {
        int value = root_child(worker, move, depth, true, low, high);
        if (worker->solver.stopped)
            return value;
        if (value <= low && low > -SCORE_INFINITE) {
            high = low + 1;
            delta *= 2;
            low = value - delta < -SCORE_INFINITE ? -SCORE_INFINITE : value - delta;
        } else if (value >= high && high < SCORE_INFINITE) {
            low = high - 1;
            delta *= 2;
            high = value + delta > SCORE_INFINITE ? SCORE_INFINITE : value + delta;
        } else {
            return value;
        }
    }
}

static bool root_iteration(Worker *worker, RootMove *moves, int count, int depth, bool exact,
                           int lines)
{
    int alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
    for (int i = 0; i < count; ++i) {
        int value;
        if (i == 0 && exact && lines == 1) {
            value = root_aspiration(worker, &moves[i], depth, moves[i].score);
        } else if (i == 0 || lines > 1) {
            value = root_child(worker, &moves[i], depth, exact, -SCORE_INFINITE, beta);
        } else {
            value = root_child(worker, &moves[i], depth, exact, alpha, alpha + 1);
            if (value > alpha && !worker->solver.stopped)
                value = root_child(worker, &moves[i], depth, exact, value, beta);
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

static void collect_pv(Search *search, const Board *board, int first, SearchResult *result)
{
    Board position = *board;
    result->pv_length = 0;
    int move = first;
    while (result->pv_length < SEARCH_MAX_DEPTH && move != MOVE_NONE) {
        if (!board_try_play(&position, move))
            break;
        result->pv[result->pv_length++] = move;
        if (board_is_over(&position))
            break;
        if (!board_can_move(&position)) {
            move = MOVE_PASS;
            continue;
        }
        TtEntry entry;
        move = tt_probe(&search->tt, &position, &entry) ? entry.move : MOVE_NONE;
    }
}

static void fill_result(Worker *worker, const RootMove *moves, int count, int depth, bool exact,
                        int lines, SearchResult *result)
{
    result->move = moves[0].move;
    result->score = moves[0].score;
    result->exact = exact;
    result->depth = depth;
    result->line_count = count < lines ? count : lines;
    for (int i = 0; i < result->line_count; ++i)
        result->lines[i] = (SearchLine){moves[i].move, moves[i].score};
    collect_pv(worker->search, &worker->states[0].board, moves[0].move, result);
}

typedef struct RunShared {
    Search *search;
    const Board *board;
    const SearchLimits *limits;
    atomic_bool run_stop;
    double deadline;
} RunShared;

static void worker_init(Worker *worker, RunShared *shared, int id)
{
    worker->search = shared->search;
    worker->limits = shared->limits;
    worker->model = shared->search->model;
    worker->run_stop = &shared->run_stop;
    worker->id = id;
    Tt *tt = shared->limits->use_tt ? &shared->search->tt : NULL;
    solver_init(&worker->solver, tt, &shared->search->stop);
    worker->solver.stop2 = &shared->run_stop;
    worker->solver.model = worker->model;
    worker->solver.deadline = shared->deadline;
    worker->solver.node_limit = shared->limits->nodes;
    eval_set(&worker->states[0], worker->model, shared->board);
}

/* Root moves in the order the worker starts with; helpers rotate it so that they explore
 * other moves first and leave different results in the shared table. */
static int root_moves(Worker *worker, RootMove *moves)
{
    const Board *board = &worker->states[0].board;
    int count = 0;
    for (uint64_t m = board_legal(board); m; m &= m - 1) {
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

static int presolve_depth(int empties)
{
    int depth = empties - PRESOLVE_MARGIN;
    return depth < 1 ? 1 : depth > PRESOLVE_MAX ? PRESOLVE_MAX : depth;
}

/* Iterative deepening; the main worker (id 0) reports, helpers only fill the table. */
static void worker_run(Worker *worker, SearchResult *result, SearchProgress progress,
                       void *context)
{
    const SearchLimits *limits = worker->limits;
    const Board *board = &worker->states[0].board;
    RootMove moves[MOVE_LIST_CAPACITY];
    int count = root_moves(worker, moves);
    int empties = board_count_empties(board);
    bool exact_wanted = empties <= limits->exact_empties;
    int lines = limits->lines < 1 ? 1 : limits->lines;
    int last_depth = limits->depth < empties ? limits->depth : empties;
    if (exact_wanted) /* a shallow midgame search first orders the moves for the solver */
        last_depth = presolve_depth(empties);
    int start = 1 + (worker->id & 1);
    for (int depth = start; depth <= last_depth; ++depth) {
        if (!root_iteration(worker, moves, count, depth, false, lines))
            return;
        if (worker->id == 0) {
            fill_result(worker, moves, count, depth, false, lines, result);
            result->nodes = worker->solver.nodes;
            if (progress && !exact_wanted)
                progress(context, result);
        }
    }
    if (exact_wanted) {
        if (!root_iteration(worker, moves, count, empties, true, lines))
            return;
        if (worker->id == 0) {
            fill_result(worker, moves, count, empties, true, lines, result);
            result->nodes = worker->solver.nodes;
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
    worker_run(worker, NULL, NULL, NULL);
    return NULL;
}

void search_run(Search *search, const Board *board, const SearchLimits *limits,
                SearchResult *result, SearchProgress progress, void *context)
{
    double start = search_clock();
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
            search_run(search, &passed, limits, &after, NULL, NULL);
            *result = after;
            result->score = -after.score;
            result->move = MOVE_PASS;
            memmove(result->pv + 1, after.pv, sizeof(int) * (size_t)after.pv_length);
            result->pv[0] = MOVE_PASS;
            result->pv_length = after.pv_length + 1;
            result->line_count = 1;
            result->lines[0] = (SearchLine){MOVE_PASS, result->score};
        }
        result->seconds = search_clock() - start;
        return;
    }

    atomic_store(&search->stop, false);
    tt_new_search(&search->tt);
    RunShared shared = {search, board, limits, false,
                        limits->seconds > 0 ? start + limits->seconds : 0.0};
    atomic_init(&shared.run_stop, false);
    int threads = limits->threads < 1 ? 1 : limits->threads > SEARCH_MAX_THREADS
                ? SEARCH_MAX_THREADS : limits->threads;
    Worker *workers = malloc(sizeof(Worker) * (size_t)threads);
    HelperThread helpers[SEARCH_MAX_THREADS];
    if (!workers) /* no memory for the workers: nothing sensible to search with */
        return;
    for (int i = 0; i < threads; ++i)
        worker_init(&workers[i], &shared, i);
    for (int i = 1; i < threads; ++i) {
        helpers[i].worker = &workers[i];
        helpers[i].started = pthread_create(&helpers[i].thread, NULL, helper_main, &workers[i]) == 0;
    }
    /* a fallback so that an interrupted first iteration still names a legal move */
    result->move = __builtin_ctzll(moves);
    result->line_count = 1;
    result->lines[0] = (SearchLine){result->move, 0};
    worker_run(&workers[0], result, progress, context);
    result->stopped = workers[0].solver.stopped;
    atomic_store(&shared.run_stop, true);
    uint64_t nodes = 0;
    for (int i = 1; i < threads; ++i)
        if (helpers[i].started)
            pthread_join(helpers[i].thread, NULL);
    for (int i = 0; i < threads; ++i)
        nodes += workers[i].solver.nodes;
    result->nodes = nodes;
    result->seconds = search_clock() - start;
    free(workers);
}
