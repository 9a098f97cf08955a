#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the named Debian packages that are missing; nothing if all are there.
set -e
missing=()
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "apt-install: need root to install: ${missing[*]}" >&2
	exit 2
fi
echo "  APT     ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null ||
	{ echo "apt-install: apt-get update failed" >&2; exit 2; }
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
	{ echo "apt-install: could not install ${missing[*]}" >&2; exit 2; }
