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
# change nothing. t76 boots the small kernels exp-select-slow and
# exp-wait-first, whose expedited paths FAIL these checks. The proofs
# are strict (t_prove): a SKIP where a verdict is due is run again, then
# fails.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prog=$RP_BIN/gp_expedited
check=expedited_gp_ratio
wake=expedited_gp_wakeups
ipis=expedited_gp_ipis
nr=12
echo "TAP version 13"
echo "1..$nr"
# Only what this program may change: other programs running meanwhile
# (under the rcu_perf lock) may change the tracer or the FQS delays.
RP_KNOBS="/sys/kernel/rcu_expedited /sys/kernel/rcu_normal"
before=$(t_knob_snapshot)

# 1. Healthy: passes, the latencies in the JSON.
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
t_check "JSON: the normal, expedited and control latencies" \
	eval 'grep -q "membarrier.normal.latency" "$tmp/ok.json" &&
	      grep -q "membarrier.expedited.latency" "$tmp/ok.json" &&
	      grep -q "control.wakeup.latency" "$tmp/ok.json" &&
	      grep -q "membarrier.expedited_busy.latency" "$tmp/ok.json" &&
	      grep -q "control.ipi.latency" "$tmp/ok.json"'

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
