"""The manyfold package as docs/python.md states it. Random scenes come from fixed seeds (printed
in the failure through the test's parameters)."""
import os
import struct
import subprocess
import threading

import numpy as np
import pytest

import manyfold


def random_rotations(rng, n):
    q = rng.normal(size=(n, 4)).astype(np.float32)
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def make_scene(seed, bodies=600, spread=6.0):
    """A bank of boxes and 16-point hulls, bodies scattered in a cube above a ground slab."""
    rng = np.random.default_rng(seed)
    bank = manyfold.Bank()
    shapes_made = [("box", np.array([spread, 0.5, spread], np.float32))]
    bank.add_box(shapes_made[0][1])
    for _ in range(3):
        half = rng.uniform(0.1, 0.6, 3).astype(np.float32)
        bank.add_box(half)
        shapes_made.append(("box", half))
        points = rng.uniform(-0.6, 0.6, (16, 3)).astype(np.float32)
        bank.add_hull(points)
        shapes_made.append(("hull", points))
    shapes = rng.integers(1, len(bank), bodies).astype(np.uint32)
    shapes[0] = 0
    positions = np.column_stack([rng.uniform(-spread, spread, bodies), rng.uniform(0, spread, bodies),
                                 rng.uniform(-spread, spread, bodies)]).astype(np.float32)
    positions[0] = [0, -0.5, 0]
    rotations = random_rotations(rng, bodies)
    rotations[0] = [0, 0, 0, 1]
    return bank, shapes_made, shapes, positions, rotations


def world_boxes(bank, shapes, positions, rotations, margin, scales=None):
    """The header's boxes in double: each shape's local box times the body's scale (scales None:
    1), turned by |R|, grown by the margin."""
    local = []
    for s in range(len(bank)):
        v = bank.shape(s)["vertices"].astype(np.float64)
        local.append(((v.min(0) + v.max(0)) / 2, (v.max(0) - v.min(0)) / 2))
    centre = np.array([local[s][0] for s in shapes])
    half = np.array([local[s][1] for s in shapes])
    if scales is not None:
        centre = centre * scales[:, None]
        half = half * scales[:, None]
    q = rotations.astype(np.float64)
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    x, y, z, w = q.T
    r = np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
                  np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
                  np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1)], 1)
    middle = positions + np.einsum("nij,nj->ni", r, centre)
    extent = np.einsum("nij,nj->ni", np.abs(r), half) + margin
    return middle - extent, middle + extent


def assert_pairs_are_the_overlapping_boxes(pairs, low, high):
    """The brute force over every pair of boxes (low, high): pairs overlapping by more than 1e-4 must
    be found, pairs apart by more than 1e-4 must not (float rounding decides those in between)."""
    eps = 1e-4
    a, b = np.triu_indices(len(low), 1)
    gap = np.maximum(low[a] - high[b], low[b] - high[a]).max(axis=1)
    must = set(zip(a[gap < -eps].tolist(), b[gap < -eps].tolist()))
    may = set(zip(a[gap <= eps].tolist(), b[gap <= eps].tolist()))
    found = set(map(tuple, pairs.tolist()))
    assert must <= found, f"missed {sorted(must - found)[:5]}"
    assert found <= may, f"extra {sorted(found - may)[:5]}"


@pytest.mark.parametrize("seed, margin", [(1, 0.0), (2, 0.05), (3, 0.3)])
def test_find_pairs_matches_brute_force(seed, margin):
    bank, _, shapes, positions, rotations = make_scene(seed, bodies=1500)
    pairs = manyfold.find_pairs(bank, shapes, positions, rotations, margin=margin)
    assert pairs.dtype == np.uint32 and pairs.ndim == 2 and pairs.shape[1] == 2
    assert np.all(pairs[:, 0] < pairs[:, 1])
    keys = pairs[:, 0].astype(np.int64) << 32 | pairs[:, 1]
    assert np.all(np.diff(keys) > 0), "sorted, each pair once"
    low, high = world_boxes(bank, shapes, positions, rotations, margin)
    assert_pairs_are_the_overlapping_boxes(pairs, low, high)


def write_scene_file(path, shapes_made, shapes, steps, margin, max_contacts, threads):
    with open(path, "wb") as f:
        f.write(b"MFSC" + struct.pack("<I", len(shapes_made)))
        for kind, data in shapes_made:
            if kind == "box":
                f.write(struct.pack("<I", 0) + np.asarray(data, "<f4").tobytes())
            else:
                f.write(struct.pack("<II", 1, len(data)) + np.asarray(data, "<f4").tobytes())
        f.write(struct.pack("<II", len(shapes), len(steps)) + shapes.astype("<u4").tobytes())
        for positions, rotations in steps:
            f.write(np.hstack([positions, rotations]).astype("<f4").tobytes())
        f.write(struct.pack("<fII", margin, max_contacts, threads))


def read_c_output(path, step_count):
    data = open(path, "rb").read()
    at = 0

    def take(n):
        nonlocal at
        chunk = data[at:at + n]
        at += n
        return chunk

    def stream():
        m, c = struct.unpack("<II", take(8))
        return take(24 * m), take(20 * c)

    steps = []
    for _ in range(step_count):
        (p,) = struct.unpack("<I", take(4))
        steps.append((take(8 * p), stream(), stream()))
    assert at == len(data)
    return steps


def moved_steps(rng, positions, rotations, count):
    steps = []
    for _ in range(count):
        p = (positions + rng.uniform(-2e-4, 2e-4, positions.shape)).astype(np.float32)
        q = (rotations + rng.uniform(-2e-4, 2e-4, rotations.shape)).astype(np.float32)
        steps.append((p, q))
    return steps


@pytest.mark.parametrize("threads", [1, 2])
def test_results_equal_the_c_library_bit_for_bit(tmp_path, threads):
    helper = os.environ.get("MANYFOLD_COLLIDE_FILE")
    if not helper:
        pytest.skip("MANYFOLD_COLLIDE_FILE (the meson test sets it) names the C reference program")
    bank, shapes_made, shapes, positions, rotations = make_scene(7, bodies=2000, spread=5.0)
    rng = np.random.default_rng(8)
    steps = moved_steps(rng, positions, rotations, 4)
    margin, max_contacts = 0.02, 4
    write_scene_file(tmp_path / "scene.bin", shapes_made, shapes, steps, margin, max_contacts, threads)
    subprocess.run([helper, str(tmp_path / "scene.bin"), str(tmp_path / "out.bin")], check=True)
    expected = read_c_output(tmp_path / "out.bin", len(steps))

    ctx = manyfold.Context(margin=margin, max_contacts=max_contacts, threads=threads)
    first_pairs, cache, out, cached_out = None, None, None, None
    for step, ((p, q), (c_pairs, c_plain, c_cached)) in enumerate(zip(steps, expected)):
        pairs = ctx.find_pairs(bank, shapes, p, q, margin=margin)
        assert pairs.tobytes() == c_pairs, f"step {step}: pairs differ"
        out = ctx.collide(bank, shapes, p, q, pairs, out=out)
        assert (out.manifold_bytes, out.contact_bytes) == c_plain, f"step {step}: mf_collide differs"
        if first_pairs is None:
            first_pairs, cache = pairs, manyfold.PairCache(len(pairs))
        cached_out = ctx.collide(bank, shapes, p, q, first_pairs, cache=cache, out=cached_out)
        assert (cached_out.manifold_bytes, cached_out.contact_bytes) == c_cached, f"step {step}: cached differs"
    assert len(out) > 100


def test_fields_are_views_of_the_records():
    bank, _, shapes, positions, rotations = make_scene(3, bodies=800, spread=4.0)
    ctx = manyfold.Context(margin=0.02)
    pairs = ctx.find_pairs(bank, shapes, positions, rotations)
    out = ctx.collide(bank, shapes, positions, rotations, pairs)
    m, c = len(out), out.contact_count
    assert m > 0 and out.pair.shape == (m,) and out.normal.shape == (m, 3) and out.count.shape == (m,)
    assert out.first.shape == (m,) and out.point.shape == (c, 3) and out.separation.shape == (c,)
    assert out.id.dtype == np.uint32 and out.normal.dtype == np.float32
    assert np.array_equal(out.first, np.concatenate([[0], np.cumsum(out.count)[:-1]]))
    assert np.all(np.diff(out.pair.astype(np.int64)) > 0)
    assert np.allclose(np.linalg.norm(out.normal, axis=1), 1, atol=1e-5)
    assert np.all(out.separation <= 0.02 + 0.005 + 1e-6)


def test_float64_and_transform_arrays_give_the_same_bytes():
    bank, _, shapes, positions, rotations = make_scene(4, bodies=700, spread=4.0)
    ctx = manyfold.Context()
    pairs = ctx.find_pairs(bank, shapes, positions, rotations)
    reference = ctx.collide(bank, shapes, positions, rotations, pairs)
    as_double = ctx.collide(bank, shapes.astype(np.int64), positions.astype(np.float64),
                            rotations.astype(np.float64), pairs.astype(np.int64))
    transforms = np.hstack([positions, rotations])
    as_one_array = ctx.collide(bank, shapes, transforms, None, pairs)
    lists = ctx.collide(bank, shapes.tolist(), positions.tolist(), rotations.tolist(), pairs.tolist())
    for other in (as_double, as_one_array, lists):
        assert other.manifold_bytes == reference.manifold_bytes
        assert other.contact_bytes == reference.contact_bytes
    assert np.array_equal(manyfold.find_pairs(bank, shapes, positions.astype(np.float64), rotations), pairs)


def test_out_reuses_its_buffers():
    bank, _, shapes, positions, rotations = make_scene(5, bodies=800, spread=4.0)
    ctx = manyfold.Context()
    pairs = ctx.find_pairs(bank, shapes, positions, rotations)
    out = ctx.collide(bank, shapes, positions, rotations, pairs)
    fresh = ctx.collide(bank, shapes, positions, rotations, pairs)
    address = out.normal.__array_interface__["data"][0]
    for _ in range(3):
        again = ctx.collide(bank, shapes, positions, rotations, pairs, out=out)
        assert again is out
        assert out.normal.__array_interface__["data"][0] == address
        assert out.manifold_bytes == fresh.manifold_bytes and out.contact_bytes == fresh.contact_bytes
    # Fewer pairs: the same buffers, shorter views.
    ctx.collide(bank, shapes, positions, rotations, pairs[:10], out=out)
    assert out.normal.__array_interface__["data"][0] == address and len(out) <= 10


def test_cached_stepping_reuses_resting_pairs():
    bank, _, shapes, positions, rotations = make_scene(6, bodies=800, spread=4.0)
    ctx = manyfold.Context()
    pairs = ctx.find_pairs(bank, shapes, positions, rotations)
    cache = manyfold.PairCache(len(pairs))
    assert len(cache) == len(pairs) and np.all(cache.routes == 0)
    rng = np.random.default_rng(9)
    for p, q in moved_steps(rng, positions, rotations, 5):
        cached = ctx.collide(bank, shapes, p, q, pairs, cache=cache)
        plain = ctx.collide(bank, shapes, p, q, pairs)
        assert abs(len(cached) - len(plain)) <= max(3, len(plain) // 100)
    routes = np.bincount(cache.routes, minlength=5)
    assert routes[4] > 0, f"no pair reused its manifold: {routes}"
    cache.reset()
    assert np.all(cache.routes == 0)


def test_threads_give_the_same_output_and_run_at_once():
    bank, _, shapes, positions, rotations = make_scene(10, bodies=3000, spread=6.0)
    one = manyfold.Context(threads=1)
    pairs = one.find_pairs(bank, shapes, positions, rotations)
    reference = one.collide(bank, shapes, positions, rotations, pairs)
    two = manyfold.Context(threads=2)
    assert two.threads == 2
    assert np.array_equal(two.find_pairs(bank, shapes, positions, rotations), pairs)
    assert two.collide(bank, shapes, positions, rotations, pairs).contact_bytes == reference.contact_bytes
    results, errors = [None] * 4, []

    def work(k):
        try:
            ctx = manyfold.Context(threads=1)
            for _ in range(3):
                results[k] = ctx.collide(bank, shapes, positions, rotations, pairs).contact_bytes
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(r == reference.contact_bytes for r in results)


def test_bad_inputs_raise_and_lose_nothing():
    bank, _, shapes, positions, rotations = make_scene(11, bodies=300, spread=3.0)
    ctx = manyfold.Context()
    pairs = ctx.find_pairs(bank, shapes, positions, rotations)
    cache = manyfold.PairCache(len(pairs))
    out = ctx.collide(bank, shapes, positions, rotations, pairs, cache=cache)
    before = (out.manifold_bytes, out.contact_bytes, cache.routes.tobytes())

    def refused(kind, match, **changes):
        args = dict(shapes=shapes, positions=positions, rotations=rotations, pairs=pairs)
        args.update(changes)
        with pytest.raises(kind, match=match):
            ctx.collide(bank, args["shapes"], args["positions"], args["rotations"], args["pairs"], cache=cache,
                        out=out)
        assert (out.manifold_bytes, out.contact_bytes, cache.routes.tobytes()) == before

    refused(ValueError, "positions", positions=positions[:, :2])
    refused(ValueError, "rotations", rotations=rotations[:-1])
    refused(ValueError, "shapes", shapes=shapes.astype(np.float32))
    refused(ValueError, "shapes", shapes=-shapes.astype(np.int64) - 1)
    refused(ValueError, "pairs", pairs=pairs[:, :1])
    refused(ValueError, "pairs", pairs=pairs.astype(np.float64))
    refused(ValueError, "positions", positions=np.array(["a"] * len(shapes)))
    refused(ValueError, "cache", pairs=pairs[:-1])
    bad = shapes.copy()
    bad[17] = len(bank)
    refused(manyfold.Error, "body 17", shapes=bad)
    nan = positions.copy()
    nan[5, 1] = np.nan
    refused(manyfold.Error, "body 5 has a non-finite", positions=nan)
    zero = rotations.copy()
    zero[8] = 0
    refused(manyfold.Error, "body 8 has a zero quaternion", rotations=zero)
    far = pairs.copy()
    far[3, 1] = len(shapes)
    refused(manyfold.Error, "pair 3", pairs=far)
    try:
        ctx.collide(bank, bad, positions, rotations, pairs)
    except manyfold.Error as e:
        assert e.status == 1 and e.status_name == "MF_ERR_INVALID_ARGUMENT" and "body 17" in e.message
    with pytest.raises(manyfold.Error, match="body 5"):
        ctx.find_pairs(bank, shapes, nan, rotations)
    with pytest.raises(ValueError, match="isa"):
        manyfold.Context(isa="mmx")
    with pytest.raises(manyfold.Error):
        manyfold.Context(max_contacts=99)
    with pytest.raises(manyfold.Error, match="DEGENERATE|TOO"):
        bank.add_hull(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="points"):
        bank.add_hull(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="shape"):
        bank.shape(len(bank))


def test_shape_and_mass_of_a_box():
    bank = manyfold.Bank()
    box = bank.add_box([0.5, 1.0, 1.5])
    geo = bank.shape(box)
    assert geo["vertices"].shape == (8, 3) and geo["planes"].shape == (6, 4) and geo["edges"].shape == (12, 2)
    assert len(geo["faces"]) == 6 and all(len(f) == 4 for f in geo["faces"])
    assert np.allclose(np.abs(geo["vertices"]), [0.5, 1.0, 1.5])
    mass, centre, inertia = bank.mass(box, density=2.0)
    size = np.array([1.0, 2.0, 3.0])
    assert mass == pytest.approx(2.0 * 6.0, rel=1e-6)
    assert np.allclose(centre, 0, atol=1e-6)
    expected = mass / 12 * np.array([size[1] ** 2 + size[2] ** 2, size[0] ** 2 + size[2] ** 2,
                                     size[0] ** 2 + size[1] ** 2])
    assert np.allclose(inertia, np.diag(expected), rtol=1e-5, atol=1e-5)


def test_scales_of_one_and_scaled_boxes_give_the_bytes_of_their_shapes():
    bank, _, shapes, positions, rotations = make_scene(12, bodies=800, spread=4.0)
    ctx = manyfold.Context()
    pairs = ctx.find_pairs(bank, shapes, positions, rotations)
    plain = ctx.collide(bank, shapes, positions, rotations, pairs)
    ones = ctx.collide(bank, shapes, positions, rotations, pairs, scales=np.ones(len(shapes)))
    assert (ones.manifold_bytes, ones.contact_bytes) == (plain.manifold_bytes, plain.contact_bytes)
    # A box scaled by 2 (or 0.5) is, float for float, the box of twice (half) its extents.
    boxes = manyfold.Bank()
    unit = boxes.add_box([0.5, 0.3, 0.2])
    doubled = boxes.add_box([1.0, 0.6, 0.4])
    halved = boxes.add_box([0.25, 0.15, 0.1])
    rng = np.random.default_rng(13)
    n = 400
    where = rng.uniform(-1.0, 1.0, (n, 3)).astype(np.float32)
    turns = random_rotations(rng, n)
    body_pairs = np.array([[i, i + 1] for i in range(0, n - 1, 2)], np.uint32)
    scales = np.where(np.arange(n) % 2 == 0, 2.0, 0.5).astype(np.float32)
    scaled = ctx.collide(boxes, np.full(n, unit, np.uint32), where, turns, body_pairs, scales=scales)
    built = ctx.collide(boxes, np.where(np.arange(n) % 2 == 0, doubled, halved).astype(np.uint32), where, turns,
                        body_pairs)
    assert len(built) > 20
    assert (scaled.manifold_bytes, scaled.contact_bytes) == (built.manifold_bytes, built.contact_bytes)


@pytest.mark.parametrize("seed, margin", [(14, 0.0), (15, 0.05)])
def test_find_pairs_with_scales_matches_brute_force(seed, margin):
    bank, _, shapes, positions, rotations = make_scene(seed, bodies=1200)
    scales = np.random.default_rng(seed).uniform(0.3, 2.5, len(shapes)).astype(np.float32)
    pairs = manyfold.find_pairs(bank, shapes, positions, rotations, margin=margin, scales=scales)
    # The brute force's boxes of the scaled shapes: each body's local box times its scale.
    low, high = world_boxes(bank, shapes, positions, rotations, margin, scales)
    assert_pairs_are_the_overlapping_boxes(pairs, low, high)


def test_bad_scales_raise_and_lose_nothing():
    bank, _, shapes, positions, rotations = make_scene(16, bodies=300, spread=3.0)
    ctx = manyfold.Context()
    scales = np.full(len(shapes), 1.1, np.float32)
    pairs = ctx.find_pairs(bank, shapes, positions, rotations, scales=scales)
    cache = manyfold.PairCache(len(pairs))
    out = ctx.collide(bank, shapes, positions, rotations, pairs, cache=cache, scales=scales)
    before = (out.manifold_bytes, out.contact_bytes, cache.routes.tobytes())

    def refused(kind, match, bad):
        with pytest.raises(kind, match=match):
            ctx.collide(bank, shapes, positions, rotations, pairs, cache=cache, out=out, scales=bad)
        with pytest.raises(kind, match=match):
            manyfold.find_pairs(bank, shapes, positions, rotations, scales=bad)
        assert (out.manifold_bytes, out.contact_bytes, cache.routes.tobytes()) == before

    info = bank.info(int(shapes[7]))
    assert info["min_scale"] <= 1.0 <= info["max_scale"] and info["max_scale"] < 1e30
    refused(ValueError, "scales", scales[:-1])
    refused(ValueError, "scales", scales[:, None])
    refused(ValueError, "scales", np.array(["a"] * len(shapes)))
    for value, status in ((0.0, "INVALID"), (-1.0, "INVALID"), (np.nan, "NONFINITE"), (np.inf, "NONFINITE"),
                          (1e30, "INVALID"), (1e-30, "INVALID")):
        bad = scales.copy()
        bad[7] = value
        refused(manyfold.Error, f"{status}.*body 7 has scale", bad)


def test_a_change_of_scale_is_searched_afresh():
    bank = manyfold.Bank()
    ground = bank.add_box([5, 5, 0.5])
    crate = bank.add_box([0.5, 0.4, 0.3])
    shapes = np.array([ground, crate], np.uint32)
    positions = np.array([[0, 0, -0.5], [0.2, -0.1, 0.299 * 1.5]], np.float32)
    rotations = np.array([[0, 0, 0, 1], [0, 0, 0, 1]], np.float32)
    pairs = np.array([[0, 1]], np.uint32)
    ctx = manyfold.Context()
    cache = manyfold.PairCache(1)
    scales = np.array([1.0, 1.5], np.float32)
    for _ in range(3):
        out = ctx.collide(bank, shapes, positions, rotations, pairs, cache=cache, scales=scales)
    assert cache.routes[0] == 4  # reused
    scales[1] = 1.5 * 1.001
    cached = ctx.collide(bank, shapes, positions, rotations, pairs, cache=cache, scales=scales)
    plain = ctx.collide(bank, shapes, positions, rotations, pairs, scales=scales)
    assert cache.routes[0] == 1  # searched
    assert (cached.manifold_bytes, cached.contact_bytes) == (plain.manifold_bytes, plain.contact_bytes)
    assert np.allclose(cached.separation, 0.299 * 1.5 - 0.3 * 1.5 * 1.001, atol=2e-5)
    assert len(out) == 1


def test_removed_shapes_are_refused_and_their_ids_reused():
    bank = manyfold.Bank()
    ids = [bank.add_box([0.5, 0.5, 0.5 + 0.1 * k]) for k in range(4)]
    assert ids == [0, 1, 2, 3]
    bank.remove(1)
    assert len(bank) == 4
    for read in (bank.info, bank.shape, bank.mass, bank.remove):
        with pytest.raises(ValueError, match="removed"):
            read(1)
    with pytest.raises(ValueError, match="shape"):
        bank.remove(4)
    ctx = manyfold.Context()
    shapes = np.array([0, 1], np.uint32)
    positions = np.array([[0, 0, 0], [0.5, 0, 0]], np.float32)
    rotations = np.array([[0, 0, 0, 1], [0, 0, 0, 1]], np.float32)
    with pytest.raises(manyfold.Error, match="body 1 has shape 1, which was removed"):
        ctx.collide(bank, shapes, positions, rotations, [[0, 1]])
    with pytest.raises(manyfold.Error, match="removed"):
        manyfold.find_pairs(bank, shapes, positions, rotations)
    # The lowest free id comes back with the next add, and names the new shape.
    assert bank.add_hull(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], np.float32)) == 1
    assert bank.info(1)["vertex_count"] == 4
    assert len(ctx.collide(bank, shapes, positions, rotations, [[0, 1]])) == 1
    # The highest id removed, the ids end below it.
    bank.remove(3)
    assert len(bank) == 3
    assert bank.add_box([1, 1, 1]) == 3


def test_skipped_bad_bodies_cost_only_their_own_pairs():
    """on_fault='skip': a NaN body, a zero quaternion, a bad scale and a pair out of range cost only
    their own pairs; the good pairs' manifolds are the bytes of the same call without the bad pairs."""
    bank, _, shapes, positions, rotations = make_scene(13, bodies=300, spread=3.0)
    stop, skip = manyfold.Context(), manyfold.Context(on_fault="skip")
    assert (stop.on_fault, skip.on_fault) == ("stop", "skip")
    with pytest.raises(ValueError, match="on_fault"):
        manyfold.Context(on_fault="ignore")
    pairs = stop.find_pairs(bank, shapes, positions, rotations)
    scales = np.ones(len(shapes), np.float32)
    bad_positions, bad_rotations = positions.copy(), rotations.copy()
    touched = np.unique(pairs[:, 0])
    nan_body, zero_body, scale_body = (int(b) for b in touched[[1, 5, 9]])
    bad_positions[nan_body, 0] = np.nan
    bad_rotations[zero_body] = 0.0
    scales[scale_body] = -1.0
    bad_pairs = np.vstack([pairs, [[0, len(shapes) + 3]]]).astype(np.uint32)
    out = skip.collide(bank, shapes, bad_positions, bad_rotations, bad_pairs, scales=scales)
    bad = np.isin(bad_pairs, [nan_body, zero_body, scale_body]).any(axis=1)
    bad[-1] = True
    assert out.fault_count == bad.sum() > 3
    assert np.array_equal(out.fault_pair, np.flatnonzero(bad).astype(np.uint32))
    nonfinite = np.isin(bad_pairs[bad], [nan_body]).any(axis=1)
    statuses = set(out.fault_status[nonfinite].tolist())
    assert len(statuses) == 1 and statuses != set(out.fault_status[~nonfinite].tolist())
    # The same call without the bad pairs: the good pairs' bytes, pair indices renumbered.
    good = np.flatnonzero(~bad)
    alone = stop.collide(bank, shapes, positions, rotations, bad_pairs[good], scales=np.ones_like(scales))
    assert alone.fault_count == 0 and out.manifold_count == alone.manifold_count > 0
    assert np.array_equal(good[alone.pair], out.pair)
    assert out.contact_bytes == alone.contact_bytes
    assert np.array_equal(out.normal, alone.normal) and np.array_equal(out.count, alone.count)
    with pytest.raises(manyfold.Error):
        stop.collide(bank, shapes, bad_positions, bad_rotations, bad_pairs, scales=scales)
