#!/usr/bin/env bash
# Builds as a packager would: manyfold configured, built and tested with default_library=shared and
# with default_library=static (tools/test.sh's build/ has the project default, both); each installed
# into a prefix of its own and used from there as a user would; then a parent project
# (tests/subproject/) that pulls manyfold in as a Meson subproject, shared and static. CI runs this
# after tools/test.sh.
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
    libhwloc-dev libcjson-dev libcairo2-dev python3 libudev-dev
# libudev-dev: hwloc's pkg-config file names -ludev for static links (Libs.private), and
# libhwloc-dev does not bring it.

# The installed prefix, used as the README's Install section says: the command line starts from it
# alone (its RPATH finds the library; no LD_LIBRARY_PATH) and reads the installed scenes, every
# installed pkg-config file resolves, and tests/install/app.c builds through pkg-config and runs:
# against the shared library, or with --static against the static-only install's archive (qhull
# then from its static archive, libqhullstatic_r.a, never the shared one).
check_install() {
    local kind=$1 root=$2 pkgconfig app
    env -u LD_LIBRARY_PATH "$root/bin/manyfold" info >/dev/null
    env -u LD_LIBRARY_PATH "$root/bin/manyfold" run "$root/share/manyfold/scenes/bunnies.json" >/dev/null
    for f in README.md LICENSE docs/README.md docs/contract.md docs/pile.png scenes/README.md scenes/meshes/bunny.obj; do
        [ -f "$root/share/manyfold/$f" ] || { echo "packaging: $root/share/manyfold/$f not installed" >&2; return 1; }
    done
    pkgconfig=$(dirname "$(find "$root" -name manyfold.pc)")
    export PKG_CONFIG_PATH=$pkgconfig
    for pc in "$pkgconfig"/*.pc; do
        pkg-config --cflags --libs --static "$(basename "$pc" .pc)" >/dev/null
    done
    app=$root/app-$kind
    if [ "$kind" = shared ]; then
        # shellcheck disable=SC2046
        ${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror tests/install/app.c -o "$app" \
            $(pkg-config --cflags --libs manyfold) -Wl,-rpath,"$(pkg-config --variable=libdir manyfold)"
        readelf -d "$app" | grep -q 'NEEDED.*libmanyfold' || { echo "packaging: $app not linked shared" >&2; return 1; }
    else
        # shellcheck disable=SC2046
        ${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror tests/install/app.c -o "$app" \
            $(pkg-config --cflags --static --libs manyfold)
        if readelf -d "$app" | grep -E 'NEEDED.*lib(manyfold|qhull)'; then
            echo "packaging: $app linked the libraries above shared, not from their archives" >&2
            return 1
        fi
    fi
    env -u LD_LIBRARY_PATH "$app"
    unset PKG_CONFIG_PATH
}

for kind in shared static; do
    build=$prefix-$kind
    # Installed inside the build directory, so a rerun replaces it; the prefix is set on build
    # directories from before it was (a no-op otherwise).
    root=$(realpath -m "$build")/install
    if [ ! -f "$build/build.ninja" ]; then
        # shellcheck disable=SC2086
        meson setup "$build" --buildtype=release -Ddefault_library=$kind -Dbenchmarks=disabled \
            -Dpeers=disabled -Dlammps=disabled -Dcli=enabled -Dtests=enabled --prefix="$root" ${MF_MESON_ARGS:-}
    else
        meson configure "$build" -Dprefix="$root"
    fi
    ninja -C "$build" -j "$jobs"
    MF_TEST_SCALE=${MF_TEST_SCALE:-0.1} meson test -C "$build" --print-errorlogs --num-processes "$jobs"
    echo "packaging: default_library=$kind builds and passes the tests"
    rm -rf "$root"
    meson install -C "$build" --no-rebuild --quiet
    check_install "$kind" "$root"
    echo "packaging: default_library=$kind installed in $root: bin/manyfold starts, app.c links and runs"
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
