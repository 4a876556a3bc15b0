// Progress bar drawing: one line, rewritten in place with a carriage return.
#include "progress.h"

#include "stopwatch.h"

#include <stdio.h>
#include <unistd.h>

#define PROGRESS_DELAY_SECONDS 1.0
#define PROGRESS_BAR_WIDTH 30

void progress_begin(progress *p, const char *label)
{
    *p = (progress){.enabled = isatty(STDERR_FILENO) == 1, .label = label};
    p->start = stopwatch_seconds();
}

void progress_update(progress *p, double fraction)
{
    if (!p->enabled) return;
    double now = stopwatch_seconds();
    if (now - p->start < PROGRESS_DELAY_SECONDS || now - p->last_draw < 0.1) return;
    p->last_draw = now;
    fraction = fraction < 0.0 ? 0.0 : fraction > 1.0 ? 1.0 : fraction;
    char bar[PROGRESS_BAR_WIDTH + 1];
    int filled = (int)(fraction * PROGRESS_BAR_WIDTH + 0.5);
    for (int i = 0; i < PROGRESS_BAR_WIDTH; ++i) bar[i] = i < filled ? '#' : '.';
    bar[PROGRESS_BAR_WIDTH] = '\0';
    double elapsed = now - p->start;
    double remaining = fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
    fprintf(stderr, "\r%s [%s] %3.0f%%  %.0fs left ", p->label, bar, 100.0 * fraction, remaining);
    fflush(stderr);
    p->shown = true;
}

void progress_end(progress *p)
{
    if (!p->shown) return;
    fprintf(stderr, "\r\033[K"); // erase the line
    fflush(stderr);
    p->shown = false;
}
