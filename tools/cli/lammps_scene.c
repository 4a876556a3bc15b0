// Placing a dump's atoms: a LAMMPS atom is its body's centre of mass, turned by the principal
// frame's quaternion; the bank knows each shape in the frame it was given in. In double until the
// pose is stored, like the pair style's placed_pose.
#include "lammps_scene.h"

#include "scene_store.h"

#include <stdlib.h>

// Hamilton product a b, quaternions as w, x, y, z.
static void quat_multiply(const double a[4], const double b[4], double out[4])
{
    out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

// q v q*, as v + 2w (u x v) + 2 u x (u x v) with u the vector part.
static void quat_rotate(const double q[4], const double v[3], double out[3])
{
    double t[3] = {2.0 * (q[2] * v[2] - q[3] * v[1]), 2.0 * (q[3] * v[0] - q[1] * v[2]),
                   2.0 * (q[1] * v[1] - q[2] * v[0])};
    out[0] = v[0] + q[0] * t[0] + (q[2] * t[2] - q[3] * t[1]);
    out[1] = v[1] + q[0] * t[1] + (q[3] * t[0] - q[1] * t[2]);
    out[2] = v[2] + q[0] * t[2] + (q[1] * t[1] - q[2] * t[0]);
}

mf_transform lammps_body_pose(const mf_mass *mass, const double center_of_mass[3], const double quat[4])
{
    const mf_quat p = mass->principal_rotation;
    const double back[4] = {p.w, -p.x, -p.y, -p.z}; // the shape frame into the principal frame
    const double center[3] = {mass->center.x, mass->center.y, mass->center.z};
    double turn[4], offset[3];
    quat_multiply(quat, back, turn);
    quat_rotate(turn, center, offset);
    return (mf_transform){.p = {(float)(center_of_mass[0] - offset[0]), (float)(center_of_mass[1] - offset[1]),
                                (float)(center_of_mass[2] - offset[2])},
                          .q = {(float)turn[1], (float)turn[2], (float)turn[3], (float)turn[0]}};
}

// The slab under a fixed lower bound along `up`, across the box, 2% of its width thick.
static bool add_floor(scene *s, const lammps_frame *frame, int up, bool *floor_added, cli_error *error)
{
    *floor_added = false;
    if (!frame->has_box || frame->boundary[up][0] != 'f') return true;
    int across[2] = {(up + 1) % 3, (up + 2) % 3};
    double span[2] = {frame->box_high[across[0]] - frame->box_low[across[0]],
                      frame->box_high[across[1]] - frame->box_low[across[1]]};
    if (!(span[0] > 0.0 && span[1] > 0.0)) return true;
    double thickness = 0.02 * (span[0] > span[1] ? span[0] : span[1]);
    float half[3], center[3];
    half[up] = (float)(0.5 * thickness);
    center[up] = (float)(frame->box_low[up] - 0.5 * thickness);
    for (int k = 0; k < 2; ++k) {
        half[across[k]] = (float)(0.5 * span[k]);
        center[across[k]] = (float)(0.5 * (frame->box_low[across[k]] + frame->box_high[across[k]]));
    }
    uint32_t shape;
    mf_status status = scene_store_add_box(s, (mf_vec3){half[0], half[1], half[2]}, &shape);
    if (status != MF_OK)
        return cli_fail(error, "the floor under the box cannot be built: %s", mf_status_string(status));
    s->body_shape[frame->atom_count] = shape;
    s->body_transform[frame->atom_count] =
        (mf_transform){.p = {center[0], center[1], center[2]}, .q = {0.0f, 0.0f, 0.0f, 1.0f}};
    *floor_added = true;
    return true;
}

bool lammps_scene_place(scene *s, const lammps_frame *frame, int up, bool *floor_added, cli_error *error)
{
    *floor_added = false;
    uint32_t shape_count = s->shape_count;
    mf_mass *masses = calloc(shape_count > 0 ? shape_count : 1, sizeof(mf_mass));
    uint32_t *shapes = calloc((size_t)frame->atom_count + 1, sizeof(uint32_t));
    mf_transform *poses = calloc((size_t)frame->atom_count + 1, sizeof(mf_transform));
    bool ok = masses != NULL && shapes != NULL && poses != NULL;
    if (!ok) cli_fail(error, "out of memory placing %u atoms", frame->atom_count);
    for (uint32_t shape = 0; ok && shape < shape_count; ++shape) {
        mf_status status = mf_bank_shape_mass(s->bank, shape, 1.0f, &masses[shape]);
        if (status != MF_OK)
            ok = cli_fail(error, "%s: shape %u: no mass properties: %s", s->name, shape, mf_status_string(status));
    }
    for (uint32_t atom = 0; ok && atom < frame->atom_count; ++atom) {
        shapes[atom] = frame->shape[atom];
        if (shapes[atom] >= shape_count) {
            ok = cli_fail(error, "atom %u: shape %u is not in the library of %u shapes", atom + 1, shapes[atom],
                          shape_count);
            break;
        }
        poses[atom] =
            lammps_body_pose(&masses[shapes[atom]], &frame->position[3 * (size_t)atom], &frame->quat[4 * (size_t)atom]);
    }
    free(masses);
    if (!ok) {
        free(shapes);
        free(poses);
        return false;
    }
    free(s->body_shape);
    free(s->body_transform);
    s->body_shape = shapes;
    s->body_transform = poses;
    s->body_count = frame->atom_count;
    if (!add_floor(s, frame, up, floor_added, error)) return false;
    s->body_count += *floor_added ? 1 : 0;
    return true;
}
