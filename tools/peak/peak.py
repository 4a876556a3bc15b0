#!/usr/bin/env python3
"""The fraction of the floating-point peak that the wide stages reach, without hardware counters.

  peak.py --build BUILD [--cpu 1] [--pairs 2000] [--flops-per-cycle 32]

Work: callgrind (--dump-instr=yes) counts every executed instruction of one AVX2 mf_collide call
(tools/peak/collide_once); each vector arithmetic instruction (add, sub, mul, div, sqrt, min, max;
FMA counted twice) times its lanes is its flops. Valgrind has no AVX-512, so the AVX-512 figures
use the AVX2 count: the lanes do the same work per pair, 16 at a time instead of 8.
Time: perf's cpu-clock samples of the benchmark (bench/manyfold-bench, one thread, the given
core) give each stage's share of the kernel's samples, times the benchmark's time per pair.
Peak: flops per cycle (default 32: Zen 4 has two 256-bit FMA pipes, 2 x 8 lanes x 2 flops, and
runs AVX-512 through the same pipes) times the clock measured by tools/peak/clock.
The kernel is built with -ffp-contract=off (every ISA agrees with the scalar path bit for bit),
so it issues no FMAs: its multiplies and adds share Zen 4's two FMA and two add pipes, whose
mixed peak is the same 32 flops per cycle.
"""
import argparse
import collections
import os
import re
import subprocess
import tempfile

# Stages by the functions that do them (static helpers included, compiler suffixes dropped).
STAGES = {
    "hull16": [("face queries (wide_pass.c)", ["face_query", "mf_wide_axes_{isa}"]),
               ("edge query (edge_lanes.c)", ["a_in_lanes", "b_in_lanes", "mf_edge_lanes_{isa}",
                                              "mf_edge_gaps_{isa}", "mf_edges_within_{isa}"])],
    "box_box": [("box pass (box_pass.c)", ["mf_box_pairs_{isa}", "clip_faces"])],
}
FLOPS = {"add": 1, "sub": 1, "mul": 1, "div": 1, "sqrt": 1, "min": 1, "max": 1}


def base_name(symbol):
    return symbol.split(".")[0]


def instruction_flops(mnemonic, operands):
    """Flops of one packed single-precision arithmetic instruction, 0 for anything else."""
    m = re.fullmatch(r"v?(f?n?m?)(add|sub|mul|div|sqrt|min|max|madd\d*|msub\d*)(ps|ss)", mnemonic)
    if m is None:
        return 0
    operation = m.group(2)
    per_lane = 2 if operation.startswith(("madd", "msub")) else FLOPS.get(operation, 0)
    lanes = 1 if m.group(3) == "ss" else 16 if "zmm" in operands else 8 if "ymm" in operands else 4
    return per_lane * lanes


def callgrind_flops(build, scene, pairs):
    """Flops per pair of each function in one AVX2 call, by callgrind's instruction counts."""
    library = os.path.join(build, "kernel", "libmanyfold.so")
    with tempfile.TemporaryDirectory() as directory:
        out = os.path.join(directory, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=yes", "--callgrind-out-file=" + out,
                        os.path.join(build, "tools", "peak", "collide_once"), scene, str(pairs), "avx2"],
                       check=True, capture_output=True)
        executed = collections.Counter()  # (function, address) -> times
        names, function, address, after_call = {}, None, 0, False
        for line in open(out):
            m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
            if m:
                if m.group(3):
                    names[m.group(2)] = m.group(3).strip()
                if m.group(1) == "fn":
                    function = names.get(m.group(2))
                continue
            if line.startswith("calls="):
                after_call = True  # the next cost line is the callee's, inclusive
                continue
            m = re.match(r"(0x[0-9a-f]+|[+-]\d+|\*)\s+\S+\s+(\d+)", line)
            if not m:
                continue
            step = m.group(1)
            address = int(step, 16) if step.startswith("0x") else address + (int(step) if step != "*" else 0)
            if after_call:
                after_call = False
                continue
            executed[(function, address)] += int(m.group(2))
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", library], check=True, capture_output=True,
                             text=True).stdout
    instructions = {}
    for line in listing.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)", line)
        if m:
            instructions[int(m.group(1), 16)] = (m.group(2), m.group(3))
    flops, fmas = collections.Counter(), collections.Counter()
    for (function, address), times in executed.items():
        if function is None:
            continue
        mnemonic, operands = instructions.get(address, ("", ""))
        flops[base_name(function)] += times * instruction_flops(mnemonic, operands)
        fmas[base_name(function)] += times if "madd" in mnemonic or "msub" in mnemonic else 0
    return {f: n / pairs for f, n in flops.items()}, sum(fmas.values())


def sampled_time(build, scene, isa, cpu):
    """ns per pair in each function: its share of the kernel's perf samples times ns per pair; None
    where the benchmark ran no pairs (an ISA this CPU or build lacks: the benchmark says why)."""
    with tempfile.TemporaryDirectory() as directory:
        data = os.path.join(directory, "perf.data")
        run = subprocess.run(["taskset", "-c", str(cpu), "perf", "record", "-q", "-e", "cpu-clock", "-o", data, "--",
                              os.path.join(build, "bench", "manyfold-bench"),
                              "--benchmark_filter=^collide/%s/manyfold_%s/" % (scene, isa),
                              "--benchmark_min_time=2"], check=True, capture_output=True, text=True)
        rate = re.search(r"items_per_second=([\d.]+)([kMG]?)/s", run.stdout)
        if rate is None:
            return None, run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "no output"
        per_second = float(rate.group(1)) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[rate.group(2)]
        report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--sort", "dso,symbol"],
                                check=True, capture_output=True, text=True).stdout
    shares, kernel = collections.Counter(), 0.0
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[\.\]\s+(\S+)", line)
        if m and "libmanyfold" in m.group(2):
            kernel += float(m.group(1))
            shares[base_name(m.group(3))] += float(m.group(1))
    ns = 1e9 / per_second
    return {f: ns * s / kernel for f, s in shares.items()}, ns


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--cpu", type=int, default=1)
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--flops-per-cycle", type=float, default=32.0)
    args = parser.parse_args()
    clock = subprocess.run(["taskset", "-c", str(args.cpu), os.path.join(args.build, "tools", "peak", "clock")],
                           check=True, capture_output=True, text=True).stdout
    ghz = float(clock.split()[0])
    peak = args.flops_per_cycle * ghz
    print("clock %.2f GHz, peak %.0f flops/cycle = %.1f GFLOP/s single precision\n" % (ghz, args.flops_per_cycle,
                                                                                     peak))
    print("| scene | stage | flops/pair | ISA | ns/pair | GFLOP/s | of peak |")
    print("|---|---|---|---|---|---|---|")
    for scene, stages in STAGES.items():
        flops, fmas = callgrind_flops(args.build, scene, args.pairs)
        for isa in ["avx2", "avx512"]:
            times, total = sampled_time(args.build, scene, isa, args.cpu)
            if times is None:
                print("| %s | (skipped: %s) | | %s | | | |" % (scene, " ".join(total.split()[1:]), isa))
                continue
            for stage, functions in stages:
                names = [f.format(isa=isa) for f in functions]
                work = sum(flops.get(f.format(isa="avx2"), 0.0) for f in functions)
                ns = sum(times.get(f, 0.0) for f in names)
                rate = work / ns if ns > 0 else 0.0
                print("| %s | %s | %.0f | %s | %.1f of %.1f | %.1f | %.0f%% |" % (scene, stage, work, isa, ns, total,
                                                                              rate, 100.0 * rate / peak))
        print("| %s | FMA instructions executed | %d | | | | |" % (scene, fmas))


if __name__ == "__main__":
    main()
