#include "core/book_eval.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/eval.h"
#include "core/pool.h"
#include "core/search.h"

enum { PROGRESS_EVERY = 256 };

typedef struct EvalRun {
    BookEntry **work;
    size_t total;
    int depth;
    const Model *model;
    const atomic_bool *stop;
    atomic_size_t next, done;
    atomic_bool failed;
    pthread_mutex_t report_lock;
    BookEvalProgress progress;
    void *context;
    const Book *book;
} EvalRun;

static int8_t clamp_discs(int score)
{
    long discs = lround((double)score / EVAL_DISC);
    return (int8_t)(discs < -64 ? -64 : discs > 64 ? 64 : discs);
}

/* One entry: its deviation from a search with the book's moves left out of the root. */
static bool evaluate_entry(const Book *book, Search *search, int depth, BookEntry *entry)
{
    Board board = {entry->player, entry->opponent};
    if (board_is_over(&board)) {
        entry->leaf = (int8_t)board_final_score(&board);
        entry->leaf_move = MOVE_NONE;
        entry->depth = BOOK_DEPTH_OVER;
        return true;
    }
    bool pass;
    uint64_t outside = book_outside_moves(book, entry, &pass);
    uint64_t legal = board_legal(&board);
    entry->depth = (uint8_t)depth;
    if (legal ? !outside : !pass) { /* every move stays in the book */
        entry->leaf = BOOK_NO_LEAF;
        entry->leaf_move = MOVE_NONE;
        return true;
    }
    SearchLimits limits = search_default_limits();
    limits.depth = depth;
    limits.exact_empties = BOOK_EVAL_EXACT_EMPTIES;
    limits.exclude = legal & ~outside;
    tt_clear(&search->tt);
    search_reset_stop(search);
    SearchResult result;
    search_run(search, &board, &limits, &result, NULL, NULL);
    if (result.move == MOVE_NONE) { /* no memory for the search's workers: try another time */
        entry->depth = BOOK_DEPTH_STALE;
        return false;
    }
    entry->leaf = clamp_discs(result.score);
    entry->leaf_move = (uint8_t)result.move;
    return true;
}

static void eval_worker(void *argument, int index)
{
    (void)index;
    EvalRun *run = argument;
    Search search;
    OctError error;
    if (!search_init(&search, BOOK_EVAL_HASH_MB, &error)) {
        atomic_store(&run->failed, true);
        return;
    }
    search_set_model(&search, run->model);
    for (size_t i; (i = atomic_fetch_add(&run->next, 1)) < run->total;) {
        if (run->stop && atomic_load(run->stop))
            break;
        if (!evaluate_entry(run->book, &search, run->depth, run->work[i])) {
            atomic_store(&run->failed, true);
            continue;
        }
        size_t done = atomic_fetch_add(&run->done, 1) + 1;
        if (run->progress && (done % PROGRESS_EVERY == 0 || done == run->total)) {
            pthread_mutex_lock(&run->report_lock);
            run->progress(run->context, done, run->total);
            pthread_mutex_unlock(&run->report_lock);
        }
    }
    search_free(&search);
}

bool book_evaluate(Book *book, const Model *model, int threads, const atomic_bool *stop,
                   BookEvalProgress progress, void *context, OctError *error)
{
    size_t total = book_stale_count(book);
    BookEntry **work = malloc(sizeof *work * (total ? total : 1));
    if (!work)
        return error_set(error, "out of memory for %zu book positions", total);
    book_stale_entries(book, work, total);
    EvalRun run = {.work = work, .total = total, .depth = book_depth(book), .model = model,
                   .stop = stop, .progress = progress, .context = context, .book = book};
    atomic_init(&run.next, 0);
    atomic_init(&run.done, 0);
    atomic_init(&run.failed, false);
    pthread_mutex_init(&run.report_lock, NULL);
    if (threads < 1)
        threads = 1;
    pool_run(threads, threads, eval_worker, &run);
    pthread_mutex_destroy(&run.report_lock);
    free(work);
    size_t done = atomic_load(&run.done);
    if (!book_negamax(book))
        return error_set(error, "out of memory for the book's values");
    if (atomic_load(&run.failed) && done < total)
        return error_set(error, "out of memory for the book's searches (%zu of %zu positions "
                         "evaluated)", done, total);
    if (done < total)
        return error_set(error, "interrupted: %zu of %zu book positions evaluated", done, total);
    return true;
}
