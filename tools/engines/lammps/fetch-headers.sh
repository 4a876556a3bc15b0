#!/usr/bin/env bash
# The LAMMPS headers a style needs, from the source package of the liblammps-dev installed.
#
# Debian's liblammps-dev ships 34 headers, and every one includes fmt/format.h, which it does not
# ship; a pair or fix style also needs math_extra.h, neigh_request.h, atom_vec.h and others. The
# matching source package has them all (the 34 shipped ones are byte-identical to it). A style's
# class layouts must match the library's exactly, so they come from that very version, never from
# another one or from a rewrite.
#
#   bash tools/engines/lammps/fetch-headers.sh DIR
#
# fills DIR/src with the source's src/*.h and src/fmt/ (a few MB) and writes DIR/version. It uses a
# private apt configuration with a deb-src entry, so the system's sources are left as they are. A
# DIR that already holds the installed version is left alone.
set -euo pipefail
dir=${1:?usage: fetch-headers.sh DIR}
version=$(dpkg-query -W -f='${source:Version}' liblammps-dev 2>/dev/null) || {
    echo "fetch-headers: liblammps-dev is not installed" >&2
    exit 1
}
if [ -f "$dir/version" ] && [ "$(cat "$dir/version")" = "$version" ] && [ -f "$dir/src/fmt/format.h" ]; then
    exit 0
fi
# The suite Debian's own sources name (bookworm on Debian 12).
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/parts" "$work/lists/partial" "$work/cache/archives/partial" "$work/download"
cat > "$work/parts/lammps-src.sources" <<SOURCES
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
apt_private=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$work/parts"
             -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o APT::Sandbox::User=root)
echo "fetch-headers: downloading the lammps $version source package for its headers"
apt-get "${apt_private[@]}" -qq update
(cd "$work/download" && apt-get "${apt_private[@]}" -qq source --download-only "lammps=$version" >/dev/null)
tarball=$(ls "$work"/download/lammps_*.orig.tar.* | head -n 1)
tar -xf "$tarball" -C "$work" --wildcards '*/src/*.h' '*/src/fmt/*'
rm -rf "$dir/src"
mkdir -p "$dir"
mv "$work"/lammps-*/src "$dir/src"
# The headers Debian ships must be these very files: otherwise the package is not the library's.
for shipped in /usr/include/lammps/*.h; do
    if ! cmp -s "$shipped" "$dir/src/$(basename "$shipped")"; then
        echo "fetch-headers: $shipped differs from the source package's copy" >&2
        exit 1
    fi
done
echo "$version" > "$dir/version"
echo "fetch-headers: headers of lammps $version in $dir/src"
