// ISA names, checked against the library's own spelling so the two cannot drift apart.
#include "isa_names.h"

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
