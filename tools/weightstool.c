/* Maintainer tool for weights files (not installed):
 *   weightstool import-league NETWORK.txt OUT.ow   Othello League text -> weights file
 *   weightstool dump FILE.ow                       model_dump of a weights file
 *   weightstool dump-league NETWORK.txt            model_dump of an imported League network
 *   weightstool rename FILE.ow NAME OUT.ow         the same weights under another name
 * The engine will expose the dump itself; this exists so weights/ can be regenerated. */
#include <stdio.h>
#include <string.h>

#include "core/league.h"
#include "core/model.h"
#include "core/modeldump.h"
#include "core/weights.h"

static int usage(void)
{
    fputs("usage: weightstool import-league NETWORK.txt OUT.ow\n"
          "       weightstool dump FILE.ow\n"
          "       weightstool dump-league NETWORK.txt\n"
          "       weightstool rename FILE.ow NAME OUT.ow\n", stderr);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    const char *command = argv[1];
    Model *model = NULL;
    OctError error;
    bool ok;
    if (strcmp(command, "import-league") == 0 && argc == 4) {
        ok = model_import_league(argv[2], &model, &error) && model_save(model, argv[3], &error);
    } else if (strcmp(command, "dump") == 0 && argc == 3) {
        ok = model_load(argv[2], &model, &error);
        if (ok)
            model_dump(stdout, model);
    } else if (strcmp(command, "dump-league") == 0 && argc == 3) {
        ok = model_import_league(argv[2], &model, &error);
        if (ok)
            model_dump(stdout, model);
    } else if (strcmp(command, "rename") == 0 && argc == 5) {
        ok = model_load(argv[2], &model, &error);
        if (ok && strlen(argv[3]) >= sizeof model->name)
            ok = error_set(&error, "'%s' is longer than a name's %zu characters", argv[3],
                           sizeof model->name - 1);
        if (ok) {
            snprintf(model->name, sizeof model->name, "%s", argv[3]);
            ok = model_save(model, argv[4], &error);
        }
    } else {
        return usage();
    }
    model_free(model);
    if (!ok) {
        fprintf(stderr, "weightstool: %s\n", error.message);
        return 1;
    }
    return 0;
}
