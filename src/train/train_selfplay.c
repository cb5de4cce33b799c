/* octuple-train's data generation: selfplay (games into a positions file) and merge
 * (positions files into one, without repeated positions). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/evalerror.h"
#include "core/fileio.h"
#include "core/obf.h"
#include "train/posfile.h"
#include "train/selfplay.h"
#include "train/train.h"

int train_selfplay(const TrainArgs *args)
{
    if (!args->out || !args->weights) {
        fprintf(stderr, "octuple-train selfplay: give --weights and --out\n");
        return 2;
    }
    OctError error;
    if (!selfplay_check(&args->selfplay, &error)) {
        fprintf(stderr, "octuple-train selfplay: %s\n", error.message);
        return 2;
    }
    if (!train_output_ready("selfplay", args->out, false))
        return 1;
    Model *model = train_weights_load(args->weights);
    if (!model)
        return 1;
    bool ok = selfplay_run(&args->selfplay, model, args->out, stderr, &error);
    model_free(model);
    if (!ok) {
        fprintf(stderr, "octuple-train selfplay: %s\n", error.message);
        return 1;
    }
    return 0;
}

/* Splits "A,B,C" into at most `most` names, pointing into `buffer`; -1 when a name is
 * empty or there are too many. */
int train_split_list(const char *text, char *buffer, size_t size, const char **names, int most)
{
    if (strlen(text) >= size)
        return -1;
    strcpy(buffer, text);
    int count = 0;
    for (char *p = buffer;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (!*p || count == most)
            return -1;
        names[count++] = p;
        if (!comma)
            return count;
        p = comma + 1;
    }
}

typedef struct GameRef {
    uint64_t seed, number;
    int file;
    size_t game;
} GameRef;

static int game_order(const void *a, const void *b)
{
    const GameRef *x = a, *y = b;
    if (x->seed != y->seed)
        return x->seed < y->seed ? -1 : 1;
    if (x->number != y->number)
        return x->number < y->number ? -1 : 1;
    return x->file - y->file;
}

/* A set of canonical positions: open addressing over a power-of-two table. */
typedef struct BoardSet {
    Board *slots;
    bool *used;
    size_t mask;
} BoardSet;

static bool board_set_insert(BoardSet *set, const Board *board)
{
    for (size_t i = board_hash(board) & set->mask;; i = (i + 1) & set->mask) {
        if (!set->used[i]) {
            set->used[i] = true;
            set->slots[i] = *board;
            return true;
        }
        if (board_equal(&set->slots[i], board))
            return false;
    }
}

int train_merge(const TrainArgs *args)
{
    if (!args->out || !args->positions) {
        fprintf(stderr, "octuple-train merge: give --positions FILE,FILE,... and --out\n");
        return 2;
    }
    enum { MOST = 256 };
    char buffer[8192];
    const char *names[MOST];
    int count = train_split_list(args->positions, buffer, sizeof buffer, names, MOST);
    if (count < 0) {
        fprintf(stderr, "octuple-train merge: --positions: a list of at most %d file names "
                "separated by commas, none empty\n", MOST);
        return 2;
    }
    for (int i = 0; i < count; ++i)
        if (file_same(args->out, names[i])) {
            fprintf(stderr, "octuple-train merge: the output %s is the input %s; name another "
                    "file\n", args->out, names[i]);
            return 2;
        }
    if (!train_output_ready("merge", args->out, false))
        return 1;
    PosFile *files = calloc((size_t)count, sizeof *files);
    OctError error;
    bool ok = files != NULL;
    if (!ok)
        error_set(&error, "out of memory");
    size_t games = 0, positions = 0;
    for (int f = 0; ok && f < count; ++f) {
        ok = posfile_read(names[f], false, &files[f], NULL, &error);
        games += ok ? files[f].count : 0;
        positions += ok ? files[f].positions : 0;
    }
    GameRef *order = ok ? malloc(sizeof *order * (games ? games : 1)) : NULL;
    PosFile out = {.header = {.kind = POSFILE_KIND_MERGED}};
    BoardSet seen = {0};
    size_t table = 1024;
    while (table < 2 * positions)
        table *= 2;
    if (ok) {
        out.games = malloc(sizeof *out.games * (games ? games : 1));
        out.records = malloc(sizeof *out.records * (positions ? positions : 1));
        seen.slots = malloc(sizeof *seen.slots * table);
        seen.used = calloc(table, sizeof *seen.used);
        seen.mask = table - 1;
        if (!order || !out.games || !out.records || !seen.slots || !seen.used)
            ok = error_set(&error, "out of memory for %zu positions", positions);
    }
    /* games in (seed, number) order, so that shards merge to one run's file */
    size_t k = 0;
    for (int f = 0; ok && f < count; ++f)
        for (size_t g = 0; g < files[f].count; ++g)
            order[k++] = (GameRef){files[f].games[g].seed, files[f].games[g].number, f, g};
    if (ok)
        qsort(order, games, sizeof *order, game_order);
    for (size_t i = 1; ok && i < games; ++i)
        if (order[i].seed == order[i - 1].seed && order[i].number == order[i - 1].number)
            ok = error_set(&error, "game %llu of seed %llu is in both %s and %s: a shard given "
                           "twice?", (unsigned long long)order[i].number,
                           (unsigned long long)order[i].seed, names[order[i - 1].file],
                           names[order[i].file]);
    size_t repeated = 0;
    for (size_t i = 0; ok && i < games; ++i) {
        const PosFile *file = &files[order[i].file];
        const PosGameInfo *game = &file->games[order[i].game];
        PosGameInfo *kept = &out.games[out.count];
        *kept = (PosGameInfo){game->seed, game->number, out.positions, 0};
        for (int p = 0; p < game->count; ++p) {
            const PosRecord *record = &file->records[game->first + (size_t)p];
            Board canonical = posfile_canonical(&record->board);
            if (!board_set_insert(&seen, &canonical)) {
                ++repeated; /* the first game to reach a position keeps it */
                continue;
            }
            out.records[out.positions++] = *record;
            ++kept->count;
        }
        out.count += kept->count > 0;
    }
    if (ok)
        ok = posfile_write(args->out, &out, &error);
    if (ok)
        printf("merge: %zu games, %zu positions from %d files; %zu repeated positions left "
               "out; wrote %s\n", out.count, out.positions, count, repeated, args->out);
    for (int f = 0; files && f < count; ++f)
        posfile_free(&files[f]);
    free(files);
    free(order);
    free(out.games);
    free(out.records);
    free(seen.slots);
    free(seen.used);
    if (!ok) {
        fprintf(stderr, "octuple-train merge: %s\n", error.message);
        return 1;
    }
    return 0;
}

/* The exact labels of positions files (records marked exact; with --labelled search also
 * the search scores of the others) and of an OBF file. */
static bool exact_positions_load(const TrainArgs *args, ExactPosition **out, size_t *count,
                                 size_t *searched, OctError *error)
{
    *out = NULL;
    *count = 0;
    *searched = 0;
    size_t capacity = 0;
    char buffer[8192];
    const char *names[256];
    int files = args->positions
              ? train_split_list(args->positions, buffer, sizeof buffer, names, 256) : 0;
    if (files < 0)
        return error_set(error, "--positions: a list of at most 256 file names separated by "
                         "commas, none empty");
    for (int f = 0; f < files; ++f) {
        PosFile file;
        if (!posfile_read(names[f], false, &file, NULL, error))
            return false;
        ExactPosition *grown = realloc(*out, sizeof **out * (capacity + file.positions + 1));
        if (!grown) {
            posfile_free(&file);
            return error_set(error, "out of memory");
        }
        *out = grown;
        capacity += file.positions + 1;
        for (size_t i = 0; i < file.positions; ++i) {
            const PosRecord *record = &file.records[i];
            if (!board_can_move(&record->board))
                continue;
            if (record->flags & POSFILE_EXACT) {
                (*out)[(*count)++] = (ExactPosition){record->board, record->score};
            } else if (args->error.search_labels && (record->flags & POSFILE_SEARCH_LABEL)) {
                (*out)[(*count)++] = (ExactPosition){record->board,
                                                     posfile_search_discs(record)};
                ++*searched;
            }
        }
        posfile_free(&file);
    }
    if (args->labels) {
        ObfPosition *positions;
        size_t n;
        if (!obf_read_file(args->labels, &positions, &n, error))
            return false;
        ExactPosition *grown = realloc(*out, sizeof **out * (capacity + n + 1));
        if (!grown) {
            free(positions);
            return error_set(error, "out of memory");
        }
        *out = grown;
        for (size_t i = 0; i < n; ++i)
            if (positions[i].move_count > 0 && board_can_move(&positions[i].board))
                (*out)[(*count)++] = (ExactPosition){positions[i].board, positions[i].scores[0]};
        free(positions);
    }
    return true;
}

int train_error(const TrainArgs *args)
{
    if (!args->weights || (!args->positions && !args->labels)) {
        fprintf(stderr, "octuple-train error: give --weights and --positions and/or --labels\n");
        return 2;
    }
    if (args->error.max_depth > EVALERROR_MAX_DEPTH) {
        fprintf(stderr, "octuple-train error: --depth %d: at most %d\n", args->error.max_depth,
                EVALERROR_MAX_DEPTH);
        return 2;
    }
    Model *model = train_weights_load(args->weights);
    if (!model)
        return 1;
    OctError error;
    ExactPosition *positions = NULL;
    size_t count = 0;
    EvalErrorTable *table = malloc(sizeof *table);
    size_t searched = 0;
    bool ok = table && exact_positions_load(args, &positions, &count, &searched, &error);
    if (!table)
        error_set(&error, "out of memory");
    if (ok && count == 0)
        ok = error_set(&error, "no %s position in the data given",
                       args->error.search_labels ? "labelled" : "exactly labelled");
    if (ok)
        ok = evalerror_measure(model, positions, count, &args->error, table, &error);
    if (ok) {
        if (searched)
            printf("%s: %zu exactly labelled positions, %zu labelled by searches (at the "
                   "counts of empties no solve reached)\n", args->weights, count - searched,
                   searched);
        else
            printf("%s: %zu exactly labelled positions\n", args->weights, count);
        evalerror_print(stdout, table, args->error.max_depth);
    }
    free(positions);
    free(table);
    model_free(model);
    if (!ok) {
        fprintf(stderr, "octuple-train error: %s\n", error.message);
        return 1;
    }
    return 0;
}
