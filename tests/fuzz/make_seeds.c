/* Writes the fuzz harnesses' seed inputs into DIR/NAME/ (`make fuzz-run` calls it): small
 * valid files made here by the project's own writers (a weights file, a book, WTHOR files,
 * a .mpc file) and texts of each format and protocol. Nothing is taken from outside data.
 *   make_seeds DIR */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/book.h"
#include "core/game.h"
#include "core/ggf.h"
#include "core/league.h"
#include "core/logbook.h"
#include "core/model.h"
#include "core/obf.h"
#include "core/probcut.h"
#include "core/scale.h"
#include "core/weights.h"
#include "core/wpc.h"
#include "core/wthor.h"

static const char *root;

static void fail(const char *what, const char *message)
{
    fprintf(stderr, "make_seeds: %s: %s\n", what, message);
    exit(1);
}

/* DIR/NAME/FILE, its folder made. */
static const char *seed_path(const char *name, const char *file)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s", root);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s", root, name);
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        fail(path, strerror(errno));
    snprintf(path, sizeof path, "%s/%s/%s", root, name, file);
    return path;
}

static void write_seed(const char *name, const char *file, const char *text)
{
    const char *path = seed_path(name, file);
    FILE *out = fopen(path, "wb");
    if (!out || fputs(text, out) < 0 || fclose(out) != 0)
        fail(path, strerror(errno));
}

static const char *const games[] = {
    "f5d6c3d3c4f4f6f3e6e7", "f5f6e6f4g5e7f7h5", "c4c3d3c5b4", "e6f4c3c4d3d6e3c2b3",
    "f5d6c5f4e3f6", "f5d6c3d3c4f4c5b3c2", "f5f4e3f6d3",
};
enum { GAME_COUNT = sizeof games / sizeof games[0] };

static void game_from(Game *game, const char *moves)
{
    OctError error;
    game_init(game);
    if (!game_parse_moves(game, moves, &error))
        fail(moves, error.message);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: make_seeds DIR\n", stderr);
        return 2;
    }
    root = argv[1];
    OctError error;

    /* weights: the built-in piece-square table as a weights file */
    Model *model;
    if (!wpc_model(wpc_swh(), "SWH seed", &model, &error)
        || !model_save(model, seed_path("weights", "swh.ow"), &error))
        fail("weights", error.message);
    model_free(model);

    /* a book of a few games */
    Book *book = book_create(20, 4);
    for (int i = 0; i < GAME_COUNT; ++i) {
        Game game;
        game_from(&game, games[i]);
        if (!book_add_game(book, &game, NULL, &error))
            fail("book", error.message);
    }
    if (!book_save(book, seed_path("book", "small.book"), &error))
        fail("book", error.message);
    book_free(book);

    /* League networks (the format of Jaskowski's Figure 7) */
    write_seed("league", "one.txt", "{ 1 { 1 4 { 0 } { 7 } { 56 } { 63 } { -1 0 2.5 } } }\n");
    static const char two[] = "{ 2 { 2 2 { 0 1 } { 8 9 } { 0.1 -0.2 0.3 0 1.5 -1 2 0.25 -0.75 } }\n"
                              "  { 1 1 { 27 } { -0.001 0 0.0015 } } }\n";
    write_seed("league", "two.txt", two);
    /* and that network as an n-tuple weights file */
    if (!league_parse(two, "two.txt", PERSPECTIVE_INVERSION, &model, &error)
        || !model_save(model, seed_path("weights", "tuples.ow"), &error))
        fail("weights", error.message);
    model_free(model);

    /* GGF, OBF and logbook lines of the games */
    static char text[1 << 16], line[GGF_LINE_SIZE];
    size_t used = 0;
    for (int i = 0; i < GAME_COUNT; ++i) {
        GgfRecord record;
        ggf_init(&record);
        game_from(&record.game, games[i]);
        snprintf(record.black, sizeof record.black, "black%d", i);
        snprintf(record.white, sizeof record.white, "white");
        snprintf(record.result, sizeof record.result, "?");
        if (i % 2)
            snprintf(record.clock, sizeof record.clock, "5:00//2:00");
        if (!ggf_format(&record, line, sizeof line, &error))
            fail("ggf", error.message);
        used += (size_t)snprintf(text + used, sizeof text - used, "%s\n", line);
    }
    write_seed("ggf", "games.ggf", text);
    write_seed("ggf", "annotated.ggf",
               "(;GM[Othello]PC[seed]DT[2026-11-29]PB[a]PW[b]RE[+2]TI[5:00]TY[8]"
               "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
               "B[F5/1.5/2.1]W[D6//3]B[C3]W[PA]B[D3/-0.5];)\n");

    used = 0;
    for (int i = 0; i < GAME_COUNT; ++i) {
        Game game;
        game_from(&game, games[i]);
        ObfPosition position = {0};
        game_position(&game, game.move_count, &position.board, &position.side);
        position.move_count = 1;
        position.moves[0] = game.moves[0];
        position.scores[0] = 2 * i - 4;
        if (!obf_format_line(&position, line, sizeof line, &error))
            fail("obf", error.message);
        used += (size_t)snprintf(text + used, sizeof text - used, "%s\n", line);
    }
    used += (size_t)snprintf(text + used, sizeof text - used, "%% a comment\n\n");
    write_seed("obf", "positions.obf", text);

    used = 0;
    for (int i = 0; i < GAME_COUNT; ++i) {
        LogbookGame game;
        game_from(&game.game, games[i]);
        game.score = 2 * i;
        if (!logbook_format_line(&game, line, sizeof line, &error))
            fail("logbook", error.message);
        used += (size_t)snprintf(text + used, sizeof text - used, "%s\n", line);
    }
    write_seed("logbook", "games.log", text);

    /* WTHOR games, players and tournaments */
    WthorHeader header = {.century = 20, .year = 26, .month = 11, .day = 29, .game_year = 2026,
                          .board_size = 8, .depth = 22};
    WthorGame wthor[GAME_COUNT];
    memset(wthor, 0, sizeof wthor);
    for (int i = 0; i < GAME_COUNT; ++i) {
        game_from(&wthor[i].game, games[i]);
        wthor[i].black = i % 2;
        wthor[i].white = 1 - i % 2;
        wthor[i].real_score = 32;
        wthor[i].theoretical_score = 32;
    }
    if (!wthor_write_games(seed_path("wthor", "WTH_2026.wtb"), &header, wthor, GAME_COUNT,
                           &error))
        fail("wthor", error.message);
    WthorName names[2] = {{"Player One"}, {"Player Two"}};
    if (!wthor_write_players(seed_path("wthor", "WTHOR.JOU"), &header, names, 2, &error)
        || !wthor_write_tournaments(seed_path("wthor", "WTHOR.TRN"), &header, names, 2, &error))
        fail("wthor", error.message);

    /* .mpc: both parts, and a version-1 file */
    static Probcut probcut = {.enabled = true, .base = 4, .per_empty = 0.1, .per_depth = -0.2};
    for (int depth = 3; depth <= 6; ++depth)
        for (int empties = 20; empties <= 40; ++empties)
            probcut.mid[depth][empties] = (ProbcutPair){0.9f + 0.01f * (float)depth,
                                                        -0.5f * EVAL_DISC,
                                                        (float)(3 + empties / 10) * EVAL_DISC};
    probcut.mid_enabled = true;
    probcut.mid_deepest[0] = 6;
    probcut.mid_deepest[1] = 5;
    if (!probcut_save(&probcut, seed_path("mpc", "both.mpc"), "a seed", &error))
        fail("mpc", error.message);
    write_seed("mpc", "old.mpc", "octuple-probcut 1\nsigma 8 0 0\nmid 3 10 13 0.9 -0.1 5.7\n");

    /* the protocols: what a GUI, a controller and a person type */
    write_seed("nboard", "game.txt",
               "nboard 2\nset depth 1\nset contempt 0\n"
               "set game (;GM[Othello]PC[NBoard]DT[2026-11-29]PB[a]PW[b]RE[?]TI[5:00]TY[8]"
               "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
               "B[F5]W[D6]B[C3];)\nping 1\ngo\nmove d3/-1.5/2\nhint 3\nping 2\nanalyze\n"
               "move pa\nset myname x\nquit\n");
    write_seed("gtp", "game.txt",
               "1 protocol_version\n2 name\nboardsize 8\nclear_board\nkomi 0\n"
               "set_game Othello\nplay b f5\ngenmove w\nreg_genmove b\nundo\nshowboard\n"
               "time_settings 300 60 5\ntime_left b 100 0\nplay w pass\nfinal_score\n"
               "known_command play\nlist_commands\nlist_games\nversion\nquit\n");
    write_seed("console", "game.txt",
               "board\nplay f5 d6\ngo\nundo\nredo\nhint\nsetboard "
               "---------------------------OX------XO--------------------------- X\n"
               "play c4\nanalyze\nverbose 2\ncontempt 50\nbook-randomness 1\noptions\n"
               "new\ninit\nhelp\nhelp play\nversion\nstop\nquit\n");
    return 0;
}
