#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

bool error_set(OctError *error, const char *format, ...)
{
    if (error) {
        va_list args;
        va_start(args, format);
        vsnprintf(error->message, sizeof error->message, format, args);
        va_end(args);
    }
    return false;
}

bool error_prefix(OctError *error, const char *format, ...)
{
    if (error) {
        char prefix[ERROR_MESSAGE_SIZE];
        char rest[ERROR_MESSAGE_SIZE];
        va_list args;
        va_start(args, format);
        vsnprintf(prefix, sizeof prefix, format, args);
        va_end(args);
        memcpy(rest, error->message, sizeof rest);
        size_t used = strlen(prefix);
        memcpy(error->message, prefix, used);
        size_t room = sizeof error->message - 1 - used;
        size_t tail = strnlen(rest, room);
        memcpy(error->message + used, rest, tail);
        error->message[used + tail] = '\0';
    }
    return false;
}
