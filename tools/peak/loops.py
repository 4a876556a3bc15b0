#!/usr/bin/env python3
"""A kernel function's loops as a CPU model sees them: llvm-mca's cycles per iteration.

  loops.py LIBRARY FUNCTION [--cpu icelake-server --cpu znver3] [--skip START-END ...]
  loops.py LIBRARY FUNCTION --loop START-END [--skip START-END ...] [--print]

Where no machine of a vendor is at hand, its scheduling model stands in for it: llvm-mca (Debian's
llvm package) runs a loop's instructions through the model's ports, latencies and queues and says
how many cycles an iteration takes once the loop is in flight. LLVM 14's `icelake-server` has the
512-bit ports of Intel's server cores since then (p0 and p5; Sapphire Rapids and Emerald Rapids
keep them), `znver3` is Zen 3's, and there is no Zen 4 model. A model is not the machine: it
leaves out the front end and mispredictions, and it is wrong about some instructions
(`icelake-server` counts a zmm vblendmps as two uops, where uops.info measures one). What it is good
for is comparing two builds of one loop, on a vendor one cannot measure.

Without --loop, every loop of the function (each backward jump and what lies between it and its
target) is listed with its cycles per iteration on each model and its block throughput, the bound
that the ports alone set. Outer loops take in their inner ones as straight code, so their figures
mean little; an inner loop's are what to read. A backward jump is not always a loop: the compiler
also jumps back into code that two paths share, such as a function's end. --print shows the
instructions modelled, so that one can tell. --skip leaves out an address range inside the loop (a
block that a forward branch jumps over and that seldom runs). Addresses are objdump's, in
hexadecimal.
"""
import argparse
import re
import shutil
import subprocess
import sys
import tempfile


def address_range(text):
    start, _, end = text.partition("-")
    return int(start, 16), int(end, 16)


def function_instructions(library, function):
    """(address, instruction text) of `function` in `library`, without objdump's symbol notes."""
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", library], capture_output=True, text=True,
                             check=True).stdout
    instructions, inside = [], False
    for line in listing.splitlines():
        header = re.match(r"[0-9a-f]+ <(.+)>:$", line)
        if header:
            inside = header.group(1) == function
            continue
        row = re.match(r"\s*([0-9a-f]+):\s+(.*)", line)
        if inside and row:
            instructions.append((int(row.group(1), 16), row.group(2).split("#")[0].split("<")[0].strip()))
    return instructions


def backward_jumps(instructions):
    """(target, jump address) of every jump back: the loops."""
    loops = []
    for address, text in instructions:
        jump = re.match(r"j\w+\s+([0-9a-f]+)$", text)
        if jump and int(jump.group(1), 16) < address:
            loops.append((int(jump.group(1), 16), address))
    return loops


def loop_body(instructions, start, end, skips):
    """The loop's instructions less its jumps and calls (llvm-mca models straight code)."""
    return [text for address, text in instructions
            if start <= address <= end and not any(low <= address < high for low, high in skips)
            and not text.startswith(("j", "call"))]


def model(body, cpu):
    """llvm-mca's cycles per iteration and block throughput of `body` on `cpu`."""
    iterations = 200
    with tempfile.NamedTemporaryFile("w", suffix=".s") as source:
        source.write("\n".join(body) + "\n")
        source.flush()
        report = subprocess.run(["llvm-mca", f"-mcpu={cpu}", f"-iterations={iterations}", source.name],
                                capture_output=True, text=True).stdout
    cycles = re.search(r"Total Cycles:\s+(\d+)", report)
    bound = re.search(r"Block RThroughput:\s+([\d.]+)", report)
    if not cycles or not bound:
        return None
    return int(cycles.group(1)) / iterations, float(bound.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library")
    parser.add_argument("function")
    parser.add_argument("--cpu", action="append", help="an llvm-mca -mcpu model (default: icelake-server, znver3)")
    parser.add_argument("--loop", type=address_range, help="START-END: this loop alone")
    parser.add_argument("--skip", type=address_range, action="append", default=[], help="START-END left out")
    parser.add_argument("--print", action="store_true", help="show the instructions modelled")
    args = parser.parse_args()
    cpus = args.cpu or ["icelake-server", "znver3"]
    if shutil.which("llvm-mca") is None or shutil.which("objdump") is None:
        sys.exit("loops.py: needs llvm-mca (Debian: llvm) and objdump (binutils)")
    instructions = function_instructions(args.library, args.function)
    if not instructions:
        sys.exit(f"loops.py: no function {args.function} in {args.library}")
    loops = [args.loop] if args.loop else backward_jumps(instructions)
    for start, end in loops:
        body = loop_body(instructions, start, end, args.skip)
        if len(body) < 4:
            continue
        figures = []
        for cpu in cpus:
            modelled = model(body, cpu)
            figures.append(f"{cpu} " + ("(refused)" if modelled is None else
                                        f"{modelled[0]:.1f} cycles, ports {modelled[1]:.1f}"))
        print(f"{start:x}-{end:x}  {len(body):4d} instructions  " + "; ".join(figures))
        if args.print:
            print("\n".join("    " + text for text in body))


if __name__ == "__main__":
    main()
