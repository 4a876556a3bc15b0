// Machine facts for the benchmarks (see machine.h): sysconf and Linux's /proc/self.
#define _POSIX_C_SOURCE 200809L
#include "machine.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

uint32_t bench_hardware_threads(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (uint32_t)online : 1u;
}

// A "Key:   1234 kB" line of /proc/self/status, in MiB.
static double status_mb(const char *key)
{
    FILE *file = fopen("/proc/self/status", "r");
    if (file == NULL) return -1.0;
    char line[256];
    double mb = -1.0;
    size_t length = strlen(key);
    while (fgets(line, sizeof(line), file) != NULL) {
        unsigned long long kb;
        if (strncmp(line, key, length) == 0 && line[length] == ':' && sscanf(line + length + 1, "%llu", &kb) == 1) {
            mb = (double)kb / 1024.0;
            break;
        }
    }
    fclose(file);
    return mb;
}

double bench_resident_mb(void) { return status_mb("VmRSS"); }

double bench_peak_resident_mb(void) { return status_mb("VmHWM"); }

void bench_touch_pages(void *memory, size_t size)
{
    volatile unsigned char *bytes = memory;
    long page = sysconf(_SC_PAGESIZE);
    size_t step = page > 0 ? (size_t)page : 4096;
    for (size_t i = 0; i < size; i += step) bytes[i] = bytes[i];
}

void bench_release_free_memory(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

int bench_reset_peak_resident(void)
{
    FILE *file = fopen("/proc/self/clear_refs", "w");
    if (file == NULL) return 0;
    int written = fputs("5", file) >= 0; // 5: reset the peak resident size to the current one
    return fclose(file) == 0 && written;
}
