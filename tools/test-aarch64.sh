#!/usr/bin/env bash
# The aarch64 build under qemu: cross-compiles manyfold with tools/cross/aarch64-linux-gnu.ini and
# runs the test suite there, NEON path included (tests/test_isa asserts it ran). CI runs
# this after tools/test.sh; it adds Debian's arm64 multiarch packages when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/need-packages.sh test-aarch64 gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user \
    libqhull-dev:arm64 libhwloc-dev:arm64

# -O2: Debian 12's aarch64-linux-gnu-gcc 12 hits an internal compiler error in the -O3 loop
# vectoriser on one of the tests (vect_transform_reduction). No worker threads: Debian 12's
# qemu-user 7.2 hangs inside glibc's pthread_create on this machine (a two-line program does), so
# this build runs every call on the calling thread; the x86-64 builds test the threads. No command
# line either: cJSON and cairo are not installed for arm64; nor the Python package and LAMMPS,
# whose headers and libraries are the build machine's.
if [ ! -f build-aarch64/build.ninja ]; then
    meson setup build-aarch64 --cross-file tools/cross/aarch64-linux-gnu.ini --buildtype=release -Doptimization=2 \
        -Dbenchmarks=disabled -Dpeers=disabled -Dhwloc=disabled -Dthreads=false -Dcli=disabled -Dtests=enabled \
        -Dpython=disabled -Dlammps=disabled ${MF_MESON_ARGS:-}
fi
ninja -C build-aarch64
# qemu runs the code some 10-50 times slower: the property tests check a small share of the pairs.
MF_TEST_SCALE=${MF_TEST_SCALE:-0.01} meson test -C build-aarch64 --print-errorlogs --num-processes 2 \
    --timeout-multiplier 10
echo "aarch64 tests passed under qemu"
