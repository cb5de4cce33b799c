/* The searches behind an opening book: each stale entry gets the best move that leaves the
 * book (the book's own moves excluded from the root) and its value, from a midgame search
 * of the book's depth with the given network; then the values are negamaxed again. */
#ifndef OCTUPLE_BOOK_EVAL_H
#define OCTUPLE_BOOK_EVAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/book.h"
#include "core/error.h"
#include "core/model.h"

enum {
    BOOK_EVAL_HASH_MB = 8,     /* each thread's table, cleared before every position */
    BOOK_EVAL_EXACT_EMPTIES = 18 /* positions this close to the end are solved instead */
};

/* Called now and then (from one thread at a time) with the entries done so far. */
typedef void (*BookEvalProgress)(void *context, size_t done, size_t total);

/* Evaluates every stale entry on `threads` threads, then runs book_negamax. Each position
 * is searched from an empty table, so the book does not depend on the thread count. An
 * interrupted evaluation (`stop` raised, may be NULL) leaves the rest stale and returns
 * false with the error set; what was evaluated stays. */
bool book_evaluate(Book *book, const Model *model, int threads, const atomic_bool *stop,
                   BookEvalProgress progress, void *context, OctError *error);

#endif
