/* `octuple --bench`: a fixed workload whose node count shows any change in search
 * behaviour and whose rate shows any change in speed. */
#ifndef OCTUPLE_BENCH_H
#define OCTUPLE_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/search.h"

typedef struct BenchTotals {
    uint64_t nodes;
    double seconds;
} BenchTotals;

/* Searches the fixed positions with `search` (its evaluation and table) on one thread, the
 * table cleared each time, printing one row per position and a total line. */
void bench_run(Search *search, FILE *out, BenchTotals *totals);

#endif
