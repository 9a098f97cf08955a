#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every test kernel of `make kernels` boots in make check and gets the
# verdicts its patch's expect lines name. This test boots the ones no
# other proof boots, each once in the scenario that judges it, against
# the healthy reference booted twice in the same run (matrix.sh): icount2
# (2 vCPUs, instruction-counted: grace periods) for needs-cpu-throttle,
# needs-cpu-ready-only, exp-falls-back-normal and gp-end-late (t75 boots
# it too, but judges it with make ab, not its <metric>_vs_baseline
# checks); icount (1 vCPU: lookups and the boot) for ref-walk-only and
# boot-unexpedited; cpu2-dcache (2 vCPUs, wall-clock: dcache_scaling's
# scaling checks) for lookups-serialized, whose rcu-walk workloads'
# *_efficiency checks FAIL where the healthy kernel's, booted in the same
# run, are judged and pass (no SKIP: a machine too busy to judge boots
# both again, three times at most). t30 boots exp-select-slow and
# exp-wait-first, t75 lookup-slower. A cell that misses its expectations
# fails its line here. Ten instruction-counted guests, two at a time, and
# two wall-clock guests alone: ~3-4 minutes.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
small=$RP_BUILD/kernels
echo "TAP version 13"
echo "1..4"

# cells DESC SCENARIO KERNEL...: matrix.sh over the kernels, healthy first.
cells() {
	local d=$1 s=$2 k args=() missing want
	shift 2
	want=$(($# + 1))
	# and the reference's second boot
	grep -q '^baseline: reference' "$RP_TOP_CONFIG/matrix/$s" && want=$((want + 1))
	missing=$(t_qemu_missing "$small/healthy/bzImage")
	for k in healthy "$@"; do
		[ -f "$small/$k/bzImage" ] || missing=${missing:-"no $small/$k (make kernels)"}
		args+=(--kernel "$small/$k")
	done
	if [ -n "$missing" ]; then
		t_skip "$d" "$missing"
		return
	fi
	t_run "$tmp/$s.log" nice -n 10 "$RP_STATIC/matrix.sh" \
		--scenarios "$RP_TOP_CONFIG/matrix" --results "$tmp/$s" \
		--only "$s" --jobs 2 "${args[@]}"
	t_note "$(grep -E '^[0-9]+ cells: ' "$tmp/$s.log")"
	t_check "$d: every cell met its expectations" eval \
		'test "$T_RC" = 0 && grep -qE "^$want cells: $want met" "$tmp/$s.log"'
}

cells "icount2: needs-cpu-throttle, needs-cpu-ready-only, exp-falls-back-normal, gp-end-late" \
	icount2 needs-cpu-throttle needs-cpu-ready-only exp-falls-back-normal gp-end-late
cells "icount: ref-walk-only, boot-unexpedited" \
	icount ref-walk-only boot-unexpedited

# cpu2-dcache: healthy's efficiency checks judged (ok, not SKIP) besides
# every cell meeting its expectations. A cell that could not judge them
# (a busy machine: the parallel control out of bounds) is no evidence
# either way: both kernels boot again, three times at most.
dcache="stat_private_efficiency stat_shared_efficiency open_shared_efficiency
dotdot_symlink_efficiency"
hc=$tmp/cpu2-dcache/healthy/cpu2-dcache/checks
for try in 1 2 3; do
	rm -rf "$tmp/cpu2-dcache"
	out=$(cells "cpu2-dcache: lookups-serialized" cpu2-dcache lookups-serialized)
	judged=1
	for c in $dcache; do
		grep -qP "^dcache_scaling\t$c\tok\t" "$hc" 2>/dev/null || judged=0
	done
	cat "$tmp"/cpu2-dcache/*/cpu2-dcache/checks 2>/dev/null |
		grep -qP '^dcache_scaling\t[a-z_]+_efficiency\tSKIP\tSKIP not judged' || break
	[ "$try" = 3 ] || t_note "run $try: efficiency checks not judged (machine busy); again"
done
echo "$out"
T_N=$((T_N + $(grep -cE '^(not )?ok [0-9]+ ' <<<"$out")))
if [ -f "$hc" ]; then
	t_note "healthy: $(for c in $dcache; do grep -P "^dcache_scaling\t$c\t" "$hc"; done |
		cut -f2,3 | tr '\t\n' '= ')"
	t_check "cpu2-dcache: healthy's $(echo $dcache | wc -w) efficiency checks judged and ok" \
		test $judged = 1
else
	t_skip "cpu2-dcache: healthy's efficiency checks judged and ok" "no cell (see above)"
fi
