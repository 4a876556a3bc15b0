#!/usr/bin/env python3
"""Writes a shape library of rocks for pair_style manyfold: each rock the convex hull of 8 to 48
points scattered over a random ellipsoid, sized by its longest semi-axis. Deterministic for a seed,
on every machine (Python's own generator, no NumPy).

    make_rocks.py OUT.json [--count N] [--size S] [--seed K] [--boxes]

--size is the rocks' largest diameter (metres); the smallest is half of it. --boxes adds boxes
(every fourth shape) to the mix."""
import argparse
import json
import math
import random


def rock(rng, diameter):
    # Semi-axes between 0.55 and 1 of the largest, so that no rock is a flake.
    axes = [0.5 * diameter * rng.uniform(0.55, 1.0) for _ in range(3)]
    axes[rng.randrange(3)] = 0.5 * diameter
    count = rng.randint(8, 48)
    points = []
    for _ in range(count):
        # A uniform direction, stretched onto the ellipsoid, pulled in a little at random.
        z = rng.uniform(-1.0, 1.0)
        angle = rng.uniform(0.0, 2.0 * math.pi)
        r = math.sqrt(1.0 - z * z)
        direction = (r * math.cos(angle), r * math.sin(angle), z)
        shrink = rng.uniform(0.85, 1.0)
        points.append([round(axes[k] * direction[k] * shrink, 6) for k in range(3)])
    return points


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--size", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--boxes", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    shapes = []
    for index in range(args.count):
        diameter = args.size * rng.uniform(0.5, 1.0)
        if args.boxes and index % 4 == 3:
            half = [round(0.5 * diameter * rng.uniform(0.5, 1.0) / math.sqrt(3.0) * 1.6, 6) for _ in range(3)]
            shapes.append({"name": f"box{index}", "box": half})
        else:
            shapes.append({"name": f"rock{index}", "hull": rock(rng, diameter)})
    library = {
        "comment": f"{args.count} rocks of 8-48 points, {args.size / 2}-{args.size} across, seed {args.seed} "
                   "(tools/engines/lammps/examples/make_rocks.py)",
        "shapes": shapes,
        "bodies": [],
    }
    with open(args.out, "w") as out:
        json.dump(library, out)
        out.write("\n")


if __name__ == "__main__":
    main()
