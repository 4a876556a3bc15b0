// The public header from C++: it compiles with -Wall -Wextra -Wpedantic -Werror, its functions
// have C linkage (this links against the C library), and the types behave as plain C++ structs.
#include "manyfold.h"

#include <cstdio>
#include <cstring>
#include <type_traits>

static_assert(std::is_trivially_copyable<mf_contact>::value, "mf_contact is a plain struct");
static_assert(std::is_standard_layout<mf_stream>::value, "mf_stream is a plain struct");
static_assert(sizeof(mf_vec3) == 3 * sizeof(float), "mf_vec3 is three floats");
static_assert(std::is_trivially_copyable<mf_mass>::value, "mf_mass is a plain struct");

int main()
{
    mf_bank *bank = nullptr;
    uint32_t shape = 0;
    if (mf_bank_create(&bank) != MF_OK) return 1;
    const mf_vec3 points[8] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                               {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
    if (mf_bank_add_hull(bank, points, 8, &shape) != MF_OK) return 1;
    mf_shape_info info{};
    if (mf_bank_shape_info(bank, shape, &info) != MF_OK || info.vertex_count != 8) return 1;
    mf_mass mass{};
    if (mf_bank_shape_mass(bank, shape, 1.0f, &mass) != MF_OK || mass.inertia[0] <= 0.0f) return 1;
    mf_context *context = nullptr;
    const mf_config config = mf_config_default();
    if (mf_context_create(&config, &context) != MF_OK) return 1;
    const uint32_t shapes[2] = {shape, shape};
    const mf_transform transforms[2] = {{{0, 0, 0}, {0, 0, 0, 1}}, {{0, 1.99f, 0}, {0, 0, 0, 1}}};
    const mf_bodies bodies{shapes, transforms, 2, nullptr};
    const mf_pair pair{0, 1};
    mf_manifold manifold{};
    mf_contact contacts[MF_MAX_CONTACTS]{};
    mf_stream stream{&manifold, 1, 0, contacts, MF_MAX_CONTACTS, 0, 0, nullptr, 0, 0};
    const mf_status status = mf_collide(context, bank, &bodies, &pair, 1, &stream);
    const bool ok = status == MF_OK && stream.manifold_count == 1 && std::strlen(mf_status_string(status)) > 0 &&
                    MF_ID_FEATURE_B(0x12345678u) == 0x5678u && std::strcmp(mf_isa_name(MF_ISA_SCALAR), "scalar") == 0;
    std::printf("C++ consumer: %s, %u contacts, isa %s\n", mf_status_string(status), stream.contact_count,
                mf_isa_name(mf_context_isa(context)));
    mf_context_destroy(context);
    mf_bank_destroy(bank);
    return ok ? 0 : 1;
}
