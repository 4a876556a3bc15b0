// Pairs set up as the kernel's queries see them (see pair_frame.h).
#include "pair_frame.h"

mf_pair_frame test_kernel_frame(const mf_bank *bank, const uint32_t shape[2], const mf_transform transform[2],
                                const struct mf_wide_kernel *kernel, mf_pair_scratch *scratch)
{
    mf_bodies bodies = {.shape = shape, .transform = transform, .count = 2};
    mf_mat3 rotation_a;
    mf_pair_frame frame;
    mf_frame_setup(bank, &bodies, (mf_pair){0, 1}, scratch, 1, kernel, &rotation_a, &frame);
    return frame;
}

mf_pair_frame test_pair_frame(const mf_bank *bank, const uint32_t shape[2], const mf_transform transform[2],
                              mf_pair_scratch *scratch)
{
    mf_pair_frame frame = test_kernel_frame(bank, shape, transform, NULL, scratch);
    // A box a's corners in the hull's frame: the kernel leaves them out (its box-hull queries never
    // read them), the tests' general queries read them.
    if (frame.a_vertices == NULL) {
        for (uint32_t v = 0; v < frame.a->vertex_count; ++v)
            scratch->a_vertices[v] =
                mf_mat3_mul_transposed(&frame.rotation, mf_sub(mf_view_vertex(frame.a, v), frame.translation));
        frame.a_vertices = scratch->a_vertices;
    }
    return frame;
}

mf_edge_query test_every_edge_pair(const mf_pair_frame *frame, mf_pair_scratch *scratch)
{
    mf_pair_frame all = *frame;
    all.a_edges = all.b_edges = NULL;
    mf_rotate_b_edges(&all, scratch->b_normal_rows, scratch->b_direction_rows);
    return mf_query_edges(&all);
}
