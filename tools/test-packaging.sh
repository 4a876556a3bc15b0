#!/usr/bin/env bash
# Builds as a packager would: manyfold configured, built and tested with default_library=shared and
# with default_library=static (tools/test.sh's build/ has the project default, both); then a parent
# project (tests/subproject/) that pulls manyfold in as a Meson subproject, shared and static. CI
# runs this after tools/test.sh.
#
# Release builds without the benchmarks or sanitizers. They differ from build/ only in how the
# library is linked, so the property and ISA tests check a tenth of their pairs (MF_TEST_SCALE).
#
# Environment: MF_BUILD_PREFIX (build directories <prefix>-shared and <prefix>-static, default
# build), MF_JOBS (ninja jobs and test processes, default 2), MF_MESON_ARGS (more setup options).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${MF_BUILD_PREFIX:-build}
jobs=${MF_JOBS:-2}

bash tools/need-packages.sh packaging gcc g++ meson ninja-build pkg-config libsimde-dev libqhull-dev \
    libhwloc-dev libcjson-dev libcairo2-dev python3

for kind in shared static; do
    build=$prefix-$kind
    if [ ! -f "$build/build.ninja" ]; then
        # shellcheck disable=SC2086
        meson setup "$build" --buildtype=release -Ddefault_library=$kind -Dbenchmarks=disabled \
            -Dpeers=disabled -Dlammps=disabled -Dcli=enabled -Dtests=enabled ${MF_MESON_ARGS:-}
    fi
    ninja -C "$build" -j "$jobs"
    MF_TEST_SCALE=${MF_TEST_SCALE:-0.1} meson test -C "$build" --print-errorlogs --num-processes "$jobs"
    echo "packaging: default_library=$kind builds and passes the tests"
done

# The parent is copied to a scratch directory whose subprojects/manyfold links to this checkout (a
# link inside the repository would point at its own root); --force-fallback-for keeps an installed
# manyfold from standing in for the subproject.
parent=$(mktemp -d)
trap 'rm -rf "$parent"' EXIT
cp -r tests/subproject/. "$parent/"
mkdir "$parent/subprojects"
ln -s "$PWD" "$parent/subprojects/manyfold"
for kind in shared static; do
    build=$parent/build-$kind
    # shellcheck disable=SC2086
    meson setup "$build" "$parent" -Ddefault_library=$kind --force-fallback-for=manyfold ${MF_MESON_ARGS:-}
    ninja -C "$build" -j "$jobs"
    meson test -C "$build" --print-errorlogs
    linked=static
    if readelf -d "$build/parent" | grep -q 'NEEDED.*libmanyfold'; then linked=shared; fi
    if [ "$linked" != "$kind" ]; then
        echo "packaging: the parent with default_library=$kind linked manyfold $linked" >&2
        exit 1
    fi
    echo "packaging: a parent with default_library=$kind builds manyfold as a subproject and links it $kind"
done
