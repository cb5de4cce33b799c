/* The self-play generator and its positions file: the same bytes for a seed whatever the
 * threads, an interrupted run resumed to the same file, shards merged to one run, exact
 * labels equal to an independent solve, and damaged files refused. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/board.h"
#include "core/fileio.h"
#include "train/posfile.h"
#include "reference.h"
#include "train/selfplay.h"
#include "core/shapes.h"
#include "testutil.h"
#include "train/trainset.h"
#include "core/weights.h"

static char directory[] = "/tmp/check-selfplay-XXXXXX";

static const char *path_in(const char *name)
{
    static char paths[8][512];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, 512, "%s/%s", directory, name);
    return path;
}

static Model *small_model(void)
{
    Shape shape;
    PhaseTable phase;
    Model *model = NULL;
    OctError error;
    ck_assert(shapes_all_n(3, &shape, &error));
    phase_buckets(&phase, 10);
    ck_assert_msg(model_create(&shape, 1, &phase, &model, &error), "%s", error.message);
    shape_free(&shape);
    model_fill_random(model, 7, 300);
    model_symmetrize(model);
    return model;
}

/* Cheap games: late random openings, shallow play, solved from 10 empties. */
static SelfplayOptions small_options(void)
{
    SelfplayOptions options = selfplay_defaults();
    options.seed = 5;
    options.games = 12;
    options.min_random = 30;
    options.max_random = 44;
    options.depth = 2;
    options.exact_empties = 10;
    options.random_rate = 0.05;
    options.hash_megabytes = 1;
    options.progress_seconds = 0;
    return options;
}

static void generate(const Model *model, const SelfplayOptions *options, const char *path)
{
    OctError error;
    ck_assert_msg(selfplay_run(options, model, path, NULL, &error), "%s", error.message);
}

static char *slurp(const char *path, size_t *size)
{
    char *data;
    OctError error;
    ck_assert_msg(file_read_all(path, (size_t)1 << 30, &data, size, &error), "%s", error.message);
    return data;
}

static void assert_same_file(const char *a, const char *b)
{
    size_t size_a, size_b;
    char *x = slurp(a, &size_a), *y = slurp(b, &size_b);
    ck_assert_msg(size_a == size_b && memcmp(x, y, size_a) == 0, "%s and %s differ", a, b);
    free(x);
    free(y);
}

START_TEST(test_same_seed_same_bytes)
{
    Model *model = small_model();
    SelfplayOptions options = small_options();
    generate(model, &options, path_in("one.opos"));
    options.threads = 3;
    generate(model, &options, path_in("three.opos"));
    assert_same_file(path_in("one.opos"), path_in("three.opos"));
    options.seed = 6; /* another seed, other games */
    generate(model, &options, path_in("other.opos"));
    size_t a, b;
    char *x = slurp(path_in("one.opos"), &a), *y = slurp(path_in("other.opos"), &b);
    ck_assert(a != b || memcmp(x, y, a) != 0);
    free(x);
    free(y);
    model_free(model);
}
END_TEST

START_TEST(test_interrupted_run_resumes)
{
    Model *model = small_model();
    SelfplayOptions options = small_options();
    generate(model, &options, path_in("whole.opos"));
    size_t size;
    char *whole = slurp(path_in("whole.opos"), &size);
    /* cut inside the fifth block, at its end, and just after the header */
    PosFile file;
    OctError error;
    ck_assert(posfile_read(path_in("whole.opos"), false, &file, NULL, &error));
    size_t fifth = POSFILE_HEADER_SIZE;
    for (int g = 0; g < 4; ++g)
        fifth += posfile_block_size(file.games[g].count);
    size_t cuts[] = {fifth + 7, fifth + posfile_block_size(file.games[4].count),
                     POSFILE_HEADER_SIZE, size - 1};
    posfile_free(&file);
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; ++c) {
        ck_assert(file_write_atomic(path_in("cut.opos"), whole, cuts[c], &error));
        generate(model, &options, path_in("cut.opos"));
        assert_same_file(path_in("cut.opos"), path_in("whole.opos"));
    }
    /* a finished file asked for more games grows by them alone */
    options.games = 8;
    generate(model, &options, path_in("short.opos"));
    options.games = 12;
    generate(model, &options, path_in("short.opos"));
    assert_same_file(path_in("short.opos"), path_in("whole.opos"));
    /* other settings are refused, and the file is left as it was */
    options.depth = 3;
    ck_assert(!selfplay_run(&options, model, path_in("short.opos"), NULL, &error));
    ck_assert_msg(strstr(error.message, "other settings"), "%s", error.message);
    assert_same_file(path_in("short.opos"), path_in("whole.opos"));
    free(whole);
    model_free(model);
}
END_TEST

/* Exact value of a position by plain negamax over the reference move generator. */
static int reference_solve(uint64_t player, uint64_t opponent, bool passed)
{
    RefBoard ref;
    ref_from_bits(&ref, player, opponent);
    uint64_t moves = ref_moves(&ref);
    if (!moves) {
        if (passed) {
            int mine = __builtin_popcountll(player), theirs = __builtin_popcountll(opponent);
            int empties = 64 - mine - theirs;
            return mine > theirs ? mine - theirs + empties
                 : mine < theirs ? mine - theirs - empties : 0;
        }
        return -reference_solve(opponent, player, true);
    }
    int best = -65;
    for (; moves; moves &= moves - 1) {
        int square = __builtin_ctzll(moves);
        uint64_t flips = ref_flips(&ref, square);
        int value = -reference_solve(opponent & ~flips, player | flips | (1ULL << square), false);
        if (value > best)
            best = value;
    }
    return best;
}

START_TEST(test_exact_labels_are_exact)
{
    Model *model = small_model();
    SelfplayOptions options = small_options();
    options.games = 6;
    generate(model, &options, path_in("exact.opos"));
    PosFile file;
    OctError error;
    ck_assert_msg(posfile_read(path_in("exact.opos"), false, &file, NULL, &error), "%s",
                  error.message);
    int checked = 0;
    for (size_t i = 0; i < file.positions; ++i) {
        const PosRecord *record = &file.records[i];
        int empties = board_count_empties(&record->board);
        ck_assert(record->flags & POSFILE_GAME_LABEL); /* no search labels asked */
        ck_assert_int_eq(!!(record->flags & POSFILE_EXACT), empties <= options.exact_empties);
        if (record->flags & POSFILE_EXACT) {
            ck_assert_int_eq(record->score, reference_solve(record->board.player,
                                                            record->board.opponent, false));
            ++checked;
        }
    }
    ck_assert_int_ge(checked, 30);
    posfile_free(&file);
    model_free(model);
}
END_TEST

/* Search labels (--label-depth) go with the positions, and the trainer takes the label asked
 * for: the game's result, the search's score or their mean before the exact part, the exact
 * score from it on whatever is asked. */
START_TEST(test_position_targets)
{
    Model *model = small_model();
    SelfplayOptions options = small_options();
    options.games = 4;
    options.random_rate = 0;
    options.label_depth = 1;
    generate(model, &options, path_in("labelled.opos"));
    PosFile file;
    OctError error;
    ck_assert_msg(posfile_read(path_in("labelled.opos"), false, &file, NULL, &error), "%s",
                  error.message);
    TrainSet sets[3];
    const PositionTarget kinds[3] = {POSITION_TARGET_GAME, POSITION_TARGET_SEARCH,
                                     POSITION_TARGET_MEAN};
    for (int k = 0; k < 3; ++k) {
        trainset_init(&sets[k]);
        ck_assert_msg(trainset_add_positions(&sets[k], path_in("labelled.opos"), 1, kinds[k],
                                             &error), "%s", error.message);
        ck_assert_uint_eq(sets[k].count, sets[0].count);
    }
    size_t at = 0;
    int differ = 0;
    for (size_t i = 0; i < file.positions; ++i) {
        const PosRecord *record = &file.records[i];
        ck_assert(record->flags & POSFILE_SEARCH_LABEL);
        if (!board_can_move(&record->board))
            continue; /* the trainer leaves these out */
        int searched = posfile_search_discs(record);
        ck_assert(board_equal(&sets[0].positions[at].board, &record->board));
        ck_assert_int_eq(sets[0].positions[at].target, record->score);
        if (record->flags & POSFILE_EXACT) {
            ck_assert_int_eq(sets[1].positions[at].target, record->score);
            ck_assert_int_eq(sets[2].positions[at].target, record->score);
        } else {
            ck_assert_int_eq(sets[1].positions[at].target, searched);
            int mean = sets[2].positions[at].target;
            ck_assert_int_le(abs(2 * mean - (record->score + searched)), 1);
            differ += searched != record->score;
        }
        ++at;
    }
    ck_assert_uint_eq(at, sets[0].count);
    ck_assert_int_gt(differ, 0); /* a 1-ply search does not foresee the results */
    for (int k = 0; k < 3; ++k)
        trainset_free(&sets[k]);
    posfile_free(&file);
    model_free(model);
}
END_TEST

static int run(const char *command, char *err, size_t size)
{
    char line[4096];
    snprintf(line, sizeof line, "%s 2>%s", command, path_in("stderr.txt"));
    int status = system(line);
    FILE *in = fopen(path_in("stderr.txt"), "r");
    size_t n = in ? fread(err, 1, size - 1, in) : 0;
    err[n] = '\0';
    if (in)
        fclose(in);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(test_shards_merge_to_one_run)
{
    Model *model = small_model();
    OctError error;
    ck_assert(model_save(model, path_in("small.ow"), &error));
    char command[4096], err[4096];
    const char *common = "--depth 2 --exact 10 --random-moves 30:44 --random-rate 0.05 "
                         "--seed 9 --hash 1";
    snprintf(command, sizeof command, "'%s' selfplay --weights %s --out %s --games 10 %s",
             TRAIN_BINARY, path_in("small.ow"), path_in("all.opos"), common);
    ck_assert_msg(run(command, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(strstr(err, "10/10 games"), "no progress line: %s", err);
    snprintf(command, sizeof command, "'%s' selfplay --weights %s --out %s --games 4 %s",
             TRAIN_BINARY, path_in("small.ow"), path_in("a.opos"), common);
    ck_assert_msg(run(command, err, sizeof err) == 0, "%s", err);
    snprintf(command, sizeof command,
             "'%s' selfplay --weights %s --out %s --games 6 --first-game 4 --threads 2 %s",
             TRAIN_BINARY, path_in("small.ow"), path_in("b.opos"), common);
    ck_assert_msg(run(command, err, sizeof err) == 0, "%s", err);
    snprintf(command, sizeof command, "'%s' merge --positions %s,%s --out %s >/dev/null",
             TRAIN_BINARY, path_in("b.opos"), path_in("a.opos"), path_in("m1.opos"));
    ck_assert_msg(run(command, err, sizeof err) == 0, "%s", err);
    snprintf(command, sizeof command, "'%s' merge --positions %s --out %s >/dev/null",
             TRAIN_BINARY, path_in("all.opos"), path_in("m2.opos"));
    ck_assert_msg(run(command, err, sizeof err) == 0, "%s", err);
    assert_same_file(path_in("m1.opos"), path_in("m2.opos"));
    /* merged: no position twice, up to symmetry */
    PosFile file;
    ck_assert(posfile_read(path_in("m1.opos"), false, &file, NULL, &error));
    for (size_t i = 0; i < file.positions; ++i)
        for (size_t j = i + 1; j < file.positions; ++j) {
            Board x = posfile_canonical(&file.records[i].board);
            Board y = posfile_canonical(&file.records[j].board);
            ck_assert(!board_equal(&x, &y));
        }
    posfile_free(&file);
    /* a shard given twice is refused */
    snprintf(command, sizeof command, "'%s' merge --positions %s,%s --out %s", TRAIN_BINARY,
             path_in("a.opos"), path_in("all.opos"), path_in("m3.opos"));
    ck_assert_int_eq(run(command, err, sizeof err), 1);
    ck_assert_msg(strstr(err, "is in both"), "%s", err);
    struct stat info;
    ck_assert(stat(path_in("m3.opos"), &info) != 0);
    model_free(model);
}
END_TEST

START_TEST(test_damaged_files_are_refused)
{
    Model *model = small_model();
    SelfplayOptions options = small_options();
    options.games = 5;
    generate(model, &options, path_in("good.opos"));
    size_t size;
    char *data = slurp(path_in("good.opos"), &size);
    OctError error;
    PosFile file;
    struct {
        size_t offset; /* the byte changed, or the length cut to */
        bool cut;
        const char *says;
    } cases[] = {
        {0, false, "not an Octuple positions file"},
        {20, false, "header's checksum"},
        {POSFILE_HEADER_SIZE + 30, false, "checksum does not match"},
        {POSFILE_HEADER_SIZE + 1, false, "no game block starts here"},
        {size - 3, true, "cut short"},
        {30, true, "header is cut short"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        char *copy = malloc(size);
        memcpy(copy, data, size);
        size_t length = size;
        if (cases[c].cut)
            length = cases[c].offset;
        else
            copy[cases[c].offset] ^= 0x5a;
        ck_assert(file_write_atomic(path_in("bad.opos"), copy, length, &error));
        ck_assert_msg(!posfile_read(path_in("bad.opos"), false, &file, NULL, &error),
                      "case %zu read", c);
        ck_assert_msg(strstr(error.message, cases[c].says) && strstr(error.message, "bad.opos"),
                      "case %zu: %s", c, error.message);
        free(copy);
    }
    /* a damaged middle is refused by a resume too, and the file is left alone */
    data[POSFILE_HEADER_SIZE + 30] ^= 1;
    ck_assert(file_write_atomic(path_in("bad.opos"), data, size, &error));
    ck_assert(!selfplay_run(&options, model, path_in("bad.opos"), NULL, &error));
    size_t after;
    char *kept = slurp(path_in("bad.opos"), &after);
    ck_assert(after == size && memcmp(kept, data, size) == 0);
    free(kept);
    free(data);
    model_free(model);
}
END_TEST

/* `error --labelled search` measures the positions above the solve against their search
 * labels too; without it only the exact ones count. */
START_TEST(test_error_with_search_labels)
{
    Model *model = small_model();
    OctError error;
    ck_assert(model_save(model, path_in("small.ow"), &error));
    char command[4096], err[4096];
    snprintf(command, sizeof command,
             "'%s' selfplay --weights %s --out %s --games 4 --depth 2 --exact 10 "
             "--random-moves 40:44 --label-depth 3 --seed 4 --hash 1",
             TRAIN_BINARY, path_in("small.ow"), path_in("searched.opos"));
    ck_assert_msg(run(command, err, sizeof err) == 0, "%s", err);
    const char *labelled[2] = {"exact", "search"};
    for (int k = 0; k < 2; ++k) {
        snprintf(command, sizeof command,
                 "'%s' error --weights %s --positions %s --depth 1 --labelled %s > %s",
                 TRAIN_BINARY, path_in("small.ow"), path_in("searched.opos"), labelled[k],
                 path_in("error.txt"));
        ck_assert_msg(run(command, err, sizeof err) == 0, "%s", err);
        size_t size;
        char *text = slurp(path_in("error.txt"), &size);
        /* a row for 12 empties exists only when the search labels are read */
        bool row12 = strstr(text, "\n     12 ") != NULL;
        ck_assert_msg(row12 == (k == 1), "%s", text);
        ck_assert_msg((strstr(text, "labelled by searches") != NULL) == (k == 1), "%s", text);
        free(text);
    }
    snprintf(command, sizeof command, "'%s' error --weights %s --positions %s --labelled some",
             TRAIN_BINARY, path_in("small.ow"), path_in("searched.opos"));
    ck_assert_int_eq(run(command, err, sizeof err), 2);
    ck_assert_msg(strstr(err, "--labelled"), "%s", err);
    model_free(model);
}
END_TEST

static void setup(void)
{
    ck_assert(mkdtemp(directory));
}

static void teardown(void)
{
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", directory);
    ck_assert(system(command) == 0);
    strcpy(directory, "/tmp/check-selfplay-XXXXXX");
}

int main(void)
{
    Suite *suite = suite_create("selfplay");
    TCase *tc = tcase_create("selfplay");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_same_seed_same_bytes);
    tcase_add_test(tc, test_interrupted_run_resumes);
    tcase_add_test(tc, test_exact_labels_are_exact);
    tcase_add_test(tc, test_position_targets);
    tcase_add_test(tc, test_shards_merge_to_one_run);
    tcase_add_test(tc, test_error_with_search_labels);
    tcase_add_test(tc, test_damaged_files_are_refused);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
