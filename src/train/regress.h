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

typedef struct RegressOptions {
    int epochs;
    double rate;           /* step per unit of error, shared by the active weights */
    double test_fraction;  /* games held out for the test loss, 0..0.9 */
    uint64_t seed;         /* shuffling and the split */
} RegressOptions;

typedef struct RegressReport {
    double train_loss;     /* mean squared error in discs^2 after the last epoch */
    double test_loss;
    double test_loss_by_move[MODEL_MOVES];
    size_t test_count_by_move[MODEL_MOVES];
    size_t train_positions;
    size_t test_positions;
} RegressReport;

/* Trains the weights of `model` (its shapes and phase table fixed) and writes them into it
 * as int16 with the largest shift that fits. Progress goes to `log` (may be NULL). */
bool regress_train(Model *model, const TrainSet *set, const RegressOptions *options,
                   RegressReport *report, FILE *log, OctError *error);

#endif
