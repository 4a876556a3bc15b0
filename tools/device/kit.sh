#!/usr/bin/env bash
# Packs what tools/device/measure.sh needs on a lent machine that has none of the project's
# packages (a bare image: no meson, no Google Benchmark, ODE or Bullet, and nothing to fetch them
# with) into .devkit/ (ignored), which a device call carries:
#   .devkit/build/bench/manyfold-bench, manyfold-ab   this checkout's build (build/, made first), as
#                                                     wrappers that put .devkit/lib on the library
#                                                     path for the programs alone (.bin beside them)
#   .devkit/build/kernel/libmanyfold.so.0             (the programs find it by their RPATH, $ORIGIN)
#   .devkit/build/tools/peak/instructions             the AVX2 and AVX-512 instructions' cycles (libc alone)
#   .devkit/baseline/libmanyfold.so.0                 BASELINE's library, for manyfold-ab
#   .devkit/variants/NAME.so                          this checkout's library built with more C
#                                                     flags (a tuning, say), for manyfold-ab too
#   .devkit/lib/                                      the other libraries they load, but glibc's and
#                                                     GCC's runtime (the machine's are as new or newer)
#
#   bash tools/device/kit.sh BASELINE [NAME=FLAGS ...]
#     BASELINE: a commit (the round's start, say). NAME=FLAGS: a variant of this checkout's library
#     built with FLAGS added to its C flags, e.g. tuned='-mtune=sapphirerapids'; two at most fit
#     measure.sh's time.
#
# Then one device call, with .devkit carried:
#   bash tools/device/measure.sh          (eight to ten minutes; results under $OUT)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { echo "usage: bash tools/device/kit.sh BASELINE [NAME=FLAGS ...] (BASELINE: the commit to compare this build with)" >&2; exit 2; }
baseline=$(git rev-parse --verify --short "$1^{commit}")
shift
# Two variants at most: measure.sh's steps, each with its limit, then come to 580 s of the device
# command's 600.
[ $# -le 2 ] || { echo "kit.sh: two variants at most (measure.sh's time), not $#" >&2; exit 2; }
names=" "
for variant in "$@"; do
    [[ $variant =~ ^[A-Za-z0-9_-]+=. ]] || { echo "kit.sh: a variant is NAME=FLAGS (NAME letters, digits, _ or -), not '$variant'" >&2; exit 2; }
    [[ $names != *" ${variant%%=*} "* ]] || { echo "kit.sh: two variants named ${variant%%=*}" >&2; exit 2; }
    names="$names${variant%%=*} "
done
kit=.devkit

[ -f build/build.ninja ] || bash tools/setup.sh
ninja -C build bench/manyfold-bench bench/manyfold-ab kernel/libmanyfold.so.0.1.0 tools/peak/instructions > /dev/null

rm -rf "$kit"
mkdir -p "$kit/build/bench" "$kit/build/kernel" "$kit/build/tools/peak" "$kit/baseline" "$kit/lib"
for program in manyfold-bench manyfold-ab; do
    cp "build/bench/$program" "$kit/build/bench/$program.bin"
    # The libraries on the path of the program alone: measure.sh's Python loads its own.
    cat > "$kit/build/bench/$program" <<'WRAPPER'
#!/bin/sh
here=$(dirname "$0")
LD_LIBRARY_PATH="$here/../../lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$0.bin" "$@"
WRAPPER
    chmod +x "$kit/build/bench/$program"
done
cp -L build/kernel/libmanyfold.so.0 "$kit/build/kernel/"
cp build/tools/peak/instructions "$kit/build/tools/peak/"

# The baseline's library, built from its own sources in a worktree of its own (meson setup takes
# the current directory as the source unless told), with build/'s build type.
buildtype=$(meson introspect build --buildoptions |
    python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "buildtype"))')
where=$(mktemp -d)
trap 'git worktree remove --force "$where/tree" 2> /dev/null || true; git worktree prune; rm -rf "$where"' EXIT
library() { # source-dir build-dir c-flags destination: the library alone, with build/'s build type
    meson setup "$2" "$1" --buildtype="$buildtype" -Dc_args="$3" -Dbenchmarks=disabled -Dtests=disabled \
        -Dcli=disabled -Dlammps=disabled -Dpython=disabled > /dev/null
    ninja -C "$2" kernel/libmanyfold.so.0.1.0 > /dev/null
    cp -L "$2/kernel/libmanyfold.so.0" "$4"
}
git worktree add -q --detach "$where/tree" "$baseline"
library "$where/tree" "$where/tree/build" "" "$kit/baseline/"
echo "$baseline" > "$kit/baseline/commit"

# The variants: this checkout (named as the source: see above), each in a build of its own.
for variant in "$@"; do
    name=${variant%%=*} flags=${variant#*=}
    mkdir -p "$kit/variants"
    library . "$where/variant-$name" "$flags" "$kit/variants/$name.so"
    echo "$flags" > "$kit/variants/$name.flags"
done
git rev-parse --short HEAD > "$kit/build/commit"

# The shared libraries the programs load, but glibc's and GCC's runtime.
ldd build/bench/manyfold-bench build/bench/manyfold-ab | awk '$3 ~ /^\// {print $3}' | sort -u |
    grep -v -E '/(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' | grep -v libmanyfold |
    while read -r library; do cp -L "$library" "$kit/lib/"; done

du -sh "$kit"
echo "carry .devkit and run: bash tools/device/measure.sh (baseline $baseline, this build $(cat $kit/build/commit))"
