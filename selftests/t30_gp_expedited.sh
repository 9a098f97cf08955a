#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gp_expedited on the running kernel: the three checks (expedited against
# normal GPs, against the same run's wake-up round trip, and beside a busy
# CPU against an IPI to it and one wake-up) pass as the kernel is and fail
# when /sys/kernel/rcu_normal=1 turns expedited grace periods back into
# normal ones; too few samples is a SKIP, never a
# verdict; every run - including one killed by SIGTERM in the middle -
# leaves rcu_expedited and rcu_normal as found; bad options exit 1 and
# change nothing. With the small kernels of `make kernels`, in
# instruction-counted 2-vCPU guests (exact, ~15 s each): the healthy
# kernel passes expedited_gp_wakeups (0.94 round trips) and
# expedited_gp_ipis (1.0), exp-select-slow (an expedited path 5x slower:
# 4.9 round trips, 9.0 controls) FAILs both, exp-wait-first (one that
# waits for the next jiffy: 437 round trips) the first, with no baseline;
# beside a busy vCPU its GPs wait for jiffies anyway there (2.0-3.0
# controls against the limit 2: either verdict, a shorter time budget). The proofs are strict (t_prove): a SKIP where a
# verdict is due is run again, then fails.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prog=$RP_BIN/gp_expedited
check=expedited_gp_ratio
wake=expedited_gp_wakeups
ipis=expedited_gp_ipis
nr=15
echo "TAP version 13"
echo "1..$nr"
# Only what this program may change: other programs running meanwhile
# (under the rcu_perf lock) may change the tracer or the FQS delays.
RP_KNOBS="/sys/kernel/rcu_expedited /sys/kernel/rcu_normal"
before=$(t_knob_snapshot)

# 1. Healthy: passes, the latencies with counters in the JSON.
t_run "$tmp/probe.log" "$prog" --quick --set time_budget=0
if [ "$T_RC" = 4 ] && ! grep -q "too few" "$tmp/probe.log"; then
	why=$(grep -m1 -o '# SKIP.*' "$tmp/probe.log")
	for i in $(seq $nr); do t_skip "gp_expedited $i" "${why:-skipped}"; done
	exit 0
fi
t_prove "healthy kernel: $wake and $ipis judged and pass, exit 0" \
	"$wake $ipis" pass "$tmp/ok.log" "$prog" --quick --json "$tmp/ok.json"
t_check "healthy kernel: $check passes" \
	test "$(ktap_result "$tmp/ok.log" $check)" = pass
t_check "KTAP well-formed, rcu_normal and cmdline RCU parameters reported" \
	eval 'ktap_valid "$tmp/ok.log" && grep -q "^# rcu_normal: 0" "$tmp/ok.log" &&
	      grep -q "^# cmdline_rcu: " "$tmp/ok.log"'
t_check "JSON: the normal, expedited and control latencies, counters per op" \
	eval 'grep -q "membarrier.normal.latency" "$tmp/ok.json" &&
	      grep -q "membarrier.expedited.latency" "$tmp/ok.json" &&
	      grep -q "control.wakeup.latency" "$tmp/ok.json" &&
	      grep -q "membarrier.expedited_busy.latency" "$tmp/ok.json" &&
	      grep -q "control.ipi.latency" "$tmp/ok.json" &&
	      grep -q "context_switches" "$tmp/ok.json"'

# 2. Injected: rcu_normal=1 makes expedited GPs normal ones.
t_prove "rcu_normal=1: $check fails, exit 1" \
	$check fail "$tmp/inj.log" "$prog" --quick --knob /sys/kernel/rcu_normal=1
t_check "rcu_normal=1: $wake fails" \
	test "$(ktap_result "$tmp/inj.log" $wake)" = fail
t_check "rcu_normal=1: $ipis fails" \
	test "$(ktap_result "$tmp/inj.log" $ipis)" = fail
t_check "rcu_expedited and rcu_normal left as found" t_knobs_unchanged "$before"

# 3. Soundness: too few samples is no verdict: a SKIP, not a failure.
t_run "$tmp/few.log" "$prog" --quick --set samples=4
t_check "too few samples: skip results, exit 4" \
	test "$T_RC" = 4 -a "$(ktap_result "$tmp/few.log" $check)" = skip -a \
	"$(ktap_result "$tmp/few.log" $wake)" = skip

# 4. Bad input: exit 1, one line, nothing changed.
t_run "$tmp/bad.log" "$prog" --no-such-option
r1=$T_RC
t_run "$tmp/bad2.log" "$prog" --set expedited_ratio=abc
t_check "bad option / bad value: exit 1 with a one-line message" \
	test "$r1" = 1 -a "$T_RC" = 1 -a "$(wc -l <"$tmp/bad.log")" = 1
t_check "bad input left the knobs as found" t_knobs_unchanged "$before"

# 5. SIGTERM in the middle of a long injected run: knobs restored.
"$prog" --set samples=5000 --set time_budget=600 \
	--knob /sys/kernel/rcu_normal=1 >"$tmp/kill.log" 2>&1 &
pid=$!
for i in $(seq 600); do	# waits for the lock if another program holds it
	grep -q '^# rcu_normal: 1' "$tmp/kill.log" && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.5
done
sleep 0.5
mid=$(cat /sys/kernel/rcu_normal)
kill -TERM $pid 2>/dev/null
wait $pid
t_show "$tmp/kill.log"
t_note "rcu_normal while running: $mid"
t_check "killed by SIGTERM while measuring: knobs restored" \
	eval 'test "$mid" = 1 && t_knobs_unchanged "$before"'

# 6. A kernel whose expedited path is a few times slower, still expedited:
# exp-select-slow against healthy, each booted once in an
# instruction-counted 2-vCPU guest running gp_expedited alone.
small=$RP_BUILD/kernels
live=$(t_qemu_missing "$small/healthy/bzImage")
for k in healthy exp-select-slow exp-wait-first; do
	[ -f "$small/$k/bzImage" ] || live=${live:-"no $small/$k (make kernels)"}
done
# t95 runs this script with gp_expedited's limits out of reach; the
# guests do not inherit them, so it needs none of their ~45 s.
[ -n "${RP_T30_NO_GUESTS:-}" ] && live=${live:-"RP_T30_NO_GUESTS (t95)"}
# boot KERNEL ARGS: boot it, in the background; icount guests' time is
# virtual, so two at a time on two CPUs give the same verdicts.
boot() {
	"$RP_STATIC/guest.sh" --kernel "$small/$1/bzImage" --outdir "$tmp/g-$1" \
		--mode icount --cpus 2 -- "gp_expedited $2" >"$tmp/g-$1.log" 2>&1 &
}
# guest KERNEL: show its KTAP; rc is gp_expedited's exit status.
guest() {
	t_show "$tmp/g-$1.log"
	t_show "$tmp/g-$1/gp_expedited.ktap" 2>/dev/null
	rc=$(cat "$tmp/g-$1/gp_expedited.rc" 2>/dev/null)
}
if [ -n "$live" ]; then
	t_skip "icount guest, healthy kernel: $wake and $ipis pass" "$live"
	t_skip "icount guest, exp-select-slow: $wake and $ipis FAIL, $check passes" "$live"
	t_skip "icount guest, exp-wait-first: $wake FAILs, $check passes" "$live"
else
	boot healthy
	boot exp-select-slow
	wait
	boot exp-wait-first "--set time_budget=10"
	guest healthy
	t_check "icount guest, healthy kernel: $wake and $ipis pass, exit 0" eval \
		'test "$rc" = 0 && test "$(ktap_result "$tmp/g-healthy/gp_expedited.ktap" $wake)" = pass &&
		 test "$(ktap_result "$tmp/g-healthy/gp_expedited.ktap" $ipis)" = pass'
	guest exp-select-slow
	t_check "icount guest, exp-select-slow: $wake and $ipis FAIL, $check passes, exit 1" eval \
		'test "$rc" = 1 &&
		 test "$(ktap_result "$tmp/g-exp-select-slow/gp_expedited.ktap" $wake)" = fail &&
		 test "$(ktap_result "$tmp/g-exp-select-slow/gp_expedited.ktap" $ipis)" = fail &&
		 test "$(ktap_result "$tmp/g-exp-select-slow/gp_expedited.ktap" $check)" = pass'
	wait
	guest exp-wait-first
	t_check "icount guest, exp-wait-first: $wake FAILs, $check passes, exit 1" eval \
		'test "$rc" = 1 &&
		 test "$(ktap_result "$tmp/g-exp-wait-first/gp_expedited.ktap" $wake)" = fail &&
		 test "$(ktap_result "$tmp/g-exp-wait-first/gp_expedited.ktap" $check)" = pass'
fi
