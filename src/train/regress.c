#include "train/regress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/eval.h"
#include "core/rng.h"

typedef struct FloatModel {
    float *values;         /* model_weight_count entries, weight set by weight set */
    size_t *set_base;      /* first entry of each weight set */
    double *bias;          /* per weight set, discs */
    uint32_t *canonical[MODEL_MAX_SHAPES]; /* per shape: entry -> the entry it shares */
} FloatModel;

/* A tuple that a symmetry maps onto its own squares reads its table in two (or more) digit
 * orders; entries equal under those permutations must hold one value for the evaluation to
 * be symmetric. Training them as one entry (the smallest index of the class) does that. */
static uint32_t *canonical_build(const Shape *shape)
{
    uint32_t *map = malloc(sizeof *map * shape->table_size);
    if (!map)
        return NULL;
    for (int t = 0; t < shape->tuple_count; ++t) {
        const Tuple *tuple = &shape->tuples[t];
        uint8_t perms[TUPLE_MAX_INSTANCES][TUPLE_MAX_SIZE];
        int perm_count = tuple_stabilizer(tuple, perms);
        uint32_t size = tuple_table_size(tuple->size);
        uint32_t base = shape->tuple_offsets[t];
        for (uint32_t index = 0; index < size; ++index) {
            uint32_t smallest = index;
            for (int k = 1; k < perm_count; ++k) {
                uint32_t image = tuple_permute_index(index, perms[k], tuple->size);
                if (image < smallest)
                    smallest = image;
            }
            map[base + index] = base + smallest;
        }
    }
    return map;
}

static void float_model_free(FloatModel *weights)
{
    free(weights->values);
    free(weights->set_base);
    free(weights->bias);
    for (int i = 0; i < MODEL_MAX_SHAPES; ++i)
        free(weights->canonical[i]);
}

/* Held-out games are chosen by a hash of the game number, so the split does not depend on
 * the order positions were loaded in. */
static bool is_test_game(uint32_t game, const RegressOptions *options)
{
    uint64_t state = options->seed ^ ((uint64_t)game * 0x2545f4914f6cdd1dULL);
    return (double)(rng_next(&state) >> 11) * 0x1.0p-53 < options->test_fraction;
}

/* Table entries a position uses, in the model's float layout; returns how many. */
static int active_entries(const Model *model, const FloatModel *weights, const Board *board,
                          int move_number, uint32_t *entries)
{
    EvalState state;
    eval_set(&state, model, board);
    int count = eval_entries(&state, model, entries);
    int set = model->phase.set[move_number];
    const uint32_t *canonical = weights->canonical[model->sets[set].shape];
    size_t base = weights->set_base[set];
    for (int k = 0; k < count; ++k)
        entries[k] = (uint32_t)base + canonical[entries[k]];
    return count;
}

static double predict(const FloatModel *weights, int set, const uint32_t *entries, int count)
{
    double sum = weights->bias[set];
    for (int k = 0; k < count; ++k)
        sum += weights->values[entries[k]];
    return sum;
}

typedef double (*Predictor)(const void *context, const TrainPosition *position);

typedef struct FloatPredictor {
    const Model *model;
    const FloatModel *weights;
} FloatPredictor;

static double predict_float(const void *context, const TrainPosition *position)
{
    const FloatPredictor *predictor = context;
    uint32_t entries[SHAPE_MAX_INSTANCES];
    int count = active_entries(predictor->model, predictor->weights, &position->board,
                               position->move_number, entries);
    return predict(predictor->weights, predictor->model->phase.set[position->move_number],
                   entries, count);
}

/* The finished int16 model, exactly as the engine evaluates. */
static double predict_model(const void *context, const TrainPosition *position)
{
    return (double)eval_board(context, &position->board) / EVAL_DISC;
}

/* Mean squared errors over the training and the held-out games. */
static void measure(Predictor predictor, const void *context, const TrainSet *set,
                    const RegressOptions *options, RegressReport *report)
{
    double train_sum = 0, test_sum = 0;
    double by_move[MODEL_MOVES] = {0};
    memset(report->test_count_by_move, 0, sizeof report->test_count_by_move);
    report->train_positions = report->test_positions = 0;
    for (size_t i = 0; i < set->count; ++i) {
        const TrainPosition *position = &set->positions[i];
        double error = position->target - predictor(context, position);
        if (is_test_game(position->game, options)) {
            test_sum += error * error;
            by_move[position->move_number] += error * error;
            ++report->test_count_by_move[position->move_number];
            ++report->test_positions;
        } else {
            train_sum += error * error;
            ++report->train_positions;
        }
    }
    report->train_loss = report->train_positions ? train_sum / (double)report->train_positions : 0;
    report->test_loss = report->test_positions ? test_sum / (double)report->test_positions : 0;
    for (int m = 0; m < MODEL_MOVES; ++m)
        report->test_loss_by_move[m] = report->test_count_by_move[m]
            ? by_move[m] / (double)report->test_count_by_move[m] : 0;
}

/* Rounds the float weights (discs) into the model's int16 tables with the finest unit that
 * keeps every entry in range. */
static void quantize(Model *model, const FloatModel *weights)
{
    size_t total = model_weight_count(model);
    double largest = 0;
    for (size_t i = 0; i < total; ++i)
        largest = fmax(largest, fabs((double)weights->values[i]));
    int shift = 0;
    while (shift < MODEL_MAX_SHIFT && largest * EVAL_DISC * (double)(1 << (shift + 1)) < 32000)
        ++shift;
    double scale = EVAL_DISC * (double)(1 << shift);
    model->shift = shift;
    for (int s = 0; s < model->set_count; ++s) {
        WeightSet *set = &model->sets[s];
        size_t size = model->shapes[set->shape].table_size;
        const uint32_t *canonical = weights->canonical[set->shape];
        for (size_t i = 0; i < size; ++i)
            set->values[i] = (int16_t)lround(weights->values[weights->set_base[s] + canonical[i]] * scale);
        set->bias = (int32_t)lround(weights->bias[s] * scale);
    }
}

enum { REGRESS_RUNAWAY_LOSS = 64 * 64 };

bool regress_train(Model *model, const TrainSet *set, const RegressOptions *options,
                   RegressReport *report, FILE *log, OctError *error)
{
    if (model->perspective != PERSPECTIVE_INVERSION)
        return error_set(error, "regression trains board-inversion models only");
    FloatModel weights;
    size_t total = model_weight_count(model);
    weights.values = calloc(total, sizeof *weights.values);
    weights.set_base = calloc((size_t)model->set_count, sizeof *weights.set_base);
    weights.bias = calloc((size_t)model->set_count, sizeof *weights.bias);
    /* a position of weight w comes w times in each epoch's shuffled order */
    size_t visits = 0;
    for (size_t i = 0; i < set->count; ++i)
        visits += set->positions[i].weight;
    size_t *order = malloc(sizeof *order * (visits ? visits : 1));
    bool canonical_ok = true;
    for (int i = 0; i < MODEL_MAX_SHAPES; ++i) {
        weights.canonical[i] = i < model->shape_count ? canonical_build(&model->shapes[i]) : NULL;
        canonical_ok = canonical_ok && (i >= model->shape_count || weights.canonical[i]);
    }
    if (!weights.values || !weights.set_base || !weights.bias || !order || !canonical_ok) {
        float_model_free(&weights);
        free(order);
        return error_set(error, "out of memory for %zu weights", total);
    }
    for (int s = 1; s < model->set_count; ++s)
        weights.set_base[s] = weights.set_base[s - 1] + model->shapes[model->sets[s - 1].shape].table_size;

    size_t train_count = 0;
    for (size_t i = 0; i < set->count; ++i)
        if (!is_test_game(set->positions[i].game, options))
            for (int k = 0; k < set->positions[i].weight; ++k)
                order[train_count++] = i;

    uint64_t random = options->seed;
    uint32_t entries[SHAPE_MAX_INSTANCES];
    for (int epoch = 0; epoch < options->epochs; ++epoch) {
        for (size_t i = train_count; i > 1; --i) { /* Fisher-Yates */
            size_t j = (size_t)(rng_next(&random) % i);
            size_t t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        /* the step shrinks over the last epochs to settle the noisy per-sample updates; a
         * single epoch runs at the rate given */
        double rate = options->rate * (epoch < options->epochs / 2 || options->epochs == 1
                      ? 1.0 : 1.0 / (1 + 2.0 * (epoch - options->epochs / 2 + 1)));
        double squares = 0;
        for (size_t i = 0; i < train_count; ++i) {
            const TrainPosition *position = &set->positions[order[i]];
            int weight_set = model->phase.set[position->move_number];
            int count = active_entries(model, &weights, &position->board, position->move_number, entries);
            double miss = position->target - predict(&weights, weight_set, entries, count);
            double delta = rate * miss;
            squares += miss * miss;
            if (!isfinite(delta)) { /* a step too large for the shape: say so, save nothing */
                float_model_free(&weights);
                free(order);
                return error_set(error, "the fit diverged in epoch %d; try a smaller --rate "
                                 "than %g", epoch + 1, options->rate);
            }
            for (int k = 0; k < count; ++k)
                weights.values[entries[k]] += (float)delta;
            weights.bias[weight_set] += delta / 16;
        }
        /* answering 0 everywhere errs by at most 64 discs: a fit that errs more on average
         * has run away, even while its numbers stay finite */
        double mean = train_count ? squares / (double)train_count : 0;
        if (!(mean <= REGRESS_RUNAWAY_LOSS)) {
            float_model_free(&weights);
            free(order);
            return error_set(error, "the fit diverged in epoch %d (mean squared error %.3g "
                             "discs^2, more than answering 0 everywhere); try a smaller --rate "
                             "than %g", epoch + 1, mean, options->rate);
        }
        if (log) {
            FloatPredictor predictor = {model, &weights};
            measure(predict_float, &predictor, set, options, report);
            if (report->test_positions)
                fprintf(log, "epoch %d: rate %.5f, train loss %.3f, test loss %.3f\n",
                        epoch + 1, rate, report->train_loss, report->test_loss);
            else
                fprintf(log, "epoch %d: rate %.5f, train loss %.3f\n", epoch + 1, rate,
                        report->train_loss);
            fflush(log);
        }
    }
    quantize(model, &weights);
    measure(predict_model, model, set, options, report);
    float_model_free(&weights);
    free(order);
    return true;
}
