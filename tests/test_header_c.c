// The public header as a strict C11 consumer sees it: built with -std=c11 -Wall -Wextra -Wpedantic
// -Werror, and only the public API used.
#include "manyfold.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    mf_bank *bank = NULL;
    uint32_t shape = 0;
    if (mf_bank_create(&bank) != MF_OK) return 1;
    mf_vec3 half = {0.5f, 0.5f, 0.5f};
    if (mf_bank_add_box(bank, half, &shape) != MF_OK) return 1;
    mf_config config = mf_config_default();
    mf_context *context = NULL;
    if (mf_context_create(&config, &context) != MF_OK) return 1;
    uint32_t shapes[2] = {shape, shape};
    mf_transform transforms[2] = {{{0, 0, 0}, {0, 0, 0, 1}}, {{0, 0.99f, 0}, {0, 0, 0, 1}}};
    mf_bodies bodies = {.shape = shapes, .transform = transforms, .count = 2};
    mf_pair pair = {0, 1};
    mf_manifold manifold;
    mf_contact contacts[MF_MAX_CONTACTS];
    mf_stream stream = {&manifold, 1, 0, contacts, MF_MAX_CONTACTS, 0, 0, NULL, 0, 0};
    mf_status status = mf_collide(context, bank, &bodies, &pair, 1, &stream);
    mf_mass mass = {0};
    int ok = status == MF_OK && stream.manifold_count == 1 && strlen(mf_version()) > 0 &&
             mf_bank_shape_mass(bank, shape, 1000.0f, &mass) == MF_OK && mass.mass > 999.0f &&
             mass.principal_rotation.w > 0.0f && MF_FEATURE_KIND(MF_ID_FEATURE_A(0x80000000u)) == MF_FEATURE_FACE;
    printf("C11 consumer: %s, %u contacts, library %s, header %s\n", mf_status_string(status), stream.contact_count,
           mf_version(), MF_VERSION_STRING);
    mf_context_destroy(context);
    mf_bank_destroy(bank);
    return ok ? 0 : 1;
}
