/* The engine binary: reads options and runs the chosen front end or tool. */
#include <stdio.h>

#include "config.h"
#include "options.h"
#include "tools.h"

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
        return tools_perft(&options, stdout);
    case ACTION_SOLVE:
        return tools_solve(&options, options.solve_path, stdout);
    case ACTION_HELP:
    default:
        options_usage(stdout, "octuple");
        return 0;
    }
}
