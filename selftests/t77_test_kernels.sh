#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every test kernel of `make kernels` boots in make check and gets the
# verdicts its patch's expect lines name. This test boots those judged on
# the wall clock, each against the healthy kernel booted in the same run:
# cpu2-dcache (2 vCPUs, the tree on ext2: dcache_scaling's scaling
# checks) for lookups-serialized, whose five *_efficiency checks FAIL,
# and cpu2-kernbench (2 vCPUs, a build with the host's compiler) for
# exec-pinned, whose kernbench_speedup FAILs, where the healthy kernel's
# are judged and pass (no SKIP: a machine too busy to judge, or a boot in
# which the injected kernel alone missed, boots both again, three times
# at most). t76 boots the kernels judged in instruction-counted guests.
# Four guests, alone: ~2 minutes.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2034 # t_cells boots these
small=$RP_BUILD/kernels
echo "TAP version 13"
echo "1..4"

# The wall-clock scenarios, each KERNEL against healthy booted in the same
# run: besides every cell meeting its expectations, healthy's CHECKS of
# PROG are judged (ok, not SKIP). A cell that could not judge them (a
# busy machine: a parallel control out of bounds) is no evidence either
# way: both kernels boot again, three times at most. So is a boot in
# which KERNEL alone missed: what costs lookups-serialized its scaling is
# the convoy its global semaphore makes of the two vCPUs, and a host that
# deschedules a vCPU thread at the wrong moments can break the convoy for
# a whole sample, which the best of a point's samples then keeps (1 boot
# in 9 quiet here, more beside host load, every check FAIL in the others).
# wall_pair SCENARIO KERNEL PROG CHECKS
wall_pair() {
	local s=$1 k=$2 prog=$3 checks=$4 try out judged again c hc
	hc=$tmp/$s/healthy/$s/checks
	for try in 1 2 3; do
		rm -rf "${tmp:?}/$s"
		out=$(t_cells "$s: $k" "$s" "$k")
		judged=1
		for c in $checks; do
			grep -qP "^$prog\t$c\tok\t" "$hc" 2>/dev/null || judged=0
		done
		again=""
		for c in $checks; do
			cat "$tmp/$s"/*/"$s"/checks 2>/dev/null |
				grep -qP "^$prog\t$c\tSKIP\t" && again="$c not judged (machine busy)"
		done
		if [ -z "$again" ] && grep -q "^MISS $k/$s:\$" "$tmp/$s.log" &&
		   ! grep -E '^(MISS|WARN|TIMEOUT|PANIC|NO-BOOT|ERROR) ' "$tmp/$s.log" |
			grep -qv "^MISS $k/"; then
			again="$k missed its expectations in this boot"
		fi
		[ -n "$again" ] || break
		[ "$try" = 3 ] || t_note "$s, run $try: $again; again"
	done
	echo "$out"
	T_N=$((T_N + $(grep -cE '^(not )?ok [0-9]+ ' <<<"$out")))
	if [ -f "$hc" ]; then
		t_note "healthy: $(for c in $checks; do grep -P "^$prog\t$c\t" "$hc"; done |
			cut -f2,3 | tr '\t\n' '= ')"
		t_check "$s: healthy's $(echo $checks | wc -w) $prog check(s) judged and ok" \
			test $judged = 1
	else
		t_skip "$s: healthy's $prog checks judged and ok" "no cell (see above)"
	fi
}

# cpu2-dcache: dcache_scaling's scaling checks against lookups-serialized.
wall_pair cpu2-dcache lookups-serialized dcache_scaling "stat_private_efficiency
stat_shared_efficiency negative_efficiency open_shared_efficiency
dotdot_symlink_efficiency"
# cpu2-kernbench: a build on two vCPUs, the host's compiler in the guest,
# against exec-pinned, whose builds run on one CPU.
wall_pair cpu2-kernbench exec-pinned kernbench kernbench_speedup
