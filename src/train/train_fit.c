/* octuple-train's fits to database games: regress, label, probcut, mpc, and dump. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/modeldump.h"
#include "core/weights.h"
#include "train/train.h"

int train_dump(const TrainArgs *args)
{
    if (!args->file) {
        fprintf(stderr, "octuple-train dump: name a weights file\n");
        return 2;
    }
    Model *model = train_weights_load(args->file);
    if (!model)
        return 1;
    model_dump(stdout, model);
    model_free(model);
    return 0;
}

int train_mpc_upgrade(const TrainArgs *args)
{
    if (!args->file || !args->out) {
        fprintf(stderr, "octuple-train mpc-upgrade: name a version-1 .mpc file and --out\n");
        return 2;
    }
    OctError error;
    if (!probcut_upgrade(args->file, args->out, &error)) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 1;
    }
    printf("wrote %s\n", args->out);
    return 0;
}

int train_probcut(const TrainArgs *args)
{
    if (!args->out || !args->weights || (!args->logbook && !args->wthor && !args->labels)) {
        fprintf(stderr, "octuple-train probcut: give --weights, --out and --logbook, --wthor "
                        "and/or --labels\n");
        return 2;
    }
    OctError error;
    if (!probcut_fit_check(&args->fit, &error)) {
        fprintf(stderr, "octuple-train probcut: %s\n", error.message);
        return 2;
    }
    if (!train_output_ready("probcut", args->out, false))
        return 1;
    Model *model = train_weights_load(args->weights);
    if (!model)
        return 1;
    TrainSet set;
    trainset_init(&set);
    Probcut fitted = {0}; /* the fit sets the endgame part; no midgame part */
    bool ok = train_games_add(&set, args, &error)
           && (!args->labels || trainset_add_obf(&set, args->labels, 1, &error))
           && probcut_fit(&set, model, &args->fit, &fitted, stdout, &error);
    if (ok) {
        char comment[512];
        snprintf(comment, sizeof comment,
                 "fitted by octuple-train probcut on %s, %d..%d empties, %d positions each, "
                 "seed %llu", args->weights, args->fit.min_empties, args->fit.max_empties,
                 args->fit.per_empties, (unsigned long long)args->fit.seed);
        ok = probcut_save(&fitted, args->out, comment, &error);
    }
    trainset_free(&set);
    model_free(model);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 1;
    }
    printf("sigma = %.4f %+.4f * empties %+.4f * depth\nwrote %s\n", fitted.base,
           fitted.per_empty, fitted.per_depth, args->out);
    return 0;
}

int train_mpc(const TrainArgs *args)
{
    if (!args->out || !args->weights || (!args->logbook && !args->wthor)) {
        fprintf(stderr, "octuple-train mpc: give --weights, --out and --logbook and/or --wthor\n");
        return 2;
    }
    if (args->base && args->endgame_sigma > 0) {
        fprintf(stderr, "octuple-train mpc: --base and --endgame-sigma both set the endgame "
                        "model; give one\n");
        return 2;
    }
    OctError error;
    if (!mpc_fit_check(&args->mpc, &error)) {
        fprintf(stderr, "octuple-train mpc: %s\n", error.message);
        return 2;
    }
    if (!train_output_ready("mpc", args->out, false))
        return 1;
    Model *model = train_weights_load(args->weights);
    if (!model)
        return 1;
    Probcut *fitted = calloc(1, sizeof *fitted);
    TrainSet set;
    trainset_init(&set);
    bool ok = fitted != NULL;
    if (!ok)
        error_set(&error, "out of memory");
    ok = ok && (!args->base || probcut_load(fitted, args->base, &error))
         && train_games_add(&set, args, &error) && mpc_fit(&set, model, &args->mpc, fitted, stdout, &error);
    if (ok) {
        char endgame[320] = "";
        if (args->base)
            snprintf(endgame, sizeof endgame, "; endgame part from %s", args->base);
        if (args->endgame_sigma > 0) {
            fitted->enabled = true;
            fitted->base = args->endgame_sigma;
            fitted->per_empty = fitted->per_depth = 0;
            snprintf(endgame, sizeof endgame, "; endgame sigma %g discs at every empties and depth",
                     args->endgame_sigma);
        }
        /* the file's name, not its path: the same fit gives the same bytes wherever the
         * tree is */
        const char *slash = strrchr(args->weights, '/');
        char comment[512];
        snprintf(comment, sizeof comment,
                 "midgame part fitted by octuple-train mpc on %s, %d..%d empties, %d positions "
                 "each, depths %d..%d, seed %llu%s", slash ? slash + 1 : args->weights,
                 args->mpc.min_empties,
                 args->mpc.max_empties, args->mpc.per_empties, PROBCUT_MID_MIN_DEPTH,
                 args->mpc.max_depth, (unsigned long long)args->mpc.seed, endgame);
        ok = probcut_save(fitted, args->out, comment, &error);
    }
    trainset_free(&set);
    model_free(model);
    free(fitted);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 1;
    }
    printf("wrote %s\n", args->out);
    return 0;
}

int train_label(const TrainArgs *args)
{
    if (!args->out || (!args->logbook && !args->wthor)) {
        fprintf(stderr, "octuple-train label: give --out and --logbook and/or --wthor\n");
        return 2;
    }
    if (!train_output_ready("label", args->out, false))
        return 1;
    Model *model = NULL;
    if (args->weights && !(model = train_weights_load(args->weights)))
        return 1;
    OctError error;
    Game *games = NULL;
    size_t count = 0;
    bool ok = train_collect_games(args, &games, &count, &error);
    if (ok && count == 0) {
        char data[1024];
        train_data_name(args, false, data, sizeof data);
        ok = error_set(&error, "the data (%s) holds no finished game", data);
    }
    if (ok) {
        printf("data: %zu games\n", count);
        ok = labels_make(games, count, &args->label, model, args->out, stdout, &error);
    }
    free(games);
    model_free(model);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 1;
    }
    return 0;
}

/* The files of "A,B,..." into the training set, each position `weight` times. */
static bool train_positions_add(TrainSet *set, const char *list, int weight,
                                PositionTarget target, OctError *error)
{
    char buffer[8192];
    const char *names[256];
    int count = train_split_list(list, buffer, sizeof buffer, names, 256);
    if (count < 0)
        return error_set(error, "--positions: a list of at most 256 file names separated by "
                         "commas, none empty");
    for (int i = 0; i < count; ++i)
        if (!trainset_add_positions(set, names[i], weight, target, error))
            return false;
    return true;
}

int train_regress(const TrainArgs *args)
{
    OctError error;
    if (!args->out) {
        fprintf(stderr, "octuple-train regress: --out FILE is required\n");
        return 2;
    }
    if (!args->logbook && !args->wthor && !args->labels && !args->positions) {
        fprintf(stderr, "octuple-train regress: give --logbook, --wthor, --labels and/or "
                        "--positions\n");
        return 2;
    }
    if (!train_output_ready("regress", args->out, false))
        return 1;
    Shape shapes[MODEL_MAX_SHAPES];
    int shape_count = 0;
    PhaseTable phase;
    Model *model = NULL;
    bool ok = true;
    if (args->stages && (args->shape || args->phase_width_given)) {
        fprintf(stderr, "octuple-train regress: --stages names the shapes and gives every move "
                        "its weights: leave out --shape and --phase-width\n");
        return 2;
    }
    if (args->stages && !*args->stages) {
        fprintf(stderr, "octuple-train regress: --stages is empty (M:SHAPE,M:SHAPE,...)\n");
        return 2;
    }
    bool file_failed = false;
    if (args->stages) {
        /* "M:SHAPE,M:SHAPE,...": stages in increasing first moves, the first at 0 */
        int first_moves[MODEL_MAX_SHAPES] = {0};
        const char *p = args->stages;
        while (ok && *p) {
            char *end;
            long move = strtol(p, &end, 10);
            const char *comma = strchr(end, ',');
            size_t length = comma ? (size_t)(comma - end - 1) : strlen(end) - 1;
            char name[1024];
            if (end == p || *end != ':' || move < 0 || move > 60 || length == 0
                || length >= sizeof name || shape_count == MODEL_MAX_SHAPES
                || (shape_count == 0 && move != 0)
                || (shape_count > 0 && move <= first_moves[shape_count - 1])) {
                ok = error_set(&error, "--stages: bad stage at '%s' (M:SHAPE,... with M from 0 "
                                       "rising, at most %d stages)", p, MODEL_MAX_SHAPES);
                break;
            }
            memcpy(name, end + 1, length);
            name[length] = '\0';
            /* random shapes of different stages differ: each stage its own seed */
            if (!train_shape_make(name, args->regress.seed + (uint64_t)shape_count,
                            &shapes[shape_count], &error)) {
                ok = false;
                file_failed = train_shape_is_file(name);
                break;
            }
            first_moves[shape_count++] = (int)move;
            p = comma ? comma + 1 : end + 1 + length;
            if (comma && !*p) {
                ok = error_set(&error, "--stages ends with a comma");
                break;
            }
        }
        if (ok)
            phase_stages(&phase, first_moves, shape_count);
    } else {
        phase_buckets(&phase, args->phase_width);
        const char *name = args->shape ? args->shape : "edax";
        ok = train_shape_make(name, args->regress.seed, &shapes[0], &error);
        file_failed = !ok && train_shape_is_file(name);
        shape_count = ok;
    }
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        for (int i = 0; i < shape_count; ++i)
            shape_free(&shapes[i]);
        return file_failed ? 1 : 2; /* an unreadable shape file, or a usage error */
    }
    ok = model_create(shapes, shape_count, &phase, &model, &error);
    for (int i = 0; i < shape_count; ++i)
        shape_free(&shapes[i]);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 1;
    }
    TrainSet set;
    trainset_init(&set);
    if ((args->logbook && !trainset_add_logbook(&set, args->logbook, &error))
        || (args->wthor
            && !trainset_add_wthor(&set, args->wthor, WTHOR_TARGET_THEORETICAL, &error))
        || (args->labels
            && !trainset_add_obf(&set, args->labels, args->label_weight, &error))
        || (args->positions && !train_positions_add(&set, args->positions, args->label_weight,
                                                   args->position_target, &error))) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        trainset_free(&set);
        model_free(model);
        return 1;
    }
    printf("data: %u games, %zu positions", set.games, set.count);
    if (set.skipped) /* said, so that a short count is not a mystery */
        printf(" (%zu unfinished games or OBF lines without a scored move left out)", set.skipped);
    printf("\n");
    if (set.count == 0) {
        char data[1024];
        train_data_name(args, true, data, sizeof data);
        fprintf(stderr, "octuple-train regress: the data (%s) holds no position to fit\n", data);
        trainset_free(&set);
        model_free(model);
        return 1;
    }
    RegressReport report;
    if (ok) {
        snprintf(model->name, sizeof model->name, "%s", args->name ? args->name : args->out);
        RegressOptions options = args->regress;
        if (options.method == REGRESS_ADAM && !train_args_given(args, TRAIN_OPT_RATE))
            options.rate = 0.05;
        ok = regress_train(model, &set, &options, &report, stdout, &error)
          && model_save(model, args->out, &error);
    }
    trainset_free(&set);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        model_free(model);
        return 1;
    }
    printf("train positions %zu, test positions %zu\n", report.train_positions, report.test_positions);
    if (report.test_positions) {
        /* the epochs measure the float weights; these are the saved int16 ones, which the
         * engine evaluates, so they differ a little */
        printf("saved weights: train loss %.3f, test loss %.3f (discs^2)\n", report.train_loss,
               report.test_loss);
        printf("test loss by move number:");
        for (int m = 0; m < MODEL_MOVES; ++m)
            if (report.test_count_by_move[m])
                printf("%s%d:%.2f", m % 10 ? " " : "\n  ", m, report.test_loss_by_move[m]);
        printf("\n");
        if (args->regress.method == REGRESS_ADAM) {
            printf("best validation loss %.3f at epoch %d\nmove train validation test\n",
                   report.validation_loss, report.best_epoch);
            for (int m = 0; m < MODEL_MOVES; ++m)
                if (report.test_count_by_move[m])
                    printf("%d %.3f %.3f %.3f\n", m, report.train_loss_by_move[m],
                           report.validation_loss_by_move[m], report.test_loss_by_move[m]);
        }
    } else {
        printf("saved weights: train loss %.3f (discs^2); no test positions (--test 0, or too few "
               "games to hold some out)\n", report.train_loss);
    }
    printf("wrote %s\n", args->out);
    model_free(model);
    return 0;
}
