#!/usr/bin/env python3
"""Writes the seed corpora in tests/fuzz/corpus/<harness>/: a handful of small inputs each, laid out
as the harnesses read them (see the comment at the top of each fuzz_*.c). Run it again after
changing a harness's input layout: python3 tests/fuzz/make_corpus.py"""
import json
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(harness, name, data):
    directory = os.path.join(HERE, "corpus", harness)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def i8(*values):
    return struct.pack("%db" % len(values), *values)


def f32(*values):
    return struct.pack("<%df" % len(values), *values)


# ---- fuzz_hull: mode byte, scale byte (2^(byte % 71 - 40)), points ----
def scale_byte(exponent):
    return bytes([exponent + 40])


cube = [(x, y, z) for x in (-8, 8) for y in (-8, 8) for z in (-8, 8)]
write("hull", "cube_on_a_grid", bytes([1]) + scale_byte(-3) + b"".join(i8(*p) for p in cube))
write("hull", "cube_with_interior_and_duplicate_points",
      bytes([1]) + scale_byte(-3) + b"".join(i8(*p) for p in cube + cube[:3] + [(0, 0, 0), (1, 2, 3)]))
octahedron = [(8, 0, 0), (-8, 0, 0), (0, 8, 0), (0, -8, 0), (0, 0, 8), (0, 0, -8)]
write("hull", "octahedron_with_near_duplicates",
      bytes([2]) + scale_byte(-3) + b"".join(i8(*p) + i8(j, -j, j) for p in octahedron for j in (0, 1, -3)))
write("hull", "tetrahedron_as_raw_floats",
      bytes([0, 0]) + f32(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.25, 0.25, 0.25))
write("hull", "a_nan_point", bytes([0, 0]) + f32(0, 0, 0, 1, 0, 0, 0, 1, 0, float("nan"), 0, 1))
sphere = []
for i in range(30):
    z = 1 - (2 * i + 1) / 30
    r, phi = math.sqrt(1 - z * z), 2.39996322972865332 * i
    sphere += [round(20000 * r * math.cos(phi)), round(20000 * r * math.sin(phi)), round(20000 * z)]
write("hull", "sphere_in_16_bits", bytes([3]) + scale_byte(-14) + struct.pack("<%dh" % len(sphere), *sphere))
write("hull", "huge_sphere_beyond_the_limit", bytes([3]) + scale_byte(30) + struct.pack("<%dh" % len(sphere), *sphere))
plane = b"".join(i8(x, z) + i8(h) + bytes([30]) for x, z, h in
                 [(-9, -9, 1), (9, -9, -1), (9, 9, 2), (-9, 9, 0), (0, 0, -2), (4, -5, 1)])
write("hull", "nearly_coplanar_points", bytes([4]) + scale_byte(-3) + plane)

# ---- fuzz_collide ----
# config: margin, slop, max_contacts, isa, threads, offset; table picks: margin 3 -> 0.02,
# slop 2 -> 0.005, contacts 3 -> 4, isa 0 -> auto, threads 1 -> one, offset 0 -> none
GROUND, CUBE, PLANK, NEEDLE, TINY, TETRA, OCTAGON, SPHERE, ROCK, SLIVER = range(10)


def config(margin=3, slop=2, contacts=3, isa=0, threads=1, offset=0):
    return bytes([margin, slop, contacts, isa, threads, offset])


def body(shape, position, rotation=0, step_mode=0):
    """position in 1/64 units (step_mode 0) or other grid steps; rotation: a nice-rotation index."""
    return bytes([shape, step_mode]) + i8(*position) + bytes([rotation])


def pairs(list_, body_count):
    out = bytes([len(list_)])
    for a, b in list_:
        out += bytes([0, a, (b - a - 1) % body_count])
    return out


def scene(bodies, pair_list, cfg=None, capacity=b"\x00"):
    return (cfg or config()) + bytes([len(bodies) - 2]) + b"".join(bodies) + pairs(pair_list, len(bodies)) + capacity


# shape ids in the harness bank: 0 cube, 1 plank, 2 needle, 3 ground, 4 tiny cube, 5 tetrahedron,
# 6 octagonal prism, 7 sphere, 8 rock, 9 sliver
crate_on_ground = scene([body(3, (0, 0, 0)), body(0, (0, 64, 0))], [(0, 1), (1, 0)])
write("collide", "crate_exactly_on_the_ground", crate_on_ground)
mixed = [body(3, (0, 0, 0)), body(0, (0, 63, 0), 8), body(6, (80, 45, 0)), body(7, (-80, 63, 10), 3),
         body(8, (0, 50, 90), 10), body(9, (40, 33, -60), 11)]
mixed_pairs = [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 2), (2, 3), (4, 5)]
write("collide", "boxes_and_hulls_on_the_ground", scene(mixed, mixed_pairs))
write("collide", "boxes_and_hulls_in_a_small_stream",
      scene(mixed, mixed_pairs, capacity=bytes([200, 3, 9])))
write("collide", "crossed_edges", scene([body(0, (0, 0, 0), 13), body(0, (0, 90, 0), 3 * 14 + 1)], [(0, 1)]))
write("collide", "pair_naming_one_body_twice",
      config() + bytes([0]) + body(0, (0, 0, 0)) + body(0, (0, 60, 0)) + bytes([2, 0, 0, 0, 248, 1, 0]) + b"\x00")
write("collide", "far_from_the_origin", scene(mixed, mixed_pairs, cfg=config(offset=5)))
write("collide", "millimetre_cubes_eight_contacts",
      scene([body(4, (0, 0, 0), 0, 3), body(4, (1, 2, 0), 8, 3), body(4, (0, -2, 1), 0, 3)], [(0, 1), (0, 2), (1, 2)],
            cfg=config(margin=1, contacts=7)))
write("collide", "scalar_wide_margin_zero_slop",
      scene(mixed, mixed_pairs, cfg=config(margin=5, slop=0, contacts=7, isa=1)))

# ---- fuzz_scene: JSON scene files (the harness also offers rock.obj and rock.xyz) ----
scenes_dir = os.path.join(HERE, "..", "..", "tools", "scenes")
for name in ("box_stack.json", "rock_pile.json"):
    with open(os.path.join(scenes_dir, name), "rb") as f:
        write("scene", name, f.read())
write("scene", "every_kind_of_shape.json", json.dumps({
    "comment": "a box, a hull, an obj and an xyz file, scaled and rotated",
    "config": {"margin": 0.05, "linear_slop": 0.001, "max_contacts": 8},
    "shapes": [{"name": "crate", "box": [0.5, 0.25, 0.5]},
               {"name": "pyramid", "hull": [[0, 1, 0], [1, 0, 1], [-1, 0, 1], [1, 0, -1], [-1, 0, -1]], "scale": 0.5},
               {"name": "rock", "obj": "rock.obj", "scale": 2},
               {"name": "cloud", "obj": "rock.xyz"}],
    "bodies": [{"shape": "crate", "position": [0, 0, 0]},
               {"shape": "pyramid", "position": [0, 0.25, 0], "rotation": [0, 0.3826834, 0, 0.9238795]},
               {"shape": "rock", "position": [0.4, 0.6, 0], "rotation": [0, 0, 0, 2]},
               {"shape": "cloud", "position": [-0.5, 0.5, 0.1]}]}, indent=1))
write("scene", "unknown_key.json", '{"shapes": [{"name": "a", "box": [1, 1, 1], "colour": 3}], "bodies": []}\n')
write("scene", "malformed.json", '{"shapes": [{"name": "a", "box": [1, 1, 1]}],\n "bodies": [{"shape": "a",}\n')
write("scene", "zero_quaternion.json",
      '{"shapes": [{"name": "a", "box": [1, 1, 1]}],\n "bodies": [{"shape": "a", "position": [0, 0, 0], '
      '"rotation": [0, 0, 0, 0]}]}\n')
write("scene", "flat_hull.json",
      '{"shapes": [{"name": "flat", "hull": [[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1e-30]]}], "bodies": []}\n')
