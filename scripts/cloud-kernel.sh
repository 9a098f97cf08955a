#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch Debian's newest linux-image-*-cloud-amd64-unsigned (or the newest
# package whose name matches REGEX) once and unpack its kernel image and
# config under DIR (never into the host's /boot) for the QEMU boot tests
# and the kernel matrix; DIR/vmlinuz links to the image. The modules are
# left out: a busybox initramfs needs none (the serial console, the
# initramfs and devtmpfs are built into Debian's cloud and rt images).
#
#   scripts/cloud-kernel.sh DIR [REGEX]
#   e.g. scripts/cloud-kernel.sh build/deb-kernels/6.1-rt \
#	'^linux-image-6\.1\.0-.*-rt-amd64-unsigned$'
set -e -o pipefail
dir=${1:?usage: cloud-kernel.sh DIR [REGEX]}
regex=${2:-'^linux-image-.*-cloud-amd64-unsigned$'}
[ -e "$dir/vmlinuz" ] && exit 0
die() { echo "cloud-kernel: $*" >&2; exit 2; }

arch=$(dpkg --print-architecture 2>/dev/null) || die "no dpkg: not a Debian system"
[ "$arch" = amd64 ] || die "Debian's amd64 kernels need an amd64 host, not $arch"
newest() {
	apt-cache search --names-only "$regex" |
		awk '{ print $1 }' | sort -V | tail -n 1
}
pkg=$(newest)
if [ -z "$pkg" ] && [ "$(id -u)" = 0 ]; then
	apt-get update -qq >/dev/null 2>&1 || true
	pkg=$(newest)
fi
[ -n "$pkg" ] || die "no package matching $regex in apt's lists"

mkdir -p "$(dirname "$dir")"
tmp=$(mktemp -d "$dir.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "  FETCH   $pkg" >&2
(cd "$tmp" && apt-get download -q "$pkg") >"$tmp/apt.log" 2>&1 ||
	{ cat "$tmp/apt.log" >&2; die "apt-get download $pkg failed"; }
deb=$(ls "$tmp"/*.deb)
mkdir "$tmp/root"
dpkg-deb --fsys-tarfile "$deb" |
	tar -C "$tmp/root" -x --wildcards './boot/vmlinuz-*' './boot/config-*'
img=$(cd "$tmp/root" && ls boot/vmlinuz-*)
ln -s "$img" "$tmp/root/vmlinuz"
echo "$pkg $(dpkg-deb -f "$deb" Version)" >"$tmp/root/package"
rm -rf "$dir"
mv "$tmp/root" "$dir"
echo "  KERNEL  $dir/$img" >&2
