// What the benchmarks ask of the machine they run on: its hardware threads and the process's
// resident memory.
#pragma once

#include <stddef.h>
#include <stdint.h>

// The hardware threads (logical CPUs) this process may run on, which taskset or a launcher may
// have narrowed; at least 1.
uint32_t bench_hardware_threads(void);

// The logical CPUs online, whether or not this process may run on them; at least 1.
uint32_t bench_online_cpus(void);

// Pins the calling thread to one logical CPU, keeping its affinity for bench_unpin_caller; 0 where
// the CPU is not one the thread may run on, or the system cannot pin threads (Linux only).
int bench_pin_caller(int cpu);
// Gives the calling thread back the affinity bench_pin_caller found.
void bench_unpin_caller(void);

// The process's resident memory in MiB now (VmRSS) and at its peak (VmHWM), from
// /proc/self/status; negative where the system does not say.
double bench_resident_mb(void);
double bench_peak_resident_mb(void);

// Writes a byte of every page, so that first-use page faults happen now, not in a timed loop. (A
// memset to 0 right after malloc does not do it: compilers turn the pair into calloc, which
// leaves fresh pages untouched.)
void bench_touch_pages(void *memory, size_t size);

// Hands memory the process freed back to the system where the C library keeps it (glibc), so that
// the resident size counts live memory only and what is allocated next shows up in it.
void bench_release_free_memory(void);

// Restarts the peak at the current resident size (Linux 4.0+, /proc/self/clear_refs), so that a
// benchmark can measure its own peak; 0 when the system does not allow it.
int bench_reset_peak_resident(void);
