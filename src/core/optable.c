#include "core/optable.h"

#include <string.h>

void optable_begin(OptScan *scan, int argc, char **argv, int first, bool refuse_dash_value)
{
    scan->argc = argc;
    scan->argv = argv;
    scan->next = first;
    scan->refuse_dash_value = refuse_dash_value;
}

const OptSpec *optable_find(const OptSpec *table, int count, const char *name, size_t length)
{
    for (int i = 0; i < count; ++i)
        if (table[i].name && strlen(table[i].name) == length
            && !strncmp(table[i].name, name, length))
            return &table[i];
    return NULL;
}

OptResult optable_next(OptScan *scan, const OptSpec *table, int count, const OptSpec **spec,
                       const char **value, OctError *error)
{
    *spec = NULL;
    *value = NULL;
    if (scan->next >= scan->argc)
        return OPT_END;
    const char *arg = scan->argv[scan->next++];
    if (strncmp(arg, "--", 2) != 0 || !arg[2]) {
        *value = arg;
        return OPT_ARGUMENT;
    }
    const char *name = arg + 2;
    const char *equals = strchr(name, '=');
    size_t length = equals ? (size_t)(equals - name) : strlen(name);
    const OptSpec *found = optable_find(table, count, name, length);
    if (!found) {
        error_set(error, "unknown option '%.*s'", (int)(length + 2), arg);
        return OPT_ERROR;
    }
    if (!found->argument) {
        if (equals) {
            error_set(error, "--%s takes no value", found->name);
            return OPT_ERROR;
        }
    } else if (equals) {
        *value = equals + 1;
    } else if (scan->next < scan->argc
               && !(scan->refuse_dash_value && !strncmp(scan->argv[scan->next], "--", 2))) {
        *value = scan->argv[scan->next++];
    } else {
        error_set(error, "--%s needs a value (%s)", found->name, found->argument);
        return OPT_ERROR;
    }
    *spec = found;
    return OPT_OPTION;
}

void optable_wrap(FILE *out, const char *text, int indent, int column)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            ++p;
        if (!*p)
            break;
        size_t word = strcspn(p, " ");
        bool first_on_line = column <= indent;
        if (!first_on_line && column + 1 + (int)word > OPTABLE_WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            column = indent;
            first_on_line = true;
        }
        if (!first_on_line) {
            fputc(' ', out);
            ++column;
        }
        fwrite(p, 1, word, out);
        column += (int)word;
        p += word;
    }
    fputc('\n', out);
}

void optable_print(FILE *out, const char *name, const char *argument, const char *help)
{
    char left[128];
    snprintf(left, sizeof left, "--%s%s%s", name, argument ? " " : "", argument ? argument : "");
    optable_print_item(out, left, help);
}

void optable_print_item(FILE *out, const char *left, const char *help)
{
    int column = fprintf(out, "  %s", left);
    if (column > OPTABLE_HELP_COLUMN - 2) { /* no room: the help on lines of its own */
        fprintf(out, "\n%*s", OPTABLE_HELP_COLUMN, "");
        column = OPTABLE_HELP_COLUMN;
    } else {
        fprintf(out, "%*s", OPTABLE_HELP_COLUMN - column, "");
        column = OPTABLE_HELP_COLUMN;
    }
    optable_wrap(out, help, OPTABLE_HELP_COLUMN, column);
}

void optable_print_all(FILE *out, const OptSpec *table, int count)
{
    for (int i = 0; i < count; ++i)
        if (table[i].name)
            optable_print(out, table[i].name, table[i].argument, table[i].help);
        else
            fprintf(out, "%s:\n", table[i].help);
}
