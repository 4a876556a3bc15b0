"""Reads tools/device/threads.sh's runs (a folder of manyfold-bench JSON files, TAG.json): per run,
each scene's two threads against one and two one-thread copies against one, from the fastest
repetition of each benchmark (as tools/bench.py reads them); then, from TAG.cpus, how often each
of the busiest threads was seen to change CPU."""
import collections
import glob
import json
import os
import sys

SCENES = ("box_box", "box_resting", "crowd", "hull16")


def fastest_rates(path):
    """{(family, scene, threads): pairs per second of the fastest repetition}."""
    with open(path) as f:
        benchmarks = json.load(f).get("benchmarks", [])
    best = {}
    for entry in benchmarks:
        if entry.get("run_type") == "aggregate" or "items_per_second" not in entry:
            continue
        key = tuple(entry["name"].split("/")[:3])
        best[key] = max(best.get(key, 0.0), entry["items_per_second"])
    return best


def scaling_line(tag, best):
    cells = []
    for scene in SCENES:
        one = best.get(("collide_threads", scene, "1"))
        two = best.get(("collide_threads", scene, "2"))
        copies = best.get(("collide_copies", scene, "2"))
        if one and two and copies:
            cells.append(f"{scene} {two / one:.2f}× (copies {copies / one:.2f}×, one thread {one / 1e6:.2f}M)")
    return f"{tag:24s} " + ("; ".join(cells) if cells else "no complete scene")


def placement_lines(path):
    """The threads seen most often, with their CPU changes and CPUs: does the caller wander?"""
    main, seen = None, collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) == 2 and words[0] == "main":
                main = words[1]
            elif len(words) == 2:
                seen[words[0]].append(words[1])
    lines = []
    for thread, cpus in sorted(seen.items(), key=lambda item: -len(item[1]))[:6]:
        changes = sum(1 for a, b in zip(cpus, cpus[1:]) if a != b)
        role = " (the caller)" if thread == main else ""
        common = ", ".join(f"{cpu}: {n}" for cpu, n in collections.Counter(cpus).most_common(5))
        lines.append(f"  thread {thread}{role}: {len(cpus)} looks, {changes} changes of CPU; CPUs seen {common}")
    return lines


def main():
    folder = sys.argv[1]
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        tag = os.path.basename(path)[: -len(".json")]
        try:
            print(scaling_line(tag, fastest_rates(path)))
        except (OSError, ValueError) as error:
            print(f"{tag:24s} unreadable: {error}")
    for path in sorted(glob.glob(os.path.join(folder, "*.cpus"))):
        print(f"where {os.path.basename(path)[: -len('.cpus')]}'s threads ran:")
        print("\n".join(placement_lines(path)))


if __name__ == "__main__":
    main()
