#!/usr/bin/env bash
# Quick start, part two: set everything up and pass the tests: the release build, then the whole
# suite again under AddressSanitizer + UndefinedBehaviorSanitizer with internal asserts on.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
meson test -C build --print-errorlogs --num-processes 2

if [ ! -f build-sanitize/build.ninja ]; then
    meson setup build-sanitize --buildtype=debug -Db_sanitize=address,undefined -Db_lundef=false \
        -Db_ndebug=false -Dbenchmarks=disabled -Dcli=enabled -Dtests=enabled ${MF_MESON_ARGS:-}
fi
ninja -C build-sanitize
# Sanitized code runs several times slower: the property tests check a tenth of the pairs there.
MF_TEST_SCALE=0.1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    LSAN_OPTIONS=suppressions="$PWD/tools/lsan.supp":print_suppressions=0 \
    meson test -C build-sanitize --print-errorlogs --num-processes 2 --timeout-multiplier 3
echo "all tests passed (release and sanitizer builds)"
