#!/usr/bin/env bash
# Static checks of the library (kernel/): clang-format's layout (.clang-format) and cppcheck's
# warning, style, performance and portability checks, each file with its real flags from build/'s
# compile commands (every ISA's wide pass included). Fails on any finding. Run by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/need-packages.sh lint clang-format cppcheck
[ -f build/compile_commands.json ] || bash tools/setup.sh

sources=$(find kernel -name '*.[ch]' | sort)
# shellcheck disable=SC2086
clang-format --dry-run -Werror $sources
echo "lint: clang-format clean on kernel/ ($(echo "$sources" | wc -l) files)"

cppcheck --quiet --error-exitcode=1 --enable=warning,style,performance,portability --std=c11 --inline-suppr \
    --suppress=missingIncludeSystem --project=build/compile_commands.json --file-filter='*kernel/*'
echo "lint: cppcheck clean on kernel/"
