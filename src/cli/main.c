/* The engine binary: reads options and runs the chosen front end or tool. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "config.h"
#include "engine/engine.h"
#include "cli/gtp.h"
#include "cli/input.h"
#include "cli/nboard.h"
#include "cli/options.h"
#include "cli/repl.h"
#include "cli/tools.h"

/* The REPL, the NBoard protocol or GTP over stdin/stdout. */
static int run_front_end(const Options *options)
{
    Engine *engine;
    OctError error;
    if (!engine_create(&options->settings, &engine, &error)) {
        /* NBoard shows stdout lines starting with `status` to the user */
        if (options->action == ACTION_NBOARD)
            printf("status error: %s\n", error.message);
        fprintf(stderr, "octuple: error: %s\n", error.message);
        return 1;
    }
    if (options->has_board)
        engine_set_position(engine, &options->board, options->side);
    Input input;
    input_init(&input, STDIN_FILENO);
    int status = options->action == ACTION_NBOARD ? nboard_run(engine, &input, stdout, 0)
                 : options->action == ACTION_GTP  ? gtp_run(engine, &input, stdout)
                                                  : repl_run(engine, &input, stdout,
                                                             options->color);
    input_free(&input);
    engine_free(engine);
    return status;
}

int main(int argc, char **argv)
{
    /* a GUI or a script that goes away must not kill us in the middle of a write */
    signal(SIGPIPE, SIG_IGN);
    /* nor a file-size limit (ulimit -f): a write beyond it fails with EFBIG, the save says
     * so and leaves the old file */
    signal(SIGXFSZ, SIG_IGN);
    Options options;
    OctError error;
    if (!options_parse(argc, argv, &options, &error)) {
        fprintf(stderr, "octuple: %s\n", error.message);
        options_usage(stderr, "octuple");
        return 2;
    }
    switch (options.action) {
    case ACTION_VERSION:
        printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
        return 0;
    case ACTION_PERFT:
        return tools_perft(&options, stdout);
    case ACTION_SOLVE:
        return tools_solve(&options, options.solve_path, stdout, stderr);
    case ACTION_BENCH:
        return tools_bench(&options, stdout, stderr);
    case ACTION_REPL:
    case ACTION_NBOARD:
    case ACTION_GTP:
        return run_front_end(&options);
    case ACTION_HELP:
    default:
        options_usage(stdout, "octuple");
        return 0;
    }
}
