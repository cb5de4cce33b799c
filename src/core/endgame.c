/* The exact solver. Below a few empties every cycle counts: each of the last four empties
 * has dedicated code without tables or sorting (quadrant parity first); at five and six
 * empties the isolated empties go first; deeper nodes use the transposition table,
 * fastest-first ordering (fewest opponent replies first) and stability cutoffs. */
#include "core/endgame.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/eval.h"
#include "core/movegen.h"
#include "core/stability.h"
#include "core/timing.h"

enum {
    ENDGAME_SORT_EMPTIES = 6,  /* above this: sorting, stability */
    ENDGAME_LEAF_STABILITY_MARGIN = 12, /* discs, see solve_list */
    /* From this to ENDGAME_TT_EMPTIES: the solver's own small table (LocalSlot). */
    ENDGAME_LOCAL_EMPTIES = 7,
    ENDGAME_TT_EMPTIES = 11,    /* from this: the shared transposition table */
    /* from this: enhanced transposition cutoffs; the first size whose children the shared
     * table holds. With the children's buckets requested before the first was read (then
     * by prefetches), FForum #40-#48 took 944 M nodes and 24.8-26.3 s from 11 against 983 M
     * and 27.3-27.7 s from 14 (before the local table, when the shared one started at 10
     * empties). */
    ENDGAME_ETC_EMPTIES = ENDGAME_TT_EMPTIES + 1,
    /* from this to ENDGAME_TT_EMPTIES: enhanced cutoffs against the local table, each child's
     * slot read as the move is rated (see order_moves) */
    ENDGAME_LOCAL_ETC_EMPTIES = ENDGAME_LOCAL_EMPTIES + 1,
    LOCAL_BITS = 13,           /* 8,192 slots of 32 bytes: half of a 512 KB L2 cache */
    ENDGAME_SHALLOW_EMPTIES = 14,  /* from this: order by a search of depth */
    ENDGAME_SHALLOW_STEP = 2,      /* 1 + (empties - ENDGAME_SHALLOW_EMPTIES) / this */
    ENDGAME_SHALLOW_FULL = 18,     /* below this: one ply less (0 is a static evaluation) */
    ENDGAME_SHALLOW_DEEPER = 20,   /* from this: one ply more */
    ENDGAME_SHALLOW_MAX = 10,      /* but no deeper than this */
    SHALLOW_WEIGHT = 8,        /* order units per disc of the shallow score */
    CORNER_STABILITY_WEIGHT = 6, /* order units per disc of stability_corners */
    /* in the ordering searches: units per reply, against 1 per disc of stability_corners.
     * FForum #40-#48 640 M nodes against 655 M, #49-#52 2.19 G against 2.35 G, with
     * corner stability there too; mobility alone ordered them before */
    SHALLOW_MOBILITY_WEIGHT = 4,
    SHALLOW_MARGIN = 16,       /* discs below alpha where the ordering stops being exact */
    SHALLOW_INF = 30000,       /* above any evaluation, and within the table's 16 bits */
    SCORE_INF = 127,
    STOP_CHECK_INTERVAL = 4096, /* nodes between two looks at the stop flag */
    MOVE_LIST_SIZE = 64
};

#define X_AND_C 0x42c300000000c342ULL
#define QUADRANT_A1 0x000000000f0f0f0fULL

/* The `legal` argument of the node functions when the caller does not know the mover's
 * moves: every square, which no real set of moves is (a move needs an empty square). */
#define LEGAL_UNKNOWN (~0ULL)

/* The last empties are tried corners first, X-squares last, within each group the leaf
 * solvers take first (odd quadrants; isolated empties at five and six empties) and the
 * rest: FForum #40-#48 1.8% fewer nodes than in square order. Each class in square order; with
 * AVX-512 (see list_build) the same order as a list of the 64 squares. */
#if defined(__AVX512VBMI2__) && defined(__AVX512BITALG__)
static const uint8_t list_order[64] __attribute__((aligned(64))) = {
    0, 7, 56, 63,                                          /* corners */
    2, 3, 4, 5, 16, 23, 24, 31, 32, 39, 40, 47, 58, 59, 60, 61, /* edges away from them */
    10, 11, 12, 13, 17, 18, 19, 20, 21, 22, 25, 26, 27, 28, 29, 30, 33, 34, 35, 36, 37, 38,
    41, 42, 43, 44, 45, 46, 50, 51, 52, 53,                /* the centre, less the X-squares */
    1, 6, 8, 15, 48, 55, 57, 62,                           /* C-squares */
    9, 14, 49, 54                                          /* X-squares */
};
#else
static const uint64_t square_classes[5] = {
    0x8100000000000081ULL, /* corners */
    0x3c0081818181003cULL, /* edges away from the corners */
    0x003c7e7e7e7e3c00ULL & ~0x0042000000004200ULL, /* the centre, less the X-squares */
    0x4281000000008142ULL, /* C-squares */
    0x0042000000004200ULL  /* X-squares */
};
#endif

static const uint64_t quadrants[4] = {
    QUADRANT_A1, QUADRANT_A1 << 4, QUADRANT_A1 << 32, QUADRANT_A1 << 36
};

bool solver_should_stop(Solver *solver)
{
    solver->next_check = solver->nodes + solver->check_interval;
    if (solver->node_total) {
        atomic_fetch_add_explicit(solver->node_total, solver->nodes - solver->published,
                                  memory_order_relaxed);
        solver->published = solver->nodes;
    }
    if (solver->on_check)
        solver->on_check(solver->check_context);
    if ((solver->stop && atomic_load_explicit(solver->stop, memory_order_relaxed))
        || (solver->stop2 && atomic_load_explicit(solver->stop2, memory_order_relaxed))
        || (solver->abort && atomic_load_explicit(solver->abort, memory_order_relaxed))
        || (solver->node_limit && solver->nodes >= solver->node_limit)
        || (solver->deadline > 0 && monotonic_seconds() >= solver->deadline))
        solver->stopped = true;
    return solver->stopped;
}

void solver_init(Solver *solver, Tt *tt, const atomic_bool *stop)
{
    solver->tt = tt;
    solver->stop = stop;
    solver->stop2 = NULL;
    solver->abort = NULL;
    solver->model = NULL;
    solver->deadline = 0;
    solver->node_limit = 0;
    solver->nodes = 0;
    solver->next_check = 0;
    solver->check_interval = STOP_CHECK_INTERVAL;
    solver->stopped = false;
    solver->level = TT_LEVEL_FULL;
    solver->probcut = NULL;
    solver->local = NULL;
    solver->node_total = NULL;
    solver->published = 0;
    solver->on_check = NULL;
    solver->check_context = NULL;
}

/* The local table. Below ENDGAME_TT_EMPTIES the shared table's probes wait for main memory
 * longer than the subtrees they spare take to search; a table this small stays in the
 * core's own cache. Direct-mapped, always replaced, whole positions checked. Against the
 * shared table from 10 empties and none below, side by side: FForum #40-#48 578.5 M nodes
 * and 17.5-18.0 s against 678.5 M and 20.2-20.3 s; FForum 40-59 930 s against 1,006 s. */
struct LocalSlot {
    uint64_t player, opponent;
    int8_t lower, upper;
    uint8_t move, level;
    uint8_t unused[12]; /* 32 bytes: two slots to a cache line, none across two */
};

bool solver_local_alloc(Solver *solver)
{
    size_t size = sizeof(LocalSlot) << LOCAL_BITS;
    solver->local = aligned_alloc(64, size);
    if (!solver->local)
        return false;
    memset(solver->local, 0, size); /* level 0 with no discs: matches no position */
    return true;
}

void solver_local_free(Solver *solver)
{
    free(solver->local);
    solver->local = NULL;
}

static inline LocalSlot *local_slot(const Solver *solver, uint64_t player, uint64_t opponent)
{
    return &solver->local[tt_hash(player, opponent) >> (64 - LOCAL_BITS)];
}

static inline int popcount(uint64_t x)
{
    return __builtin_popcountll(x);
}

/* Final score with empties going to the winner, from `player`'s view. */
static inline int final_score(uint64_t player, uint64_t opponent)
{
    int p = popcount(player), o = popcount(opponent);
    int diff = p - o;
    int empties = 64 - p - o;
    return diff > 0 ? diff + empties : diff < 0 ? diff - empties : 0;
}

/* Squares of the quadrants holding an odd number of empties. */
static inline uint64_t odd_quadrants(uint64_t empty)
{
    uint64_t odd = 0;
    for (int q = 0; q < 4; ++q) /* without branches: the parities follow no pattern */
        odd |= quadrants[q] & -(uint64_t)(popcount(empty & quadrants[q]) & 1);
    return odd;
}

static int solve_last1(Solver *solver, uint64_t player, uint64_t opponent, int square)
{
    ++solver->nodes;
    int own = popcount(player);
    int flipped = movegen_count_last_flips(player, square);
    if (flipped)
        return 2 * (own + flipped) - 62;
    flipped = movegen_count_last_flips(opponent, square);
    if (flipped)
        return 2 * (own - flipped) - 64;
    int diff = 2 * own - 63; /* 63 discs: never a draw */
    return diff > 0 ? diff + 1 : diff - 1;
}

static int solve_last2(Solver *solver, uint64_t player, uint64_t opponent, int alpha, int beta,
                       int a, int b)
{
    ++solver->nodes;
    int best = -SCORE_INF;
    uint64_t flips = movegen_flips(player, opponent, a);
    if (flips) {
        best = -solve_last1(solver, opponent ^ flips, player ^ flips ^ (1ULL << a), b);
        if (best >= beta)
            return best;
    }
    flips = movegen_flips(player, opponent, b);
    if (flips) {
        int value = -solve_last1(solver, opponent ^ flips, player ^ flips ^ (1ULL << b), a);
        if (value > best)
            best = value;
    }
    if (best != -SCORE_INF)
        return best;
    if (movegen_flips(opponent, player, a) || movegen_flips(opponent, player, b))
        return -solve_last2(solver, opponent, player, -beta, -alpha, a, b);
    return final_score(player, opponent);
}

/* The squares of a leaf node, packed one per byte (the first in the low byte): taking one
 * out is a few shifts, where an array had to be copied for every child. */
static inline int list_square(uint64_t list, int i)
{
    return (int)(list >> (8 * i)) & 0xff;
}

static inline uint64_t list_remove(uint64_t list, int i)
{
    uint64_t low = (1ULL << (8 * i)) - 1;
    return (list & low) | ((list >> 8) & ~low);
}

/* The quadrant of a square, as a mask: a move there flips the parity of all of it. Bit 2
 * of the square is its column half (a shift by 4), bit 5 its row half (a shift by 32). */
static inline uint64_t quadrant_mask(int square)
{
    return QUADRANT_A1 << (square & 36);
}

/* A leaf move's value against the node's best and window: true when it cuts. */
static inline bool leaf_take(int value, int *alpha, int beta, int *best)
{
    if (value > *best) {
        *best = value;
        if (value >= beta)
            return true;
        if (value > *alpha)
            *alpha = value;
    }
    return false;
}

/* The stable-disc cap of the leaves from 4 empties on, only with alpha well above the bound
 * the opponent's disc count allows: true, with the bound in `cut`, when it fails low;
 * otherwise it may lower `beta`. FForum #40-#48: 711 M nodes and 20.1-20.8 s against 944 M
 * and 22.5 s without; 707 M and 21.1 s from any alpha, 636 M and 21.1 s with 3 empties too. */
static inline bool leaf_stability_cut(uint64_t player, uint64_t opponent, int alpha, int *beta,
                                      int *cut)
{
    int cap = stability_cap(player, opponent, alpha, ENDGAME_LEAF_STABILITY_MARGIN);
    if (cap <= alpha) {
        *cut = cap;
        return true;
    }
    if (cap < *beta)
        *beta = cap;
    return false;
}

/* One move of solve_last3: `square`, then the other two in their list order. */
static inline bool last3_move(Solver *solver, uint64_t player, uint64_t opponent, int *alpha,
                              int beta, int *best, int square, int b, int c)
{
    uint64_t flips = movegen_flips(player, opponent, square);
    if (!flips)
        return false;
    int value = -solve_last2(solver, opponent ^ flips, player ^ flips ^ (1ULL << square), -beta,
                             -*alpha, b, c);
    return leaf_take(value, alpha, beta, best);
}

/* Three empties, `s0 s1 s2` in list order. Their quadrants hold 3, 2 + 1 or 1 + 1 + 1 of
 * them, so either all three are in odd quadrants or just one is: that one goes first, in
 * the order solve_list's two passes would give, without its loops. */
static int solve_last3(Solver *solver, uint64_t player, uint64_t opponent, int alpha, int beta,
                       int s0, int s1, int s2, uint64_t odd, bool passed)
{
    ++solver->nodes;
    int best = -SCORE_INF;
    bool odd0 = (odd >> s0) & 1, odd1 = (odd >> s1) & 1;
    if (odd0) { /* all three odd, or s0 alone: list order */
        if (last3_move(solver, player, opponent, &alpha, beta, &best, s0, s1, s2)
            || last3_move(solver, player, opponent, &alpha, beta, &best, s1, s0, s2)
            || last3_move(solver, player, opponent, &alpha, beta, &best, s2, s0, s1))
            return best;
    } else if (odd1) {
        if (last3_move(solver, player, opponent, &alpha, beta, &best, s1, s0, s2)
            || last3_move(solver, player, opponent, &alpha, beta, &best, s0, s1, s2)
            || last3_move(solver, player, opponent, &alpha, beta, &best, s2, s0, s1))
            return best;
    } else {
        if (last3_move(solver, player, opponent, &alpha, beta, &best, s2, s0, s1)
            || last3_move(solver, player, opponent, &alpha, beta, &best, s0, s1, s2)
            || last3_move(solver, player, opponent, &alpha, beta, &best, s1, s0, s2))
            return best;
    }
    if (best != -SCORE_INF)
        return best;
    if (passed)
        return final_score(player, opponent);
    return -solve_last3(solver, opponent, player, -beta, -alpha, s0, s1, s2, odd, true);
}

/* One move of solve_last4: `square`, leaving `rest` (three squares, packed in list order). */
static inline bool last4_move(Solver *solver, uint64_t player, uint64_t opponent, int *alpha,
                              int beta, int *best, int square, uint64_t rest, uint64_t odd)
{
    uint64_t flips = movegen_flips(player, opponent, square);
    if (!flips)
        return false;
    int value = -solve_last3(solver, opponent ^ flips, player ^ flips ^ (1ULL << square), -beta,
                             -*alpha, list_square(rest, 0), list_square(rest, 1),
                             list_square(rest, 2), odd ^ quadrant_mask(square), false);
    return leaf_take(value, alpha, beta, best);
}

/* Four empties, packed in `list`: the squares of odd quadrants first, each class in list
 * order, as solve_list would take them, but with the order settled once instead of in two
 * passes over the list. */
static int solve_last4(Solver *solver, uint64_t player, uint64_t opponent, int alpha, int beta,
                       uint64_t list, uint64_t odd, bool passed)
{
    ++solver->nodes;
    int cut;
    if (leaf_stability_cut(player, opponent, alpha, &beta, &cut))
        return cut;
    int order[4], n = 0;
    for (int i = 0; i < 4; ++i)
        if ((odd >> list_square(list, i)) & 1)
            order[n++] = i;
    for (int i = 0; i < 4; ++i)
        if (!((odd >> list_square(list, i)) & 1))
            order[n++] = i;
    int best = -SCORE_INF;
    for (int k = 0; k < 4; ++k) {
        int i = order[k];
        if (last4_move(solver, player, opponent, &alpha, beta, &best, list_square(list, i),
                       list_remove(list, i), odd))
            return best;
    }
    if (best != -SCORE_INF)
        return best;
    if (passed)
        return final_score(player, opponent);
    return -solve_last4(solver, opponent, player, -beta, -alpha, list, odd, true);
}

/* The empty squares none of whose eight neighbours is empty: each is a region of one
 * square, odd in the strictest sense, where a move leaves the opponent no reply in that
 * region. */
static inline uint64_t isolated_empties(uint64_t empty)
{
    uint64_t side = ((empty << 1) & 0xfefefefefefefefeULL)   /* not into column a */
                  | ((empty >> 1) & 0x7f7f7f7f7f7f7f7fULL);  /* not into column h */
    uint64_t row = empty | side;
    return empty & ~(side | (row << 8) | (row >> 8));
}

/* 5 .. ENDGAME_SORT_EMPTIES empties: the isolated empties first, then the others, each in
 * list order. Against the odd quadrants first (which the solvers of four and three empties
 * still use), FForum #40-#48 took 523.3 M nodes instead of 556.6 M and `make solvebench`
 * 1,330.2 M instead of 1,411.6 M; isolated empties first and then the odd quadrants (three
 * passes) 527.8 M. `odd` holds the squares of the quadrants with an odd number of empties,
 * for the children of four empties; a move flips its quadrant, which spares counting the
 * empties again at every node. `legal` holds the mover's legal moves when the parent's
 * ordering worked them out (LEGAL_UNKNOWN otherwise): the other squares need no flips. */
static int solve_list(Solver *solver, uint64_t player, uint64_t opponent, int alpha, int beta,
                      uint64_t list, int count, uint64_t odd, bool passed, uint64_t legal)
{
    ++solver->nodes;
    int cut;
    if (leaf_stability_cut(player, opponent, alpha, &beta, &cut))
        return cut;
    int best = -SCORE_INF;
    uint64_t isolated = isolated_empties(~(player | opponent));
    for (int pass = 0; pass < 2; ++pass) {
        uint64_t wanted = (pass == 0 ? isolated : ~isolated) & legal;
        for (int i = 0; i < count; ++i) {
            int square = list_square(list, i);
            if (!((wanted >> square) & 1))
                continue;
            uint64_t flips = movegen_flips(player, opponent, square);
            if (!flips)
                continue;
            uint64_t rest = list_remove(list, i);
            uint64_t next_player = opponent ^ flips;
            uint64_t next_opponent = player ^ flips ^ (1ULL << square);
            int value = count == 5
                ? -solve_last4(solver, next_player, next_opponent, -beta, -alpha, rest,
                               odd ^ quadrant_mask(square), false)
                : -solve_list(solver, next_player, next_opponent, -beta, -alpha, rest, count - 1,
                              odd ^ quadrant_mask(square), false, LEGAL_UNKNOWN);
            if (leaf_take(value, &alpha, beta, &best))
                return best;
        }
    }
    if (best != -SCORE_INF)
        return best;
    if (passed)
        return final_score(player, opponent);
    return -solve_list(solver, opponent, player, -beta, -alpha, list, count, odd, true,
                       LEGAL_UNKNOWN);
}

/* 24 bytes instead of 32 (four ints around the bit sets, three bytes of padding): a node's
 * list and stack frame touch fewer cache lines. The same nodes; FForum #40-#48 13.43-13.69 s
 * against 13.67-13.80 s over four alternated pairs, #49-#52 46.4-46.5 s against 47.1-47.5 s
 * over two, on the Zen 5 host (doc/solver-notes.md, "The thirtieth round"). `base` is a
 * rating before any ordering search: a few thousand units at most. */
typedef struct MoveItem {
    uint64_t flips;
    uint64_t replies; /* the opponent's legal moves after this one: the child's moves */
    int32_t order;
    int16_t base;   /* the order before the ordering search */
    uint8_t square;
    bool bound; /* `order` holds the ordering search's bound, not its score */
} MoveItem;
_Static_assert(sizeof(MoveItem) == 24, "MoveItem packs into 24 bytes");

static int deep_search(Solver *solver, uint64_t player, uint64_t opponent, int alpha, int beta,
                       bool passed, uint64_t legal);
static int deep_search_leaf_parent(Solver *solver, uint64_t player, uint64_t opponent, int alpha,
                                   int beta, bool passed, uint64_t legal);

/* The empty squares packed for solve_list, by class (corners first, X-squares last). With
 * AVX-512 the empty bits are gathered in class order (bit shuffle) and the squares they
 * select are packed in one step (byte compress), without a loop over the classes. */
static inline uint64_t list_build(uint64_t empty)
{
#if defined(__AVX512VBMI2__) && defined(__AVX512BITALG__)
    __m512i order = _mm512_load_si512((const void *)list_order);
    __mmask64 selected = _mm512_bitshuffle_epi64_mask(_mm512_set1_epi64((long long)empty), order);
    __m512i packed = _mm512_maskz_compress_epi8(selected, order);
    return (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(packed));
#else
    uint64_t list = 0;
    int n = 0;
    for (int c = 0; c < 5; ++c)
        for (uint64_t e = empty & square_classes[c]; e; e &= e - 1)
            list |= (uint64_t)__builtin_ctzll(e) << (8 * n++);
    return list;
#endif
}

/* The position of `square` in a packed list that holds it: the lowest byte equal to it. */
static inline int list_index(uint64_t list, int square)
{
    uint64_t x = list ^ (0x0101010101010101ULL * (uint64_t)square);
    uint64_t zero = (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL;
    return __builtin_ctzll(zero) >> 3;
}

/* `legal`: the mover's legal moves, or LEGAL_UNKNOWN (see deep_node). */
static int search_empties(Solver *solver, uint64_t player, uint64_t opponent, int alpha, int beta,
                          uint64_t legal)
{
    uint64_t empty = ~(player | opponent);
    int count = popcount(empty);
    if (count == ENDGAME_SORT_EMPTIES + 1)
        return deep_search_leaf_parent(solver, player, opponent, alpha, beta, false, legal);
    if (count > ENDGAME_SORT_EMPTIES)
        return deep_search(solver, player, opponent, alpha, beta, false, legal);
    uint64_t list = list_build(empty);
    switch (count) {
    case 0:
        ++solver->nodes;
        return final_score(player, opponent);
    case 1:
        return solve_last1(solver, player, opponent, list_square(list, 0));
    case 2:
        return solve_last2(solver, player, opponent, alpha, beta, list_square(list, 0),
                           list_square(list, 1));
    case 3:
        return solve_last3(solver, player, opponent, alpha, beta, list_square(list, 0),
                           list_square(list, 1), list_square(list, 2), odd_quadrants(empty),
                           false);
    case 4:
        return solve_last4(solver, player, opponent, alpha, beta, list, odd_quadrants(empty),
                           false);
    default:
        return solve_list(solver, player, opponent, alpha, beta, list, count,
                          odd_quadrants(empty), false, legal);
    }
}

/* A child of a node with ENDGAME_SORT_EMPTIES + 1 empties takes that node's packed list
 * and parity (`leaf`), less the square played, rather than building its own from the
 * board; any other child goes through search_empties. */
static inline int search_child(Solver *solver, uint64_t player, uint64_t opponent, int alpha,
                               int beta, bool leaf, uint64_t list, uint64_t odd, uint64_t legal)
{
    if (leaf)
        return solve_list(solver, player, opponent, alpha, beta, list, ENDGAME_SORT_EMPTIES,
                          odd, false, legal);
    return search_empties(solver, player, opponent, alpha, beta, legal);
}

static void moves_sort(MoveItem *moves, int count)
{
    for (int i = 1; i < count; ++i) {
        MoveItem item = moves[i];
        int j = i;
        while (j > 0 && moves[j - 1].order < item.order) {
            moves[j] = moves[j - 1];
            --j;
        }
        moves[j] = item;
    }
}

/* Brings the best-ordered of list[i..count) to position i, keeping the others in order (as
 * the full sort would): a cut node mostly searches one or two moves, so picking them one
 * at a time is cheaper than sorting them all. */
static inline void moves_select(MoveItem *list, int i, int count)
{
    int best = i;
    for (int j = i + 1; j < count; ++j)
        if (list[j].order > list[best].order)
            best = j;
    if (best != i) {
        MoveItem item = list[best];
        memmove(&list[i + 1], &list[i], sizeof(MoveItem) * (size_t)(best - i));
        list[i] = item;
    }
}

/* Alpha-beta over the evaluation to a small depth, for move ordering only. It shares the
 * table with the exact search (midgame-depth entries), so deeper nodes find their moves.
 * The evaluation follows the moves incrementally: a leaf then costs a few vector additions
 * for the squares that changed instead of a rebuild from every disc. */
static int shallow_search(Solver *solver, const EvalState *state, int depth, int alpha, int beta)
{
    if (++solver->nodes >= solver->next_check)
        solver_should_stop(solver);
    if (solver->stopped) /* the caller drops what it was ordering or cutting */
        return 0;
    if (depth == 0)
        return eval_score(state, solver->model);
    uint64_t player = state->board.player, opponent = state->board.opponent;
    uint64_t moves = movegen_moves(player, opponent);
    if (!moves) {
        if (!movegen_moves(opponent, player))
            return final_score(player, opponent) * EVAL_DISC;
        EvalState passed;
        eval_copy(&passed, state);
        eval_pass(&passed);
        return -shallow_search(solver, &passed, depth, -beta, -alpha);
    }
    Tt *tt = depth >= 2 ? solver->tt : NULL;
    int tt_move = MOVE_NONE;
    TtEntry entry;
    if (tt && tt_probe(tt, &state->board, &entry)) {
        tt_move = entry.move;
        if (entry.depth >= depth && entry.depth < TT_DEPTH_EXACT) {
            if (entry.lower >= beta)
                return entry.lower;
            if (entry.upper <= alpha)
                return entry.upper;
        }
    }
    MoveItem list[MOVE_LIST_SIZE];
    int count = 0;
    for (; moves; moves &= moves - 1) {
        int square = __builtin_ctzll(moves);
        uint64_t flips = movegen_flips(player, opponent, square);
        uint64_t replies = movegen_moves(opponent ^ flips, player ^ flips ^ (1ULL << square));
        int order = square == tt_move ? 1 << 20
                  : -SHALLOW_MOBILITY_WEIGHT
                        * (popcount(replies) + popcount(replies & STABILITY_CORNERS))
                    + stability_corners(player ^ flips ^ (1ULL << square));
        list[count++] = (MoveItem){.flips = flips, .replies = replies, .order = order, .base = 0,
                                   .square = (uint8_t)square, .bound = false};
    }
    int original_alpha = alpha;
    int best = -SHALLOW_INF;
    int best_move = MOVE_NONE;
    EvalState child;
    for (int i = 0; i < count; ++i) {
        moves_select(list, i, count);
        if (i == 0)
            best_move = list[0].square;
        eval_copy(&child, state);
        eval_play(&child, solver->model, list[i].square, list[i].flips);
        int value = -shallow_search(solver, &child, depth - 1, -beta, -alpha);
        if (value > best) {
            best = value;
            best_move = list[i].square;
            if (best >= beta)
                break;
            if (best > alpha)
                alpha = best;
        }
    }
    if (tt)
        tt_store_level(tt, &state->board, depth, TT_LEVEL_DRAW_ZERO,
                       best > original_alpha ? best : -SHALLOW_INF,
                       best < beta ? best : SHALLOW_INF, best_move);
    return best;
}

/* Notes `square` as a move a table entry proves unable to raise alpha: its child's value is
 * at most `bound` (the parent's view), and the node takes that bound instead of searching
 * it. Such a move is worth nothing to a node that cuts or raises alpha, and a node that fails
 * low needs only an upper bound of every move. */
static inline void useless_add(uint64_t *useless, int8_t *bounds, int square, int bound)
{
    *useless |= 1ULL << square;
    bounds[square] = (int8_t)bound;
}

/* Enhanced transposition cutoff: true, with the bound in `cut`, when the table already
 * proves some child bad enough for the opponent to end the node. With `useless`, the moves
 * whose children it proves good enough for the opponent to keep the node at or below
 * `alpha` are noted there with their bounds (useless_add), so that the node searches none
 * of them. */
static bool etc_cut(const Solver *solver, uint64_t player, uint64_t opponent, uint64_t moves,
                    int empties, int alpha, int beta, int *cut, uint64_t *useless,
                    int8_t *bounds)
{
    /* every child's bucket is worked out before the first is read, so the reads depend on
     * no probe's outcome and the core overlaps their waits on main memory. An explicit
     * prefetch of each bucket here was 1-3% slower on the Zen 3 host (doc/solver-notes.md,
     * "The seventeenth round"): the out-of-order core already issues these loads together */
    Board children[MOVE_LIST_SIZE];
    const TtSlot *buckets[MOVE_LIST_SIZE];
    int count = 0;
    for (uint64_t m = moves; m; m &= m - 1) {
        int square = __builtin_ctzll(m);
        uint64_t flips = movegen_flips(player, opponent, square);
        children[count] = (Board){opponent ^ flips, player ^ flips ^ (1ULL << square)};
        buckets[count] = tt_bucket(solver->tt, &children[count]);
        ++count;
    }
    for (int i = 0; i < count; ++i) {
        TtEntry known;
        if (tt_probe_bucket(buckets[i], &children[i], &known)
            && known.depth >= TT_DEPTH_EXACT + empties - 1 && known.level >= solver->level) {
            if (-known.upper >= beta) {
                *cut = -known.upper;
                return true;
            }
            if (useless && -known.lower <= alpha) /* the square played: the one filled */
                useless_add(useless, bounds,
                            __builtin_ctzll((children[i].player | children[i].opponent)
                                            ^ (player | opponent)),
                            -known.lower);
        }
    }
    return false;
}

/* The child score (its side's view) from which a move counts as bad enough, SHALLOW_MARGIN
 * discs below alpha, whatever its exact ordering score (see order_moves). */
static inline int ordering_ceiling(int alpha)
{
    return alpha > -SCORE_INF ? (SHALLOW_MARGIN - alpha) * EVAL_DISC : SHALLOW_INF;
}

/* The depth of the ordering searches at a node with `empties` empties (see order_moves):
 * 0 (each child's static evaluation) at 14-15 empties, 1 at 16-17, 3 at 18-19, 5 at 20-21,
 * then one more every two empties up to ENDGAME_SHALLOW_MAX. */
static inline int ordering_depth(int empties)
{
    int depth = 1 + (empties - ENDGAME_SHALLOW_EMPTIES) / ENDGAME_SHALLOW_STEP
              + (empties >= ENDGAME_SHALLOW_DEEPER) - (empties < ENDGAME_SHALLOW_FULL);
    return depth > ENDGAME_SHALLOW_MAX ? ENDGAME_SHALLOW_MAX : depth;
}

/* Whether a child's local-table slot (requested earlier) holds that child, searched at least
 * as exactly as the solver searches now: its bounds then settle or drop the move. */
static inline bool local_child_known(const Solver *solver, const LocalSlot *slot,
                                     uint64_t player, uint64_t opponent)
{
    return slot->player == player && slot->opponent == opponent && slot->level >= solver->level;
}

/* Rates the moves, the higher the better: fewest opponent replies, stable discs at the
 * corners, corners, parity (`odd`: the squares of the quadrants with an odd number of
 * empties), and far from the end a shallow search. The corner stability
 * term took FForum #40-#48 from 711 M to 655 M nodes and #49-#52 from 2.60 G to 2.35 G.
 * The shallow search only needs to be exact for moves that may reach alpha (-SCORE_INF:
 * every move); the others come last on a bound, which is cheaper to prove.
 * The shallow searches find the best-rated move the way a principal variation search finds
 * the best move: the move rated best without them gets a full search, every other one only a
 * null window asking whether it beats the best so far, and a full search when it does. A cut
 * node mostly needs only that first move; the moves that kept a bound (`bound`) are scored
 * in full by order_refine once the first move fails to cut. FForum 40-59 on one thread:
 * 812.5 s and 23.84 G nodes against 855.5 s and 24.46 G with every move searched in full
 * (side by side; #55 381.5 s against 421.3 s, but #56 1.06 G nodes against 0.77 G).
 * With `cut` (nodes of ENDGAME_LOCAL_ETC_EMPTIES to ENDGAME_TT_EMPTIES empties) each child's
 * local-table slot is requested as the move is rated and read once all are rated: an
 * enhanced transposition cutoff that needs no flips of its own. When one proves a cut this
 * returns -1, with the bound in `cut` and the move in list[0].square; the moves whose slots
 * prove them unable to raise alpha leave the list for `useless` (useless_add). The dev set (FForum
 * #40-#52, #57, #58) took 5.26 G nodes and 199.1 s against 5.43 G and 206.3 s, side by side;
 * the same probes as a pass of their own before the table's move, with their own flips, saved
 * as many nodes and no time. Each slot read as its move was rated waited on the outer caches
 * (perf annotate: 29% of deep_search's samples on that one compare). Inline, so that the
 * copy in the 7-empty nodes (see deep_node) drops the parts that never run there. */
static inline __attribute__((always_inline)) int
order_moves(Solver *solver, uint64_t player, uint64_t opponent, uint64_t moves, MoveItem *list,
            int empties, uint64_t odd, int alpha, int beta, int *cut, uint64_t *useless,
            int8_t *bounds)
{
    int count = 0;
    const LocalSlot *slots[MOVE_LIST_SIZE];
    bool evaluate = solver->model && empties >= ENDGAME_SHALLOW_EMPTIES;
    EvalState state, child;
    int depth = 0;
    int ceiling = SHALLOW_INF; /* a child's score at or above this is a bad enough move */
    if (evaluate) {
        /* far from the end a shallow search orders better than mobility alone, and the
         * deeper the subtree, the deeper an ordering search pays for itself: FForum
         * #40-#48 took 1,495 M nodes ordering from 20 empties at depth 1 + (e - 20) / 6,
         * and 1,049 M (25 s against 34 s) with 1 + (e - 14) / 2 up to 6. The ply more
         * from 20 empties saves 5% more (#50: 1.70 G nodes against 1.84 G); a cap of 8
         * rather than 6 saved a fifth of #53 (4.39 G against 4.98 G), and 10 rather
         * than 8 two thirds of #56 (1.50 G, 69 s against 4.24 G, 165 s). Two plies more
         * from 20 empties instead of one cost #56 7% more. Nearer the end a ply less
         * pays: below 18 empties (a static evaluation at 14-15, one ply at 16-17), FForum
         * 40-59 took 1.03 G ordering and 19.29 G exact nodes against 1.50 G and 20.05 G,
         * 8-9% faster (doc/solver-notes.md, "The fourteenth round"). */
        depth = ordering_depth(empties);
        eval_set(&state, solver->model, &(Board){player, opponent});
        ceiling = ordering_ceiling(alpha);
    }
    for (uint64_t m = moves; m; m &= m - 1) {
        int square = __builtin_ctzll(m);
        uint64_t flips = movegen_flips(player, opponent, square);
        uint64_t next_player = opponent ^ flips;
        uint64_t next_opponent = player ^ flips ^ (1ULL << square);
        if (cut) {
            slots[count] = local_slot(solver, next_player, next_opponent);
            __builtin_prefetch(slots[count]);
        }
        uint64_t replies = movegen_moves(next_player, next_opponent);
        int order = -32 * (popcount(replies) + popcount(replies & STABILITY_CORNERS))
                  + CORNER_STABILITY_WEIGHT * stability_corners(next_opponent);
        if ((STABILITY_CORNERS >> square) & 1)
            order += 8;
        if ((X_AND_C >> square) & 1)
            order -= 4;
        if ((odd >> square) & 1)
            order += 2;
        list[count++] = (MoveItem){.flips = flips, .replies = replies, .order = order,
                                   .base = (int16_t)order, .square = (uint8_t)square,
                                   .bound = false};
    }
    if (cut) { /* the slots had the ratings' time to arrive */
        bool dropped = false;
        for (int i = 0; i < count; ++i) {
            const LocalSlot *slot = slots[i];
            if (!local_child_known(solver, slot, opponent ^ list[i].flips,
                                   player ^ list[i].flips ^ (1ULL << list[i].square)))
                continue;
            if (-slot->upper >= beta) {
                *cut = -slot->upper;
                list[0].square = list[i].square;
                return -1;
            }
            if (-slot->lower <= alpha) {
                useless_add(useless, bounds, list[i].square, -slot->lower);
                dropped = true;
            }
        }
        if (dropped) {
            int kept = 0;
            for (int i = 0; i < count; ++i)
                if (!((*useless >> list[i].square) & 1))
                    list[kept++] = list[i];
            count = kept;
        }
    }
    if (evaluate) {
        moves_sort(list, count);
        int best_key = 0;
        for (int i = 0; i < count; ++i) {
            eval_copy(&child, &state);
            eval_play(&child, solver->model, list[i].square, list[i].flips);
            int value;
            if (depth == 0) { /* a static evaluation: any window gives the same value */
                value = shallow_search(solver, &child, 0, -SHALLOW_INF, SHALLOW_INF);
            } else if (i == 0) {
                value = shallow_search(solver, &child, depth, -SHALLOW_INF, ceiling);
            } else {
                /* the child's value below which this move's key beats the best so far */
                long need = (long)(list[i].order - best_key) * EVAL_DISC / SHALLOW_WEIGHT;
                int limit = need >= ceiling ? ceiling : need <= -SHALLOW_INF + 1
                          ? -SHALLOW_INF + 1 : (int)need;
                value = shallow_search(solver, &child, depth, limit - 1, limit);
                if (value < limit)
                    value = shallow_search(solver, &child, depth, -SHALLOW_INF, limit);
                else
                    list[i].bound = true;
            }
            list[i].order -= value * SHALLOW_WEIGHT / EVAL_DISC;
            if (i == 0 || list[i].order > best_key)
                best_key = list[i].order;
        }
    }
    return count;
}

/* After the first move failed to cut: the moves whose ordering search gave only a bound get
 * their full score, as order_moves would have given them. Without this the moves after the
 * first went by their bounds: FForum #40-#48 670 M nodes against 572 M. */
static void order_refine(Solver *solver, uint64_t player, uint64_t opponent, MoveItem *list,
                         int from, int count, int alpha)
{
    int depth = ordering_depth(popcount(~(player | opponent)));
    int ceiling = ordering_ceiling(alpha);
    EvalState state, child;
    bool ready = false;
    for (int i = from; i < count; ++i) {
        if (!list[i].bound)
            continue;
        if (!ready) {
            eval_set(&state, solver->model, &(Board){player, opponent});
            ready = true;
        }
        eval_copy(&child, &state);
        eval_play(&child, solver->model, list[i].square, list[i].flips);
        list[i].order = list[i].base
                      - shallow_search(solver, &child, depth, -SHALLOW_INF, ceiling)
                        * SHALLOW_WEIGHT / EVAL_DISC;
        list[i].bound = false;
    }
}

/* A probability cut, in a selective solve only (solver->level below TT_LEVEL_FULL): true,
 * with the bound in `cut`, when a shallow search predicts a score beyond the window by t
 * sigmas. A static evaluation first filters out the nodes whose shallow search would only
 * waste time. */
static bool probcut_try(Solver *solver, uint64_t player, uint64_t opponent, int empties,
                        int alpha, int beta, int *cut)
{
    if (solver->level >= TT_LEVEL_FULL || empties < PROBCUT_MIN_EMPTIES || !solver->model
        || !solver->probcut || !solver->probcut->enabled)
        return false;
    int depth = PROBCUT_DEPTH;
    double width = probcut_t(solver->level) * probcut_sigma(solver->probcut, empties, depth);
    EvalState state;
    eval_set(&state, solver->model, &(Board){player, opponent});
    int static_value = eval_score(&state, solver->model);
    int high = (int)((beta + width) * EVAL_DISC + 0.5);
    if (beta + width < SCORE_MAX && static_value >= beta * EVAL_DISC) {
        if (shallow_search(solver, &state, depth, high - 1, high) >= high) {
            *cut = beta;
            return true;
        }
    }
    int low = (int)((alpha - width) * EVAL_DISC - 0.5);
    if (alpha - width > -SCORE_MAX && static_value <= alpha * EVAL_DISC) {
        if (shallow_search(solver, &state, depth, low, low + 1) <= low) {
            *cut = alpha;
            return true;
        }
    }
    return false;
}

int endgame_shallow(Solver *solver, const Board *board, int depth, int alpha, int beta)
{
    EvalState state;
    eval_set(&state, solver->model, board);
    return shallow_search(solver, &state, depth, alpha, beta);
}

bool endgame_probcut(Solver *solver, const Board *board, int alpha, int beta, int *cut)
{
    int empties = popcount(~(board->player | board->opponent));
    return probcut_try(solver, board->player, board->opponent, empties, alpha, beta, cut);
}

bool endgame_etc(const Solver *solver, const Board *board, uint64_t moves, int beta, int *cut)
{
    int empties = popcount(~(board->player | board->opponent));
    return solver->tt && moves
        && etc_cut(solver, board->player, board->opponent, moves, empties, -SCORE_INF, beta, cut,
                   NULL, NULL);
}

int endgame_order(Solver *solver, const Board *board, uint64_t moves, int alpha, int *squares)
{
    MoveItem list[MOVE_LIST_SIZE];
    uint64_t empty = ~(board->player | board->opponent);
    int count = order_moves(solver, board->player, board->opponent, moves, list, popcount(empty),
                            odd_quadrants(empty), alpha, 0, NULL, NULL, NULL);
    /* the threads share out every move after the first: all of them need their scores */
    order_refine(solver, board->player, board->opponent, list, 0, count, alpha);
    moves_sort(list, count);
    for (int i = 0; i < count; ++i)
        squares[i] = list[i].square;
    return count;
}

/* A node of ENDGAME_SORT_EMPTIES + 1 or more empties. `leaf_parent` (a constant in each of the
 * two copies below) marks the nodes of ENDGAME_SORT_EMPTIES + 1 empties, the most numerous:
 * their copy knows its count, so the table, cutoff and ordering-search branches fold away. */
static inline __attribute__((always_inline)) int
deep_node(Solver *solver, uint64_t player, uint64_t opponent, int alpha, int beta, bool passed,
          const bool leaf_parent, uint64_t legal)
{
    if (++solver->nodes >= solver->next_check)
        solver_should_stop(solver);
    if (solver->stopped)
        return 0;

    Board board = {player, opponent};
    int empties = leaf_parent ? ENDGAME_SORT_EMPTIES + 1 : popcount(~(player | opponent));
    Tt *tt = empties >= ENDGAME_TT_EMPTIES ? solver->tt : NULL;
    if (tt) /* the bucket loads while the moves and the stable discs are worked out */
        tt_prefetch(tt, &board);
    /* so does the local slot: it often waits on the outer caches, and its load was 30% of
     * this function's samples (perf annotate, FForum #40-#48) */
    LocalSlot *local = NULL;
    if (solver->local && empties >= ENDGAME_LOCAL_EMPTIES && empties <= ENDGAME_TT_EMPTIES) {
        local = local_slot(solver, player, opponent);
        __builtin_prefetch(local);
    }

    /* the parent's ordering counted this node's moves (its replies) and hands them down
     * (`legal`), which spares a move generation at most nodes and, at the leaves of 6
     * empties, the flips of the squares that are no move: the same nodes, 2.0% fewer
     * instructions on FForum #40-#42, #40-#48 2.4-4.4% faster in six side-by-side pairs,
     * the whole of FForum 40-59 within the host's noise (doc/solver-notes.md, "The
     * nineteenth round") */
    uint64_t moves = legal != LEGAL_UNKNOWN ? legal : movegen_moves(player, opponent);
    if (!moves) {
        if (passed)
            return final_score(player, opponent);
        return leaf_parent
            ? -deep_search_leaf_parent(solver, opponent, player, -beta, -alpha, true,
                                       LEGAL_UNKNOWN)
            : -deep_search(solver, opponent, player, -beta, -alpha, true, LEGAL_UNKNOWN);
    }

    int tt_move = MOVE_NONE;
    int known;
    bool local_hit = false;
    if (local) {
        if (local->player == player && local->opponent == opponent) {
            local_hit = true; /* the shared table has nothing better: skip its probe */
            tt_move = local->move;
            if (local->level >= solver->level
                && tt_bounds_apply(local->lower, local->upper, &alpha, &beta, &known))
                return known;
        }
    }
    /* stability: the opponent's stable discs cap our score. After the local slot, whose
     * entries mostly end the node when they match (a scan saved; the same nodes, the dev set
     * 191.9 s against 194.1 s and 191.3 s against 192.8 s with the cores swapped), before the
     * shared table's probe, whose wait the scan overlaps */
    int cap = stability_cap(player, opponent, alpha, 0);
    if (cap <= alpha)
        return cap;
    if (cap < beta)
        beta = cap;

    TtEntry entry;
    if (tt && !local_hit && tt_probe(tt, &board, &entry)) {
        tt_move = entry.move;
        /* a midgame or more selective entry: its move is only a hint */
        if (entry.depth >= TT_DEPTH_EXACT + empties && entry.level >= solver->level
            && tt_bounds_apply(entry.lower, entry.upper, &alpha, &beta, &known))
            return known;
    }

    int cut;
    uint64_t useless = 0; /* moves never searched: see useless_add */
    int8_t useless_bounds[64];
    if (probcut_try(solver, player, opponent, empties, alpha, beta, &cut))
        return cut;

    if (tt && empties >= ENDGAME_ETC_EMPTIES
        && etc_cut(solver, player, opponent, moves, empties, alpha, beta, &cut, &useless,
                   useless_bounds))
        return cut;

    /* the children are leaves: see search_child */
    const bool leaf_children = leaf_parent;
    uint64_t leaf_list = 0, leaf_odd = 0;
    if (leaf_children) {
        uint64_t empty = ~(player | opponent);
        leaf_list = list_build(empty);
        leaf_odd = odd_quadrants(empty);
    }

    int original_alpha = alpha;
    int best = -SCORE_INF;
    int best_move = MOVE_NONE;
    uint64_t rest = moves & ~useless;
    if (tt_move < 64 && ((rest >> tt_move) & 1)) {
        /* the table's move first, before the others are ordered: when it cuts, as it
         * mostly does, their ordering searches and table probes are never paid for */
        uint64_t flips = movegen_flips(player, opponent, tt_move);
        best = -search_empties(solver, opponent ^ flips, player ^ flips ^ (1ULL << tt_move),
                               -beta, -alpha, LEGAL_UNKNOWN);
        if (solver->stopped)
            return 0;
        best_move = tt_move;
        rest &= ~(1ULL << tt_move);
        if (best > alpha)
            alpha = best;
    }
    if (rest && best < beta) {
        MoveItem list[MOVE_LIST_SIZE];
        bool local_etc = local && empties >= ENDGAME_LOCAL_ETC_EMPTIES;
        /* a 7-empty node has its parities already (leaf_odd) */
        uint64_t odd = leaf_children ? leaf_odd : odd_quadrants(~(player | opponent));
        int count = order_moves(solver, player, opponent, rest, list, empties, odd, alpha, beta,
                                local_etc ? &cut : NULL, &useless, useless_bounds);
        if (count < 0) { /* a child's local entry cut: see order_moves */
            best = cut;
            best_move = list[0].square;
            count = 0;
        }
        for (int i = 0; i < count; ++i) {
            if (!leaf_parent && i == 1) /* nothing to do where order_moves left no bound */
                order_refine(solver, player, opponent, list, 1, count, alpha);
            moves_select(list, i, count);
            if (best_move == MOVE_NONE)
                best_move = list[0].square;
            uint64_t flips = list[i].flips;
            int square = list[i].square;
            uint64_t next_player = opponent ^ flips;
            uint64_t next_opponent = player ^ flips ^ (1ULL << square);
            uint64_t child_list = 0, child_odd = 0;
            if (leaf_children) {
                child_list = list_remove(leaf_list, list_index(leaf_list, square));
                child_odd = leaf_odd ^ quadrant_mask(square);
            }
            int value;
            if (best == -SCORE_INF) {
                value = -search_child(solver, next_player, next_opponent, -beta, -alpha,
                                      leaf_children, child_list, child_odd, list[i].replies);
            } else {
                value = -search_child(solver, next_player, next_opponent, -alpha - 1, -alpha,
                                      leaf_children, child_list, child_odd, list[i].replies);
                if (value > alpha && value < beta)
                    value = -search_child(solver, next_player, next_opponent, -beta, -value,
                                          leaf_children, child_list, child_odd, list[i].replies);
            }
            if (solver->stopped)
                return 0;
            if (value > best) {
                best = value;
                best_move = square;
                if (value >= beta)
                    break;
                if (value > alpha)
                    alpha = value;
            }
        }
    }

    if (best < beta) /* the moves left out by their bounds: a fail-soft upper bound */
        for (uint64_t m = useless; m; m &= m - 1) {
            int square = __builtin_ctzll(m);
            if (useless_bounds[square] > best) {
                best = useless_bounds[square];
                best_move = square;
            }
        }
    int lower = best > original_alpha ? best : -SCORE_MAX;
    int upper = best < beta ? best : SCORE_MAX;
    if (local)
        *local = (LocalSlot){player, opponent, (int8_t)lower, (int8_t)upper,
                             (uint8_t)best_move, (uint8_t)solver->level, {0}};
    if (tt)
        tt_store_level(tt, &board, TT_DEPTH_EXACT + empties, solver->level, lower, upper,
                       best_move);
    return best;
}

static int deep_search(Solver *solver, uint64_t player, uint64_t opponent, int alpha, int beta,
                       bool passed, uint64_t legal)
{
    return deep_node(solver, player, opponent, alpha, beta, passed, false, legal);
}

static int deep_search_leaf_parent(Solver *solver, uint64_t player, uint64_t opponent, int alpha,
                                   int beta, bool passed, uint64_t legal)
{
    return deep_node(solver, player, opponent, alpha, beta, passed, true, legal);
}

int endgame_search(Solver *solver, const Board *board, int alpha, int beta)
{
    return search_empties(solver, board->player, board->opponent, alpha, beta, LEGAL_UNKNOWN);
}

SolveResult endgame_solve(Solver *solver, const Board *board, bool wld)
{
    SolveResult result = {MOVE_NONE, 0};
    int alpha = wld ? -1 : -SCORE_MAX;
    int beta = wld ? 1 : SCORE_MAX;
    uint64_t moves = board_legal(board);
    if (!moves) {
        Board passed = {board->opponent, board->player};
        if (board_legal(&passed) == 0) {
            result.score = board_final_score(board);
            return result;
        }
        result.move = MOVE_PASS;
        result.score = -endgame_search(solver, &passed, -beta, -alpha);
        return result;
    }
    ++solver->nodes;
    int best = -SCORE_INF;
    for (int first = 1; moves; moves &= moves - 1, first = 0) {
        int square = __builtin_ctzll(moves);
        Board next = *board;
        board_play(&next, square);
        int value;
        if (first) {
            value = -endgame_search(solver, &next, -beta, -alpha);
        } else {
            value = -endgame_search(solver, &next, -alpha - 1, -alpha);
            if (value > alpha && value < beta)
                value = -endgame_search(solver, &next, -beta, -value);
        }
        if (solver->stopped)
            break;
        if (value > best) {
            best = value;
            result.move = square;
            if (value > alpha)
                alpha = value;
            if (value >= beta)
                break;
        }
    }
    result.score = best;
    return result;
}
