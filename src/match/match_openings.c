#include "match/match_openings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/eval.h"
#include "core/fileio.h"
#include "core/ggf.h"
#include "core/search.h"
#include "core/rng.h"

enum {
    OPENINGS_FILE_LIMIT = 256 << 20,
    TRIES_PER_OPENING = 1000,
    GENERATOR_HASH_MB = 16
};

uint64_t match_position_key(const Board *board, Color side)
{
    uint64_t best = UINT64_MAX;
    for (int s = 0; s < SYMMETRY_COUNT; ++s) {
        Board image = board_symmetry(board, s);
        uint64_t key = board_hash(&image);
        if (key < best)
            best = key;
    }
    return side == COLOR_BLACK ? best : ~best;
}

/* A growing array of games. */
typedef struct GameList {
    Game *games;
    size_t count, capacity;
} GameList;

static bool list_push(GameList *list, const Game *game, OctError *error)
{
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 64;
        Game *games = realloc(list->games, capacity * sizeof *games);
        if (!games)
            return error_set(error, "out of memory for %zu openings", capacity);
        list->games = games;
        list->capacity = capacity;
    }
    list->games[list->count++] = *game;
    return true;
}

typedef struct GgfCollect {
    GameList list;
    const char *path;
    OctError *error;
    bool failed;
} GgfCollect;

static bool collect_record(const GgfRecord *record, void *user)
{
    GgfCollect *collect = user;
    if (game_is_over(&record->game)) {
        error_set(collect->error, "%s: record %zu: the game is over, not an opening",
                  collect->path, collect->list.count + 1);
        collect->failed = true;
        return false;
    }
    if (!list_push(&collect->list, &record->game, collect->error)) {
        collect->failed = true;
        return false;
    }
    return true;
}

bool match_openings_read(const char *path, Game **openings, size_t *count, OctError *error)
{
    char *text;
    size_t size;
    if (!file_read_all(path, OPENINGS_FILE_LIMIT, &text, &size, error))
        return false;
    GameList list = {NULL, 0, 0};
    if (strstr(text, "(;")) {
        free(text);
        GgfCollect collect = {{NULL, 0, 0}, path, error, false};
        if (!ggf_read_each(path, collect_record, &collect, error) || collect.failed) {
            free(collect.list.games);
            return false;
        }
        list = collect.list;
    } else {
        int line_number = 0;
        char *line = text;
        while (line && *line) {
            char *next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            ++line_number;
            size_t length = strlen(line);
            while (length && (line[length - 1] == '\r' || line[length - 1] == ' ' ||
                              line[length - 1] == '\t'))
                line[--length] = '\0';
            const char *start = line + strspn(line, " \t");
            if (*start && *start != '#' && *start != '%') {
                Game game;
                game_init(&game);
                if (!game_parse_moves(&game, start, error)) {
                    error_prefix(error, "%s:%d: ", path, line_number);
                    free(list.games);
                    free(text);
                    return false;
                }
                if (game_is_over(&game)) {
                    error_set(error, "%s:%d: the game is over, not an opening", path,
                              line_number);
                    free(list.games);
                    free(text);
                    return false;
                }
                if (!list_push(&list, &game, error)) {
                    free(list.games);
                    free(text);
                    return false;
                }
            }
            line = next;
        }
        free(text);
    }
    if (list.count == 0) {
        free(list.games);
        return error_set(error, "%s: no openings", path);
    }
    *openings = list.games;
    *count = list.count;
    return true;
}

/* A random line of `plies` moves (passes included when forced); false when the game ended. */
static bool random_line(Game *game, int plies, uint64_t *state)
{
    game_init(game);
    Board board;
    board_init(&board);
    for (int ply = 0; ply < plies; ++ply) {
        if (board_is_over(&board))
            return false;
        uint64_t legal = board_legal(&board);
        int move = MOVE_PASS;
        if (legal) {
            int pick = (int)(rng_next(state) % (uint64_t)__builtin_popcountll(legal));
            while (pick--)
                legal &= legal - 1;
            move = __builtin_ctzll(legal);
        }
        board_play(&board, move);
        game->moves[game->move_count++] = move;
    }
    return !board_is_over(&board);
}

/* A small open-addressing set of position keys (0 stands for "empty": key 0 is remapped). */
typedef struct KeySet {
    uint64_t *slots;
    size_t mask;
} KeySet;

static bool keyset_insert(KeySet *set, uint64_t key)
{
    if (!key)
        key = 1;
    for (size_t i = key & set->mask;; i = (i + 1) & set->mask) {
        if (set->slots[i] == key)
            return false;
        if (!set->slots[i]) {
            set->slots[i] = key;
            return true;
        }
    }
}

bool match_openings_generate(const MatchGenerateSpec *spec, Game **openings, double **scores,
                             MatchGenerateProgress progress, void *context, OctError *error)
{
    if (spec->count <= 0)
        return error_set(error, "the generator needs a positive number of openings");
    if (spec->plies < 1 || spec->plies > 50)
        return error_set(error, "opening length %d: 1 to 50 moves expected", spec->plies);
    if (spec->depth < 1 || spec->depth > SEARCH_MAX_DEPTH)
        return error_set(error, "generator depth %d: 1 to %d expected", spec->depth,
                         SEARCH_MAX_DEPTH);
    Game *games = malloc((size_t)spec->count * sizeof *games);
    double *values = malloc((size_t)spec->count * sizeof *values);
    size_t slots = 16;
    while (slots < (size_t)spec->count * 4)
        slots *= 2;
    KeySet seen = {calloc(slots, sizeof(uint64_t)), slots - 1};
    Search search;
    if (!games || !values || !seen.slots) {
        free(games);
        free(values);
        free(seen.slots);
        return error_set(error, "out of memory for %d openings", spec->count);
    }
    if (!search_init(&search, GENERATOR_HASH_MB, error)) {
        free(games);
        free(values);
        free(seen.slots);
        return false;
    }
    search_set_model(&search, spec->model);
    SearchLimits limits = search_default_limits();
    limits.depth = spec->depth;
    limits.exact_empties = spec->depth; /* only where solving costs no more than searching */
    limits.threads = 1;                 /* deterministic */

    uint64_t state = spec->seed;
    int kept = 0;
    long tried = 0;
    long max_tries = (long)spec->count * TRIES_PER_OPENING;
    bool stopped = false;
    while (kept < spec->count && tried < max_tries) {
        if (spec->stop && atomic_load(spec->stop)) {
            stopped = true;
            break;
        }
        ++tried;
        Game game;
        if (!random_line(&game, spec->plies, &state))
            continue;
        Board board;
        Color side;
        game_position(&game, game.move_count, &board, &side);
        SearchResult result;
        search_run(&search, &board, &limits, &result, NULL, NULL);
        double discs = (double)result.score / EVAL_DISC;
        if (fabs(discs) <= spec->balance && keyset_insert(&seen, match_position_key(&board, side))) {
            games[kept] = game;
            values[kept] = discs;
            ++kept;
        }
        if (progress)
            progress(context, kept, (int)tried);
    }
    search_free(&search);
    free(seen.slots);
    if (stopped) {
        free(games);
        free(values);
        return error_set(error, "interrupted while generating openings (%d of %d found)", kept,
                         spec->count);
    }
    if (kept < spec->count) {
        free(games);
        free(values);
        return error_set(error, "only %d of %d balanced openings found in %ld lines: loosen the "
                         "balance or shorten the openings", kept, spec->count, tried);
    }
    *openings = games;
    if (scores)
        *scores = values;
    else
        free(values);
    return true;
}

bool match_openings_write(const char *path, const Game *openings, size_t count,
                          OctError *error)
{
    size_t line_size = GAME_MOVE_CAPACITY * 2 + 2;
    char *text = malloc(count * line_size + 1);
    if (!text)
        return error_set(error, "out of memory");
    size_t used = 0;
    for (size_t i = 0; i < count; ++i) {
        game_format_moves(&openings[i], text + used, line_size);
        used += strlen(text + used);
        text[used++] = '\n';
    }
    bool ok = file_write_atomic(path, text, used, error);
    free(text);
    return ok;
}
