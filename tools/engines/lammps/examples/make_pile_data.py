#!/usr/bin/env python3
"""Writes one rock pile twice, as LAMMPS data files: for pair_style manyfold (atom_style sphere,
with a Shapes section for fix property/atom) and for pair_style body/rounded/polyhedron, LAMMPS's
own polyhedra. The same shapes (each hull as the manyfold command line builds it, its faces fanned
into triangles for body/rounded/polyhedron, which takes faces of at most four vertices), the same
positions (a simple cubic lattice filled from the floor up) and the same shape for each atom
(shape (id*37) % count).

    make_pile_data.py ROCKS.json MANYFOLD.data BODY.data --manyfold build/tools/manyfold
        [--atoms N] [--density RHO] [--rounding D] [--box X Y Z] [--spacing S]

Each style turns a body by its own principal frame. The manyfold atoms start with their principal
axes along the world's (quaternion 1 0 0 0); the body atoms in their library's frame (LAMMPS's
body styles take the vertices as placed): the same rocks in other turns, which a settling
comparison does not mind."""
import argparse
import json
import subprocess
import tempfile


def hull_of(points, manyfold):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as out:
        out.write("\n".join(" ".join(repr(c) for c in p) for p in points) + "\n")
        path = out.name
    listing = subprocess.run([manyfold, "hull", path, "--list"], capture_output=True, text=True, check=True).stdout
    vertices, faces = [], []
    for line in listing.splitlines():
        line = line.strip()
        if line.startswith("vertex "):
            vertices.append([float(x) for x in line.split(":")[1].split()])
        elif line.startswith("face "):
            faces.append([int(x) for x in line.split("vertices:")[1].split()])
    return vertices, faces


def box_points(half):
    return [[sx * half[0], sy * half[1], sz * half[2]] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]


def solid(vertices, triangles):
    """Volume, centre and inertia tensor (density 1) of a closed triangle mesh, by tetrahedra from
    the origin (the divergence theorem's sum)."""
    volume = 0.0
    first = [0.0, 0.0, 0.0]
    second = [[0.0] * 3 for _ in range(3)]
    for a, b, c in triangles:
        p, q, r = vertices[a], vertices[b], vertices[c]
        det = (p[0] * (q[1] * r[2] - q[2] * r[1]) - p[1] * (q[0] * r[2] - q[2] * r[0]) + p[2] * (q[0] * r[1] - q[1] * r[0]))
        v = det / 6.0
        volume += v
        for k in range(3):
            first[k] += v * (p[k] + q[k] + r[k]) / 4.0
        for i in range(3):
            for j in range(3):
                # integral of x_i x_j over the tetrahedron (0, p, q, r)
                s = (p[i] * p[j] + q[i] * q[j] + r[i] * r[j]) * 2.0
                s += p[i] * q[j] + q[i] * p[j] + p[i] * r[j] + r[i] * p[j] + q[i] * r[j] + r[i] * q[j]
                second[i][j] += v * s / 20.0
    centre = [first[k] / volume for k in range(3)]
    for i in range(3):
        for j in range(3):
            second[i][j] -= volume * centre[i] * centre[j]
    trace = second[0][0] + second[1][1] + second[2][2]
    inertia = [[(trace if i == j else 0.0) - second[i][j] for j in range(3)] for i in range(3)]
    return volume, centre, inertia


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rocks")
    parser.add_argument("manyfold_out")
    parser.add_argument("body_out")
    parser.add_argument("--manyfold", required=True, help="the manyfold command line, to build the hulls")
    parser.add_argument("--atoms", type=int, default=500)
    parser.add_argument("--density", type=float, default=2600.0)
    parser.add_argument("--rounding", type=float, default=0.002, help="the bodies' rounding diameter")
    parser.add_argument("--box", type=float, nargs=3, default=[0.7, 0.7, 1.6])
    parser.add_argument("--spacing", type=float, default=0.1)
    args = parser.parse_args()

    shapes = json.load(open(args.rocks))["shapes"]
    bodies = []
    for shape in shapes:
        points = box_points(shape["box"]) if "box" in shape else shape["hull"]
        vertices, faces = hull_of(points, args.manyfold)
        triangles = [(f[0], f[k], f[k + 1]) for f in faces for k in range(1, len(f) - 1)]
        volume, centre, inertia = solid(vertices, triangles)
        edges = sorted({(min(t[k], t[(k + 1) % 3]), max(t[k], t[(k + 1) % 3])) for t in triangles for k in range(3)})
        moved = [[v[k] - centre[k] for k in range(3)] for v in vertices]
        bodies.append((volume, inertia, moved, edges, triangles))

    # The lattice of in.pile: create_atoms over region fill with a simple cubic lattice of the
    # spacing, origin 0.5 0.5 0.5, in ID order (x fastest, then y, then z).
    positions = []
    low = 0.05
    count_x = int((args.box[0] - 2 * low) / args.spacing + 1e-9)
    count_y = int((args.box[1] - 2 * low) / args.spacing + 1e-9)
    z = low + 0.5 * args.spacing
    while len(positions) < args.atoms:
        for j in range(count_y):
            for i in range(count_x):
                if len(positions) < args.atoms:
                    positions.append((low + (i + 0.5) * args.spacing, low + (j + 0.5) * args.spacing, z))
        z += args.spacing
    largest = max(len(b[2]) for b in bodies)
    most = max(max(len(b[2]), len(b[3]), len(b[4])) for b in bodies)

    lines = ["LAMMPS data file: the rock pile of in.pile for body/rounded/polyhedron (make_body_pile.py)", "",
             f"{len(positions)} atoms", f"{len(positions)} bodies", "1 atom types",
             f"0 {args.box[0]} xlo xhi", f"0 {args.box[1]} ylo yhi", f"0 {args.box[2]} zlo zhi", "", "Atoms", ""]
    for index, (x, y, z) in enumerate(positions, start=1):
        volume = bodies[(index * 37) % len(bodies)][0]
        lines.append(f"{index} 1 1 {args.density * volume!r} {x!r} {y!r} {z!r}")
    lines += ["", "Bodies", ""]
    for index in range(1, len(positions) + 1):
        volume, inertia, moved, edges, triangles = bodies[(index * 37) % len(bodies)]
        mass = args.density * volume
        doubles = 6 + 3 * len(moved) + 2 * len(edges) + 4 * len(triangles) + 1
        lines.append(f"{index} 3 {doubles}")
        lines.append(f"{len(moved)} {len(edges)} {len(triangles)}")
        i = inertia
        words = ["%.10g" % (args.density * v) for v in (i[0][0], i[1][1], i[2][2], i[0][1], i[0][2], i[1][2])]
        words += ["%.10g" % c for v in moved for c in v]
        words += [str(k) for edge in edges for k in edge]
        words += [str(k) for t in triangles for k in (*t, -1)]
        words.append(repr(args.rounding))
        # read_data takes a body in at most 32 lines of at most 255 characters: fill each line.
        line = ""
        for word in words:
            if len(line) + len(word) + 1 > 240:
                lines.append(line)
                line = ""
            line = word if not line else line + " " + word
        lines.append(line)
    with open(args.body_out, "w") as out:
        out.write("\n".join(lines) + "\n")
    print(f"{args.body_out}: {len(positions)} bodies, up to {largest} vertices; "
          f"atom_style body rounded/polyhedron 1 {most} holds them")

    # atom_style sphere: atom-ID type diameter density x y z (diameter and density are placeholders:
    # pair_style manyfold sets each radius and fix nve/manyfold each mass); then the shapes, turns
    # and angular momenta of fix property/atom i_shape d2_quat 4 d2_angmom 3.
    lines = ["LAMMPS data file: a rock pile for pair_style manyfold (make_pile_data.py)", "",
             f"{len(positions)} atoms", "1 atom types",
             f"0 {args.box[0]} xlo xhi", f"0 {args.box[1]} ylo yhi", f"0 {args.box[2]} zlo zhi", "", "Atoms # sphere", ""]
    for index, (x, y, z) in enumerate(positions, start=1):
        lines.append(f"{index} 1 {args.spacing} {args.density} {x!r} {y!r} {z!r}")
    lines += ["", "Shapes", ""]
    for index in range(1, len(positions) + 1):
        lines.append(f"{index} {(index * 37) % len(bodies)} 1 0 0 0 0 0 0")
    with open(args.manyfold_out, "w") as out:
        out.write("\n".join(lines) + "\n")
    print(f"{args.manyfold_out}: {len(positions)} atoms; read it with 'read_data FILE fix PROP NULL Shapes'")


if __name__ == "__main__":
    main()
