#!/usr/bin/env bash
# Installs the Debian packages named on the command line that are missing (as root; otherwise
# names them and fails). Packages with an ":arm64" suffix add that architecture first.
#
#   bash tools/need-packages.sh WHO PACKAGE...      (WHO prefixes the messages)
set -euo pipefail
who=$1
shift
missing=()
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "$who: missing packages: ${missing[*]} (run as root, or install them with apt-get)" >&2
    exit 1
fi
echo "$who: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if [[ " ${missing[*]}" == *:arm64* ]]; then dpkg --add-architecture arm64; fi
apt-get -o DPkg::Lock::Timeout=300 update -qq
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
