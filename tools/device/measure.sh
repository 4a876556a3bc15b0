#!/usr/bin/env bash
# The checks of issue #34 on a lent machine, from the kit tools/device/kit.sh packed (.devkit,
# carried): its CPU and the cycles of the AVX2 and AVX-512 instructions the kernels lean on
# (tools/peak/instructions), the issue's ratios (tools/bench.py: repetitions interleaved, the
# fastest of each, as such a guest's rates drift) and the kit's build against its baseline in one
# process (manyfold-ab), one thread and two, and the kit's variants against the build (kit.sh). About
# eight minutes, at most 580 s with two variants: each step has a time limit, so that what ran
# comes back.
# Writes under $OUT (the device tool's folder; ./device-results elsewhere): cpu.txt, scenes/ and
# threads/ (each a results.json and report.md of tools/bench.py), logs.txt (their logs' ends),
# ab.txt: seven files, within the eight the device tool brings back.
set -uo pipefail
cd "$(dirname "$0")/../.."
kit=.devkit
out=${OUT:-device-results}
mkdir -p "$out/scenes" "$out/threads"
: > "$out/logs.txt"
[ -x "$kit/build/bench/manyfold-bench" ] || { echo "no $kit: run tools/device/kit.sh here first, then carry .devkit"; exit 1; }

{ lscpu; echo; nproc; } > "$out/cpu.txt" 2>&1
grep -E 'Model name|Vendor ID|CPU family|^Model:|MHz' "$out/cpu.txt"
{ echo; timeout 15 "$kit/build/tools/peak/instructions" 2; } >> "$out/cpu.txt" 2>&1
echo "kit: this build $(cat $kit/build/commit), baseline $(cat $kit/baseline/commit)"

# The issue's scenes against the best peer (Bullet's hull clipping left out: a minute an
# iteration) and the large hulls of the size family; then two threads against one. Two runs, so
# that a run cut short by its limit leaves the other's results.
scenes='box_box|box_resting|crowd|nearmiss|hull16|hull48|pile_step'
filter="^collide/($scenes)/(manyfold_auto|manyfold_avx2|ode|bullet_boxbox)/"
filter="$filter|^collide_hull_size/(hull128|hull256|hull_bunny)/(manyfold_auto|ode)/"
run_bench() { # out-folder time-limit filter
    timeout "$2" python3 tools/bench.py --build "$kit/build" --no-compile --out "$1" --filter "$3" \
        > "$1.log" 2>&1
    echo "bench.py ($1): exit $?"
    # The device tool brings back eight files: the plots stay behind, the logs go in one file.
    rm -f "$1"/*.png
    { echo "== $1"; tail -20 "$1.log"; } >> "$out/logs.txt"
    rm -f "$1.log"
}
run_bench "$out/scenes" 220 "$filter"
run_bench "$out/threads" 60 '^collide_(threads|copies)/(box_box|box_resting|crowd|hull16)/[12]/'
# The auto ISA and which build of it runs (on Intel, the hull stages tuned for Intel's cores).
grep -m1 -o 'auto ISA = .*, [0-9?]* CPUs' "$out/scenes/report.md" 2>/dev/null
sed -n '/^## Ratios/,/^## /p' "$out/scenes/report.md" 2>/dev/null | grep '^| [a-z]'
grep -A6 'manyfold / ode' "$out/scenes/report.md" 2>/dev/null | grep '^| hull'
sed -n '/^## Thread scaling/,/^## /p' "$out/threads/report.md" 2>/dev/null | grep '^| [a-z]'

# The change, in one process: new over old speed, medians of the rounds.
new="$kit/build/kernel/libmanyfold.so.0"
ab=("$kit/build/bench/manyfold-ab" "$kit/baseline/libmanyfold.so.0" "$new")
{
    timeout 90 "${ab[@]}" --rounds 12 box_resting box_box crowd hull16 hull48 pile_step nearmiss
    timeout 60 "${ab[@]}" --rounds 10 --isa avx2 box_resting hull16
    timeout 60 "${ab[@]}" --rounds 10 --threads 2 box_resting box_box hull16
    # The kit's variants, each against this build.
    for variant in "$kit"/variants/*.so; do
        [ -f "$variant" ] || continue
        echo "variant $(basename "$variant" .so) ($(cat "${variant%.so}.flags")) against this build:"
        timeout 40 "${ab[0]}" "$new" "$variant" --rounds 10 hull16 hull48 nearmiss pile_step box_resting box_box
    done
} > "$out/ab.txt" 2>&1
grep -E 'new/old|^variant' "$out/ab.txt"
