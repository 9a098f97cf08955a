#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab.sh (make ab), the A/B comparison of two kernels in instruction-counted
# QEMU guests. Bad input is a one-line error (exit 2), a missing emulator a
# skip (exit 4). The verdict on synthetic guest results (--judge): the
# same numbers give 0.0% and exit 0, lookups 2% slower exit 1 naming them,
# an A that does not repeat exit 3. Then real guests of Debian's cloud
# kernel ($RP_CLOUD_KERNEL): init_on_alloc=1 zeroes the 4 KiB name buffer
# every path-based system call allocates, a cost of path lookups alone:
# exit 1 naming the lookup metrics, the fstat() controls unchanged, and
# two boots of A compared as A and B give exit 0. With the small kernels of
# `make kernels` in $RP_BUILD/kernels (else SKIP: 8 minutes to build),
# healthy against lookup-slower (~2% per lookup) gives exit 1 too, with
# or without the cloud kernel.
# 3 guests, two at a time (+2 with the small kernels): ~2-4 minutes.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ab=$RP_STATIC/ab.sh
gen=$(cd "$(dirname "$0")/../tests" && pwd)/synth_results.awk
kernel=${RP_CLOUD_KERNEL:-}
echo "TAP version 13"
echo "1..16"
unset KERNEL QEMU RCU_PERF_QUICK

usage_error() { t_usage_error "$1" "ab.sh: " "$ab" "${@:2}"; }
usage_error "no kernel" --quick
usage_error "unknown option" --bogus
usage_error "unreadable kernel image" --kernel-a /nonexistent/bzImage
usage_error "unknown limit" --kernel-a "$ab" --set bogus_change=1
usage_error "--judge of a directory without results" --judge "$tmp"

# No emulator: exit 4 with the reason.
t_run "$tmp/noqemu.log" "$ab" --kernel-a "$ab" --qemu /nonexistent/qemu --no-repeat
t_check "no QEMU: skip (exit 4)" test "$T_RC" = 4

# ---- the verdict, on synthetic guest results -----------------------
# side DIR PCT: a guest's results, the lookups PCT% slower than 1e5 ops/s
# (exact, 5 samples 0.01% apart), the controls and the boot as always.
side() {
	local d=$1 f
	f=$(awk -v p="$2" 'BEGIN { print 1 - p / 100 }')
	mkdir -p "$d"
	echo ok >"$d/status"
	awk -f "$gen" -v test=dcache_scaling -v better=higher -v unit=ops/s \
		-v metrics="stat_private.n1.ops stat_shared.n1.ops negative.n1.ops" \
		-v samples="$(awk -v f="$f" 'BEGIN { for (i = 0; i < 5; i++) printf "%.2f ", f * (1e5 + 10 * i) }')" \
		>"$d/lookups.json"
	awk -f "$gen" -v test=dcache_scaling -v better=higher -v unit=ops/s \
		-v metrics="parallel.n1.ops serial.n1.ops" \
		-v samples="7e5 7.0007e5 7.0014e5 7.0021e5 7.0028e5" >"$d/dcache_scaling.json"
	awk -f "$gen" -v test=boot_marker -v unit=s -v samples=1.5 >"$d/boot_marker.json"
}
side "$tmp/same/A-1" 0
side "$tmp/same/A-again" 0
side "$tmp/same/B-1" 0
t_run "$tmp/same.log" "$ab" --judge "$tmp/same"
t_check "synthetic A = B: exit 0, every change +0.00%" \
	eval '[ "$T_RC" = 0 ] && [ "$(grep -c " +0.00% .* no significant change$" "$tmp/same.log")" = 10 ]'
side "$tmp/slow/A-1" 0
side "$tmp/slow/A-again" 0
side "$tmp/slow/B-1" 2
t_run "$tmp/slow.log" "$ab" --judge "$tmp/slow"
t_check "synthetic lookups 2% slower: exit 1 naming them, controls unchanged" \
	eval '[ "$T_RC" = 1 ] &&
	grep -q "^ab: B regressed: .*stat_private.n1.ops (-2.00%)" "$tmp/slow.log" &&
	[ "$(sed -n "/^A\/B: /,\$p" "$tmp/slow.log" |
	     grep -c "^dcache_scaling.\(parallel\|serial\).* no significant change$")" = 2 ]'
side "$tmp/unsteady/A-1" 0
side "$tmp/unsteady/A-again" 2
side "$tmp/unsteady/B-1" 2
t_run "$tmp/unsteady.log" "$ab" --judge "$tmp/unsteady"
t_check "synthetic A that does not repeat: exit 3, not a verdict" \
	eval '[ "$T_RC" = 3 ] && grep -q "A does not repeat" "$tmp/unsteady.log"'

# ---- real guests ----------------------------------------------------
# cloud: Debian's cloud kernel, init_on_alloc=0 against =1 (6 checks)
cloud() {
	t_note "kernel: $(readlink -f "$kernel")"
	t0=$SECONDS
	t_run "$tmp/cloud.log" nice -n 10 "$ab" --kernel-a "$kernel" \
		--append-a init_on_alloc=0 --append-b init_on_alloc=1 --quick \
		--outdir "$tmp/cloud"
	t_note "$((SECONDS - t0)) s"
	t_check "live: 3 guests ran and were compared" \
		eval '[ "$T_RC" = 1 ] || [ "$T_RC" = 0 ] || [ "$T_RC" = 3 ]'
	t_check "live: init_on_alloc=1 is a regression (exit 1)" test "$T_RC" = 1
	# row WORKLOAD: its row of the A/B table
	row() { sed -n '/^A\/B: /,$p' "$tmp/cloud.log" | grep "^dcache_scaling\.$1\.n1\.ops "; }
	named=1
	for w in stat_private stat_shared open_shared dotdot_symlink; do
		row "$w" | grep -q ' regressed$' || named=0
		grep -q "^ab: B regressed: .*dcache_scaling\.$w\." "$tmp/cloud.log" || named=0
	done
	t_check "live: the lookup metrics are named regressed" test $named = 1
	t_check "live: the controls (fstat(), no path walk) are unchanged" \
		eval 'row parallel | grep -q " no significant change$" &&
		      row serial | grep -q " no significant change$"'
	t_check "live: the repeatability of A is measured and printed" \
		grep -q '^repeatability: largest change between two boots of A: ' "$tmp/cloud.log"
	# A = B: the two boots of A, one as A and one as B.
	mkdir "$tmp/same-live"
	ln -s "$tmp/cloud/A-1" "$tmp/same-live/A-1"
	ln -s "$tmp/cloud/A-again" "$tmp/same-live/B-1"
	t_run "$tmp/same-live.log" "$ab" --judge "$tmp/same-live"
	t_check "live: two boots of one kernel as A and B: exit 0" test "$T_RC" = 0
}
live=$(t_qemu_missing "$kernel")
if [ -n "$live" ]; then
	for t in "guests ran" "regression" "names lookups" "control" \
		 "repeatability" "A = B"; do
		t_skip "live: $t" "$live"
	done
else
	cloud
fi

# The small kernels of `make kernels` need no cloud kernel, only QEMU.
small=$RP_BUILD/kernels
live=$(t_qemu_missing "$small/healthy/bzImage")
if [ ! -f "$small/healthy/bzImage" ] || [ ! -f "$small/lookup-slower/bzImage" ]; then
	t_skip "live: small kernels, ~2% lookup cost caught" \
		"no $small/{healthy,lookup-slower} (make kernels: ~8 minutes on a quiet machine)"
	exit 0
elif [ -n "$live" ]; then
	t_skip "live: small kernels, ~2% lookup cost caught" "$live"
	exit 0
fi
t0=$SECONDS
t_run "$tmp/small.log" nice -n 10 "$ab" --kernel-a "$small/healthy" \
	--kernel-b "$small/lookup-slower" --quick --no-repeat
t_note "$((SECONDS - t0)) s"
t_check "live: small kernels, ~2% lookup cost caught (exit 1)" \
	eval '[ "$T_RC" = 1 ] && grep -q "^ab: B regressed: .*stat_private" "$tmp/small.log"'
