#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build rcu_perf's small test kernels from a kernel tree: `make tinyconfig`
# plus the fragment CONFIG, once as is (OUT/healthy) and once per injected
# regression PATCHDIR/NNNN-name.patch (OUT/name). Each OUT/<kernel>/ gets
# bzImage and expect: the patch header's "expect: PROGRAM CHECK-GLOB
# VERDICT" lines (empty for healthy), which the matrix compares with the
# verdicts the kernel gets, and for a variant "reference: healthy": the
# kernel of the same tree and config without the patch, whose results the
# matrix's "baseline: reference" scenarios judge it against.
#
# All kernels share one build directory, OUT/obj, so a variant recompiles
# only what its patch touches. They are built from OUT/src, a copy of TREE
# made of hard links (rsync --link-dest: seconds), never from TREE itself:
# make check builds them while other tests read TREE. A patch is applied to
# OUT/src for its build (patch writes a new file, so TREE's stays as it
# was) and reverted afterwards; a copy left patched by a killed run is
# mended by the next run's sync.
# A kernel is rebuilt only when the tree (its files' sizes and dates), the
# fragment, the compiler or its patch changed (OUT/<kernel>/stamp), so an
# OUT kept outside a clone serves the next clone of the same tree. Runs
# sharing an OUT wait for each other (OUT/.lock). JOBS=N sets make's
# parallelism (default: nproc).
#
#   scripts/kernels.sh TREE OUT CONFIG PATCHDIR
set -e -o pipefail
die() { echo "kernels: $*" >&2; exit 2; }
[ $# -eq 4 ] || die "usage: kernels.sh TREE OUT CONFIG PATCHDIR"
tree=$(realpath "$1") || die "no kernel tree $1"
out=$(realpath -m "$2")
frag=$(realpath "$3") || die "no config fragment $3"
pdir=$(realpath "$4") || die "no patch directory $4"
obj=$out/obj
src=$out/src
applied=$obj/.rcu_perf-applied
touched=$obj/.rcu_perf-touched
jobs=${JOBS:-$(nproc)}
{ [ -f "$tree/Makefile" ] && [ -d "$tree/kernel/rcu" ]; } || die "$tree is not a kernel tree"

kmake() {
	nice -n 10 make -s -C "$src" O="$obj" ARCH=x86_64 "$@"
}

# The name a patch's kernel gets: 0001-needs-cpu-throttle.patch -> needs-cpu-throttle
kname() {
	local n
	n=$(basename "$1" .patch)
	echo "${n#[0-9][0-9][0-9][0-9]-}"
}

# patch_files PATCH: the files PATCH changes
patch_files() {
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$1"
}

unapply() {
	[ -f "$applied" ] || return 0
	local p
	p=$(cat "$applied")
	echo "  REVERT  $(basename "$p")" >&2
	patch -s -R -p1 -d "$src" <"$p" || die "cannot revert $p from $src"
	rm -f "$applied"
}
trap unapply EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$obj"
exec 9>"$out/.lock"
flock 9
# The sources: TREE as hard links. What a killed run left patched differs
# from TREE and is linked again; the .git of a developer's tree is not
# needed. Across file systems rsync copies instead.
rm -f "$applied"
rsync -a --delete --link-dest="$tree" --exclude=/.git "$tree/" "$src/" ||
	die "cannot make $src from $tree"
# The files of the last patch built (OUT/obj/.rcu_perf-touched) were
# compiled patched, and the sync has just linked them back with TREE's
# date, older than their objects: make would keep the patched objects in
# the next kernel it rebuilds (healthy with exec-pinned's sched_exec()
# after a fragment change). A copy of its own has today's date, so what
# includes it is compiled again.
if [ -f "$touched" ]; then
	sort -u "$touched" | while read -r f; do
		[ -f "$tree/$f" ] && cp --remove-destination "$tree/$f" "$src/$f"
	done
fi

# ---- configuration ---------------------------------------------------
# A .config from tinyconfig + the fragment; every fragment line must
# survive Kconfig (a dropped line means an unmet dependency).
config_key=$( { make -s -C "$src" kernelversion; cat "$frag"; gcc --version | head -n 1; } |
	sha256sum | cut -c1-16)
# The tree as make sees it: every file's size and date. A fresh unpack of
# the same tarball has the same; the suite staged into tools/testing does
# not go into a kernel, nor does the Makefile's mark of the unpack (dated
# by it: with it every clone's first make check built all kernels again).
tree_key=$(cd "$tree" && find . \( -path ./.git -o -path ./tools/testing -o \
	-path ./.unpacked \) -prune -o -type f -printf '%P %s %T@\n' |
	LC_ALL=C sort | sha256sum | cut -c1-16)
if [ "$(cat "$obj/.rcu_perf-config" 2>/dev/null)" != "$config_key" ]; then
	echo "  CONFIG  tinyconfig + $(basename "$frag")" >&2
	rm -f "$obj/.rcu_perf-config"
	kmake tinyconfig >/dev/null
	# allnoconfig with tinyconfig + fragment as KCONFIG_ALLCONFIG: options
	# the fragment makes visible (ACPI's drivers, cpufreq, input, ...)
	# stay off instead of taking their defaults.
	(cd "$src" && ARCH=x86_64 nice -n 10 scripts/kconfig/merge_config.sh -n \
		-O "$obj" "$obj/.config" "$frag") >/dev/null
	dropped=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=n) sym=${line%%=*}
			grep -qx "$sym=.*" "$obj/.config" || continue ;;
		CONFIG_*) grep -qxF "$line" "$obj/.config" && continue ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *}
			grep -qx "$sym=.*" "$obj/.config" || continue ;;
		*) continue ;;
		esac
		echo "kernels: Kconfig dropped: $line" >&2
		dropped=1
	done <"$frag"
	[ $dropped = 0 ] || die "the fragment does not hold in $tree (see above)"
	echo "$config_key" >"$obj/.rcu_perf-config"
fi

# ---- kernels -------------------------------------------------------
# expect PATCH: a kernel's expect file (none for healthy, the reference)
expect() {
	[ -n "$1" ] || return 0
	grep '^expect: ' "$1" ||
		die "$1 has no \"expect: PROGRAM CHECK-GLOB VERDICT\" line"
	echo "reference: healthy"
}

# build NAME [PATCH]
build() {
	local name=$1 p=$2 dir=$out/$1 key t0
	key=$( { echo "$config_key $tree_key"; [ -z "$p" ] || cat "$p"; } | sha256sum | cut -c1-16)
	if [ -f "$dir/bzImage" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$key" ]; then
		# written each time: it may change without the kernel
		expect "$p" >"$dir/expect"
		echo "  UPTODATE $name" >&2
		return 0
	fi
	t0=$SECONDS
	rm -rf "$dir"
	if [ -n "$p" ]; then
		grep -q '^expect: ' "$p" ||
			die "$p has no \"expect: PROGRAM CHECK-GLOB VERDICT\" line"
		patch -s -p1 -f --dry-run -d "$src" <"$p" >/dev/null ||
			die "$(basename "$p") does not apply to $tree"
		echo "$p" >"$applied"
		patch_files "$p" >>"$touched"
		echo "  PATCH   $(basename "$p")" >&2
		patch -s -p1 -d "$src" <"$p"
	fi
	echo "  BUILD   $name (make -j$jobs bzImage)" >&2
	kmake -j"$jobs" bzImage || die "$name: the kernel build failed"
	# everything is compiled as it is now: only this patch's files differ
	if [ -n "$p" ]; then patch_files "$p" >"$touched"; else rm -f "$touched"; fi
	unapply
	mkdir -p "$dir.tmp"
	cp "$obj/arch/x86/boot/bzImage" "$dir.tmp/bzImage"
	expect "$p" >"$dir.tmp/expect"
	echo "$key" >"$dir.tmp/stamp"
	mv "$dir.tmp" "$dir"
	echo "  KERNEL  $dir/bzImage ($((SECONDS - t0)) s)" >&2
}

build healthy
names=" healthy "
for p in "$pdir"/[0-9][0-9][0-9][0-9]-*.patch; do
	[ -e "$p" ] || continue
	build "$(kname "$p")" "$p"
	names+="$(kname "$p") "
done

# Kernels of patches since removed must not be booted as if they existed.
for d in "$out"/*/stamp; do
	[ -e "$d" ] || continue
	d=$(dirname "$d")
	[[ $names == *" $(basename "$d") "* ]] && continue
	echo "  REMOVE  $d (no patch)" >&2
	rm -rf "$d"
done
