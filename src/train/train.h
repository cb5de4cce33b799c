/* octuple-train: the parsed command line every command reads, the commands, and the helpers
 * they share (train_args.c, train_io.c). Each command returns the program's exit status:
 * 0, 1 for a failure of the work, 2 for a usage error. */
#ifndef OCTUPLE_TRAIN_H
#define OCTUPLE_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "train/coevolve.h"
#include "core/error.h"
#include "core/optable.h"
#include "train/evalerror.h"
#include "train/evolve.h"
#include "core/game.h"
#include "train/labels.h"
#include "core/model.h"
#include "train/mpc_fit.h"
#include "train/probcut_fit.h"
#include "train/regress.h"
#include "train/selfplay.h"
#include "train/shapega.h"
#include "core/shapes.h"
#include "train/tdl.h"
#include "train/trainset.h"

/* Every option of the trainer (train_args.c's table holds their names, values and help;
 * each command's table in train_main.c says which it takes). */
enum TrainOption {
    TRAIN_OPT_LOGBOOK,
    TRAIN_OPT_WTHOR,
    TRAIN_OPT_SHAPE,
    TRAIN_OPT_OUT,
    TRAIN_OPT_NAME,
    TRAIN_OPT_PHASE_WIDTH,
    TRAIN_OPT_EPOCHS,
    TRAIN_OPT_RATE,
    TRAIN_OPT_TEST,
    TRAIN_OPT_SEED,
    TRAIN_OPT_LABELS,
    TRAIN_OPT_LABEL_WEIGHT,
    TRAIN_OPT_EMPTIES,
    TRAIN_OPT_GAMES,
    TRAIN_OPT_ALPHA,
    TRAIN_OPT_EPSILON,
    TRAIN_OPT_GENERATIONS,
    TRAIN_OPT_MU,
    TRAIN_OPT_LAMBDA,
    TRAIN_OPT_SIGMA,
    TRAIN_OPT_INIT,
    TRAIN_OPT_FITNESS_GAMES,
    TRAIN_OPT_THREADS,
    TRAIN_OPT_POPULATION,
    TRAIN_OPT_TD_GAMES,
    TRAIN_OPT_TOURNAMENT,
    TRAIN_OPT_MUTATION_RATE,
    TRAIN_OPT_CLIP,
    TRAIN_OPT_ARCHIVE_GAMES,
    TRAIN_OPT_ARCHIVE_PARENT,
    TRAIN_OPT_PROGRESS_GAMES,
    TRAIN_OPT_MEASURE_EVERY,
    TRAIN_OPT_DOUBLE_GAMES,
    TRAIN_OPT_PERSPECTIVE,
    TRAIN_OPT_ISLANDS,
    TRAIN_OPT_ELITE,
    TRAIN_OPT_MUTANTS,
    TRAIN_OPT_INHERIT,
    TRAIN_OPT_MIGRATION_INTERVAL,
    TRAIN_OPT_MIGRATION_SIZE,
    TRAIN_OPT_OUT_DIR,
    TRAIN_OPT_STAGES,
    TRAIN_OPT_LEAGUE_OUT,
    TRAIN_OPT_LEAGUE,
    TRAIN_OPT_OPPONENT,
    TRAIN_OPT_WEIGHTS,
    TRAIN_OPT_MIN_EMPTIES,
    TRAIN_OPT_MAX_EMPTIES,
    TRAIN_OPT_PER_EMPTIES,
    TRAIN_OPT_MAX_DEPTH,
    TRAIN_OPT_BASE,
    TRAIN_OPT_UPDATE,
    TRAIN_OPT_PLIES,
    TRAIN_OPT_MIN_GAMES,
    TRAIN_OPT_DEPTH,
    TRAIN_OPT_POSITIONS,
    TRAIN_OPT_OPTIMIZER,
    TRAIN_OPT_L2,
    TRAIN_OPT_VALIDATION,
    TRAIN_OPT_PATIENCE,
    TRAIN_OPT_FIRST_GAME,
    TRAIN_OPT_RANDOM_MOVES,
    TRAIN_OPT_EXACT,
    TRAIN_OPT_RANDOM_RATE,
    TRAIN_OPT_LABEL_DEPTH,
    TRAIN_OPT_HASH,
    TRAIN_OPT_ENDGAME_SIGMA,
    TRAIN_OPT_POSITION_TARGET,
    TRAIN_OPT_LABELLED,
    TRAIN_OPT_COUNT
};

typedef struct TrainArgs {
    const char *logbook;
    const char *wthor;
    const char *shape;
    const char *out;
    const char *name;
    const char *file;      /* the one plain argument (dump) */
    const char *weights;   /* the model whose shallow searches a probcut fit measures */
    const char *labels;    /* regress: an OBF file of exactly labelled positions to add */
    int label_weight;      /* regress: visits of each labelled position per epoch */
    PositionTarget position_target; /* regress: the label of positions files' inexact part */
    LabelOptions label;
    int phase_width;
    RegressOptions regress;
    ProbcutFitOptions fit;
    MpcFitOptions mpc;
    const char *base;      /* mpc: an existing .mpc whose endgame part is kept */
    double endgame_sigma;  /* mpc: > 0 writes a constant endgame error model of this many discs */
    TdOptions td;
    ShapeGaOptions ga;
    const char *out_dir;    /* shapes: where the islands' shapes go */
    const char *stages;     /* regress: "0:SHAPE,33:SHAPE,...", a shape per game stage */
    EvolveOptions evolve;
    CoevolveOptions coevolve;
    ModelPerspective perspective; /* td, evolve, coevolve, and League text read by league */
    bool perspective_given;
    const char *league_out; /* td: the network in League text as well */
    const char *league_in;  /* league: a network in League text */
    const char *opponent;   /* league: swh, random or a weights file */
    int double_games;       /* league; evolve and coevolve: the final measure */
    int coevolve_measure;   /* coevolve: League games of the best at each progress line */
    int measure_every;      /* -1 until given: each command has its own default */
    bool phase_width_given;
    double epsilon;         /* league */
    int book_plies;         /* book: positions after at most this many moves */
    int book_min_games;     /* book: positions fewer games reached are left out */
    int book_depth;         /* book: search depth of the deviations */
    int threads;            /* book */
    const char *update;     /* book: the book to grow or finish instead of a new one */
    SelfplayOptions selfplay;
    const char *positions;  /* regress, merge, error: positions files, "A,B,..." */
    EvalErrorOptions error; /* error: the sample and the search depths */
    bool given[TRAIN_OPT_COUNT]; /* the options on the command line, each at most once */
} TrainArgs;

/* The commands (train_fit.c, train_learn.c, train_book.c). */
int train_regress(const TrainArgs *args);
int train_label(const TrainArgs *args);
int train_probcut(const TrainArgs *args);
int train_mpc(const TrainArgs *args);
int train_dump(const TrainArgs *args);
int train_mpc_upgrade(const TrainArgs *args);
int train_td(const TrainArgs *args);
int train_evolve(const TrainArgs *args);
int train_coevolve(const TrainArgs *args);
int train_shapes(const TrainArgs *args);
int train_league(const TrainArgs *args);
int train_book(const TrainArgs *args);
int train_selfplay(const TrainArgs *args);
int train_merge(const TrainArgs *args);
int train_error(const TrainArgs *args);

/* train_selfplay.c: splits "A,B,C" into at most `most` names pointing into `buffer`; -1 when
 * a name is empty or there are too many. */
int train_split_list(const char *text, char *buffer, size_t size, const char **names, int most);

/* train_args.c: the table of every option (indexed by TrainOption: name, value, help);
 * whether `option` (TRAIN_OPT_*) was given; sets the option's field(s) from `value` (false
 * when the value is bad); whether the outputs stay clear of the inputs and of each other
 * (said on standard error when not). */
extern const OptSpec train_options[TRAIN_OPT_COUNT];
bool train_args_given(const TrainArgs *args, int option);
bool train_option_set(TrainArgs *args, int option, const char *value);
bool train_outputs_apart(const char *command, const TrainArgs *args);

/* train_io.c */
Model *train_weights_load(const char *path);
bool train_games_add(TrainSet *set, const TrainArgs *args, OctError *error);
bool train_collect_games(const TrainArgs *args, Game **out, size_t *count, OctError *error);
bool train_shape_is_file(const char *name);
bool train_shape_make(const char *name, uint64_t seed, Shape *shape, OctError *error);
bool train_output_ready(const char *command, const char *path, bool directory);
/* The data options given, for a message: "--logbook FILE and --wthor DIR" (and --labels
 * FILE when `labels`). */
void train_data_name(const TrainArgs *args, bool labels, char *out, size_t size);

#endif
