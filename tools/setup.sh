#!/usr/bin/env bash
# Installs what manyfold needs from Debian's packages (when run as root and something is missing),
# then configures and builds it in build/. Used by tools/run.sh, tools/test.sh and CI.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(gcc g++ meson ninja-build pkg-config libsimde-dev libqhull-dev libhwloc-dev libbenchmark-dev
          libbullet-dev libode-dev libcjson-dev libcairo2-dev python3 python3-matplotlib)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: missing packages: ${missing[*]} (run as root, or install them with apt-get)" >&2
        exit 1
    fi
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=300 update -qq
    apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -f build/build.ninja ]; then
    meson setup build --buildtype=release ${MF_MESON_ARGS:-}
fi
ninja -C build
