// The machine's cores and caches, from hwloc when the build has it, else from sysconf.
#pragma once

#include <stdbool.h>
#include <stdint.h>

typedef struct cli_topology {
    bool from_hwloc;
    unsigned packages, numa_nodes, cores, processing_units;
    uint64_t l2_bytes, l3_bytes; // of the first cache found at that level (0 if unknown)
} cli_topology;

cli_topology cli_topology_read(void);
