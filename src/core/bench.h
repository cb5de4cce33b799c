/* `octuple --bench`: a fixed workload whose node count shows any change in search
 * behaviour and whose rate shows any change in speed. */
#ifndef OCTUPLE_BENCH_H
#define OCTUPLE_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/model.h"

typedef struct BenchTotals {
    uint64_t nodes;
    double seconds;
} BenchTotals;

/* Searches the fixed positions with one thread and a cleared table each time, printing one
 * row per position and a total line. Returns false when memory runs out. */
bool bench_run(const Model *model, size_t hash_megabytes, FILE *out, FILE *err,
               BenchTotals *totals);

#endif
