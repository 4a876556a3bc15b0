#!/usr/bin/env bash
# Packs what tools/device/measure.sh needs on a lent machine that has none of the project's
# packages (a bare image: no meson, no Google Benchmark, ODE or Bullet, and nothing to fetch them
# with) into .devkit/, which git ignores and a device call carries:
#   .devkit/build/bench/manyfold-bench, manyfold-ab   this checkout's build (build/, made first)
#   .devkit/build/kernel/libmanyfold.so.0             (the programs find it by their RPATH, $ORIGIN)
#   .devkit/baseline/libmanyfold.so.0                 BASELINE's library, for manyfold-ab
#   .devkit/lib/                                      the other libraries they load, but glibc's and
#                                                     GCC's runtime (its Python needs its own, newer)
#
#   bash tools/device/kit.sh [BASELINE]     (BASELINE: a commit, default HEAD~1)
#
# Then one device call, with .devkit carried:
#   bash tools/device/measure.sh            (about eight minutes; results under $OUT)
set -euo pipefail
cd "$(dirname "$0")/../.."
baseline=${1:-HEAD~1}
kit=.devkit

grep -qx '/.devkit/' .git/info/exclude 2>/dev/null || echo '/.devkit/' >> .git/info/exclude
[ -f build/build.ninja ] || bash tools/setup.sh
ninja -C build bench/manyfold-bench bench/manyfold-ab kernel/libmanyfold.so.0.1.0 > /dev/null

rm -rf "$kit"
mkdir -p "$kit/build/bench" "$kit/build/kernel" "$kit/baseline" "$kit/lib"
cp build/bench/manyfold-bench build/bench/manyfold-ab "$kit/build/bench/"
cp -L build/kernel/libmanyfold.so.0 "$kit/build/kernel/"

# The baseline's library, built in a worktree of its own (release, the library alone).
where=$(mktemp -d)
git worktree add -q --detach "$where/tree" "$baseline"
trap 'git worktree remove --force "$where/tree"; rm -rf "$where"' EXIT
meson setup "$where/tree/build" "$where/tree" --buildtype=release -Dbenchmarks=disabled -Dtests=disabled -Dcli=disabled \
    -Dlammps=disabled -Dpython=disabled > /dev/null
ninja -C "$where/tree/build" kernel/libmanyfold.so.0.1.0 > /dev/null
cp -L "$where/tree/build/kernel/libmanyfold.so.0" "$kit/baseline/"
git rev-parse --short "$baseline" > "$kit/baseline/commit"
git rev-parse --short HEAD > "$kit/build/commit"

# The shared libraries the programs load, but glibc's and GCC's runtime: the machine's are as new or
# newer, and its Python (tools/bench.py, with these on LD_LIBRARY_PATH) loads C++ modules built
# against its own libstdc++.
ldd build/bench/manyfold-bench build/bench/manyfold-ab | awk '$3 ~ /^\// {print $3}' | sort -u |
    grep -v -E '/(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' | grep -v libmanyfold |
    while read -r library; do cp -L "$library" "$kit/lib/"; done

du -sh "$kit"
echo "carry .devkit and run: bash tools/device/measure.sh (baseline $(cat $kit/baseline/commit), this build $(cat $kit/build/commit))"
