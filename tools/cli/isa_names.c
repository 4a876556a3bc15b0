// ISA names, checked against the library's own spelling so the two cannot drift apart.
#include "isa_names.h"

#include <stdio.h>
#include <string.h>

bool isa_from_name(const char *name, mf_isa *isa)
{
    for (int i = MF_ISA_AUTO; i <= MF_ISA_NEON; ++i) {
        if (strcmp(name, mf_isa_name((mf_isa)i)) == 0) {
            *isa = (mf_isa)i;
            return true;
        }
    }
    return false;
}

// The architecture this program was compiled for: an ISA of the other family never runs here.
#if defined(__x86_64__) || defined(_M_X64)
#define ISA_BUILT_FOR "x86-64"
#define ISA_BUILT_FOR_X86 1
#elif defined(__aarch64__) || defined(_M_ARM64)
#define ISA_BUILT_FOR "aarch64"
#define ISA_BUILT_FOR_X86 0
#else
#define ISA_BUILT_FOR "this processor"
#define ISA_BUILT_FOR_X86 0
#endif

void isa_why_unsupported(mf_isa isa, char *text, size_t size)
{
    const char *name = mf_isa_name(isa);
    int used;
    if (isa == MF_ISA_NEON && ISA_BUILT_FOR_X86)
        used = snprintf(text, size, "neon is ARM's (aarch64) and this program is built for %s", ISA_BUILT_FOR);
    else if (isa != MF_ISA_NEON && isa != MF_ISA_SCALAR && !ISA_BUILT_FOR_X86)
        used = snprintf(text, size, "%s is x86-64's and this program is built for %s", name, ISA_BUILT_FOR);
    else used = snprintf(text, size, "this CPU (or this build) cannot run %s", name);
    size_t at = used > 0 && (size_t)used < size ? (size_t)used : size;
    if (at < size) {
        int more = snprintf(text + at, size - at, "; here: auto (%s)", mf_isa_name(mf_isa_best()));
        at = more > 0 && (size_t)more < size - at ? at + (size_t)more : size;
    }
    for (int i = MF_ISA_SCALAR; i <= MF_ISA_NEON && at < size; ++i) {
        if (!mf_isa_supported((mf_isa)i)) continue;
        int more = snprintf(text + at, size - at, ", %s", mf_isa_name((mf_isa)i));
        at = more > 0 && (size_t)more < size - at ? at + (size_t)more : size;
    }
}
