"""Pairs per second: manyfold.find_pairs and Context.collide on a heap of boxes and rocks, with the
time of the library call alone beside it (Context.collide's own arrays are passed through as they
are, so the difference is the Python layer's overhead).

    python3 throughput.py [--bodies 100000] [--threads 0] [--repeat 5]
"""
import argparse
import time

import numpy as np

import manyfold


def heap(bodies, seed=1):
    """Grains on a jittered grid, neighbours a little closer than their size: touching and near pairs."""
    rng = np.random.default_rng(seed)
    bank = manyfold.Bank()
    kinds = [bank.add_box([0.25, 0.2, 0.3]), bank.add_box([0.3, 0.3, 0.3])]
    kinds += [bank.add_hull(rng.normal(size=(24, 3)) * 0.17) for _ in range(4)]
    side = int(np.ceil(bodies ** (1 / 3)))
    grid = np.stack(np.meshgrid(*[np.arange(side)] * 3, indexing="ij"), -1).reshape(-1, 3)[:bodies]
    positions = (grid * 0.5 + rng.uniform(-0.04, 0.04, grid.shape)).astype(np.float32)
    q = rng.normal(size=(bodies, 4))
    rotations = (q / np.linalg.norm(q, axis=1, keepdims=True)).astype(np.float32)
    shapes = rng.choice(kinds, bodies).astype(np.uint32)
    return bank, shapes, positions, rotations


def best(function, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return min(times), result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=int, default=100000)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    bank, shapes, positions, rotations = heap(args.bodies)
    ctx = manyfold.Context(margin=0.02, threads=args.threads)
    seconds, pairs = best(lambda: ctx.find_pairs(bank, shapes, positions, rotations, margin=0.02), args.repeat)
    print(f"find_pairs: {args.bodies} bodies, {len(pairs)} pairs in {1e3 * seconds:.2f} ms: "
          f"{len(pairs) / seconds / 1e6:.2f} M pairs/s ({ctx.threads} threads)")
    out = ctx.collide(bank, shapes, positions, rotations, pairs)
    seconds, out = best(lambda: ctx.collide(bank, shapes, positions, rotations, pairs, out=out), args.repeat)
    print(f"collide:    {len(pairs)} pairs, {len(out)} manifolds, {out.contact_count} contacts in "
          f"{1e3 * seconds:.2f} ms: {len(pairs) / seconds / 1e6:.2f} M pairs/s ({ctx.isa})")


if __name__ == "__main__":
    main()
