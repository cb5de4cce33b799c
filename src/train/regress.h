/* Supervised regression of a model on labelled positions (the phase-shape paper's fit):
 * stochastic gradient descent on the squared error between the network's sum and the final
 * disc difference, each weight set trained on the positions of its move numbers. */
#ifndef OCTUPLE_REGRESS_H
#define OCTUPLE_REGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/model.h"
#include "train/trainset.h"

typedef enum RegressMethod {
    REGRESS_SGD = 0,  /* shuffled per-position steps, the rate falling over the last epochs */
    REGRESS_ADAM = 1  /* full-batch Adam on the summed squared error plus an L2 penalty,
                         stopped early on a validation set */
} RegressMethod;

typedef struct RegressOptions {
    int epochs;
    double rate;           /* SGD: step per unit of error; Adam: step size in discs */
    double test_fraction;  /* games held out for the test loss, 0..0.9 */
    uint64_t seed;         /* shuffling and the split */
    RegressMethod method;
    double l2;             /* Adam: penalty l2 * w^2 per entry, against one position's
                              squared error: rare entries stay near 0 */
    double validation_fraction; /* Adam: games kept apart to stop on, besides the test */
    int patience;          /* Adam: epochs without a better validation loss (the training
                              loss without validation) before the step halves; the fit
                              ends at the fifth such plateau or after `epochs` */
    int threads;
} RegressOptions;

typedef struct RegressReport {
    double train_loss;     /* mean squared error in discs^2 after the last epoch */
    double test_loss;
    double test_loss_by_move[MODEL_MOVES];
    size_t test_count_by_move[MODEL_MOVES];
    size_t train_positions;
    size_t test_positions;
    double validation_loss;  /* Adam: the best, whose weights are kept */
    int best_epoch;
    double train_loss_by_move[MODEL_MOVES];
    double validation_loss_by_move[MODEL_MOVES];
} RegressReport;

/* Trains the weights of `model` (its shapes and phase table fixed) and writes them into it
 * as int16 with the largest shift that fits. Progress goes to `log` (may be NULL). */
bool regress_train(Model *model, const TrainSet *set, const RegressOptions *options,
                   RegressReport *report, FILE *log, OctError *error);

#endif
