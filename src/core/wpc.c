/* Weighted piece counters and the SWH baseline. */
#include "core/wpc.h"

#include <stdio.h>

#include "core/eval.h"

enum { WPC_SHIFT = 5 }; /* weight units per engine unit = 2^5; 1.0 = 128 * 32 units */

static const Wpc swh = {{
     1.00, -0.25,  0.10,  0.05,  0.05,  0.10, -0.25,  1.00,
    -0.25, -0.25,  0.01,  0.01,  0.01,  0.01, -0.25, -0.25,
     0.10,  0.01,  0.05,  0.02,  0.02,  0.05,  0.01,  0.10,
     0.05,  0.01,  0.02,  0.01,  0.01,  0.02,  0.01,  0.05,
     0.05,  0.01,  0.02,  0.01,  0.01,  0.02,  0.01,  0.05,
     0.10,  0.01,  0.05,  0.02,  0.02,  0.05,  0.01,  0.10,
    -0.25, -0.25,  0.01,  0.01,  0.01,  0.01, -0.25, -0.25,
     1.00, -0.25,  0.10,  0.05,  0.05,  0.10, -0.25,  1.00,
}};

const Wpc *wpc_swh(void)
{
    return &swh;
}

double wpc_value(const Wpc *wpc, uint64_t black, uint64_t white)
{
    double value = 0;
    for (int square = 0; square < SQUARE_COUNT; ++square)
        value += wpc->weights[square] * (double)((int)(black >> square & 1) - (int)(white >> square & 1));
    return value;
}

double wpc_negation(const Wpc *wpc, const Board *board, Color to_move, Color color)
{
    uint64_t black = to_move == COLOR_BLACK ? board->player : board->opponent;
    uint64_t white = to_move == COLOR_BLACK ? board->opponent : board->player;
    double value = wpc_value(wpc, black, white);
    return color == COLOR_BLACK ? value : -value;
}

double wpc_inversion(const Wpc *wpc, const Board *board, Color to_move, Color color)
{
    /* the evaluating player's discs play the part of black */
    uint64_t own = color == to_move ? board->player : board->opponent;
    uint64_t other = color == to_move ? board->opponent : board->player;
    return wpc_value(wpc, own, other);
}

static long round_half_away(double x)
{
    return x >= 0 ? (long)(x + 0.5) : -(long)(0.5 - x);
}

bool wpc_model(const Wpc *wpc, const char *name, Model **out, OctError *error)
{
    Tuple tuples[SQUARE_COUNT];
    for (int square = 0; square < SQUARE_COUNT; ++square) {
        uint8_t s = (uint8_t)square;
        if (!tuple_explicit(&s, 1, 1, &tuples[square], error))
            return false;
    }
    Shape shape;
    if (!shape_build(&shape, "wpc", tuples, SQUARE_COUNT, error))
        return false;
    PhaseTable phase;
    phase_single(&phase);
    Model *model;
    bool ok = model_create(&shape, 1, &phase, &model, error);
    shape_free(&shape);
    if (!ok)
        return false;
    for (int square = 0; square < SQUARE_COUNT; ++square) {
        long units = round_half_away(wpc->weights[square] * (EVAL_DISC << WPC_SHIFT));
        if (units > 32767 || units < -32767) {
            model_free(model);
            return error_set(error, "WPC weight %g does not fit the int16 encoding",
                             wpc->weights[square]);
        }
        int16_t *table = model->sets[0].values + 3 * square; /* digits: 0 other, 1 empty, 2 own */
        table[0] = (int16_t)-units;
        table[1] = 0;
        table[2] = (int16_t)units;
    }
    snprintf(model->name, sizeof model->name, "%s", name);
    model->shift = WPC_SHIFT;
    model->origin = ORIGIN_WPC;
    *out = model;
    return true;
}
