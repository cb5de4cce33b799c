/* Data test of the exact solver: the FForum sets against their published answers, and WTHOR
 * games replayed to the database's depth (24 empties) against their theoretical scores.
 * Usage: solvecheck DATA_DIR WEIGHTS [WTHOR_GAMES [FFO_SETS]]
 * Exits 0 when every score agrees, 1 on a disagreement or unreadable data, 77 without data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/eval.h"
#include "core/obf.h"
#include "core/search.h"
#include "core/weights.h"
#include "core/wthor.h"

static SearchResult solve(Search *search, const Board *board)
{
    SearchLimits limits = search_default_limits();
    limits.exact_empties = 64;
    limits.threads = 1;
    tt_clear(&search->tt);
    SearchResult result;
    search_run(search, board, &limits, &result, NULL, NULL);
    return result;
}

static bool check_ffo(Search *search, const char *data, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/ffo/%s", data, name);
    ObfPosition *positions;
    size_t count;
    OctError error;
    if (!obf_read_file(path, &positions, &count, &error)) {
        printf("%s\n", error.message);
        return false;
    }
    int wrong = 0;
    double seconds = 0;
    unsigned long long nodes = 0;
    for (size_t i = 0; i < count; ++i) {
        SearchResult result = solve(search, &positions[i].board);
        seconds += result.seconds;
        nodes += result.nodes;
        if (positions[i].move_count > 0 && result.score != positions[i].scores[0] * EVAL_DISC) {
            printf("  %s position %zu: solved %+d, expected %+d\n", name, i + 1,
                   result.score / EVAL_DISC, positions[i].scores[0]);
            ++wrong;
        }
    }
    printf("%s: %zu positions, %d wrong scores, %.2f s, %llu nodes\n", name, count, wrong,
           seconds, nodes);
    free(positions);
    return wrong == 0;
}

/* Games spread evenly over the whole database (every file, every k-th game). */
static bool check_wthor(Search *search, const char *data, int wanted)
{
    char directory[4096];
    snprintf(directory, sizeof directory, "%s/wthor", data);
    WthorGame *all;
    size_t total;
    OctError error;
    if (!wthor_read_directory(directory, &all, &total, &error)) {
        printf("%s\n", error.message);
        return false;
    }
    int tried = 0, agree = 0, skipped = 0;
    int lowest = 64, highest = 0; /* the depths solved at: each file's header has its own */
    double seconds = 0;
    size_t step = total / (size_t)(wanted > 0 ? wanted : 1);
    for (size_t g = 0; step > 0 && g < total && tried < wanted; g += step) {
        const Game *game = &all[g].game;
        int depth = all[g].depth;
        /* the position with `depth` empties, as the database's solver saw it */
        Board board = game->start;
        Color side = game->start_side;
        int ply = 0;
        while (ply < game->move_count && board_count_empties(&board) > depth) {
            board_play(&board, game->moves[ply++]);
            side = (Color)!side;
        }
        if (depth <= 0 || board_count_empties(&board) != depth || board_is_over(&board)) {
            ++skipped; /* the game ended before that depth, or its file has none */
            continue;
        }
        lowest = depth < lowest ? depth : lowest;
        highest = depth > highest ? depth : highest;
        SearchResult result = solve(search, &board);
        int black = side == COLOR_BLACK ? result.score / EVAL_DISC : -result.score / EVAL_DISC;
        int expected = 2 * all[g].theoretical_score - 64;
        ++tried;
        seconds += result.seconds;
        if (black == expected)
            ++agree;
        else
            printf("  WTHOR game %zu: solved %+d for black, database says %+d\n", g + 1, black,
                   expected);
    }
    char depths[32];
    if (!tried || lowest == highest)
        snprintf(depths, sizeof depths, "%d", tried ? lowest : 0);
    else
        snprintf(depths, sizeof depths, "%d-%d", lowest, highest);
    printf("WTHOR: %d of %d games agree with the theoretical score at %s empties "
           "(%d sampled games skipped: ended earlier, or no solving depth), mean %.3f s per "
           "solve\n",
           agree, tried, depths, skipped, tried ? seconds / tried : 0.0);
    free(all);
    return tried > 0 && agree == tried;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s DATA_DIR WEIGHTS [WTHOR_GAMES [FFO_SETS]]\n", argv[0]);
        return 2;
    }
    struct stat info;
    if (stat(argv[1], &info) != 0 || !S_ISDIR(info.st_mode)) {
        printf("solvecheck: %s does not exist, skipping\n", argv[1]);
        return 77;
    }
    int games = argc > 3 ? atoi(argv[3]) : 40;
    int sets = argc > 4 ? atoi(argv[4]) : 2;
    Model *model;
    OctError error;
    if (!model_load(argv[2], &model, &error)) {
        printf("solvecheck: %s\n", error.message);
        return 1;
    }
    Search search;
    if (!search_init(&search, 128, &error)) {
        printf("solvecheck: %s\n", error.message);
        model_free(model);
        return 1;
    }
    search_set_model(&search, model);
    static const char *ffo[] = {"fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf"};
    bool ok = true;
    for (int i = 0; i < sets && i < 3; ++i)
        ok = check_ffo(&search, argv[1], ffo[i]) && ok;
    ok = check_wthor(&search, argv[1], games) && ok;
    printf("solvecheck: %s\n", ok ? "all scores agree" : "FAILED");
    search_free(&search);
    model_free(model);
    return ok ? 0 : 1;
}
