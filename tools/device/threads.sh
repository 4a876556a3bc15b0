#!/usr/bin/env bash
# Two threads against one, and against two one-thread copies, for each library of the kit
# tools/device/kit.sh packed (.devkit, carried): this build, the baseline and the variants, taken in
# turn for some rounds, as a shared host's speed drifts over minutes. Each run is manyfold-bench's
# collide_threads and collide_copies families (box_box, box_resting, crowd, hull16) on that library
# (LD_LIBRARY_PATH over the programs' RUNPATH), the fastest of its repetitions as tools/bench.py
# reads them. One run also lists the CPUs its threads were seen on (every 20 ms, from /proc), to
# show whether the caller wanders (looking costs that run some speed on a machine of two cores).
#   bash tools/device/threads.sh [ROUNDS] [taskset CPU-LIST]
#     ROUNDS: 2 unless told (a run takes about 20 s); with taskset, each library runs once more per
#     round bound to those CPUs (as an MPI rank is by its launcher).
# Writes under $OUT (the device tool's folder; ./device-results elsewhere): summary.txt, runs.tar.
set -uo pipefail
cd "$(dirname "$0")/../.."
kit=.devkit
out=${OUT:-device-results}
rounds=${1:-2}
bound=${3:-}
[ "${2:-taskset}" = taskset ] || { echo "usage: bash tools/device/threads.sh [ROUNDS] [taskset CPU-LIST]" >&2; exit 2; }
[ -x "$kit/build/bench/manyfold-bench.bin" ] || { echo "no $kit: run tools/device/kit.sh here first, then carry .devkit"; exit 1; }
mkdir -p "$out/runs"

# Each library as libmanyfold.so.0 in a folder of its own, for LD_LIBRARY_PATH.
libraries=$(mktemp -d)
trap 'rm -rf "$libraries"' EXIT
add_library() { # name file
    mkdir -p "$libraries/$1"
    ln -s "$(realpath "$2")" "$libraries/$1/libmanyfold.so.0"
}
add_library build "$kit/build/kernel/libmanyfold.so.0"
add_library baseline "$kit/baseline/libmanyfold.so.0"
for variant in "$kit"/variants/*.so; do
    [ -f "$variant" ] && add_library "$(basename "$variant" .so)" "$variant"
done

run() { # tag library [command prefix ...]
    local tag=$1 library=$2
    shift 2
    LD_LIBRARY_PATH="$libraries/$library:$kit/lib" "$@" "$kit/build/bench/manyfold-bench.bin" \
        --benchmark_filter='^collide_(threads|copies)/(box_box|box_resting|crowd|hull16)/[12]/' \
        --benchmark_min_time=0.1 --benchmark_repetitions=9 --benchmark_enable_random_interleaving=true \
        --benchmark_out="$out/runs/$tag.json" --benchmark_out_format=json > /dev/null 2> "$out/runs/$tag.log" &
    local pid=$! started=$SECONDS
    if [ "$tag" = build.1 ]; then
        echo "main $pid" > "$out/runs/$tag.cpus"
        while kill -0 $pid 2> /dev/null; do
            for task in /proc/$pid/task/*; do
                echo "${task##*/} $(cut -d' ' -f39 "$task/stat" 2> /dev/null)"
            done
            sleep 0.02
        done >> "$out/runs/$tag.cpus" 2> /dev/null
    fi
    wait $pid
    echo "$tag: exit $? in $((SECONDS - started)) s"
}
for round in $(seq "$rounds"); do
    for library in $(ls "$libraries"); do
        run "$library.$round" "$library"
        [ -z "$bound" ] || run "$library-bound.$round" "$library" taskset -c "$bound"
    done
done
python3 tools/device/threads_summary.py "$out/runs" | tee "$out/summary.txt"
tar -C "$out" -cf "$out/runs.tar" runs && rm -rf "$out/runs"
