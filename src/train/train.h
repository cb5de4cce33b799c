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
    const char *given[64];  /* the options on the command line, each at most once */
    int given_count;
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

/* train_args.c: whether `option` ("--name") was given; sets the option's field(s) from
 * `value` (false when the value is bad); whether the outputs stay clear of the inputs and
 * of each other (said on standard error when not). */
bool train_args_given(const TrainArgs *args, const char *option);
bool train_option_set(TrainArgs *args, const char *option, const char *value);
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
