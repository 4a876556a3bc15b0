// A LAMMPS dump's bodies are drawn where manyfold-lmp had them: a shape whose principal frame is
// not its own frame lands on hand-computed corners; the few.dump fixture's atoms land where their
// columns say; a pile that manyfold-lmp settled in a 0.3 m box rests on the floor, inside the walls.
//
//     cli_lammps_scene_test FIXTURE_DIR   (tools/cli/tests/lammps)
#include "lammps_dump.h"
#include "lammps_scene.h"
#include "scene_file.h"
#include "scene_geometry.h"
#include "scene_math.h"
#include "scene_store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void expect(bool condition, const char *what)
{
    if (condition) return;
    printf("FAIL: %s\n", what);
    ++failures;
}

static float farthest_apart(mf_vec3 a, mf_vec3 b)
{
    return fmaxf(fabsf(a.x - b.x), fmaxf(fabsf(a.y - b.y), fabsf(a.z - b.z)));
}

// Whether the body's vertices are exactly the corners of the axis-aligned box (center, half),
// each corner once.
static bool is_box_at(const scene *s, uint32_t body, mf_vec3 center, mf_vec3 half)
{
    scene_geometry g;
    if (scene_geometry_load(s->bank, s->body_shape[body], &g) != MF_OK) return false;
    const mf_transform *t = &s->body_transform[body];
    scene_mat3 r = scene_mat3_from_quat(t->q);
    bool hit[8] = {false};
    bool ok = g.vertex_count == 8;
    for (uint32_t v = 0; ok && v < g.vertex_count; ++v) {
        mf_vec3 world = scene_transform_point(t, &r, g.vertices[v]);
        int corner = -1;
        for (int k = 0; k < 8 && corner < 0; ++k) {
            mf_vec3 expected = {center.x + (k & 1 ? half.x : -half.x), center.y + (k & 2 ? half.y : -half.y),
                                center.z + (k & 4 ? half.z : -half.z)};
            if (farthest_apart(world, expected) < 1e-5f) corner = k;
        }
        if (corner < 0 || hit[corner]) {
            printf("  body %u: vertex (%g, %g, %g) is not a corner of the box at (%g, %g, %g) of half extents (%g, "
                   "%g, %g)\n",
                   body, world.x, world.y, world.z, center.x, center.y, center.z, half.x, half.y, half.z);
            ok = false;
        } else {
            hit[corner] = true;
        }
    }
    scene_geometry_free(&g);
    return ok;
}

// A box of half extents (0.2, 0.3, 0.1) about (1, 2, 3) in its shape's frame: its least inertia
// is about the shape's y axis, so its principal frame (principal x along the long side) is the
// shape's turned a quarter about z, and its centre of mass is (1, 2, 3). An atom at X with
// quaternion q has the box's principal half extents (0.3, 0.2, 0.1) turned by q about X.
static void test_pose_turns_the_principal_frame(void)
{
    static const mf_vec3 corners[8] = {{0.8f, 1.7f, 2.9f}, {1.2f, 1.7f, 2.9f}, {0.8f, 2.3f, 2.9f}, {1.2f, 2.3f, 2.9f},
                                       {0.8f, 1.7f, 3.1f}, {1.2f, 1.7f, 3.1f}, {0.8f, 2.3f, 3.1f}, {1.2f, 2.3f, 3.1f}};
    scene s;
    uint32_t shape;
    mf_mass mass;
    if (scene_store_create(&s, "turned box", 2, 0) != MF_OK || scene_store_add_hull(&s, corners, 8, &shape) != MF_OK ||
        mf_bank_shape_mass(s.bank, shape, 1.0f, &mass) != MF_OK) {
        expect(false, "the turned box is built and measured");
        scene_free(&s);
        return;
    }
    expect(fabsf(mass.principal_rotation.w) < 0.99f, "the turned box's principal frame is not its own frame");
    expect(farthest_apart(mass.center, (mf_vec3){1.0f, 2.0f, 3.0f}) < 1e-6f, "its centre of mass is (1, 2, 3)");

    const double at[3] = {5.0, 6.0, 7.0};
    const double unturned[4] = {1.0, 0.0, 0.0, 0.0};
    const double quarter_about_x[4] = {sqrt(0.5), sqrt(0.5), 0.0, 0.0}; // (a, b, c) -> (a, -c, b)
    s.body_shape[0] = s.body_shape[1] = shape;
    s.body_transform[0] = lammps_body_pose(&mass, at, unturned);
    s.body_transform[1] = lammps_body_pose(&mass, at, quarter_about_x);
    expect(is_box_at(&s, 0, (mf_vec3){5.0f, 6.0f, 7.0f}, (mf_vec3){0.3f, 0.2f, 0.1f}),
           "an unturned atom has the box's long side along x, about the atom");
    expect(is_box_at(&s, 1, (mf_vec3){5.0f, 6.0f, 7.0f}, (mf_vec3){0.3f, 0.1f, 0.2f}),
           "an atom turned a quarter about x has the box's middle side along z, about the atom");
    scene_free(&s);
}

static bool load(const char *dir, const char *library, const char *dump, lammps_frame_choice choice, scene *s,
                 lammps_frame *frame, uint32_t *frames, bool *floor_added)
{
    char library_path[4096], dump_path[4096];
    snprintf(library_path, sizeof(library_path), "%s/%s", dir, library);
    snprintf(dump_path, sizeof(dump_path), "%s/%s", dir, dump);
    cli_error error;
    *frame = (lammps_frame){0};
    if (!scene_file_load(library_path, s, &error)) {
        printf("FAIL: %s\n", error.text);
        ++failures;
        return false;
    }
    if (!lammps_dump_read(dump_path, choice, s->shape_count, frame, frames, &error) ||
        !lammps_scene_place(s, frame, 2, floor_added, &error)) {
        printf("FAIL: %s\n", error.text);
        ++failures;
        scene_free(s);
        return false;
    }
    return true;
}

// few.dump's frame at step 100 (columns out of order, extra columns, an item before the first
// timestep and one between frames).
static void test_dump_places_its_atoms(const char *dir)
{
    scene s;
    lammps_frame frame;
    uint32_t frames;
    bool floor_added;
    if (!load(dir, "few_shapes.json", "few.dump", (lammps_frame_choice){.step = 100}, &s, &frame, &frames,
              &floor_added))
        return;
    expect(frames == 2 && frame.step == 100 && frame.atom_count == 4, "few.dump's second frame is step 100, 4 atoms");
    expect(s.body_count == 5 && floor_added, "the four atoms and the floor under the fixed lower z bound");
    expect(is_box_at(&s, 0, (mf_vec3){0.5f, 0.5f, 0.1f}, (mf_vec3){0.1f, 0.1f, 0.1f}), "atom 1, a cube, at its centre");
    expect(is_box_at(&s, 1, (mf_vec3){1.0f, 1.0f, 0.2f}, (mf_vec3){0.3f, 0.1f, 0.2f}),
           "atom 2, the turned box turned a quarter about x, stands on the floor");
    expect(is_box_at(&s, 4, (mf_vec3){1.0f, 1.0f, -0.02f}, (mf_vec3){1.0f, 1.0f, 0.02f}),
           "the floor spans the box under z = 0");
    // Atom 4, the cube turned an eighth about z: its corners at 0.1 sqrt(2) along x and y.
    scene_geometry g;
    if (scene_geometry_load(s.bank, s.body_shape[3], &g) == MF_OK) {
        scene_mat3 r = scene_mat3_from_quat(s.body_transform[3].q);
        float reach_x = 0.0f, low_z = INFINITY;
        for (uint32_t v = 0; v < g.vertex_count; ++v) {
            mf_vec3 p = scene_transform_point(&s.body_transform[3], &r, g.vertices[v]);
            reach_x = fmaxf(reach_x, fabsf(p.x - 1.5f));
            low_z = fminf(low_z, p.z);
        }
        expect(fabsf(reach_x - 0.1f * sqrtf(2.0f)) < 1e-5f && fabsf(low_z - 0.5f) < 1e-5f,
               "atom 4, a cube turned an eighth about z, reaches 0.1 sqrt(2) along x");
        scene_geometry_free(&g);
    }
    lammps_frame_free(&frame);
    scene_free(&s);
}

// settled.dump: 40 rocks of rocks.json that manyfold-lmp dropped into a 0.3 m square box with walls
// (tools/engines/lammps/tests/lammps_cases.py's pile, smaller) and settled for 1.5 s. Its springs
// let rocks sink by about 0.1 mm and its dump holds 6 digits, so every vertex lies within 0.5 mm of
// the walls and the floor, and the bottom layer touches the floor. Placing atoms as the shapes'
// own origins and frames misses these bounds by centimetres.
static void test_settled_pile_rests_in_its_box(const char *dir)
{
    scene s;
    lammps_frame frame;
    uint32_t frames;
    bool floor_added;
    if (!load(dir, "rocks.json", "settled.dump", (lammps_frame_choice){.last = true}, &s, &frame, &frames,
              &floor_added))
        return;
    const float tolerance = 5e-4f, side = 0.3f;
    float lowest = INFINITY, outermost = 0.0f;
    uint32_t on_floor = 0;
    for (uint32_t body = 0; body < frame.atom_count; ++body) {
        scene_geometry g;
        if (scene_geometry_load(s.bank, s.body_shape[body], &g) != MF_OK) continue;
        scene_mat3 r = scene_mat3_from_quat(s.body_transform[body].q);
        float low = INFINITY;
        for (uint32_t v = 0; v < g.vertex_count; ++v) {
            mf_vec3 p = scene_transform_point(&s.body_transform[body], &r, g.vertices[v]);
            low = fminf(low, p.z);
            outermost = fmaxf(outermost, fmaxf(fmaxf(-p.x, p.x - side), fmaxf(-p.y, p.y - side)));
        }
        lowest = fminf(lowest, low);
        on_floor += low < tolerance;
        scene_geometry_free(&g);
    }
    printf("settled pile: lowest vertex z = %.6f m, farthest past a wall %.6f m, %u of %u rocks on the floor\n", lowest,
           outermost, on_floor, frame.atom_count);
    expect(frame.atom_count == 40 && frame.step == 30000, "the settled frame is the last, 40 atoms");
    expect(lowest > -tolerance, "no rock sinks through the floor by more than 0.5 mm");
    expect(outermost < tolerance, "no rock pokes through a wall by more than 0.5 mm");
    expect(on_floor >= 20, "the bottom layer, 20 rocks or more, rests on the floor");
    lammps_frame_free(&frame);
    scene_free(&s);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        printf("usage: cli_lammps_scene_test FIXTURE_DIR\n");
        return 2;
    }
    test_pose_turns_the_principal_frame();
    test_dump_places_its_atoms(argv[1]);
    test_settled_pile_rests_in_its_box(argv[1]);
    if (failures == 0) printf("ok: LAMMPS dump poses\n");
    return failures == 0 ? 0 : 1;
}
