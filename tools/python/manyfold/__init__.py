"""manyfold: contact manifolds between convex polyhedra, many pairs at once, on NumPy arrays.

    bank = manyfold.Bank()
    box = bank.add_box([0.5, 0.5, 0.5])
    ctx = manyfold.Context(margin=0.02)
    pairs = manyfold.find_pairs(bank, shapes, positions, rotations, margin=0.02)
    out = ctx.collide(bank, shapes, positions, rotations, pairs)

See docs/python.md.
"""
import threading

from ._core import Bank, Context, Contacts, Error, PairCache, best_isa, version, MAX_CONTACTS

__all__ = ["Bank", "Context", "Contacts", "Error", "PairCache", "find_pairs", "best_isa", "version",
           "MAX_CONTACTS"]
__version__ = version()

_contexts = threading.local()


def find_pairs(bank, shapes, positions, rotations=None, margin=0.02, threads=0, scales=None):
    """Every pair of bodies whose world bounding boxes, grown by margin, overlap.

    Returns a (P, 2) uint32 array, each pair once with a < b, sorted. Runs on `threads` threads
    (0: one per core) through a context kept per Python thread; Context.find_pairs runs on a
    context of your own. scales: None, or (B,) each body's uniform scale (its box is its shape's
    times the scale).
    """
    cache = getattr(_contexts, "by_threads", None)
    if cache is None:
        cache = _contexts.by_threads = {}
    context = cache.get(threads)
    if context is None:
        context = cache[threads] = Context(threads=threads)
    return context.find_pairs(bank, shapes, positions, rotations, margin=margin, scales=scales)
