/* octuple-train book: an opening book built from database games. */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/book.h"
#include "core/book_eval.h"
#include "core/endgame.h"
#include "core/timing.h"
#include "train/train.h"

typedef struct BookProgress {
    double start;
    size_t last_percent;
} BookProgress;

static void book_progress(void *context, size_t done, size_t total)
{
    BookProgress *progress = context;
    size_t percent = total ? done * 100 / total : 100;
    if (percent / 5 == progress->last_percent / 5 && done != total)
        return;
    progress->last_percent = percent;
    double elapsed = monotonic_seconds() - progress->start;
    printf("  %zu of %zu positions searched (%zu%%), %.0f s\n", done, total, percent, elapsed);
    fflush(stdout);
}

/* Raised by Ctrl-C during a book build: the positions searched so far are kept. */
static atomic_bool book_interrupted;

static void book_on_interrupt(int signal_number)
{
    (void)signal_number;
    atomic_store(&book_interrupted, true);
}

int train_book(const TrainArgs *args)
{
    if (!args->out || !args->weights || (!args->logbook && !args->wthor && !args->update)) {
        fprintf(stderr, "octuple-train book: give --weights, --out and --logbook, --wthor "
                        "and/or --update\n");
        return 2;
    }
    if (args->update
        && (train_args_given(args, TRAIN_OPT_PLIES) || train_args_given(args, TRAIN_OPT_DEPTH)
            || train_args_given(args, TRAIN_OPT_MIN_GAMES))) {
        fprintf(stderr, "octuple-train book: --update keeps the book's own --plies and --depth "
                        "and all of its positions: leave out --plies, --depth and --min-games\n");
        return 2;
    }
    if (!train_output_ready("book", args->out, false))
        return 1;
    Model *model = train_weights_load(args->weights);
    if (!model)
        return 1;
    OctError error;
    Game *games = NULL;
    size_t count = 0;
    double start = monotonic_seconds();
    Book *book = NULL;
    bool ok;
    if (args->update) {
        ok = book_load(args->update, &book, &error);
        if (ok)
            printf("%s: %zu positions of the first %d moves, depth %d, %zu to search\n",
                   args->update, book_count(book), book_plies(book), book_depth(book),
                   book_stale_count(book));
    } else {
        book = book_create(args->book_plies, args->book_depth);
        ok = book != NULL;
        if (!ok)
            error_set(&error, "out of memory");
    }
    if (ok && (args->logbook || args->wthor)) {
        ok = train_collect_games(args, &games, &count, &error);
        if (ok && count == 0 && !args->update) {
            char data[1024];
            train_data_name(args, false, data, sizeof data);
            ok = error_set(&error, "the data (%s) holds no finished game", data);
        }
        size_t before = book_count(book);
        for (size_t i = 0; ok && i < count; ++i)
            ok = book_add_game(book, &games[i], NULL, &error);
        if (ok) {
            size_t all = book_count(book);
            /* an update keeps what the book had; a new book keeps the well-trodden lines */
            if (!args->update)
                book_prune(book, (uint32_t)args->book_min_games);
            printf("%zu games: %zu positions after at most %d moves (%zu new), %zu kept "
                   "(%.1f s)\n", count, all, book_plies(book), all - before, book_count(book),
                   monotonic_seconds() - start);
        }
    }
    if (ok) {
        fflush(stdout);
        atomic_store(&book_interrupted, false);
        struct sigaction action = {0}, previous;
        action.sa_handler = book_on_interrupt;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, &previous);
        BookProgress progress = {monotonic_seconds(), 0};
        ok = book_evaluate(book, model, args->threads, &book_interrupted, book_progress,
                           &progress, &error);
        sigaction(SIGINT, &previous, NULL);
        if (!ok && atomic_load(&book_interrupted)) {
            /* what was searched is kept beside --out, never over it: an unfinished book
             * there would replace a good one, and the engine would play its unsearched
             * positions. --update finishes it */
            OctError save_error;
            char partial[4096];
            snprintf(partial, sizeof partial, "%s.partial", args->out);
            if (strlen(args->out) + 9 > sizeof partial)
                fprintf(stderr, "octuple-train: %s; the path is too long to keep the book so "
                        "far\n", error.message);
            else if (book_save(book, partial, &save_error))
                fprintf(stderr, "octuple-train: %s; the book so far is in %s, and %s is "
                        "unchanged (octuple-train book --weights %s --update %s --out %s "
                        "finishes it)\n", error.message, partial, args->out, args->weights,
                        partial, args->out);
            else
                fprintf(stderr, "octuple-train: %s; %s\n", error.message, save_error.message);
            free(games);
            book_free(book);
            model_free(model);
            return 130;
        }
    }
    if (ok)
        ok = book_save(book, args->out, &error);
    if (ok) {
        Board board;
        board_init(&board);
        BookMove moves[BOOK_MAX_MOVES];
        int n = book_moves(book, &board, moves);
        printf("the start: %+d discs (black to move)\nwrote %s: %zu positions, depth %d, %.0f s\n",
               n ? moves[0].value : 0, args->out, book_count(book), book_depth(book),
               monotonic_seconds() - start);
    }
    free(games);
    book_free(book);
    model_free(model);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 1;
    }
    return 0;
}
