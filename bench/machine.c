// Machine facts for the benchmarks (see machine.h): sysconf and Linux's /proc/self, and the
// calling thread's affinity.
#if defined(__linux__)
#define _GNU_SOURCE // pthread_setaffinity_np
#else
#define _POSIX_C_SOURCE 200809L
#endif
#include "machine.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

uint32_t bench_hardware_threads(void)
{
#if defined(__linux__)
    // The CPUs this process may run on (taskset, a launcher's binding), not all that are online.
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0 && CPU_COUNT(&allowed) > 0)
        return (uint32_t)CPU_COUNT(&allowed);
#endif
    return bench_online_cpus();
}

uint32_t bench_online_cpus(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (uint32_t)online : 1u;
}

#if defined(__linux__)
static cpu_set_t caller_affinity; // the affinity bench_pin_caller found
#endif

int bench_pin_caller(int cpu)
{
#if defined(__linux__)
    if (cpu < 0 || cpu >= CPU_SETSIZE) return 0;
    if (pthread_getaffinity_np(pthread_self(), sizeof(caller_affinity), &caller_affinity) != 0) return 0;
    if (!CPU_ISSET(cpu, &caller_affinity)) return 0;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return pthread_setaffinity_np(pthread_self(), sizeof(one), &one) == 0;
#else
    (void)cpu;
    return 0;
#endif
}

void bench_unpin_caller(void)
{
#if defined(__linux__)
    pthread_setaffinity_np(pthread_self(), sizeof(caller_affinity), &caller_affinity);
#endif
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
