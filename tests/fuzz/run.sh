#!/usr/bin/env bash
# Fuzzes every harness for SECONDS each (default 60) and fails on any crash, leak, sanitizer report
# or violated invariant.
#
#   bash tests/fuzz/run.sh [SECONDS]
#
# Builds build-fuzz/ (clang, -Dfuzz=true, ASan + UBSan, libFuzzer coverage in the library and the
# CLI's loader) on first use, then runs the harnesses one after another. Each keeps a working
# corpus in build-fuzz/fuzz-runs/<harness>/corpus (seeded from tests/fuzz/corpus/<harness> and the
# saved regressions) and writes crashing inputs to build-fuzz/fuzz-runs/<harness>/artifacts/<time>. To
# keep a crash as a regression test: minimise it (the line printed on failure shows how), copy it to
# tests/fuzz/regressions/<harness>/, and `meson test --suite fuzz` replays it from then on.
#
# Environment: MF_FUZZ_BUILD (build directory, default build-fuzz), MF_FUZZ_ONLY (one harness),
# MF_FUZZ_ARGS (more libFuzzer options, e.g. "-jobs=2 -workers=2").
set -euo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${MF_FUZZ_BUILD:-$root/build-fuzz}
here=$root/tests/fuzz

# clang with its runtimes (libFuzzer, the sanitizers); Debian 12 names them after clang 14.
bash "$root/tools/need-packages.sh" fuzz clang libclang-rt-14-dev
if [ ! -f "$build/build.ninja" ]; then
    # -fsanitize=fuzzer-no-link puts libFuzzer's coverage hooks into every C file (the kernel, the
    # CLI's loader); the harnesses themselves add -fsanitize=fuzzer. UBSan findings abort so that
    # libFuzzer keeps the input. The command line is required: fuzz_scene is built on its loader.
    CC=clang CXX=clang++ meson setup "$build" "$root" -Dfuzz=true --buildtype=debugoptimized \
        -Db_sanitize=address,undefined -Db_lundef=false -Db_ndebug=false \
        -Dbenchmarks=disabled -Dpeers=disabled -Dtests=enabled -Dcli=enabled \
        -Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer" \
        -Dcpp_args="-fno-sanitize-recover=all"
fi
harnesses=$(ninja -C "$build" -t targets all | sed -n 's|^tests/fuzz/fuzz_\([a-z]*\): .*|\1|p' | sort -u)
if [ -n "${MF_FUZZ_ONLY:-}" ]; then harnesses=$MF_FUZZ_ONLY; fi
targets=()
for h in $harnesses; do targets+=("tests/fuzz/fuzz_$h"); done
ninja -C "$build" "${targets[@]}"

declare -A max_len=([hull]=8192 [collide]=1024 [scene]=8192)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

failed=0
summary=()
for h in $harnesses; do
    work=$build/fuzz-runs/$h
    artifacts=$work/artifacts/$(date +%Y%m%d-%H%M%S) # this run's crashes only
    mkdir -p "$work/corpus" "$artifacts"
    inputs=("$work/corpus")
    for dir in "$here/corpus/$h" "$here/regressions/$h"; do [ -d "$dir" ] && inputs+=("$dir"); done
    options=(-max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1
             -max_len="${max_len[$h]:-4096}" -artifact_prefix="$artifacts/")
    [ -f "$here/$h.dict" ] && options+=(-dict="$here/$h.dict")
    echo "== fuzz_$h for ${seconds}s (log: $work/log)"
    status=0
    # shellcheck disable=SC2086
    "$build/tests/fuzz/fuzz_$h" "${options[@]}" ${MF_FUZZ_ARGS:-} "${inputs[@]}" >"$work/log" 2>&1 || status=$?
    # The final stats: runs from libFuzzer's summary, coverage from its last status line.
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log" | tail -n 1)
    last=$(grep -E '^#[0-9]+.*cov: ' "$work/log" | tail -n 1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corpus=$(sed -n 's/.* corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p' <<<"$last")
    result=ok
    if [ "$status" -ne 0 ] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|invariant violated' "$work/log"; then
        result=FAILED
        failed=1
        echo "fuzz_$h FAILED (exit $status); the end of its log:"
        tail -n 40 "$work/log"
        for crash in "$artifacts"/*; do
            [ -f "$crash" ] || continue
            echo "  input: $crash"
            echo "  minimise: $build/tests/fuzz/fuzz_$h -minimize_crash=1 -runs=100000 -exact_artifact_path=$crash.min $crash"
            echo "  keep:     cp $crash.min $here/regressions/$h/"
        done
    fi
    summary+=("$(printf '%-8s %-6s runs %-10s cov %-6s ft %-7s corpus %-14s exec/s %s' \
        "$h" "$result" "${runs:-?}" "${cov:-?}" "${ft:-?}" "${corpus:-?}" "${speed:-?}")")
done

echo "== fuzz summary (${seconds}s each)"
printf '%s\n' "${summary[@]}"
exit $failed
