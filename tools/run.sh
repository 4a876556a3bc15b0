#!/usr/bin/env bash
# Quick start, part one: set everything up and run the main job on the built-in default scene.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
./build/tools/manyfold run "$@"
