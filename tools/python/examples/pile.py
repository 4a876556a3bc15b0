"""A granular pile in NumPy and manyfold: rocks and boxes dropped into a box-shaped bin, stepped
with a simple explicit integrator (symplectic Euler, 1 ms steps, linear spring-dashpot normal forces at the
contact points, gravity, Coulomb-less damping of spin), and a figure of the contacts and the
kinetic energy over time (Agg backend, writes pile.png).

    python3 pile.py [--bodies 400] [--steps 1500] [--out pile.png]
"""
import argparse
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import manyfold  # noqa: E402


def quat_multiply(a, b):
    ax, ay, az, aw = a.T
    bx, by, bz, bw = b.T
    return np.stack([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz], axis=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=int, default=400)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--out", default="pile.png")
    args = parser.parse_args()
    rng = np.random.default_rng(1)

    bank = manyfold.Bank()
    floor = bank.add_box([4.0, 0.5, 4.0])
    wall_x = bank.add_box([0.5, 3.0, 4.0])
    wall_z = bank.add_box([4.0, 3.0, 0.5])
    grains = [bank.add_hull(rng.normal(size=(24, 3)) * 0.07) for _ in range(6)] + [bank.add_box([0.1, 0.08, 0.12])]
    walls = [(floor, [0, -0.5, 0]), (wall_x, [-2.5, 2.5, 0]), (wall_x, [2.5, 2.5, 0]),
             (wall_z, [0, 2.5, -2.5]), (wall_z, [0, 2.5, 2.5])]
    n_static = len(walls)
    n = n_static + args.bodies
    shapes = np.array([s for s, _ in walls] + list(rng.choice(grains, args.bodies)), np.uint32)
    positions = np.zeros((n, 3), np.float32)
    positions[:n_static] = [p for _, p in walls]
    # Dropped from a jittered grid, apart at first: 7 x 7 a layer, 0.45 m apart.
    k = np.arange(args.bodies)
    grid = np.column_stack([k % 7 - 3, k // 49, (k // 7) % 7 - 3]) * 0.45 + [0, 0.5, 0]
    positions[n_static:] = grid + rng.uniform(-0.03, 0.03, (args.bodies, 3))
    rotations = np.tile(np.array([0, 0, 0, 1], np.float32), (n, 1))
    q = rng.normal(size=(args.bodies, 4))
    rotations[n_static:] = q / np.linalg.norm(q, axis=1, keepdims=True)

    density = 2500.0
    mass = np.zeros(n)
    for i in range(n_static, n):
        mass[i] = bank.mass(int(shapes[i]), density=density)[0]
    inverse_mass = np.where(mass > 0, 1.0 / np.maximum(mass, 1e-12), 0.0)
    velocity = np.zeros((n, 3))
    spin = np.zeros((n, 3))
    dt, stiffness, damping, gravity = 1e-3, 2e5, 800.0, np.array([0, -9.81, 0])

    ctx = manyfold.Context(margin=0.01, max_contacts=4)
    out, cache, pairs = None, None, None
    contacts, energy, times = [], [], []
    collide_seconds = 0.0
    for step in range(args.steps):
        if step % 10 == 0:  # a new pair list now and then: the margin covers the motion in between
            pairs = ctx.find_pairs(bank, shapes, positions, rotations, margin=0.05)
            keep = (pairs[:, 0] >= n_static) | (pairs[:, 1] >= n_static)
            pairs = np.ascontiguousarray(pairs[keep])
            cache = manyfold.PairCache(len(pairs))
        start = time.perf_counter()
        out = ctx.collide(bank, shapes, positions, rotations, pairs, cache=cache, out=out)
        collide_seconds += time.perf_counter() - start

        force = np.zeros((n, 3))
        torque = np.zeros((n, 3))
        if len(out):
            manifold = np.repeat(np.arange(len(out)), out.count)
            a = pairs[out.pair, 0][manifold]
            b = pairs[out.pair, 1][manifold]
            normal = out.normal[manifold].astype(np.float64)
            point = out.point.astype(np.float64)
            depth = np.maximum(-out.separation.astype(np.float64), 0.0)
            ra, rb = point - positions[a], point - positions[b]
            relative = (velocity[b] + np.cross(spin[b], rb)) - (velocity[a] + np.cross(spin[a], ra))
            approach = np.einsum("ij,ij->i", relative, normal)
            magnitude = np.maximum(stiffness * depth - damping * approach * (depth > 0), 0.0)
            push = normal * magnitude[:, None] / np.maximum(out.count[manifold], 1)[:, None]
            np.add.at(force, b, push)
            np.add.at(force, a, -push)
            np.add.at(torque, b, np.cross(rb, push))
            np.add.at(torque, a, -np.cross(ra, push))
        moving = slice(n_static, n)
        velocity[moving] += dt * (gravity + force[moving] * inverse_mass[moving, None])
        # A sphere's inertia stands in for the grains' (2/5 m r^2 with r 0.15).
        spin[moving] += dt * torque[moving] * inverse_mass[moving, None] / (0.4 * 0.15 ** 2)
        spin[moving] *= 0.99
        positions[moving] += (dt * velocity[moving]).astype(np.float32)
        turn = np.concatenate([0.5 * dt * spin[moving], np.zeros((args.bodies, 1))], axis=1)
        q = rotations[moving] + quat_multiply(turn, rotations[moving].astype(np.float64))
        rotations[moving] = (q / np.linalg.norm(q, axis=1, keepdims=True)).astype(np.float32)
        if step % 5 == 0:
            times.append(step * dt)
            contacts.append(out.contact_count)
            energy.append(0.5 * np.sum(mass[moving] * np.sum(velocity[moving] ** 2, axis=1)))

    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(7, 6))
    top.plot(times, contacts)
    top.set_ylabel("contacts")
    bottom.semilogy(times, np.maximum(energy, 1e-9))
    bottom.set_ylabel("kinetic energy (J)")
    bottom.set_xlabel("time (s)")
    top.set_title(f"{args.bodies} grains settling: manyfold contacts, NumPy integrator")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"{args.steps} steps, {contacts[-1]} contacts at the end, kinetic energy {energy[-1]:.3g} J; "
          f"collide {1e3 * collide_seconds / args.steps:.2f} ms a step; wrote {args.out}")


if __name__ == "__main__":
    main()
