#!/usr/bin/env python3
"""Writes one rock pile twice, as LAMMPS data files: for pair_style manyfold (atom_style sphere,
with a Shapes section for fix property/atom) and for pair_style body/rounded/polyhedron, LAMMPS's
own polyhedra. The same shapes (each hull as the manyfold command line builds it, its faces fanned
into triangles where they have more than four vertices: body/rounded/polyhedron takes no more), the same
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
    vertices, faces, frame = [], [], None
    for line in listing.splitlines():
        line = line.strip()
        if line.startswith("principal frame"):
            x, y, z, w = [float(v) for v in line.split()[2:6]]
            frame = (w, x, y, z)
        elif line.startswith("vertex "):
            vertices.append([float(x) for x in line.split(":")[1].split()])
        elif line.startswith("face "):
            faces.append([int(x) for x in line.split("vertices:")[1].split()])
    return vertices, faces, frame


def rotation(q):
    """The matrix of the unit quaternion (w, x, y, z)."""
    w, x, y, z = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


def times(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def transposed(a):
    return [[a[j][i] for j in range(3)] for i in range(3)]


def last_frame(path):
    """Atoms of a manyfold-lmp dump's last frame: {id: (shape, (x, y, z), (w, x, y, z))}."""
    atoms, columns, lines = {}, None, open(path).read().splitlines()
    k = 0
    while k < len(lines):
        if lines[k].startswith("ITEM: NUMBER OF ATOMS"):
            count = int(lines[k + 1])
        elif lines[k].startswith("ITEM: ATOMS"):
            columns = lines[k].split()[2:]
            atoms = {}
            for line in lines[k + 1:k + 1 + count]:
                row = dict(zip(columns, line.split()))
                atoms[int(row["id"])] = (int(row["i_shape"]), tuple(float(row[c]) for c in "xyz"),
                                         tuple(float(row[f"d2_quat[{n}]"]) for n in range(1, 5)))
            k += count
        k += 1
    return atoms


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
    parser.add_argument("--from-dump", help="take the atoms, shapes, positions and turns from a manyfold-lmp dump's "
                        "last frame (id i_shape x y z d2_quat[1..4]) instead of the lattice")
    args = parser.parse_args()

    shapes = json.load(open(args.rocks))["shapes"]
    bodies = []
    for shape in shapes:
        points = box_points(shape["box"]) if "box" in shape else shape["hull"]
        vertices, faces, frame = hull_of(points, args.manyfold)
        triangles = [(f[0], f[k], f[k + 1]) for f in faces for k in range(1, len(f) - 1)]
        volume, centre, inertia = solid(vertices, triangles)
        # Faces of up to four vertices as they are; larger ones fanned into triangles.
        kept = [f for f in faces if len(f) <= 4] + [t for f in faces if len(f) > 4 for t in
                                                    [(f[0], f[k], f[k + 1]) for k in range(1, len(f) - 1)]]
        edges = sorted({(min(f[k], f[(k + 1) % len(f)]), max(f[k], f[(k + 1) % len(f)])) for f in kept
                        for k in range(len(f))})
        moved = [[v[k] - centre[k] for k in range(3)] for v in vertices]
        bodies.append((volume, inertia, moved, edges, kept, frame))

    # The atoms: a simple cubic lattice of the spacing filled from the floor up, each atom shape
    # (id*37) % count with its principal axes along the world's; or a dump's last frame.
    positions, shapes_of, turns = [], [], []
    if args.from_dump:
        frame = last_frame(args.from_dump)
        for atom in sorted(frame):
            shape, x, q = frame[atom]
            positions.append(x)
            shapes_of.append(shape)
            turns.append(q)
    else:
        low = 0.05
        count_x = int((args.box[0] - 2 * low) / args.spacing + 1e-9)
        count_y = int((args.box[1] - 2 * low) / args.spacing + 1e-9)
        z = low + 0.5 * args.spacing
        while len(positions) < args.atoms:
            for j in range(count_y):
                for i in range(count_x):
                    if len(positions) < args.atoms:
                        positions.append((low + (i + 0.5) * args.spacing, low + (j + 0.5) * args.spacing, z))
                        shapes_of.append((len(positions) * 37) % len(bodies))
                        turns.append((1.0, 0.0, 0.0, 0.0))
            z += args.spacing
    largest = max(len(b[2]) for b in bodies)
    most = max(max(len(b[2]), len(b[3]), len(b[4])) for b in bodies)

    lines = ["LAMMPS data file: the rock pile of in.pile for body/rounded/polyhedron (make_body_pile.py)", "",
             f"{len(positions)} atoms", f"{len(positions)} bodies", "1 atom types",
             f"0 {args.box[0]} xlo xhi", f"0 {args.box[1]} ylo yhi", f"0 {args.box[2]} zlo zhi", "", "Atoms", ""]
    for index, (x, y, z) in enumerate(positions, start=1):
        volume = bodies[shapes_of[index - 1]][0]
        lines.append(f"{index} 1 1 {args.density * volume!r} {x!r} {y!r} {z!r}")
    lines += ["", "Bodies", ""]
    for index in range(1, len(positions) + 1):
        volume, inertia, moved, edges, triangles, frame = bodies[shapes_of[index - 1]]
        # The body style takes vertices and inertia as placed in the world: the shape's frame turns
        # by the atom's turn times the inverse of its principal frame (as pair_style manyfold
        # places it), which is no turn for atoms whose principal axes lie along the world's.
        turn = times(rotation(turns[index - 1]), transposed(rotation(frame)))
        moved = [[sum(turn[i][k] * v[k] for k in range(3)) for i in range(3)] for v in moved]
        inertia = times(times(turn, inertia), transposed(turn))
        mass = args.density * volume
        doubles = 6 + 3 * len(moved) + 2 * len(edges) + 4 * len(triangles) + 1
        lines.append(f"{index} 3 {doubles}")
        lines.append(f"{len(moved)} {len(edges)} {len(triangles)}")
        i = inertia
        words = ["%.10g" % (args.density * v) for v in (i[0][0], i[1][1], i[2][2], i[0][1], i[0][2], i[1][2])]
        words += ["%.10g" % c for v in moved for c in v]
        words += [str(k) for edge in edges for k in edge]
        words += [str(k) for f in triangles for k in (list(f) + [-1] * (4 - len(f)))]
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
        w, x, y, z = turns[index - 1]
        lines.append(f"{index} {shapes_of[index - 1]} {w!r} {x!r} {y!r} {z!r} 0 0 0")
    with open(args.manyfold_out, "w") as out:
        out.write("\n".join(lines) + "\n")
    print(f"{args.manyfold_out}: {len(positions)} atoms; read it with 'read_data FILE fix PROP NULL Shapes'")


if __name__ == "__main__":
    main()
