// A progress bar on stderr, for runs that take more than a second and only when stderr is a
// terminal: logs and pipes stay clean.
#pragma once

#include <stdbool.h>

typedef struct progress {
    bool enabled; // stderr is a terminal
    bool shown;   // something was drawn and must be cleared
    double start, last_draw;
    const char *label;
} progress;

void progress_begin(progress *progress, const char *label);

// fraction in [0, 1]; cheap to call often: it draws at most ten times a second.
void progress_update(progress *progress, double fraction);

// Clears the bar, so the report that follows starts on a clean line.
void progress_end(progress *progress);
