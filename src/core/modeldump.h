/* A readable report of a model: header, shapes, phase table, weight statistics. */
#ifndef OCTUPLE_MODELDUMP_H
#define OCTUPLE_MODELDUMP_H

#include <stdio.h>

#include "core/model.h"

void model_dump(FILE *file, const Model *model);

#endif
