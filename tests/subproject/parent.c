// The parent's one program: a crate resting on a floor, through manyfold's public API, must come back
// as one manifold of four corners with its normal up. Exits non-zero, naming the step, on anything else.
#include <manyfold.h>

#include <stdio.h>

static int failed(const char *step, mf_status status)
{
    fprintf(stderr, "parent: %s: %s\n", step, mf_status_string(status));
    return 1;
}

int main(void)
{
    mf_bank *bank;
    mf_status status = mf_bank_create(&bank);
    if (status != MF_OK) return failed("mf_bank_create", status);
    uint32_t floor, crate;
    status = mf_bank_add_box(bank, (mf_vec3){10, 10, 0.5f}, &floor);
    if (status == MF_OK) status = mf_bank_add_box(bank, (mf_vec3){0.5f, 0.5f, 0.5f}, &crate);
    if (status != MF_OK) return failed("mf_bank_add_box", status);

    // The crate's bottom 0.01 below the floor's top.
    uint32_t shapes[2] = {floor, crate};
    mf_transform transforms[2] = {{{0, 0, 0}, {0, 0, 0, 1}}, {{0, 0, 0.99f}, {0, 0, 0, 1}}};
    mf_bodies bodies = {.shape = shapes, .transform = transforms, .count = 2};
    mf_pair pairs[1] = {{0, 1}};

    mf_context *context;
    status = mf_context_create(NULL, &context);
    if (status != MF_OK) return failed("mf_context_create", status);
    mf_manifold manifolds[1];
    mf_contact contacts[MF_MAX_CONTACTS];
    mf_stream out = {
        .manifolds = manifolds, .manifold_capacity = 1, .contacts = contacts, .contact_capacity = MF_MAX_CONTACTS};
    status = mf_collide(context, bank, &bodies, pairs, 1, &out);
    mf_context_destroy(context);
    mf_bank_destroy(bank);
    if (status != MF_OK) return failed("mf_collide", status);

    if (out.manifold_count != 1 || manifolds[0].count != 4 || manifolds[0].normal.z < 0.99f) {
        fprintf(stderr, "parent: expected one manifold of 4 contacts with normal (0, 0, 1), got %u manifolds\n",
                (unsigned)out.manifold_count);
        return 1;
    }
    printf("parent: manyfold %s, %u contacts, normal (%g, %g, %g)\n", mf_version(), (unsigned)manifolds[0].count,
           manifolds[0].normal.x, manifolds[0].normal.y, manifolds[0].normal.z);
    return 0;
}
