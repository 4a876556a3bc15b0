#!/usr/bin/python3
"""Runs the manyfold benchmark suite and writes what it found.

    /usr/bin/python3 tools/bench.py --build build

writes, under bench-results/ (or --out):
  results.json          Google Benchmark's own JSON output
  report.md             pairs per second, ratios (each implementation against the best peer,
                        AVX2 against scalar, threads against one thread), the peers' agreement,
                        the cache (warm against cold), thread scaling, the size sweep and the
                        cost per pair against hull size
  pairs_per_second.png  pairs per second per scene and implementation (log scale)
  pairs_vs_size.png     pairs per second and peak memory against pair count (collide_size)
  thread_scaling.png    speed-up over one thread against threads (collide_threads)
  hull_size.png         microseconds per pair against hull vertices (collide_hull_size)

--json FILE skips the run and reports on an earlier results.json. The whole suite takes about seven
minutes on two cores with the defaults; Bullet's polyhedral clipping on the hull scenes is a
minute and a half of it, the hull size family (collide_hull_size, no Bullet) under a minute. --huge adds the 10^7-pair size (about a gigabyte and a minute more).
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

MANYFOLD_IMPLS = ["manyfold_scalar", "manyfold_sse", "manyfold_avx2", "manyfold_avx512", "manyfold_neon",
                  "manyfold_auto", "manyfold_auto_threads"]
PEER_IMPLS = ["bullet_hull", "bullet_boxbox", "ode"]
SLOW_PEER_IMPLS = ["bullet_hull"]  # a minute an iteration on hull48: --peer-repetitions
LARGE_SCENES = ["crowd"]  # a million pairs: --coarse-repetitions
FAMILIES = ["collide", "collide_threads", "collide_copies", "collide_caller_cpu", "collide_size", "collide_hull_size"]
NAMED_FAMILIES = ["collide", "collide_hull_size"]  # the last part of the name is an implementation
CACHED_IMPLS = ["manyfold_auto_cached_cold", "manyfold_auto_cached_warm"]
AGREEMENT_COUNTERS = ["both_touching", "normal_agree", "depth_agree", "only_manyfold", "only_peer",
                      "manifolds", "contacts"]


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="meson build directory (default: build)")
    parser.add_argument("--out", default="bench-results", help="output directory (default: bench-results)")
    # Many short repetitions, not a few long ones: on a shared host a repetition's rate is an average
    # over whatever the host did meanwhile, and the shorter it is the likelier some repetition of each
    # benchmark runs undisturbed (docs/performance.md, "Zen 3, the box pass's edge axes in closed
    # form, and a finer bench": the same code's auto and AVX2 columns agreed within 1% at 45 x 0.02 s
    # where 9 x 0.1 s read them up to 26% apart).
    parser.add_argument("--min-time", type=float, default=0.02,
                        help="seconds each repetition runs at least (default 0.02; one iteration if slower)")
    parser.add_argument("--repetitions", type=int, default=45,
                        help="repetitions of the benchmarks the speed targets read (is_fine); above 1 the "
                             "report takes the fastest or the median (--statistic) (default 45)")
    # A scene of a million pairs takes about a second an iteration (ODE's, the scalar path's), so its
    # repetitions cannot be short; the peers' worlds are rebuilt for each repetition too.
    parser.add_argument("--coarse-repetitions", type=int, default=9,
                        help="repetitions of the other benchmarks: those of the million-pair scene (crowd), "
                             "the cached calls, the hull size, caller placement and size families (default 9)")
    parser.add_argument("--coarse-min-time", type=float, default=0.1,
                        help="seconds each of their repetitions runs at least (default 0.1)")
    parser.add_argument("--peer-repetitions", type=int, default=1,
                        help="repetitions of Bullet's hull benchmarks (default 1: they are slow); ODE and "
                             "Bullet's box-box run with --repetitions, beside manyfold")
    # On a shared host a core's rate can jump by a third for seconds at a time (two states, whatever
    # the CPU or the address layout: docs/performance.md). Repetitions run one benchmark after
    # another then give each benchmark its own spell, and a ratio compares two spells; interleaved,
    # each benchmark's repetitions meet the spells its peers' do.
    parser.add_argument("--no-interleave", dest="interleave", action="store_false",
                        help="run each benchmark's repetitions one after another, not in random order "
                             "across the run (Google Benchmark's random interleaving, the default)")
    # --interleave was the option before interleaving became the default: still taken, a no-op.
    parser.add_argument("--interleave", dest="interleave", action="store_true", help=argparse.SUPPRESS)
    parser.set_defaults(interleave=True)
    parser.add_argument("--filter", default="^collide", help="benchmark name regex (default: all)")
    parser.add_argument("--huge", action="store_true",
                        help="add collide_size/crowd/10000000 (sets MANYFOLD_BENCH_HUGE=1; about 1.3 GB)")
    parser.add_argument("--pairs", type=int, default=0, help="pairs per scene (default: each scene's own size)")
    parser.add_argument("--no-compile", action="store_true", help="do not run `meson compile` first")
    parser.add_argument("--json", help="report on this results.json instead of running the suite")
    parser.add_argument("--statistic", choices=["fastest", "median"], default="fastest",
                        help="which repetition stands for a benchmark: the fastest (default; on a shared "
                             "host the least disturbed) or the median")
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                        help="pairs per wall-clock second (default) or per CPU second of the calling "
                             "thread (steadier on a busy machine; leaves out the threaded runs)")
    return parser.parse_args()


def list_benchmarks(executable, name_filter, environment):
    listing = subprocess.run([executable, f"--benchmark_filter={name_filter}", "--benchmark_list_tests=true"],
                             env=environment, check=True, capture_output=True, text=True).stdout
    return [line.strip() for line in listing.splitlines() if line.strip()]


def exact_filter(names):
    return "^(" + "|".join(re.escape(name) for name in names) + ")$"


def is_slow_peer(name):
    parts = name.split("/")
    return len(parts) >= 3 and parts[2] in SLOW_PEER_IMPLS


def is_fine(name):
    """The benchmarks the speed targets read: the ratios to the peers and the thread scaling, on the
    scenes whose calls take milliseconds. They take many short repetitions; the rest fewer, longer
    ones (each repetition of a cached benchmark warms its cache, of a peer builds its world)."""
    parts = name.split("/")
    if len(parts) < 3 or parts[0] not in ("collide", "collide_threads", "collide_copies"):
        return False
    return parts[1] not in LARGE_SCENES and "cached" not in parts[2]


def run_suite(args, results_path):
    """Runs manyfold's benchmarks and the fast peers (ODE, Bullet's box-box) together with
    --repetitions of --min-time (interleaved unless --no-interleave, so that a ratio's two sides
    sample the same stretches of the run) where is_fine, the others likewise with
    --coarse-repetitions of --coarse-min-time, the size family with as many one after another, and
    Bullet's hull clipping (a minute an iteration on hull48) with --peer-repetitions, then merges the
    JSON outputs into results_path, with the command in its context. Returns the worst exit status."""
    if not args.no_compile:
        meson = shutil.which("meson")
        if meson is None:
            sys.exit("meson not found on PATH (or pass --no-compile)")
        subprocess.run([meson, "compile", "-C", args.build, "manyfold-bench"], check=True,
                       stdout=subprocess.DEVNULL)
    executable = os.path.join(args.build, "bench", "manyfold-bench")
    if not os.path.exists(executable):
        sys.exit(f"{executable} not found: configure with -Dbenchmarks=enabled and build first")
    environment = dict(os.environ)
    if args.pairs > 0:
        environment["MANYFOLD_BENCH_PAIRS"] = str(args.pairs)
    if args.huge:
        environment["MANYFOLD_BENCH_HUGE"] = "1"

    names = list_benchmarks(executable, args.filter, environment)
    # The size family measures its memory against what the process held when its scene was made:
    # other benchmarks run in between would move that, so its repetitions run one after another.
    sized = [n for n in names if n.startswith("collide_size/")]
    rest = [n for n in names if not is_slow_peer(n) and n not in sized]
    groups = [([n for n in rest if is_fine(n)], args.repetitions, args.min_time, args.interleave),
              ([n for n in rest if not is_fine(n)], args.coarse_repetitions, args.coarse_min_time, args.interleave),
              (sized, args.coarse_repetitions, args.coarse_min_time, False),
              ([n for n in names if is_slow_peer(n)], args.peer_repetitions, args.min_time, args.interleave)]
    merged, worst = None, 0
    for index, (group, repetitions, min_time, interleave) in enumerate(groups):
        if not group:
            continue
        part_path = f"{results_path}.part{index}"
        command = [executable, f"--benchmark_filter={exact_filter(group)}", f"--benchmark_min_time={min_time}",
                   f"--benchmark_out={part_path}", "--benchmark_out_format=json"]
        if repetitions > 1:
            # Every repetition in the JSON (the fastest is read from them), the aggregates alone on screen.
            command += [f"--benchmark_repetitions={repetitions}", "--benchmark_display_aggregates_only=true"]
            if interleave:
                command.append("--benchmark_enable_random_interleaving=true")
        print(f"running {len(group)} benchmarks, {repetitions} repetition(s) each", flush=True)
        # A non-zero exit means a benchmark failed (not merely skipped); report what ran anyway.
        status = subprocess.run(command, env=environment).returncode
        if status != 0:
            print(f"warning: the benchmark program exited with status {status}", file=sys.stderr)
            worst = worst or status
        with open(part_path) as f:
            part = json.load(f)
        os.remove(part_path)
        if merged is None:
            merged = part
        else:
            merged["benchmarks"] += part.get("benchmarks", [])
    if merged is None:
        sys.exit(f"no benchmark matches --filter {args.filter}")
    merged.setdefault("context", {})["bench_command"] = " ".join(
        shlex.quote(word) for word in ["/usr/bin/python3", "tools/bench.py"] + sys.argv[1:])
    with open(results_path, "w") as f:
        json.dump(merged, f, indent=2)
    return worst


def load_results(path):
    """(context, families): families[family][(first, second)] is one benchmark's entry: when
    repeated, the fastest repetition or the median (STATISTIC; results saved with aggregates only
    have no repetitions, so their median), else the run. Families are "collide" and
    "collide_hull_size" (scene, impl), "collide_threads" and "collide_copies" (scene, threads) and
    "collide_size" (scene, pairs), the numbers as ints. An entry may carry "cv": the coefficient of variation of its
    repetitions' wall time."""
    with open(path) as f:
        document = json.load(f)
    families = {family: {} for family in FAMILIES}
    variation, fastest, failed = {}, {}, {}
    for entry in document.get("benchmarks", []):
        # Copies run as Google Benchmark threads, which it names .../real_time/threads:<n>.
        name = re.sub(r"/threads:\d+$", "", entry.get("run_name", entry["name"])).removesuffix("/real_time")
        parts = name.split("/")
        if parts[0] == "collide_caller_cpu" and len(parts) == 4:  # <scene>/cpu<k>/<n>: scene and CPU as one
            parts = [parts[0], parts[1] + "/" + parts[2], parts[3]]
        if len(parts) != 3 or parts[0] not in FAMILIES:
            continue
        second = parts[2] if parts[0] in NAMED_FAMILIES else int(parts[2])
        results, key = families[parts[0]], (parts[1], second)
        where = (parts[0], key)
        repeated = entry.get("run_type") == "aggregate"
        if repeated and entry.get("aggregate_name") == "cv":
            variation[where] = entry.get("real_time")
        if not repeated and entry.get("repetitions", 1) > 1:  # one repetition of several
            if entry.get("error_occurred"):
                failed.setdefault(where, dict(entry))  # one failed repetition fails the benchmark
            elif where not in fastest or (pairs_per_second(entry) or 0.0) > (pairs_per_second(fastest[where]) or 0.0):
                fastest[where] = dict(entry)
        if repeated and entry.get("aggregate_name") != "median":
            continue
        if repeated or key not in results:
            results[key] = dict(entry)
    if STATISTIC == "fastest":
        for (family, key), entry in fastest.items():
            families[family][key] = dict(entry, chosen="fastest")
    for (family, key), entry in failed.items():
        families[family][key] = entry
    for (family, key), cv in variation.items():
        if key in families[family]:
            families[family][key]["cv"] = cv
    return document.get("context", {}), families


def is_threaded(entry):
    """Whether the run used more than the calling thread (its "threads" counter; older results go
    by name)."""
    if "threads" in entry:
        return entry["threads"] > 1
    name = entry.get("run_name", entry["name"]).removesuffix("/real_time")
    return name.endswith("/manyfold_auto_threads") or (name.startswith("collide_threads/") and
                                                       not name.endswith("/1"))


def measurement_notes(families):
    """How far to trust the numbers: repetition spread, and runs that waited for the CPU (on a shared
    machine a single-threaded run's CPU time falls well below its wall time)."""
    notes = []
    entries = [entry for results in families.values() for entry in results.values()]
    spreads = sorted(entry["cv"] for entry in entries if entry.get("cv") is not None)
    if spreads:
        notes.append(f"Spread between repetitions (coefficient of variation of wall time): median "
                     f"{100 * spreads[len(spreads) // 2]:.1f}%, largest {100 * spreads[-1]:.1f}%.")
    busy = [f"{entry.get('run_name', entry['name']).removesuffix('/real_time')} "
            f"({entry['cpu_time'] / entry['real_time']:.0%})"
            for entry in entries
            if not entry.get("error_occurred") and not is_threaded(entry) and entry.get("real_time")
            and entry["cpu_time"] < 0.8 * entry["real_time"]]
    if busy:
        notes.append("Single-threaded runs that got under 80% of a core (CPU time / wall time; the machine was "
                     "busy, their pairs/s are low): " + ", ".join(busy) + ".")
    return notes


# "wall": pairs per wall-clock second, as Google Benchmark reports them. "cpu": per second of the
# calling thread's CPU time, steadier on a busy machine but meaningless for the threaded runs.
CLOCK = "wall"
# "fastest": the fastest repetition of each benchmark. A shared host's cores switch between a fast
# and a slow state for a second or two at a time (docs/performance.md: one benchmark's 60 short
# repetitions in a row read 11.4M and 15.6M pairs/s, the same code, CPU and address layout), so a
# median lands in either, while each benchmark's fastest repetition is almost always in the fast
# state. "median": the median repetition.
STATISTIC = "fastest"


def pairs_per_second(entry):
    if entry is None or entry.get("error_occurred"):
        return None
    rate = entry.get("items_per_second")
    if CLOCK == "cpu" and rate is not None:
        if is_threaded(entry):
            return None
        rate *= entry["real_time"] / entry["cpu_time"] if entry.get("cpu_time") else 1.0
    return rate


def format_rate(rate):
    if rate is None:
        return "–"
    return f"{rate / 1e6:.2f}M" if rate >= 1e6 else f"{rate / 1e3:.1f}k"


def format_ratio(numerator, denominator):
    if numerator is None or denominator is None or denominator == 0:
        return "–"
    return f"{numerator / denominator:.2f}×"


def scenes_in_order(results):
    scenes = []
    for scene, _ in results:
        if scene not in scenes:
            scenes.append(scene)
    return scenes


def best_peer(results, scene):
    rates = [(pairs_per_second(results.get((scene, peer))), peer) for peer in PEER_IMPLS]
    rates = [(rate, peer) for rate, peer in rates if rate is not None]
    return max(rates) if rates else (None, None)


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def format_mb(value):
    return "–" if value is None else f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def report(context, families):
    results = families["collide"]
    scenes = scenes_in_order(results)
    impls = [impl for impl in MANYFOLD_IMPLS + PEER_IMPLS if any((s, impl) in results for s in scenes)]
    out = ["# manyfold benchmark", ""]
    if context.get("bench_command"):
        out += [f"Command: `{context['bench_command']}`", ""]
    reason = f" ({context['manyfold_isa_best_reason']})" if context.get("manyfold_isa_best_reason") else ""
    out.append(f"manyfold {context.get('manyfold_version', '?')}, "
               f"auto ISA = {context.get('manyfold_isa_best', '?')}{reason}, "
               f"{context.get('num_cpus', '?')} CPUs at {context.get('mhz_per_cpu', '?')} MHz, "
               f"{context.get('date', '')}. Scene sizes (pairs): {context.get('scene_pairs', '?')}; "
               f"fingerprints: {context.get('scene_fingerprints', '?')}.")
    entries = [entry for family in families.values() for entry in family.values()]
    counts = sorted({entry.get("repetitions", 1) for entry in entries})
    if any(entry.get("chosen") == "fastest" for entry in entries):
        out.append(f"Each benchmark's rate is that of its fastest repetition (of {'/'.join(map(str, counts))}; "
                   "`--statistic median` for the medians).")
    elif counts and counts[-1] > 1:
        out.append("Each repeated benchmark's rate is its median repetition's.")
    out.append("")

    out += ["## Pairs per second" + (" (per CPU second of the calling thread)" if CLOCK == "cpu" else ""), ""]
    rows = [[scene] + [format_rate(pairs_per_second(results.get((scene, impl)))) for impl in impls]
            for scene in scenes]
    out += [table(["scene"] + impls, rows), ""]
    skipped = sorted({entry.get("error_message", "") for family in families.values() for entry in family.values()
                      if entry.get("error_occurred")})
    if skipped:
        out += ["Skipped: " + "; ".join(skipped) + ".", ""]
    for note in measurement_notes(families):
        out += [note, ""]

    out += ["## Ratios", "",
            "Each manyfold implementation against the fastest peer on that scene; then AVX2 against scalar, "
            "and all threads against one thread (both with the auto ISA).", ""]
    present = [impl for impl in MANYFOLD_IMPLS if impl in impls]
    rows = []
    for scene in scenes:
        peer_rate, peer = best_peer(results, scene)
        rate = lambda impl: pairs_per_second(results.get((scene, impl)))
        rows.append([scene, f"{peer} {format_rate(peer_rate)}" if peer else "–"] +
                    [format_ratio(rate(impl), peer_rate) for impl in present] +
                    [format_ratio(rate("manyfold_avx2"), rate("manyfold_scalar")),
                     format_ratio(rate("manyfold_auto_threads"), rate("manyfold_auto"))])
    out += [table(["scene", "best peer"] + [f"{impl} / peer" for impl in present] +
                  ["avx2 / scalar", "threads / 1 thread"], rows), ""]

    out += cache_section(results)
    out += threads_section(families["collide_threads"], families["collide_copies"])
    out += caller_cpu_section(families["collide_caller_cpu"])
    out += size_section(families["collide_size"])
    out += hull_size_section(context, families["collide_hull_size"])

    out += ["## Peer agreement with manyfold", "",
            "Fractions of pairs. A pair is touching when its deepest contact penetrates. normal_agree "
            "(dot > 0.99) and depth_agree (within 1 mm + 2%) count among the pairs both call touching; "
            "manifolds and contacts are per pair.", ""]
    rows = []
    for scene in scenes:
        for peer in PEER_IMPLS:
            entry = results.get((scene, peer))
            if entry is None or entry.get("error_occurred"):
                continue
            rows.append([scene, peer] + [f"{entry[c]:.3f}" if c in entry else "–" for c in AGREEMENT_COUNTERS])
        entry = results.get((scene, "manyfold_scalar"))
        if entry is not None and not entry.get("error_occurred"):
            rows.append([scene, "(manyfold_scalar)"] + ["" for _ in AGREEMENT_COUNTERS[:-2]] +
                        [f"{entry.get(c, 0):.3f}" for c in AGREEMENT_COUNTERS[-2:]])
    out += [table(["scene", "peer"] + AGREEMENT_COUNTERS, rows), ""]
    return "\n".join(out)


def cache_section(results):
    scenes = [scene for scene in scenes_in_order(results) if any((scene, impl) in results for impl in CACHED_IMPLS)]
    if not scenes:
        return []
    out = ["## Temporal coherence: mf_collide_cached", "",
           "One thread, auto ISA. Every iteration moves the bodies to the next of 16 precomputed steps of "
           "`scene_step` (a wobble about the rest pose: at most 0.4 mm per axis and 0.05 degrees, a quarter of "
           "that per step). Warm: the cache carries over from the previous step. Cold: it is zeroed before every "
           "call, with the clock stopped. Uncached: plain `mf_collide` on the rest pose (`manyfold_auto`). "
           "presence_differs and normal_differs compare the last cached output with `mf_collide` on the same "
           "poses: pairs with a manifold in only one, and pairs whose normals differ by more than 8 degrees "
           "(allowed within the slop).", "",
           "Then, over one more period of 16 steps (warm: from the timed calls' cache; cold: zeroed every step): "
           "the share of pair-steps answered by each route (reused: kept manifold carried along; clipped: "
           "cached axis, fresh clip; apart: settled apart by the cached axis; searched: full search), and among "
           "pairs with a manifold on consecutive steps, normals that turned by more than 5 degrees (flips) and "
           "id sets that changed.", ""]
    rows, counters = [], []
    for scene in scenes:
        rate = lambda impl: pairs_per_second(results.get((scene, impl)))
        warm = results.get((scene, "manyfold_auto_cached_warm")) or {}
        cold = results.get((scene, "manyfold_auto_cached_cold")) or {}
        value = lambda entry, key, digits=4: f"{entry[key]:.{digits}f}" if key in entry else "–"
        percent = lambda entry, key: f"{100.0 * entry[key]:.3f}%" if key in entry else "–"
        rows.append([scene, format_rate(rate("manyfold_auto")), format_rate(rate("manyfold_auto_cached_cold")),
                     format_rate(rate("manyfold_auto_cached_warm")),
                     format_ratio(rate("manyfold_auto_cached_warm"), rate("manyfold_auto_cached_cold")),
                     format_ratio(rate("manyfold_auto_cached_warm"), rate("manyfold_auto")),
                     value(warm, "presence_differs"), value(warm, "normal_differs")])
        counters.append([scene, value(warm, "route_reused", 3), value(warm, "route_clipped", 3),
                         value(warm, "route_apart", 3), value(warm, "route_searched", 3),
                         percent(warm, "normal_flips"), percent(warm, "id_changes"),
                         percent(cold, "normal_flips"), percent(cold, "id_changes")])
    out += [table(["scene", "uncached", "cold", "warm", "warm / cold", "warm / uncached",
                   "presence_differs (warm)", "normal_differs (warm)"], rows), ""]
    out += [table(["scene", "reused", "clipped", "apart", "searched", "flips (warm)", "id changes (warm)",
                   "flips (cold)", "id changes (cold)"], counters), ""]
    return out


def threads_section(threads, copies):
    if not threads:
        return []
    counts = sorted({n for _, n in threads})
    copy_counts = sorted({n for (_, n), entry in copies.items() if pairs_per_second(entry)})
    out = ["## Thread scaling", "",
           "`collide_threads/<scene>/<n>`: auto ISA, `config.threads = n`; pairs per second and the speed-up over "
           "one thread (target: 1.85× or more at 2 threads). Counts above the machine's hardware threads are "
           "skipped."]
    if copy_counts:
        out[-1] += (" `collide_copies/<scene>/<n>`: n one-thread calls at once, each on a thread of its own with its "
                    "own context (nothing shared but the scene), their rates added: what n threads can reach on "
                    "this machine, whose busy cores may each run slower than one alone. Then the threads' rate "
                    "against it.")
    out.append("")

    def cell(entry, one):
        rate = pairs_per_second(entry)
        if entry is not None and entry.get("error_occurred"):
            return "skipped"
        return f"{format_rate(rate)} ({format_ratio(rate, one)})" if rate else "–"

    rows = []
    for scene in scenes_in_order(threads):
        one = pairs_per_second(threads.get((scene, 1)))
        row = [scene] + [cell(threads.get((scene, n)), one) for n in counts]
        row += [cell(copies.get((scene, n)), one) for n in copy_counts]
        row += [format_ratio(pairs_per_second(threads.get((scene, n))), pairs_per_second(copies.get((scene, n))))
                for n in copy_counts]
        rows.append(row)
    header = ["scene"] + [f"{n} thread{'s' if n > 1 else ''}" for n in counts]
    header += [f"{n} copies" for n in copy_counts] + [f"{n} threads / {n} copies" for n in copy_counts]
    out += [table(header, rows), ""]
    return out


def caller_cpu_section(placements):
    if not placements:
        return []
    out = ["## Caller placement", "",
           "`collide_caller_cpu/<scene>/cpu<k>/<n>`: auto ISA, `config.threads = n`, the calling thread pinned to "
           "CPU k. 2 threads / 1 for every placement of the caller (a worker on the caller's core gives about 1×; "
           "target: 1.7× or more on a 2-core machine).", ""]
    rows = []
    for key in sorted({key for key, _ in placements}):
        scene, cpu = key.split("/")
        one, two = (pairs_per_second(placements.get((key, n))) for n in (1, 2))
        rows.append([scene, cpu, format_rate(one), format_rate(two), format_ratio(two, one)])
    out += [table(["scene", "caller", "1 thread", "2 threads", "2 / 1"], rows), ""]
    return out


def size_section(sizes):
    if not sizes:
        return []
    out = ["## Pair count", "",
           "`collide_size/<scene>/<pairs>`: one thread, auto ISA, the scene made at each size. pairs/s should stay "
           "flat. Peak RSS is the process's (VmHWM, reset before each size); added is the peak over what the "
           "process held before the size's scene was made: scene, worst-case output stream and context.", ""]
    rows = []
    for scene, pairs in sorted(sizes, key=lambda key: (key[0], key[1])):
        entry = sizes[(scene, pairs)]
        if entry.get("error_occurred"):
            rows.append([scene, f"{pairs:,}", "failed: " + entry.get("error_message", ""), "", "", "", ""])
            continue
        smallest = min(n for s, n in sizes if s == scene)
        rate = pairs_per_second(entry)
        peak = entry.get("peak_rss_mb")
        rows.append([scene, f"{pairs:,}", format_rate(rate),
                     format_ratio(rate, pairs_per_second(sizes.get((scene, smallest)))),
                     format_mb(peak), format_mb(entry.get("added_rss_mb")),
                     f"{entry['added_bytes_per_pair']:.0f}" if "added_bytes_per_pair" in entry else "–"])
    out += [table(["scene", "pairs", "pairs/s", "vs smallest", "peak RSS (MiB)", "added (MiB)", "added bytes/pair"],
                  rows), ""]
    if any(entry.get("peak_rss_reset") == 0 for entry in sizes.values()):
        out += ["The peak could not be reset on this system: a size's peak may be an earlier benchmark's.", ""]
    return out


def context_numbers(context, key):
    """A context value written as "name=number name=number ..." (scene_pairs, hull_vertices)."""
    numbers = {}
    for word in context.get(key, "").split():
        name, _, number = word.partition("=")
        try:
            numbers[name] = float(number)
        except ValueError:
            pass
    return numbers


def microseconds_per_pair(entry):
    rate = pairs_per_second(entry)
    return 1e6 / rate if rate else None


def format_microseconds(value):
    return "–" if value is None else f"{value:.3g}" if value < 100 else f"{value:,.0f}"


def hull_size_section(context, sizes):
    if not sizes:
        return []
    vertices = context_numbers(context, "hull_vertices")
    out = ["## Hull size", "",
           "`collide_hull_size/<scene>/<impl>`: rocks of 8 to 256 points (the points on their shell that fall "
           "inside the hull are not vertices) and the Stanford bunny's hull, one thread, auto ISA, against ODE. "
           "Vertices: the mean over the scene's bodies. The largest hulls exceed the wide pass's limits "
           "(`kernel/src/rows.h`) and take the scalar path. manyfold / ode is the ratio of pairs per second "
           "(above 1: manyfold is faster); contacts are per pair, manyfold's then ODE's.", ""]
    rows = []
    for scene in scenes_in_order(sizes):
        manyfold_entry, ode_entry = sizes.get((scene, "manyfold_auto")), sizes.get((scene, "ode"))
        manyfold, ode = microseconds_per_pair(manyfold_entry), microseconds_per_pair(ode_entry)
        count = vertices.get(scene)
        contacts = " / ".join("–" if entry is None or "contacts" not in entry else f"{entry['contacts']:.2f}"
                              for entry in (manyfold_entry, ode_entry))
        rows.append([scene, "–" if count is None else f"{count:.1f}", format_microseconds(manyfold),
                     format_microseconds(ode), format_ratio(ode, manyfold), contacts])
    out += [table(["scene", "vertices", "manyfold µs/pair", "ode µs/pair", "manyfold / ode", "contacts"], rows), ""]
    return out


def save_figure(figure, path):
    import matplotlib.pyplot as plt
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scenes = scenes_in_order(results)
    impls = [impl for impl in MANYFOLD_IMPLS + PEER_IMPLS
             if any(pairs_per_second(results.get((s, impl))) for s in scenes)]
    width = 0.8 / max(len(impls), 1)
    figure, axes = plt.subplots(figsize=(max(10, 1.8 * len(scenes) + 2), 5))
    for k, impl in enumerate(impls):
        xs, ys = [], []
        for i, scene in enumerate(scenes):
            rate = pairs_per_second(results.get((scene, impl)))
            if rate:
                xs.append(i - 0.4 + (k + 0.5) * width)
                ys.append(rate)
        hatch = "//" if impl in PEER_IMPLS else None
        axes.bar(xs, ys, width, label=impl, hatch=hatch)
    axes.set_yscale("log")
    axes.set_xticks(range(len(scenes)), scenes)
    axes.set_ylabel("pairs per second")
    axes.set_title("manyfold and peers: pairs per second by scene (higher is better)")
    axes.legend(fontsize="small", bbox_to_anchor=(1.01, 1), loc="upper left")
    axes.grid(axis="y", which="both", alpha=0.3)
    save_figure(figure, path)


def plot_sizes(sizes, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import ScalarFormatter

    figure, axes = plt.subplots(figsize=(8, 5))
    memory = axes.twinx()
    for scene in scenes_in_order(sizes):
        points = sorted((pairs, pairs_per_second(entry), entry.get("peak_rss_mb"))
                        for (s, pairs), entry in sizes.items() if s == scene and pairs_per_second(entry))
        if not points:
            continue
        axes.plot([p for p, _, _ in points], [r for _, r, _ in points], "o-", label=f"{scene}: pairs/s")
        memory.plot([p for p, _, m in points if m], [m for _, _, m in points if m], "s--", color="grey",
                    label=f"{scene}: peak RSS")
    axes.set_xscale("log")
    axes.set_ylim(bottom=0)
    memory.set_yscale("log")
    memory.yaxis.set_major_formatter(ScalarFormatter())
    memory.yaxis.set_minor_formatter(ScalarFormatter())
    axes.set_xlabel("pairs per call")
    axes.set_ylabel("pairs per second (one thread)")
    memory.set_ylabel("peak resident memory (MiB)")
    axes.set_title("manyfold: throughput and memory against pair count")
    lines = axes.get_legend_handles_labels()
    more = memory.get_legend_handles_labels()
    axes.legend(lines[0] + more[0], lines[1] + more[1], fontsize="small", loc="lower left")
    axes.grid(which="both", alpha=0.3)
    save_figure(figure, path)


def plot_threads(threads, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter, ScalarFormatter

    figure, axes = plt.subplots(figsize=(8, 5))
    most, measured = 1, {1}
    for scene in scenes_in_order(threads):
        one = pairs_per_second(threads.get((scene, 1)))
        points = sorted((n, pairs_per_second(entry) / one) for (s, n), entry in threads.items()
                        if s == scene and one and pairs_per_second(entry))
        if points:
            axes.plot([n for n, _ in points], [x for _, x in points], "o-", label=scene)
            most = max(most, points[-1][0])
            measured |= {n for n, _ in points}
    axes.plot([1, most], [1, most], ":", color="grey", label="ideal")
    axes.set_xscale("log", base=2)
    axes.set_yscale("log", base=2)
    axes.set_xticks(sorted(measured))
    axes.set_yticks(sorted(measured))
    for axis in (axes.xaxis, axes.yaxis):
        axis.set_major_formatter(ScalarFormatter())
        axis.set_minor_formatter(NullFormatter())
    axes.set_xlabel("threads")
    axes.set_ylabel("speed-up over one thread")
    axes.set_title("manyfold: thread scaling (higher is better)")
    axes.legend(fontsize="small")
    axes.grid(which="both", alpha=0.3)
    save_figure(figure, path)


def plot_hull_sizes(context, sizes, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    vertices = context_numbers(context, "hull_vertices")
    figure, axes = plt.subplots(figsize=(8, 5))
    for impl, marker in (("manyfold_auto", "o-"), ("ode", "s--")):
        points = sorted((vertices[scene], microseconds_per_pair(sizes.get((scene, impl))), scene)
                        for scene in scenes_in_order(sizes)
                        if scene in vertices and microseconds_per_pair(sizes.get((scene, impl))))
        rocks = [point for point in points if point[2] != "hull_bunny"]
        line = axes.plot([v for v, _, _ in rocks], [t for _, t, _ in rocks], marker, label=impl)
        for v, t, scene in points:
            if scene == "hull_bunny":
                axes.plot([v], [t], "*", markersize=12, color=line[0].get_color())
                axes.annotate("bunny", (v, t), textcoords="offset points", xytext=(6, -4), fontsize="small")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("hull vertices (mean over the bodies)")
    axes.set_ylabel("microseconds per pair (one thread)")
    axes.set_title("cost per pair against hull size (lower is better)")
    axes.legend(fontsize="small")
    axes.grid(which="both", alpha=0.3)
    save_figure(figure, path)


def main():
    global CLOCK, STATISTIC
    args = parse_arguments()
    CLOCK, STATISTIC = args.clock, args.statistic
    os.makedirs(args.out, exist_ok=True)
    results_path = args.json or os.path.join(args.out, "results.json")
    status = 0 if args.json else run_suite(args, results_path)
    context, families = load_results(results_path)
    if not any(families.values()):
        sys.exit(f"no collide benchmarks in {results_path}")
    text = report(context, families)
    suffix = "" if CLOCK == "wall" else "_cpu"
    written = [f"report{suffix}.md"]
    with open(os.path.join(args.out, f"report{suffix}.md"), "w") as f:
        f.write(text + "\n")
    # The plots need matplotlib (python3-matplotlib); an interpreter without it still gets the
    # report and the JSON.
    try:
        import matplotlib  # noqa: F401
        plots = True
    except ImportError:
        plots = False
        print(f"no plots: {sys.executable} has no matplotlib (python3-matplotlib)", file=sys.stderr)
    if plots and families["collide"]:
        plot(families["collide"], os.path.join(args.out, f"pairs_per_second{suffix}.png"))
        written.append(f"pairs_per_second{suffix}.png")
    if plots and families["collide_size"]:
        plot_sizes(families["collide_size"], os.path.join(args.out, f"pairs_vs_size{suffix}.png"))
        written.append(f"pairs_vs_size{suffix}.png")
    if plots and families["collide_threads"] and CLOCK == "wall":
        plot_threads(families["collide_threads"], os.path.join(args.out, "thread_scaling.png"))
        written.append("thread_scaling.png")
    if plots and families["collide_hull_size"] and context_numbers(context, "hull_vertices"):
        plot_hull_sizes(context, families["collide_hull_size"], os.path.join(args.out, f"hull_size{suffix}.png"))
        written.append(f"hull_size{suffix}.png")
    print(text)
    print(f"\nwrote {', '.join(os.path.join(args.out, name) for name in written)}, {results_path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
