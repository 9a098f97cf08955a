#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gp_throttle on the running kernel: every check passes as the kernel is;
# with the force-quiescent-state scans delayed to 50 jiffies (idle grace
# periods ~25x slower, busy ones still fast) the idle penalty and idle cap
# checks fail for membarrier and for the tracer switches; a measurement
# that cannot be sound is an error, not a verdict; every run leaves the
# RCU knobs, current_tracer and tracing_on as found; bad input exits 2 with
# one line and changes nothing.
#
# gp_throttle throws away idle blocks during which other tasks kept the
# CPUs busy; when the machine is never idle it reports errors. Such a run
# is retried a few times and then skipped (a busy machine is no evidence
# either way); a pass where a failure is expected, or a failure where a
# pass is expected, is never retried.
source "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
prog=$RP_BIN/gp_throttle
lockdir=${RCU_PERF_STATE_DIR:-/run/rcu_perf}
fqs=/sys/module/rcutree/parameters
inject=(--knob "$fqs/jiffies_till_first_fqs=50" --knob "$fqs/jiffies_till_next_fqs=50")
checks="membarrier_sound membarrier_idle_penalty membarrier_idle_cap
tracer_sound tracer_idle_penalty tracer_idle_cap"
nr=13
echo "TAP version 13"
echo "1..$nr"

# current_tracer and tracing_on through a private tracefs mount: whether
# /sys/kernel/tracing is mounted may change under us (the guard mounts and
# unmounts it when it is not), our view stays.
tfs=$(mktemp -d /tmp/rp_t20_tracefs.XXXXXX)
mount -t tracefs nodev "$tfs" 2>/dev/null || { rmdir "$tfs"; tfs=; }
cleanup() {
	if [ -n "$tfs" ]; then
		umount "$tfs" 2>/dev/null || umount -l "$tfs"
		rmdir "$tfs"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
# The state, read while holding the suite's lock: no suite program (ours
# or another one) is changing knobs meanwhile.
state() {
	local fd
	mkdir -p "$lockdir" && exec {fd}>>"$lockdir/lock" && flock -w 600 $fd
	t_knob_snapshot | grep -v '^/sys/kernel/tracing/'
	[ -n "$tfs" ] && echo "current_tracer=$(cat "$tfs/current_tracer")" &&
		echo "tracing_on=$(cat "$tfs/tracing_on")"
	exec {fd}>&-
}
unchanged() {
	local now
	now=$(state)
	[ "$now" = "$before" ] && return 0
	diff <(echo "$before") <(echo "$now") | sed 's/^/# changed: /'
	return 1
}
# A suite program killed by SIGKILL elsewhere leaves knobs changed until
# the next run: let one (a run without time to measure) repair them first.
RCU_PERF_STATE_DIR=$lockdir "$prog" --quick --set quick_time_budget=0 \
	>"$tmp/pre.log" 2>&1
grep '^# repaired' "$tmp/pre.log"
before=$(state)

# results LOG: "check=result ..." of the six checks.
results() {
	local c
	for c in $checks; do echo -n "$c=$(ktap_result "$1" "$c") "; done
}

# run_settled LOG ARGS...: gp_throttle --quick ARGS into LOG.1, LOG.2 ...
# (exit status in LOG.N.rc), again while a check has no verdict (the
# machine was not idle long enough), at most 3 runs. LOG is the last one.
run_settled() {
	local log=$1 try
	shift
	for try in 1 2 3; do
		t_run "$log.$try" "$prog" --quick "$@"
		echo "$T_RC" >"$log.$try.rc"
		cp "$log.$try" "$log"
		t_note "run $try: $(results "$log")"
		grep -qE '^not ok [0-9]+ [a-z_]+ # error' "$log" || return 0
	done
}

# verdict LOG W: the first run of LOG with verdicts (or skips) for W.
verdict() {
	local l
	for l in "$1".[0-9]; do
		grep -qE "^not ok [0-9]+ $2_[a-z_]+ # error" "$l" && continue
		echo "$l"
		return
	done
}

# judge LOG W DESC EXPECT: EXPECT (pass or fail) for W's penalty and cap.
judge() {
	# shellcheck disable=SC2034 # want: used in the eval
	local l w=$2 want=$4
	l=$(verdict "$1" "$w")
	if [ -z "$l" ]; then
		t_skip "$3" "no idle machine to measure in 3 runs"
	elif [ "$(ktap_result "$l" "${w}_sound")" = skip ]; then
		t_skip "$3" "$(grep -m1 -oE "^ok [0-9]+ ${w}_sound # SKIP .*" "$l")"
	else
		t_check "$3" eval 'test "$(ktap_result "$l" "${w}_sound")" = pass &&
			test "$(ktap_result "$l" "${w}_idle_penalty")" = "$want" &&
			test "$(ktap_result "$l" "${w}_idle_cap")" = "$want"'
	fi
}

# 1. Healthy: every check passes; KTAP and JSON complete.
run_settled "$tmp/ok.log" --json "$tmp/ok.json"
if [ "$T_RC" = 4 ]; then
	why=$(grep -m1 -o '# SKIP.*' "$tmp/ok.log")
	for i in $(seq $nr); do t_skip "gp_throttle $i" "${why:-skipped}"; done
	exit 0
fi
judge "$tmp/ok.log" membarrier "healthy: membarrier sound, idle penalty and cap pass" pass
judge "$tmp/ok.log" tracer "healthy: tracer sound, idle penalty and cap pass" pass
# rc_matches LOG: each run of LOG exited 0 exactly when all six passed.
rc_matches() {
	local l n
	for l in "$1".[0-9]; do
		n=$(results "$l" | grep -o =pass | wc -l)
		[ "$n" = 6 ] && [ "$(cat "$l.rc")" != 0 ] && return 1
		[ "$n" != 6 ] && [ "$(cat "$l.rc")" = 0 ] && return 1
	done
	return 0
}
t_check "exit 0 exactly when every check passed" rc_matches "$tmp/ok.log"
t_check "KTAP well-formed (plan 1..6, six results)" eval \
	'ktap_valid "$tmp/ok.log" && grep -qx "1..6" "$tmp/ok.log"'
t_check "JSON: latency per load level with counters, tracer choice explained" eval \
	'grep -q "membarrier.all_busy.latency" "$tmp/ok.json" &&
	 grep -q "tracer.all_busy.latency" "$tmp/ok.json" &&
	 grep -q "context_switches" "$tmp/ok.json" &&
	 grep -qE "^# (tracer: .*<->nop|tracer: skipped: .)" "$tmp/ok.log"'
t_check "healthy runs left the knobs as found" unchanged

# 2. Injected: FQS scans every 50 jiffies make idle GPs slow. The tracer
# switches then take ~0.4 s each: more time for as many samples.
run_settled "$tmp/inj.log" "${inject[@]}" --set quick_time_budget=15
judge "$tmp/inj.log" membarrier "fqs=50: membarrier idle penalty and cap fail" fail
judge "$tmp/inj.log" tracer "fqs=50: tracer idle penalty and cap fail" fail
t_check "injected runs: exit 1, knobs (fqs, current_tracer, tracing_on) back" \
	eval 'test "$T_RC" = 1 && unchanged'

# 3. A measurement that cannot be sound is an error, never a verdict.
t_run "$tmp/few.log" "$prog" --quick --set min_samples=100000 \
	--set quick_time_budget=1
t_check "unreachable min_samples: errors, not verdicts, exit 1" eval \
	'test "$T_RC" = 1 && results "$tmp/few.log" | grep -q =error &&
	 ! results "$tmp/few.log" | grep -qE "=(pass|fail)"'

# 4. Bad input: exit 2, one line, nothing changed - not even the first of
# two --knob settings when the second one is refused.
t_run "$tmp/bad1.log" "$prog" --no-such-option
r1=$T_RC l1=$(wc -l <"$tmp/bad1.log")
t_run "$tmp/bad2.log" "$prog" --set idle_penalty=abc
r2=$T_RC l2=$(wc -l <"$tmp/bad2.log")
RCU_PERF_MEMBARRIER_IDLE_CAP=20x t_run "$tmp/bad3.log" "$prog"
r3=$T_RC l3=$(wc -l <"$tmp/bad3.log")
t_check "bad option, bad --set value, bad env value: exit 2, one line each" \
	test "$r1$r2$r3" = 222 -a "$l1$l2$l3" = 111
t_run "$tmp/bad4.log" "$prog" --knob $fqs/jiffies_till_first_fqs=50 \
	--knob $fqs/jiffies_till_next_fqs=bogus
t_check "refused --knob value: exit 2, the earlier --knob undone" \
	eval 'test "$T_RC" = 2 && unchanged'

# 5. Every threshold and setting is listed with its unit and reason.
listed() {
	local p
	for p in "$@"; do grep -q "$p" "$tmp/list.log" || return 1; done
}
t_run "$tmp/list.log" "$prog" --list
t_check "--list: exit 0, names every limit" eval \
	'test "$T_RC" = 0 && listed idle_penalty membarrier_idle_cap \
	 tracer_idle_cap idle_busy_max min_samples'
