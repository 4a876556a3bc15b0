"""The Python layer's overhead: Context.collide against the C library's mf_collide on the same scene
and pairs (the C side is tools/python/tests/collide_file, built with the tests), fastest of
--repeat calls each, one thread.

    python3 overhead.py --helper build/tools/python/collide_file [--pairs 100000 1000]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import manyfold

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from test_manyfold import write_scene_file  # noqa: E402
from throughput import heap  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--helper", required=True)
    parser.add_argument("--pairs", type=int, nargs="+", default=[100000, 1000])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    for wanted in args.pairs:
        # A heap of about that many pairs (about 25 a body); the C program finds the same pairs.
        bank, shapes, positions, rotations = heap(max(8, wanted // 25))
        ctx = manyfold.Context(margin=0.02, threads=1)
        pairs = ctx.find_pairs(bank, shapes, positions, rotations)
        made = [("box", [0.25, 0.2, 0.3]), ("box", [0.3, 0.3, 0.3])]
        made += [("hull", bank.shape(s)["vertices"]) for s in range(2, len(bank))]
        with tempfile.TemporaryDirectory() as folder:
            scene = os.path.join(folder, "scene.bin")
            write_scene_file(scene, made, shapes, [(positions, rotations)], 0.02, 4, 1)
            run = subprocess.run([args.helper, scene, os.path.join(folder, "out.bin"), str(args.repeat)],
                                 check=True, capture_output=True, text=True)
            c_seconds = float(run.stdout.split()[0])
        out = ctx.collide(bank, shapes, positions, rotations, pairs)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            ctx.collide(bank, shapes, positions, rotations, pairs, out=out)
            times.append(time.perf_counter() - start)
        py_seconds = min(times)
        print(f"{len(pairs)} pairs: Context.collide {1e3 * py_seconds:.3f} ms, mf_collide {1e3 * c_seconds:.3f} ms: "
              f"overhead {100 * (py_seconds / c_seconds - 1):+.1f}%")


if __name__ == "__main__":
    main()
