#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every test kernel of `make kernels` boots in make check and gets the
# verdicts its patch's expect lines name. This test boots the ones no
# other proof boots, each once in the scenario that judges it, against
# the healthy reference booted three times in the same run (matrix.sh: the
# third against the first two, the A = A control, judged and ok): icount
# (1 vCPU, instruction-counted: lookups and the boot) for ref-walk-only,
# boot-unexpedited, lookup-slower and gp-end-late; icount2 (2 vCPUs,
# instruction-counted: grace periods) for needs-cpu-throttle,
# needs-cpu-ready-only, exp-falls-back-normal, gp-end-late and
# gp-busy-late (busy GPs only: the all-busy checks); cpu2-dcache
# (2 vCPUs, wall-clock, the tree on ext2: dcache_scaling's scaling checks)
# for lookups-serialized, whose five *_efficiency checks FAIL,
# and cpu2-kernbench (2 vCPUs, wall-clock, a build with the host's
# compiler) for exec-pinned, whose kernbench_speedup FAILs, where the
# healthy kernel's, booted in the same run, are judged and pass (no SKIP:
# a machine too busy to judge, or a boot in which the injected kernel
# alone missed, boots both again, three times at most). Then make ab (qemu/ab.sh --judge) on the same guests: it names
# lookup-slower's lookups and gp-end-late's grace periods regressed, and
# healthy's first two boots as A and B the same. t30 boots exp-select-slow
# and exp-wait-first. A cell that misses its expectations fails its line
# here. Fifteen instruction-counted guests, up to four at a time, and
# four wall-clock guests alone: ~4.5 minutes.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
small=$RP_BUILD/kernels
echo "TAP version 13"
echo "1..11"

# cells DESC SCENARIO KERNEL...: matrix.sh over the kernels, healthy first;
# in a "baseline: reference" scenario, also the A = A control: healthy's
# third boot, against its first two, must have judged every check against
# them (no SKIP) and passed it.
cells() {
	local d=$1 s=$2 k args=() missing want ref="" ctl
	shift 2
	want=$(($# + 1))
	# and the reference's second and third boots
	grep -q '^baseline: reference' "$RP_TOP_CONFIG/matrix/$s" && want=$((want + 2)) ref=1
	missing=$(t_qemu_missing "$small/healthy/bzImage")
	for k in healthy "$@"; do
		[ -f "$small/$k/bzImage" ] || missing=${missing:-"no $small/$k (make kernels)"}
		args+=(--kernel "$small/$k")
	done
	if [ -n "$missing" ]; then
		t_skip "$d" "$missing"
		[ -z "$ref" ] || t_skip "$d: the A = A control" "$missing"
		return
	fi
	t_run "$tmp/$s.log" nice -n 10 "$RP_STATIC/matrix.sh" \
		--scenarios "$RP_TOP_CONFIG/matrix" --results "$tmp/$s" \
		--only "$s" --jobs 2 ${CELL_ARGS:+--args "$CELL_ARGS"} "${args[@]}"
	t_note "$(grep -E '^[0-9]+ cells: ' "$tmp/$s.log")"
	t_check "$d: every cell met its expectations" eval \
		'test "$T_RC" = 0 && grep -qE "^$want cells: $want met" "$tmp/$s.log"'
	[ -n "$ref" ] || return 0
	ctl=$tmp/$s/healthy/$s.control/checks
	t_note "A = A: $(grep -P '_vs_baseline\t' "$ctl" 2>/dev/null | cut -f2,3 | tr '\t\n' '= ')"
	t_check "$d: the A = A control judged its checks against the reference, all ok" eval \
		'grep -qP "_vs_baseline\t" "$ctl" && ! grep -P "_vs_baseline\t" "$ctl" | grep -qvP "\tok\t"'
}

# icount and icount2 side by side: an instruction-counted guest's
# results do not depend on the host, so the two reference kernels' third
# boots, which run alone, share the CPUs. icount always prints two
# results (the cells, the A = A control), numbered 1 and 2.
cells "icount: ref-walk-only, boot-unexpedited, lookup-slower, gp-end-late" \
	icount ref-walk-only boot-unexpedited lookup-slower gp-end-late >"$tmp/icount.out" &
icount_pid=$!
T_N=2

# icount2. The needs-cpu kernels delay only callbacks queued while a CPU
# re-enters idle within two jiffies of its last question, so how much
# their GPs suffer depends on where a boot's jiffies fall: in icount2
# ~120-jiffy stalls of an idle tracer switch, 1 to 10 of a boot's ~55
# (4 boots); with one, all 9 gp_throttle checks may pass, and no check can
# see in one boot a regression the boot hardly has. The kernels that
# missed boot again with the reference, each program timing 60 ops a
# level, then 45, instead of 50, which moves every later block against the
# jiffies (the same inputs repeat the same boot); only the needs-cpu
# kernels get these boots.
d2="icount2: needs-cpu-throttle, needs-cpu-ready-only, exp-falls-back-normal, gp-end-late, gp-busy-late"
T0=$T_N
out=$(cells "$d2" icount2 needs-cpu-throttle needs-cpu-ready-only exp-falls-back-normal gp-end-late \
	gp-busy-late)
wait $icount_pid
cat "$tmp/icount.out"
for samples in 60 45; do
	missed=$(sed -n 's|^MISS \(needs-cpu-[a-z-]*\)/icount2:$|\1|p' "$tmp/icount2.log" | sort -u)
	others=$(grep -E '^(MISS|WARN|TIMEOUT|PANIC|NO-BOOT|ERROR) ' "$tmp/icount2.log" |
		grep -v '^MISS needs-cpu-')
	grep -q '^not ok' <<<"$out" && [ -n "$missed" ] && [ -z "$others" ] || break
	echo "$out" | grep -v '^\(not \)\?ok '
	t_note "icount2: $(echo $missed) met no expectation in this boot; again with $samples ops a level"
	# make ab below judges the first boots
	[ -d "$tmp/icount2.first" ] || mv "$tmp/icount2" "$tmp/icount2.first"
	rm -rf "$tmp/icount2"
	# shellcheck disable=SC2086
	out=$(T_N=$T0 CELL_ARGS="--set samples=$samples" \
		cells "$d2 (the needs-cpu kernels booted again)" icount2 $missed)
done
echo "$out"
T_N=$((T0 + $(grep -cE '^(not )?ok [0-9]+ ' <<<"$out")))

# make ab: ab.sh --judge DIR compares guest.sh outdirs laid out as its own
# (A-1, B-1, A-again and their -gp), so it judges these guests with its
# own limits (1% a lookup, 10% an idle GP): lookup-slower's ~2% a lookup
# and gp-end-late's jiffy a GP are named regressed, and healthy's first
# two boots as A and B are the same, every GP median within 0.1% (a
# hundredth of the smallest allowed change).
gp1=$tmp/icount2
[ -d "$tmp/icount2.first" ] && gp1=$tmp/icount2.first
# judge NAME RUN=CELL...: ab.sh --judge over RUN -> CELL links (NAME.log)
judge() {
	local n=$1 x args=()
	shift
	mkdir "$tmp/ab-$n"
	for x in "$@"; do ln -s "${x#*=}" "$tmp/ab-$n/${x%%=*}"; done
	# A = A: the A-again guests are its B
	[ "$n" = aa ] && args=(--no-repeat)
	t_run "$tmp/ab-$n.log" "$RP_STATIC/ab.sh" --judge "$tmp/ab-$n" "${args[@]}"
}
l=$tmp/icount/healthy/icount g=$gp1/healthy/icount2
ab_d=("make ab: lookup-slower's ~2% a lookup named regressed (exit 1)"
      "make ab: gp-end-late's jiffy a GP named regressed, not its lookups (exit 1)"
      "make ab: healthy's two boots as A and B: exit 0, every GP median within 0.1%")
if [ ! -d "$l.again" ] || [ ! -d "$g.again" ]; then
	for d in "${ab_d[@]}"; do t_skip "$d" "no guests of the healthy kernel (see above)"; done
else
	judge lookups A-1="$l" A-again="$l.again" B-1="$tmp/icount/lookup-slower/icount"
	t_check "${ab_d[0]}" eval '[ "$T_RC" = 1 ] &&
		grep -q "^ab: B regressed: .*stat_private" "$tmp/ab-lookups.log"'
	judge gp A-1="$l" A-again="$l.again" A-1-gp="$g" A-again-gp="$g.again" \
		B-1="$tmp/icount/gp-end-late/icount" B-1-gp="$gp1/gp-end-late/icount2"
	t_check "${ab_d[1]}" eval '[ "$T_RC" = 1 ] &&
		grep -q "^ab: B regressed: .*gp_throttle.membarrier.idle.latency (+" "$tmp/ab-gp.log" &&
		! grep -q "^ab: B regressed: .*dcache_scaling" "$tmp/ab-gp.log"'
	judge aa A-1="$l" B-1="$l.again" A-1-gp="$g" B-1-gp="$g.again"
	t_check "${ab_d[2]}" eval '[ "$T_RC" = 0 ] &&
		sed -n "/^A\/B: /,\$p" "$tmp/ab-aa.log" | grep "^gp_" | grep -qv "\[" &&
		! sed -n "/^A\/B: /,\$p" "$tmp/ab-aa.log" | grep "^gp_" | grep -v "\[" |
		  grep -vq " [+-]0\.0[0-9]% "'
fi

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
		out=$(cells "$s: $k" "$s" "$k")
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
