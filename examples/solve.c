/* Solves the positions of an OBF file (one per line: 64 squares, the side to move, then
 * "; MOVE:SCORE; ..." with the best score first) through the embedding library, one thread,
 * and checks each score against the file's: a program of a few lines doing what
 * `octuple --solve` does.
 *
 *     cc solve.c -o solve $(pkg-config --cflags --libs octuple)
 *     ./solve fforum-20-39.obf [WEIGHTS]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <octuple.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: solve FILE.obf [WEIGHTS]\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "r");
    if (!file) {
        perror(argv[1]);
        return 1;
    }
    char error[OCTUPLE_ERROR_SIZE];
    Octuple *octuple = octuple_open(argc == 3 ? argv[2] : NULL, error, sizeof error);
    if (!octuple || !octuple_set_option(octuple, "threads", "1", error, sizeof error)
        || !octuple_set_option(octuple, "book", "off", error, sizeof error)
        || !octuple_set_option(octuple, "exact", "60", error, sizeof error)) {
        fprintf(stderr, "solve: %s\n", error);
        octuple_close(octuple);
        fclose(file);
        return 1;
    }
    char line[1024];
    int count = 0, wrong = 0, number = 0;
    double seconds = 0;
    unsigned long long nodes = 0;
    while (fgets(line, sizeof line, file)) {
        ++number;
        char *rest = strchr(line, ';');
        if (line[0] == '%' || line[0] == '\n')
            continue; /* a comment or an empty line */
        if (rest)
            *rest++ = '\0'; /* the board ends at the first ';' */
        if (!octuple_set_board(octuple, line, error, sizeof error)) {
            fprintf(stderr, "solve: %s:%d: %s\n", argv[1], number, error);
            continue;
        }
        OctupleResult result;
        double start = now();
        if (!octuple_think(octuple, NULL, &result, error, sizeof error)) {
            fprintf(stderr, "solve: %s:%d: %s\n", argv[1], number, error);
            continue;
        }
        double took = now() - start;
        char name[3], *colon = rest ? strchr(rest, ':') : NULL;
        bool known = colon != NULL;
        bool right = !known || atoi(colon + 1) == (int)result.score;
        printf("%3d  %s  %+3.0f%s  %8.3f s  %12llu\n", ++count,
               octuple_move_name(result.move, name), result.score,
               right ? "" : "  (wrong)", took, (unsigned long long)result.nodes);
        wrong += !right;
        seconds += took;
        nodes += result.nodes;
    }
    fclose(file);
    octuple_close(octuple);
    printf("solved %d positions: %d wrong scores, %.3f s, %llu nodes\n", count, wrong, seconds,
           nodes);
    return wrong != 0;
}
