// Formatting of one-line error messages.
#include "cli_error.h"

#include <stdarg.h>
#include <stdio.h>

bool cli_fail(cli_error *error, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(error->text, sizeof(error->text), format, args);
    va_end(args);
    return false;
}
