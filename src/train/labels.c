/* Solving (or searching) sampled game positions into an OBF file of labels. */
#include "train/labels.h"

#include <stdlib.h>
#include <string.h>

#include "core/endgame.h"
#include "core/eval.h"
#include "core/fileio.h"
#include "core/obf.h"
#include "core/rng.h"
#include "core/search.h"
#include "core/timing.h"

/* The first position of the game with `empties` empties where the side to move can move. */
static bool position_at(const Game *game, int empties, Board *board, Color *side)
{
    Board position = game->start;
    Color colour = game->start_side;
    for (int i = 0; i <= game->move_count; ++i) {
        int now = board_count_empties(&position);
        if (now < empties)
            return false;
        if (now == empties && board_can_move(&position)) {
            *board = position;
            *side = colour;
            return true;
        }
        if (i == game->move_count)
            break;
        board_play(&position, game->moves[i]);
        colour = (Color)!colour;
    }
    return false;
}

bool labels_make(const Game *games, size_t count, const LabelOptions *options,
                 const Model *model, const char *path, FILE *log, OctError *error)
{
    /* the options first: nothing is allocated for a run refused */
    if (options->depth > 0 && !model)
        return error_set(error, "labels: a search of depth %d needs a network (--weights)",
                         options->depth);
    for (int k = 0; k < options->empties_count; ++k)
        if (options->depth == 0 && options->empties[k] > LABELS_MAX_EXACT_EMPTIES)
            return error_set(error, "labels: exact solves at %d empties are out of reach (at "
                             "most %d); label by a search (--depth) instead",
                             options->empties[k], LABELS_MAX_EXACT_EMPTIES);
    size_t take = options->limit && options->limit < count ? options->limit : count;
    size_t *order = malloc(sizeof *order * (count ? count : 1));
    size_t capacity = take * (size_t)options->empties_count * 80 + 1;
    char *text = malloc(capacity);
    Search search;
    bool have_search = search_init(&search, options->hash_megabytes, error);
    if (!order || !text || !have_search) {
        free(order);
        free(text);
        if (have_search)
            search_free(&search);
        return have_search ? error_set(error, "labels: out of memory") : false;
    }
    uint64_t state = options->seed;
    rng_shuffle_indices(order, count, &state); /* the sample repeats for a seed */
    /* the engine's own solve: a shallow search first and a window around its estimate
     * prove a score many times faster than a bare full-window solve */
    search_set_model(&search, model);
    SearchLimits limits = search_default_limits();
    limits.exact_empties = 64;
    if (options->depth > 0) {
        limits.depth = options->depth;
        limits.exact_empties = 0; /* the search's own value, exact only where it ends */
    }
    size_t length = 0, written = 0;
    double start = monotonic_seconds();
    bool ok = true;
    for (size_t g = 0; g < take && ok; ++g) {
        for (int k = 0; k < options->empties_count && ok; ++k) {
            ObfPosition position = {0};
            if (!position_at(&games[order[g]], options->empties[k], &position.board,
                             &position.side))
                continue;
            SearchResult result;
            search_run(&search, &position.board, &limits, &result, NULL, NULL);
            position.move_count = 1;
            position.moves[0] = result.move;
            position.scores[0] = result.score / EVAL_DISC;
            char line[OBF_LINE_SIZE];
            ok = obf_format_line(&position, line, sizeof line, error);
            size_t n = strlen(line);
            if (ok && length + n + 2 > capacity)
                ok = error_set(error, "labels: line buffer overflow");
            if (ok) {
                memcpy(text + length, line, n);
                length += n;
                text[length++] = '\n';
                ++written;
            }
        }
        if (log && (g + 1) % 2000 == 0)
            fprintf(log, "%zu games, %zu positions solved, %.0f s\n", g + 1, written,
                    monotonic_seconds() - start), fflush(log);
    }
    if (ok)
        ok = file_write_atomic(path, text, length, error);
    if (ok && log)
        fprintf(log, "wrote %zu positions to %s (%.0f s)\n", written, path, monotonic_seconds() - start);
    free(order);
    free(text);
    search_free(&search);
    return ok;
}
