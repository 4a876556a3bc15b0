// A program built against an installed manyfold, as its users build theirs:
//   cc app.c $(pkg-config --cflags --libs manyfold)            (the shared library)
//   cc app.c $(pkg-config --cflags --static --libs manyfold)   (a static-only install's archive)
// tools/test-packaging.sh builds it both ways from a scratch prefix and runs it. One box registered
// once, two bodies of it, the upper sunk 0.01 into the lower: one manifold of the four corners of
// the shared face, normal up, each 0.01 deep. Exits non-zero, naming the step, on anything else.
#include <manyfold.h>

#include <stdio.h>

static int failed(const char *step, mf_status status)
{
    fprintf(stderr, "app: %s: %s\n", step, mf_status_string(status));
    return 1;
}

int main(void)
{
    mf_bank *bank;
    mf_status status = mf_bank_create(&bank);
    if (status != MF_OK) return failed("mf_bank_create", status);
    uint32_t box;
    status = mf_bank_add_box(bank, (mf_vec3){0.5f, 0.5f, 0.5f}, &box);
    if (status != MF_OK) {
        mf_bank_destroy(bank);
        return failed("mf_bank_add_box", status);
    }

    uint32_t shapes[2] = {box, box};
    mf_transform transforms[2] = {{{0, 0, 0}, {0, 0, 0, 1}}, {{0, 0, 0.99f}, {0, 0, 0, 1}}};
    mf_bodies bodies = {.shape = shapes, .transform = transforms, .count = 2};
    mf_pair pairs[1] = {{0, 1}};

    mf_context *context;
    status = mf_context_create(NULL, &context);
    if (status != MF_OK) {
        mf_bank_destroy(bank);
        return failed("mf_context_create", status);
    }
    mf_manifold manifolds[1];
    mf_contact contacts[MF_MAX_CONTACTS];
    mf_stream out = {
        .manifolds = manifolds, .manifold_capacity = 1, .contacts = contacts, .contact_capacity = MF_MAX_CONTACTS};
    status = mf_collide(context, bank, &bodies, pairs, 1, &out);
    mf_context_destroy(context);
    mf_bank_destroy(bank);
    if (status != MF_OK) return failed("mf_collide", status);

    if (out.manifold_count != 1 || manifolds[0].count != 4 || manifolds[0].normal.z < 0.99f) {
        fprintf(stderr, "app: expected one manifold of 4 contacts with normal (0, 0, 1), got %u manifolds\n",
                (unsigned)out.manifold_count);
        return 1;
    }
    for (uint32_t i = 0; i < manifolds[0].count; ++i) {
        const mf_contact *contact = &contacts[manifolds[0].first + i];
        float error = contact->separation + 0.01f;
        if (error > 1e-4f || error < -1e-4f) {
            fprintf(stderr, "app: contact %u separated by %g, expected -0.01\n", (unsigned)i, contact->separation);
            return 1;
        }
    }
    printf("app: manyfold %s, %u contacts 0.01 deep, normal (%g, %g, %g)\n", mf_version(), (unsigned)manifolds[0].count,
           manifolds[0].normal.x, manifolds[0].normal.y, manifolds[0].normal.z);
    return 0;
}
