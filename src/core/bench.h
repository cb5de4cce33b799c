/* `octuple --bench`: a fixed workload whose node count shows any change in search
 * behaviour and whose rate shows any change in speed. */
#ifndef OCTUPLE_BENCH_H
#define OCTUPLE_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/search.h"

enum { BENCH_POSITIONS = 8 /* the fixed positions of the workload */ };

typedef struct BenchTotals {
    uint64_t nodes;
    double seconds;
    uint64_t position_nodes[BENCH_POSITIONS]; /* each searched position's count */
} BenchTotals;

/* Searches the first `positions` (at most BENCH_POSITIONS) of the fixed positions with
 * `search` (its evaluation and table) on one thread, the table cleared each time, printing
 * one row per position and a total line; each position's count goes to `totals`. */
void bench_run(Search *search, int positions, FILE *out, BenchTotals *totals);

#endif
