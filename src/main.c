/* The engine binary: reads options and runs the chosen front end or tool. */
#include <stdio.h>
#include <time.h>

#include "config.h"
#include "board.h"
#include "notation.h"
#include "options.h"
#include "perft.h"

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static int run_perft(const Options *options)
{
    char diagram[BOARD_DIAGRAM_SIZE];
    fputs(board_diagram(&options->board, options->side, diagram), stdout);
    for (int depth = 1; depth <= options->perft_depth; ++depth) {
        double start = seconds_now();
        unsigned long long leaves = perft_count(&options->board, depth);
        double elapsed = seconds_now() - start;
        printf("perft %2d: %15llu leaves %10.3f s %12.0f leaves/s\n", depth, leaves, elapsed,
               elapsed > 0 ? (double)leaves / elapsed : 0.0);
        fflush(stdout);
    }
    return 0;
}

int main(int argc, char **argv)
{
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
        return run_perft(&options);
    case ACTION_HELP:
    default:
        options_usage(stdout, "octuple");
        return 0;
    }
}
