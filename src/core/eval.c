/* Incremental evaluation: index maintenance and table sums. */
#include "core/eval.h"

#if defined(__AVX512F__) && defined(__AVX512BW__)
#include <immintrin.h>
#endif

static inline int move_number_of(const Board *board)
{
    int number = __builtin_popcountll(board->player | board->opponent) - 4;
    return number < 0 ? 0 : number > MODEL_MOVES - 1 ? MODEL_MOVES - 1 : number;
}

/* uint16 lanes in GCC/Clang vector extensions: 16 per vector where AVX gives 32-byte
 * registers, 8 otherwise (SSE2, NEON), so no build passes vectors wider than its target's
 * registers. A shape's lanes come in blocks of 16, a multiple of both. memcpy loads and
 * stores keep aliasing and alignment rules out of it. */
#if defined(__AVX__)
enum { VECTOR_LANES = 16 };
#else
enum { VECTOR_LANES = 8 };
#endif
typedef uint16_t Lanes __attribute__((vector_size(2 * VECTOR_LANES)));
_Static_assert(SHAPE_LANE_BLOCK % VECTOR_LANES == 0, "blocks hold whole vectors");

static inline Lanes lanes_load(const uint16_t *p)
{
    Lanes v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void lanes_store(uint16_t *p, Lanes v)
{
    memcpy(p, &v, sizeof v);
}

static inline Lanes lanes_sum(const uint16_t *rows, int lanes, uint64_t squares)
{
    Lanes sum = {0};
    for (; squares; squares &= squares - 1)
        sum += lanes_load(rows + __builtin_ctzll(squares) * lanes);
    return sum;
}

/* Rebuilds the indices of the shape for the current move number from the side to move's
 * view (empty index + powers of its discs - powers of the opponent's); the side to move
 * becomes the reference side. */
static void eval_rebuild(EvalState *state, const Model *model, bool black_to_move)
{
    state->reference_to_move = 1;
    state->reference_black = black_to_move;
    if (!model) { /* the disc count needs only the board */
        state->shape = 0;
        state->instance_count = 0;
        return;
    }
    int shape_number = model->phase.shape[state->move_number];
    const Shape *shape = &model->shapes[shape_number];
    uint64_t player = state->board.player, opponent = state->board.opponent;
    int lanes = shape->lane_count;
    for (int b = 0; b < lanes; b += VECTOR_LANES) {
        const uint16_t *rows = shape->square_powers + b;
        Lanes index = lanes_load(shape->empty_indices + b) + lanes_sum(rows, lanes, player)
                    - lanes_sum(rows, lanes, opponent);
        lanes_store(state->index + b, index);
    }
    state->shape = (uint8_t)shape_number;
    state->instance_count = (uint16_t)shape->instance_count;
    state->reference_to_move = 1;
    state->reference_black = black_to_move;
}

void eval_set_color(EvalState *state, const Model *model, const Board *board, Color to_move)
{
    state->board = *board;
    state->move_number = (uint8_t)move_number_of(board);
    eval_rebuild(state, model, to_move == COLOR_BLACK);
}

void eval_set(EvalState *state, const Model *model, const Board *board)
{
    eval_set_color(state, model, board, COLOR_BLACK);
}

static inline bool black_to_move(const EvalState *state)
{
    return state->reference_black == state->reference_to_move;
}

/* The reference side's digit of a square rises by 1 when it takes an empty square and by
 * 2 when it takes an opponent disc; the other side's moves lower it as much. uint16_t
 * wrap-around cancels because every true result is a valid index. */
static inline void move_update(EvalState *state, const Shape *shape, int square, uint64_t flips,
                               bool reference_moved)
{
    int lanes = shape->lane_count;
    for (int b = 0; b < lanes; b += VECTOR_LANES) {
        const uint16_t *rows = shape->square_powers + b;
        Lanes flipped = lanes_sum(rows, lanes, flips);
        Lanes change = lanes_load(rows + square * lanes) + flipped + flipped;
        Lanes index = lanes_load(state->index + b);
        lanes_store(state->index + b, reference_moved ? index + change : index - change);
    }
}

void eval_play(EvalState *state, const Model *model, int square, uint64_t flips)
{
    uint64_t mover = state->board.player ^ (flips | (1ULL << square));
    state->board.player = state->board.opponent ^ flips;
    state->board.opponent = mover;
    bool next_black = !black_to_move(state);
    bool reference_moved = state->reference_to_move;
    if (state->move_number < MODEL_MOVES - 1)
        ++state->move_number;
    if (!model) {
        state->reference_to_move ^= 1;
        return;
    }
    if (model->phase.shape[state->move_number] != state->shape) {
        eval_rebuild(state, model, next_black);
        return;
    }
    move_update(state, &model->shapes[state->shape], square, flips, reference_moved);
    state->reference_to_move ^= 1;
}

void eval_undo(EvalState *state, const Model *model, int square, uint64_t flips)
{
    uint64_t mover = state->board.opponent ^ (flips | (1ULL << square));
    state->board.opponent = state->board.player ^ flips;
    state->board.player = mover;
    bool mover_black = !black_to_move(state);
    if (state->move_number > 0)
        --state->move_number;
    if (!model) {
        state->reference_to_move ^= 1;
        return;
    }
    if (model->phase.shape[state->move_number] != state->shape) {
        eval_rebuild(state, model, mover_black);
        return;
    }
    state->reference_to_move ^= 1;
    /* subtracting what the move added: "the reference side moved" taken the other way */
    move_update(state, &model->shapes[state->shape], square, flips, !state->reference_to_move);
}

void eval_pass(EvalState *state)
{
    uint64_t swap = state->board.player;
    state->board.player = state->board.opponent;
    state->board.opponent = swap;
    state->reference_to_move ^= 1;
}

/* Which view the tables read: inversion reads the side to move, negation reads black. */
static inline bool read_mirrored(const EvalState *state, const Model *model)
{
    if (model->perspective == PERSPECTIVE_INVERSION)
        return !state->reference_to_move;
    return !state->reference_black;
}

int eval_sign(const EvalState *state, const Model *model)
{
    return model->perspective == PERSPECTIVE_NEGATION && !black_to_move(state) ? -1 : 1;
}

int eval_entries(const EvalState *state, const Model *model, uint32_t *entries)
{
    const ShapeInstance *instance = model->shapes[state->shape].instances;
    bool mirror = read_mirrored(state, model);
    for (int k = 0; k < state->instance_count; ++k)
        entries[k] = instance[k].offset
                   + (mirror ? (uint32_t)(instance[k].max_index - state->index[k]) : state->index[k]);
    return state->instance_count;
}

#if defined(__AVX512F__) && defined(__AVX512BW__)
/* The table entries of the instances, summed sixteen reads per gather. Each lane reads 32
 * bits at its 16-bit entry and keeps the low half; the read may run 2 bytes past a set's
 * last entry, which the allocation leaves room for (model.c). Padding lanes are masked. */
static int32_t entries_sum(const Shape *shape, const int16_t *values, const uint16_t *index,
                           int count, bool mirror)
{
    const uint32_t *bases = shape->lane_offsets + (mirror ? shape->lane_count : 0);
    __m512i total = _mm512_setzero_si512();
    for (int b = 0; b < count; b += 16) {
        __mmask16 live = count - b >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (count - b)) - 1);
        __m512i lane_index = _mm512_cvtepu16_epi32(_mm256_load_si256((const __m256i *)(index + b)));
        __m512i base = _mm512_loadu_si512(bases + b);
        __m512i position = mirror ? _mm512_sub_epi32(base, lane_index)
                                  : _mm512_add_epi32(base, lane_index);
        __m512i read = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), live, position,
                                                   values, 2);
        total = _mm512_add_epi32(total, _mm512_srai_epi32(_mm512_slli_epi32(read, 16), 16));
    }
    return _mm512_reduce_add_epi32(total);
}
#else
static int32_t entries_sum(const Shape *shape, const int16_t *values, const uint16_t *index,
                           int count, bool mirror)
{
    const ShapeInstance *instance = shape->instances;
    int32_t sum = 0;
    /* Two loops rather than a select per instance: the hot loop stays one load, one add. */
    if (!mirror) {
        for (int k = 0; k < count; ++k)
            sum += values[instance[k].offset + index[k]];
    } else {
        for (int k = 0; k < count; ++k)
            sum += values[instance[k].offset + instance[k].max_index - index[k]];
    }
    return sum;
}
#endif

int32_t eval_sum(const EvalState *state, const Model *model)
{
    const WeightSet *set = model_weights(model, state->move_number);
    int32_t sum = set->bias + entries_sum(&model->shapes[state->shape], set->values, state->index,
                                          state->instance_count, read_mirrored(state, model));
    return eval_sign(state, model) * sum;
}

int eval_score(const EvalState *state, const Model *model)
{
    if (!model) /* no network: the disc difference, never as large as an exact +-64 */
        return (__builtin_popcountll(state->board.player) - __builtin_popcountll(state->board.opponent))
             * (EVAL_DISC - 1);
    int32_t sum = eval_sum(state, model);
    int shift = model->shift;
    /* round half up; >> of a negative value is arithmetic on every supported compiler */
    int32_t score = (sum + ((1 << shift) >> 1)) >> shift;
    if (score >= EVAL_LIMIT)
        return EVAL_LIMIT - 1;
    if (score <= -EVAL_LIMIT)
        return -EVAL_LIMIT + 1;
    return score;
}

int eval_board(const Model *model, const Board *board)
{
    EvalState state;
    eval_set(&state, model, board);
    return eval_score(&state, model);
}
