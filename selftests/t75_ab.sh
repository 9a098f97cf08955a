#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab.sh (make ab), the A/B comparison of two kernels in instruction-counted
# QEMU guests. Bad input is a one-line error (exit 2), a missing emulator a
# skip (exit 4). The verdict on synthetic guest results (--judge): the
# same numbers give 0.0% and exit 0, lookups 2% slower exit 1 naming them,
# an A that does not repeat exit 3; grace periods of the 2-vCPU guests a
# jiffy later exit 1 naming them, a slow tail the median misses exit 1 on
# the mean. Then real guests of Debian's cloud
# kernel ($RP_CLOUD_KERNEL): init_on_alloc=1 zeroes the 4 KiB name buffer
# every path-based system call allocates, a cost of path lookups alone:
# exit 1 naming the lookup metrics, the fstat() controls unchanged, and
# two boots of A compared as A and B give exit 0. 3 guests, two at a
# time: ~1 minute. make ab on the small kernels of `make kernels`
# (lookup-slower, gp-end-late) judges t76's guests of them.
# untimed: its guests' time is their instruction count, whatever the host
# does, so it runs beside the tests of tests/ once the kernel is fetched.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ab=$RP_STATIC/ab.sh
gen=$(cd "$(dirname "$0")/../tests" && pwd)/synth_results.awk
kernel=${RP_CLOUD_KERNEL:-}
echo "TAP version 13"
echo "1..19"
unset KERNEL QEMU RCU_PERF_QUICK

usage_error() { t_usage_error 2 "$1" "ab.sh: " "$ab" "${@:2}"; }
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
# gp DIR LATE TAIL: a GP guest's results: idle GPs of 16 ms (+LATE ms),
# every fifth one TAIL ms more, busy ones 40 ms, expedited ones 17 us.
gp() {
	local d=$1
	mkdir -p "$d"
	echo ok >"$d/status"
	lat() { awk -v base="$1" -v tail="${2:-0}" -v n="${3:-50}" 'BEGIN {
		for (i = 0; i < n; i++) printf "%.4f ", base + 0.001 * (i % 3) + (i % 5 == 4 ? tail : 0) }'; }
	awk -f "$gen" -v test=gp_throttle -v metrics="membarrier.idle.latency tracer.idle.latency" \
		-v samples="$(lat $((16 + $2)) "$3")" >"$d/gp_throttle.json"
	awk -f "$gen" -v test=gp_throttle \
		-v metrics="membarrier.all_busy.latency membarrier.one_busy.latency" \
		-v samples="$(lat 40)" >"$d/gp_busy.json"
	awk -f "$gen" -v test=gp_expedited -v metrics=membarrier.normal.latency \
		-v samples="$(lat $((16 + $2)) 0 100)" >"$d/gp_expedited.json"
	awk -f "$gen" -v test=gp_expedited -v metrics=membarrier.expedited.latency \
		-v samples="$(lat 0.017 0 100)" >"$d/gp_exp.json"
}
side "$tmp/same/A-1" 0
side "$tmp/same/A-again" 0
side "$tmp/same/B-1" 0
t_run "$tmp/same.log" "$ab" --judge "$tmp/same"
t_check "synthetic A = B: exit 0, every change +0.00%" \
	eval '[ "$T_RC" = 0 ] && [ "$(grep -c " +0.00% .* no significant change$" "$tmp/same.log")" = 10 ]'
gp "$tmp/same/A-1-gp" 0 0
gp "$tmp/same/A-again-gp" 0 0
gp "$tmp/same/B-1-gp" 0 0
t_run "$tmp/same-gp.log" "$ab" --judge "$tmp/same"
t_check "synthetic A = B with GP guests: exit 0, GP rows of median, mean and p90" \
	eval '[ "$T_RC" = 0 ] &&
	[ "$(sed -n "/^A\/B: /,\$p" "$tmp/same-gp.log" | grep -c "^gp_.* [+-]0.00% .* no significant change$")" = 16 ] &&
	grep -q "^gp_throttle.membarrier.idle.latency\[p90\] " "$tmp/same-gp.log"'
cp -r "$tmp/same" "$tmp/late"
gp "$tmp/late/B-1-gp" 8 0
t_run "$tmp/late.log" "$ab" --judge "$tmp/late"
t_check "synthetic GPs a jiffy (8 ms) later: exit 1 naming idle, not busy or expedited" \
	eval '[ "$T_RC" = 1 ] &&
	grep -q "^ab: B regressed: .*gp_throttle.membarrier.idle.latency (+50.00%)" "$tmp/late.log" &&
	grep -q "^ab: B regressed: .*gp_expedited.membarrier.normal.latency (+50.00%)" "$tmp/late.log" &&
	! grep -q "^ab: B regressed: .*\(busy\|expedited.latency\)" "$tmp/late.log"'
cp -r "$tmp/same" "$tmp/tail"
gp "$tmp/tail/B-1-gp" 0 48
t_run "$tmp/tail.log" "$ab" --judge "$tmp/tail"
t_check "synthetic slow tail, median unchanged: exit 1 on the mean and p90" \
	eval '[ "$T_RC" = 1 ] &&
	grep -q "^gp_throttle.membarrier.idle.latency .* +0.00% .* no significant change$" "$tmp/tail.log" &&
	grep -q "^ab: B regressed: .*gp_throttle.membarrier.idle.latency\[mean\]" "$tmp/tail.log" &&
	grep -q "^ab: B regressed: .*gp_throttle.membarrier.idle.latency\[p90\]" "$tmp/tail.log"'
cp -r "$tmp/same" "$tmp/gp-unsteady"
gp "$tmp/gp-unsteady/A-again-gp" 8 0
t_run "$tmp/gp-unsteady.log" "$ab" --judge "$tmp/gp-unsteady"
t_check "synthetic GP guests of A that do not repeat: exit 3" \
	eval '[ "$T_RC" = 3 ] && grep -q "A does not repeat.*gp_throttle.membarrier.idle" "$tmp/gp-unsteady.log"'
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
		--no-gp --outdir "$tmp/cloud"
	t_note "$((SECONDS - t0)) s"
	# Each guest ok and the A/B table with a row per lookup workload:
	# an exit status alone could come from a run that compared nothing.
	t_check "live: 3 guests ran and were compared" \
		eval '[ "$(grep -cE "^# ab.sh: (A-1|B-1|A-again): ok, " "$tmp/cloud.log")" = 3 ] &&
		[ "$(sed -n "/^A\/B: /,\$p" "$tmp/cloud.log" |
		     grep -c "^dcache_scaling\..*\.n1\.ops ")" -ge 7 ]'
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
t_wait_background || t_note "the background failed: the cloud kernel may be missing"
live=$(t_qemu_missing "$kernel")
if [ -n "$live" ]; then
	for t in "guests ran" "regression" "names lookups" "control" \
		 "repeatability" "A = B"; do
		t_skip "live: $t" "$live"
	done
else
	cloud
fi
