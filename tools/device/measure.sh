#!/usr/bin/env bash
# The checks of issue #34 on a lent machine, from the kit tools/device/kit.sh packed (.devkit,
# carried): its CPU, the issue's ratios (tools/bench.py, repetitions interleaved, as that guest's
# rates drift) and the kit's build against its baseline in one process (manyfold-ab), one thread
# and two. About eight minutes; each step has a time limit, so that what ran comes back.
# Writes under $OUT (the device tool's folder; ./device-results elsewhere): cpu.txt, bench/
# (results.json, report.md, the plots), ab.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
kit=.devkit
out=${OUT:-device-results}
mkdir -p "$out/bench"
[ -x "$kit/build/bench/manyfold-bench" ] || { echo "no $kit: run tools/device/kit.sh here first, then carry .devkit"; exit 1; }
export LD_LIBRARY_PATH="$PWD/$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

{ lscpu; echo; nproc; } > "$out/cpu.txt" 2>&1
grep -E 'Model name|Vendor ID|CPU family|^Model:|MHz|Flags' "$out/cpu.txt" | cut -c1-160
echo "kit: this build $(cat $kit/build/commit), baseline $(cat $kit/baseline/commit)"

# The issue's scenes against the best peer (Bullet's hull clipping left out: a minute an iteration),
# the large hulls of the size family, and two threads against one.
scenes='box_box|box_resting|crowd|nearmiss|hull16|hull48|pile_step'
filter="^collide/($scenes)/(manyfold_auto|manyfold_avx2|manyfold_auto_threads|ode|bullet_boxbox)/"
filter="$filter|^collide_hull_size/(hull128|hull256|hull_bunny)/(manyfold_auto|manyfold_avx2|ode)/"
filter="$filter|^collide_threads/(box_box|box_resting|crowd|hull16)/[12]/"
timeout 330 python3 tools/bench.py --build "$kit/build" --no-compile --out "$out/bench" --interleave \
    --repetitions 5 --min-time 0.1 --filter "$filter" > "$out/bench/log.txt" 2>&1
echo "bench.py: exit $?"
sed -n '/^## Ratios/,/^## /p' "$out/bench/report.md" 2>/dev/null | head -20

# The change, in one process: new over old speed, medians of the rounds.
ab=("$kit/build/bench/manyfold-ab" "$kit/baseline/libmanyfold.so.0" "$kit/build/kernel/libmanyfold.so.0")
{
    timeout 90 "${ab[@]}" --rounds 12 box_resting box_box crowd hull16 hull48 pile_step nearmiss
    timeout 60 "${ab[@]}" --rounds 10 --isa avx2 box_resting hull16
    timeout 60 "${ab[@]}" --rounds 10 --threads 2 box_resting box_box hull16
} > "$out/ab.txt" 2>&1
grep 'new/old' "$out/ab.txt"
