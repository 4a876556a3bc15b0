// `manyfold info`: what this build and this machine offer: library version, CPU features, the ISA
// that MF_ISA_AUTO picks, and the cores the worker threads would use.
#include "args.h"
#include "commands.h"
#include "manyfold.h"
#include "topology.h"

#include <stdio.h>
#include <stdlib.h>

static const char info_help[] =
    "Usage: manyfold info\n"
    "\n"
    "Print the library version, the CPU's SIMD features, the instruction set the library picks\n"
    "(MF_ISA_AUTO), those it can run, and the machine's cores and caches.\n"
    "\n"
    "Options:\n"
    "  -h, --help     show this help\n";

static void print_cpu_features(void)
{
    printf("cpu features     ");
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    __builtin_cpu_init();
    printf("sse4.1 %s, avx2 %s, fma %s, avx512f %s, avx512vbmi2 %s\n", __builtin_cpu_supports("sse4.1") ? "yes" : "no",
           __builtin_cpu_supports("avx2") ? "yes" : "no", __builtin_cpu_supports("fma") ? "yes" : "no",
           __builtin_cpu_supports("avx512f") ? "yes" : "no", __builtin_cpu_supports("avx512vbmi2") ? "yes" : "no");
#elif defined(__aarch64__)
    printf("neon yes (every aarch64 CPU has it)\n");
#elif defined(__arm__) && defined(__ARM_NEON)
    printf("neon yes (this build targets it)\n");
#else
    printf("unknown on this architecture\n");
#endif
}

static void print_size(const char *label, uint64_t bytes)
{
    if (bytes == 0) return;
    if (bytes >= (1u << 20)) printf("%s %.1f MiB", label, (double)bytes / (1u << 20));
    else printf("%s %.0f KiB", label, (double)bytes / 1024.0);
}

int info_command(int argc, char **argv)
{
    static const struct option options[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    if (arg_next("info", argc, argv, ":h", options) == 'h') {
        fputs(info_help, stdout);
        return CLI_EXIT_OK;
    }
    if (optind < argc) usage_error("info", "takes no arguments, but got '%s'", argv[optind]);

    printf("manyfold         %s (library), %s (headers)\n", mf_version(), MF_VERSION_STRING);
    print_cpu_features();
    printf("isa (auto)       %s: %s\n", mf_isa_name(mf_isa_best()), mf_isa_best_reason());
    printf("isas supported  ");
    for (int isa = MF_ISA_SCALAR; isa <= MF_ISA_NEON; ++isa)
        if (mf_isa_supported((mf_isa)isa)) printf(" %s", mf_isa_name((mf_isa)isa));
    printf("\n");

    cli_topology t = cli_topology_read();
    if (t.from_hwloc) {
        printf("topology         %u package%s, %u NUMA node%s, %u cores, %u hardware threads", t.packages,
               t.packages == 1 ? "" : "s", t.numa_nodes, t.numa_nodes == 1 ? "" : "s", t.cores, t.processing_units);
        print_size(", L2", t.l2_bytes);
        print_size(", L3", t.l3_bytes);
        printf(" (hwloc)\n");
    } else {
        printf("topology         %u processors online (sysconf; built without hwloc)\n", t.processing_units);
    }
    printf("threads (0)      %u, one worker per core\n", t.cores);
    return CLI_EXIT_OK;
}
