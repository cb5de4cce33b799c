#include "train/regress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/eval.h"
#include "core/rng.h"
#include "core/pool.h"

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
enum { SPLIT_TRAIN, SPLIT_VALIDATION, SPLIT_TEST };

static int split_of(uint32_t game, const RegressOptions *options)
{
    uint64_t state = options->seed ^ ((uint64_t)game * 0x2545f4914f6cdd1dULL);
    double u = (double)(rng_next(&state) >> 11) * 0x1.0p-53;
    return u < options->test_fraction ? SPLIT_TEST
         : options->method == REGRESS_ADAM && u < options->test_fraction
                                                  + options->validation_fraction
         ? SPLIT_VALIDATION : SPLIT_TRAIN;
}

static bool is_test_game(uint32_t game, const RegressOptions *options)
{
    return split_of(game, options) == SPLIT_TEST;
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
    double sums[3] = {0}, by_move[3][MODEL_MOVES] = {{0}};
    size_t counts[3] = {0}, count_by_move[3][MODEL_MOVES] = {{0}};
    for (size_t i = 0; i < set->count; ++i) {
        const TrainPosition *position = &set->positions[i];
        double error = position->target - predictor(context, position);
        int split = split_of(position->game, options);
        sums[split] += error * error;
        by_move[split][position->move_number] += error * error;
        ++count_by_move[split][position->move_number];
        ++counts[split];
    }
    report->train_positions = counts[SPLIT_TRAIN];
    report->test_positions = counts[SPLIT_TEST];
    report->train_loss = counts[SPLIT_TRAIN] ? sums[SPLIT_TRAIN] / (double)counts[SPLIT_TRAIN] : 0;
    report->test_loss = counts[SPLIT_TEST] ? sums[SPLIT_TEST] / (double)counts[SPLIT_TEST] : 0;
    report->validation_loss = counts[SPLIT_VALIDATION]
        ? sums[SPLIT_VALIDATION] / (double)counts[SPLIT_VALIDATION] : 0;
    for (int m = 0; m < MODEL_MOVES; ++m) {
        report->test_count_by_move[m] = count_by_move[SPLIT_TEST][m];
        double *out[3] = {&report->train_loss_by_move[m], &report->validation_loss_by_move[m],
                          &report->test_loss_by_move[m]};
        for (int k = 0; k < 3; ++k)
            *out[k] = count_by_move[k][m] ? by_move[k][m] / (double)count_by_move[k][m] : 0;
    }
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

/* ---- Full-batch Adam ---- */

/* Every position's active entries, found once: the epochs then only add and subtract. */
typedef struct Batch {
    uint32_t *entries;
    size_t *first;  /* position i uses entries[first[i] .. first[i + 1] - 1] */
    uint8_t *split; /* SPLIT_* per position */
} Batch;

typedef struct AdamJob {
    const Model *model;
    const FloatModel *weights;
    const TrainSet *set;
    const Batch *batch;
    int threads;
    int split;          /* the positions measured: SPLIT_TRAIN also computes the gradient */
    double **gradient;  /* per thread, model_weight_count entries */
    double **bias_gradient;
    double *loss;       /* per thread: summed squared error */
    size_t *count;
} AdamJob;

static void adam_job(void *context, int index)
{
    AdamJob *job = context;
    size_t n = job->set->count;
    size_t begin = n * (size_t)index / (size_t)job->threads;
    size_t end = n * (size_t)(index + 1) / (size_t)job->threads;
    double loss = 0;
    size_t count = 0;
    double *gradient = job->split == SPLIT_TRAIN ? job->gradient[index] : NULL;
    double *bias_gradient = gradient ? job->bias_gradient[index] : NULL;
    for (size_t i = begin; i < end; ++i) {
        if (job->batch->split[i] != job->split)
            continue;
        const TrainPosition *position = &job->set->positions[i];
        int weight_set = job->model->phase.set[position->move_number];
        const uint32_t *entries = job->batch->entries + job->batch->first[i];
        int k = (int)(job->batch->first[i + 1] - job->batch->first[i]);
        double miss = predict(job->weights, weight_set, entries, k) - position->target;
        loss += position->weight * miss * miss;
        count += position->weight;
        if (gradient) {
            double g = 2.0 * position->weight * miss;
            for (int e = 0; e < k; ++e)
                gradient[entries[e]] += g;
            bias_gradient[weight_set] += g;
        }
    }
    job->loss[index] = loss;
    job->count[index] = count;
}

static bool batch_build(const Model *model, const FloatModel *weights, const TrainSet *set,
                        const RegressOptions *options, Batch *batch)
{
    batch->first = malloc(sizeof *batch->first * (set->count + 1));
    batch->split = malloc(set->count ? set->count : 1);
    size_t capacity = set->count * 48 + 1, used = 0;
    batch->entries = malloc(sizeof *batch->entries * capacity);
    if (!batch->first || !batch->split || !batch->entries)
        return false;
    uint32_t entries[SHAPE_MAX_INSTANCES];
    for (size_t i = 0; i < set->count; ++i) {
        const TrainPosition *position = &set->positions[i];
        int count = active_entries(model, weights, &position->board, position->move_number,
                                   entries);
        if (used + (size_t)count > capacity) {
            capacity = 2 * capacity + (size_t)count;
            uint32_t *grown = realloc(batch->entries, sizeof *grown * capacity);
            if (!grown)
                return false;
            batch->entries = grown;
        }
        batch->first[i] = used;
        memcpy(batch->entries + used, entries, sizeof *entries * (size_t)count);
        used += (size_t)count;
        batch->split[i] = (uint8_t)split_of(position->game, options);
    }
    batch->first[set->count] = used;
    return true;
}

static void batch_free(Batch *batch)
{
    free(batch->entries);
    free(batch->first);
    free(batch->split);
}

/* One pass over a split: the mean squared error (and, for the training split, the summed
 * gradient in gradient[0] and bias_gradient[0]). */
static double adam_pass(AdamJob *job, int split, size_t total, int set_count)
{
    job->split = split;
    if (split == SPLIT_TRAIN)
        for (int t = 0; t < job->threads; ++t) {
            memset(job->gradient[t], 0, sizeof *job->gradient[t] * total);
            memset(job->bias_gradient[t], 0, sizeof *job->bias_gradient[t] * (size_t)set_count);
        }
    pool_run(job->threads, job->threads, adam_job, job);
    double loss = 0;
    size_t count = 0;
    for (int t = 0; t < job->threads; ++t) {
        loss += job->loss[t];
        count += job->count[t];
        if (split == SPLIT_TRAIN && t > 0) {
            for (size_t i = 0; i < total; ++i)
                job->gradient[0][i] += job->gradient[t][i];
            for (int b = 0; b < set_count; ++b)
                job->bias_gradient[0][b] += job->bias_gradient[t][b];
        }
    }
    return count ? loss / (double)count : 0;
}

/* Minimises sum of squared errors + l2 * sum of squared entries by Adam, every epoch over
 * all training positions; keeps the weights of the best validation loss. */
static bool adam_fit(const Model *model, FloatModel *weights, const TrainSet *set,
                     const RegressOptions *options, RegressReport *report, FILE *log,
                     OctError *error)
{
    size_t total = model_weight_count(model);
    int threads = options->threads < 1 ? 1 : options->threads > 64 ? 64 : options->threads;
    int sets = model->set_count;
    Batch batch = {0};
    double *moments = calloc(2 * total, sizeof *moments);
    double *bias_moments = calloc(2 * (size_t)sets, sizeof *bias_moments);
    float *best = malloc(sizeof *best * total);
    double *best_bias = malloc(sizeof *best_bias * (size_t)sets);
    double *gradient[64] = {0}, *bias_gradient[64] = {0}, loss[64];
    size_t count[64];
    bool ok = moments && bias_moments && best && best_bias
           && batch_build(model, weights, set, options, &batch);
    for (int t = 0; ok && t < threads; ++t) {
        gradient[t] = malloc(sizeof *gradient[t] * total);
        bias_gradient[t] = malloc(sizeof *bias_gradient[t] * (size_t)sets);
        ok = gradient[t] && bias_gradient[t];
    }
    AdamJob job = {model, weights, set, &batch, threads, SPLIT_TRAIN, gradient, bias_gradient,
                   loss, count};
    const double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
    double best_loss = INFINITY;
    int best_epoch = 0, since = 0, halvings = 0;
    double scale = 1; /* halved when the loss stops falling: Adam's fixed step would keep
                         every weight moving by about the step, never settling */
    int patience = options->patience > 0 ? options->patience : 10;
    bool validating = options->validation_fraction > 0;
    for (int epoch = 1; ok && epoch <= options->epochs; ++epoch) {
        double train = adam_pass(&job, SPLIT_TRAIN, total, sets);
        if (!isfinite(train) || train > REGRESS_RUNAWAY_LOSS) {
            ok = error_set(error, "the fit diverged in epoch %d; try a smaller --rate than %g",
                           epoch, options->rate);
            break;
        }
        double step = scale * options->rate * sqrt(1 - pow(beta2, epoch)) / (1 - pow(beta1, epoch));
        for (size_t i = 0; i < total; ++i) {
            double g = gradient[0][i] + 2 * options->l2 * weights->values[i];
            if (g == 0 && weights->values[i] == 0 && moments[2 * i] == 0)
                continue; /* an entry no position uses */
            moments[2 * i] = beta1 * moments[2 * i] + (1 - beta1) * g;
            moments[2 * i + 1] = beta2 * moments[2 * i + 1] + (1 - beta2) * g * g;
            weights->values[i] -= (float)(step * moments[2 * i] / (sqrt(moments[2 * i + 1]) + epsilon));
        }
        for (int b = 0; b < sets; ++b) {
            double g = bias_gradient[0][b];
            bias_moments[2 * b] = beta1 * bias_moments[2 * b] + (1 - beta1) * g;
            bias_moments[2 * b + 1] = beta2 * bias_moments[2 * b + 1] + (1 - beta2) * g * g;
            weights->bias[b] -= step * bias_moments[2 * b] / (sqrt(bias_moments[2 * b + 1]) + epsilon);
        }
        double checked = validating ? adam_pass(&job, SPLIT_VALIDATION, total, sets) : train;
        ++since;
        if (checked < best_loss) {
            best_loss = checked;
            best_epoch = epoch;
            since = 0;
            memcpy(best, weights->values, sizeof *best * total);
            memcpy(best_bias, weights->bias, sizeof *best_bias * (size_t)sets);
        }
        if (log) {
            fprintf(log, "epoch %d: step %.4f, train loss %.3f", epoch, scale * options->rate, train);
            if (validating)
                fprintf(log, ", validation loss %.3f (best %.3f at epoch %d)", checked,
                        best_loss, best_epoch);
            fprintf(log, "\n");
            fflush(log);
        }
        if (since >= patience) { /* a plateau: a smaller step, or the end after four */
            if (++halvings > 4)
                break;
            scale *= 0.5;
            since = 0;
        }
    }
    if (ok && best_epoch) {
        memcpy(weights->values, best, sizeof *best * total);
        memcpy(weights->bias, best_bias, sizeof *best_bias * (size_t)sets);
    }
    report->best_epoch = best_epoch;
    if (!ok && !error->message[0])
        error_set(error, "out of memory for the fit of %zu weights", total);
    for (int t = 0; t < threads; ++t) {
        free(gradient[t]);
        free(bias_gradient[t]);
    }
    batch_free(&batch);
    free(moments);
    free(bias_moments);
    free(best);
    free(best_bias);
    return ok;
}

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
    /* SGD: a position of weight w comes w times in each epoch's shuffled order (Adam weighs
     * the positions in its sums and needs no order) */
    size_t visits = 0;
    for (size_t i = 0; options->method == REGRESS_SGD && i < set->count; ++i)
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

    if (options->method == REGRESS_ADAM) {
        error->message[0] = '\0';
        bool fitted = adam_fit(model, &weights, set, options, report, log, error);
        if (fitted) {
            quantize(model, &weights);
            measure(predict_model, model, set, options, report);
        }
        float_model_free(&weights);
        free(order);
        return fitted;
    }
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
