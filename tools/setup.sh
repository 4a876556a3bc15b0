#!/usr/bin/env bash
# Installs what manyfold needs from Debian's packages (when run as root and something is missing),
# then configures and builds it in build/. Used by tools/run.sh, tools/test.sh and CI.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/need-packages.sh setup gcc g++ meson ninja-build pkg-config libsimde-dev libqhull-dev libhwloc-dev \
    libbenchmark-dev libbullet-dev libode-dev libcjson-dev libcairo2-dev python3 python3-matplotlib \
    python3-dev python3-numpy python3-mesonpy python3-pytest python3-venv patchelf \
    openmpi-bin libopenmpi-dev lammps liblammps-dev xz-utils
# LAMMPS's headers that liblammps-dev leaves out come from the same version's source package.
bash tools/engines/lammps/fetch-headers.sh .deps/lammps

# The command line and the tests are required here (their packages are installed above): a missing
# one fails the setup instead of leaving them out.
if [ ! -f build/build.ninja ]; then
    meson setup build --buildtype=release -Dcli=enabled -Dtests=enabled -Dlammps=enabled -Dpython=enabled ${MF_MESON_ARGS:-}
fi
ninja -C build
