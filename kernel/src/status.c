// Status sentences and version strings.
#include "manyfold.h"

const char *mf_status_string(mf_status status)
{
    switch (status) {
    case MF_OK:
        return "success";
    case MF_ERR_INVALID_ARGUMENT:
        return "invalid argument: a NULL pointer, an out-of-range body or shape id, a pair naming one body "
               "twice, a zero quaternion, a density of zero or less or a configuration value out of range (see "
               "mf_context_message, mf_config_check or mf_bank_message)";
    case MF_ERR_NONFINITE:
        return "non-finite input: a point, half extent, transform or density holds NaN or infinity, or a mass "
               "or moment of inertia would be beyond float";
    case MF_ERR_DEGENERATE_HULL:
        return "degenerate hull: the points span no volume (fewer than 4 points, or all coplanar, collinear "
               "or coincident); give points that enclose a solid";
    case MF_ERR_HULL_TOO_LARGE:
        return "hull too large: more than 1024 hull vertices, 2048 faces, 128 vertices on one face, "
               "4194304 input points or coordinates beyond 1e7; simplify the point cloud";
    case MF_ERR_CAPACITY:
        return "output stream full: it holds the complete output for pairs [0, pairs_done); consume it and "
               "call again with pairs + pairs_done, or size the stream with mf_stream_bound";
    case MF_ERR_OUT_OF_MEMORY:
        return "out of memory: an allocation failed; nothing was changed";
    case MF_ERR_UNSUPPORTED_ISA:
        return "unsupported ISA: this CPU or this build cannot run the requested instruction set; use "
               "MF_ISA_AUTO or check mf_isa_supported";
    }
    return "unknown status: not a value of mf_status";
}

const char *mf_version(void) { return MF_VERSION_STRING; }
