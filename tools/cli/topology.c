// Reading the topology: hwloc's object counts, or the online processor count as a fallback.
#include "topology.h"

#include <unistd.h>

#if MANYFOLD_CLI_HWLOC
#include <hwloc.h>

static unsigned count_type(hwloc_topology_t topology, hwloc_obj_type_t type)
{
    int n = hwloc_get_nbobjs_by_type(topology, type);
    return n > 0 ? (unsigned)n : 0;
}

static uint64_t cache_size(hwloc_topology_t topology, hwloc_obj_type_t type)
{
    hwloc_obj_t cache = hwloc_get_obj_by_type(topology, type, 0);
    return cache != NULL && cache->attr != NULL ? cache->attr->cache.size : 0;
}
#endif

cli_topology cli_topology_read(void)
{
    cli_topology t = {0};
#if MANYFOLD_CLI_HWLOC
    hwloc_topology_t topology;
    if (hwloc_topology_init(&topology) == 0) {
        if (hwloc_topology_load(topology) == 0) {
            t.from_hwloc = true;
            t.packages = count_type(topology, HWLOC_OBJ_PACKAGE);
            t.numa_nodes = count_type(topology, HWLOC_OBJ_NUMANODE);
            t.cores = count_type(topology, HWLOC_OBJ_CORE);
            t.processing_units = count_type(topology, HWLOC_OBJ_PU);
            t.l2_bytes = cache_size(topology, HWLOC_OBJ_L2CACHE);
            t.l3_bytes = cache_size(topology, HWLOC_OBJ_L3CACHE);
        }
        hwloc_topology_destroy(topology);
    }
#endif
    if (t.processing_units == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        t.processing_units = online > 0 ? (unsigned)online : 1;
    }
    if (t.cores == 0) t.cores = t.processing_units;
    return t;
}
