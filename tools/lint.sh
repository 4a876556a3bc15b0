#!/usr/bin/env bash
# Static checks: clang-format's layout (.clang-format) on the C and C++ sources of the library
# (kernel/), the tests (tests/) and the tools (tools/); cppcheck's warning, style, performance and
# portability checks on the library, each file with its real flags from build/'s compile commands
# (every ISA's wide pass included). Fails on any finding. Run by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/need-packages.sh lint clang-format cppcheck
[ -f build/compile_commands.json ] || bash tools/setup.sh

sources=$(find kernel tests tools -name '*.[ch]' -o -name '*.cpp' -o -name '*.hpp' | sort)
# shellcheck disable=SC2086
clang-format --dry-run -Werror $sources
echo "lint: clang-format clean on kernel/, tests/ and tools/ ($(echo "$sources" | wc -l) files)"

cppcheck --quiet --error-exitcode=1 --enable=warning,style,performance,portability --std=c11 --inline-suppr \
    --suppress=missingIncludeSystem --project=build/compile_commands.json --file-filter='*kernel/*'
echo "lint: cppcheck clean on kernel/"
