"""Reads tools/device/threads.sh's runs (a folder of manyfold-bench JSON files, TAG.json): per run,
tools/bench.py's thread scaling table (its reading of the results: the fastest repetition of
each benchmark), then, from TAG.cpus, how often each of the busiest threads was seen to change
CPU."""
import collections
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import bench  # noqa: E402  (tools/bench.py)


def scaling_rows(path):
    """The rows of bench.py's thread scaling table for one run's results, header first."""
    _, families = bench.load_results(path)
    section = bench.threads_section(families["collide_threads"], families["collide_copies"])
    return [line for line in section if line.startswith("|")]


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
        print(os.path.basename(path)[: -len(".json")])
        try:
            rows = scaling_rows(path)
        except (OSError, ValueError, KeyError) as error:
            rows = [f"unreadable: {error}"]
        print("\n".join(rows or ["no thread scaling results"]))
    for path in sorted(glob.glob(os.path.join(folder, "*.cpus"))):
        print(f"where {os.path.basename(path)[: -len('.cpus')]}'s threads ran:")
        print("\n".join(placement_lines(path)))


if __name__ == "__main__":
    main()
