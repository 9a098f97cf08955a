#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guard on real knobs: gp_throttle runs with the FQS delays injected
# (--knob) and is killed while it switches tracers. SIGTERM and SIGINT
# restore jiffies_till_first/next_fqs, current_tracer and tracing_on and
# leave no state file; SIGKILL leaves them changed, and the next run of a
# suite program repairs them and says so in a "# repaired" line.
#
# current_tracer and tracing_on are read through a private tracefs mount:
# another program unmounting /sys/kernel/tracing cannot hide them from us.
# The test holds the suite's lock throughout and its runs use a private
# state dir (and lock): no other suite program runs meanwhile, none repairs
# the SIGKILLed run before ours does. The EXIT trap puts everything back by
# hand in case the guard did not.
#
# Then the kill sweep: gp_throttle, gp_expedited and dcache_scaling each
# get SIGINT, SIGTERM and SIGKILL at a random point of their run
# (KILL_SWEEP=N rounds, default 1); afterwards (after a SIGKILL: after the
# next run's repair) knobs, tracer, tracing_on, online CPUs and temporary
# trees are as found. Last, a second program started while the lock is
# held waits at most RCU_PERF_LOCK_TIMEOUT and SKIPs with the reason.
#
# untimed: it judges restores, not verdicts (runs beside the kernel build)
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
prog=$RP_BIN/gp_throttle
fqs=/sys/module/rcutree/parameters
# What this kernel had (its default depends on HZ and the CPU count):
# what a repair must bring back.
first0=$(cat "$fqs/jiffies_till_first_fqs") next0=$(cat "$fqs/jiffies_till_next_fqs")
inject=(--knob "$fqs/jiffies_till_first_fqs=50" --knob "$fqs/jiffies_till_next_fqs=50")
# Short and noise-proof: this is about the guard, not the measurement.
fast=(--set samples=10 --set min_samples=5 --set time_budget=30
      --set idle_busy_max=100)
lockdir=${RCU_PERF_STATE_DIR:-/run/rcu_perf}
export RCU_PERF_STATE_DIR=$tmp/state
sweep_progs=(gp_throttle gp_expedited dcache_scaling)
rounds=${KILL_SWEEP:-1}
nr=$((8 + rounds * ${#sweep_progs[@]} * 3 + 2))
echo "TAP version 13"
echo "1..$nr"

if [ "$(id -u)" != 0 ]; then
	for i in $(seq $nr); do t_skip "guard live $i" "needs root"; done
	exit 0
fi
t_tracefs_mount
tfs=$T_TFS
state() { t_live_state; }
# Safety net: write back whatever differs from the first snapshot ($orig).
cleanup() {
	local line k v
	while IFS= read -r line; do
		k=${line%%=*} v=${line#*=}
		case $k in
		/sys/devices/system/cpu/online) continue ;;
		current_tracer | tracing_on) [ -n "$tfs" ] && k=$tfs/$k ;;
		esac
		[ -w "$k" ] && [ "$(cat "$k")" != "$v" ] && echo "$v" >"$k"
	done <<<"$orig"
	t_tracefs_umount
	rm -rf "$tmp"
}
trap cleanup EXIT

# A suite program killed by SIGKILL elsewhere leaves knobs changed until
# the next run: let one (a run without time to measure) repair them first.
RCU_PERF_STATE_DIR=$lockdir "$prog" --quick --set time_budget=0 \
	>"$tmp/pre.log" 2>&1
grep '^# repaired' "$tmp/pre.log"
# Then hold the suite's lock ourselves for the whole test (our runs use a
# private one): no other suite program changes knobs, or mounts and
# unmounts /sys/kernel/tracing, under our feet, and our injected slowdown
# does not disturb anybody's measurement.
mkdir -p "$lockdir"
exec {glock}>>"$lockdir/lock"
flock -w 600 $glock || t_note "could not take $lockdir/lock"
orig=$(state)
# Start from current_tracer=blk: gp_throttle leaves it at nop between
# switches, so a restore that forgot it would show.
[ -n "$tfs" ] && grep -qw blk "$tfs/available_tracers" &&
	echo blk >"$tfs/current_tracer"
before=$(state)
t_note "before: ${before//$'\n'/ }"

unchanged() { t_same "$before" "$(state)" state; }

# start LOG [ENV...]: gp_throttle with the injected knobs in the background
# (pid in $pid); returns once it times tracer switches, the middle of a run;
# $mid tells what the knobs were then.
start() {
	local log=$1
	shift
	env "$@" "$prog" --verbose "${fast[@]}" "${inject[@]}" >"$log" 2>&1 &
	pid=$!
	t_wait_line "$log" '^tracer ' $pid
	mid=$(cat $fqs/jiffies_till_first_fqs $fqs/jiffies_till_next_fqs | tr '\n' ' ')
	[ -n "$tfs" ] && mid+="tracer=$(cat "$tfs/current_tracer") on=$(cat "$tfs/tracing_on")"
}

# stop SIG: send SIG, wait; T_RC = exit status.
stop() {
	kill -"$1" $pid 2>/dev/null
	wait $pid 2>/dev/null
	# shellcheck disable=SC2034 # read by the t_check evals
	T_RC=$?
}

# 1-2. SIGTERM: the guard restores and re-raises.
start "$tmp/term.log"
t_note "mid-run: $mid"
stop TERM
t_show "$tmp/term.log" | grep -vE '^# [a-z]+ [a-z_]+ [0-9]+ [0-9.]+ ms$'
t_check "SIGTERM mid-run: it was measuring with the knobs injected" \
	eval 'grep -q "^tracer " "$tmp/term.log" && test "${mid%% *}" = 50'
t_check "SIGTERM: fqs, current_tracer, tracing_on restored, status 143, no state file" \
	eval 'unchanged && test "$T_RC" = 143 && ! ls "$RCU_PERF_STATE_DIR"/state.* 2>/dev/null'

# 3-4. SIGINT (a background job ignores SIGINT unless told otherwise).
start "$tmp/int.log" --default-signal=INT
t_note "mid-run: $mid"
stop INT
t_show "$tmp/int.log" | grep -vE '^# [a-z]+ [a-z_]+ [0-9]+ [0-9.]+ ms$'
t_check "SIGINT mid-run: it was measuring with the knobs injected" \
	eval 'grep -q "^tracer " "$tmp/int.log" && test "${mid%% *}" = 50'
t_check "SIGINT: fqs, current_tracer, tracing_on restored, status 130, no state file" \
	eval 'unchanged && test "$T_RC" = 130 && ! ls "$RCU_PERF_STATE_DIR"/state.* 2>/dev/null'

# 5-8. SIGKILL: nothing runs in the victim; the next run repairs.
start "$tmp/kill.log"
t_note "mid-run: $mid"
stop KILL
t_show "$tmp/kill.log" | grep -vE '^# [a-z]+ [a-z_]+ [0-9]+ [0-9.]+ ms$'
killed=$pid
t_check "SIGKILL mid-run: knobs left changed, state file left" \
	eval 'test "$(cat $fqs/jiffies_till_first_fqs)" = 50 &&
	      test -s "$RCU_PERF_STATE_DIR/state.$killed"'
t_note "after SIGKILL: $(state | tr '\n' ' ')"
t_run "$tmp/repair.log" "$prog" --quick --set samples=2 \
	--set min_samples=2 --set time_budget=1 --set idle_busy_max=100
t_check "next run says what it repaired in its repaired lines" eval \
	'grep -q "^# repaired $fqs/jiffies_till_first_fqs = $first0 (left by pid $killed)" "$tmp/repair.log" &&
	 grep -q "^# repaired $fqs/jiffies_till_next_fqs = $next0 (left by pid $killed)" "$tmp/repair.log"'
t_check "after the repairing run: fqs, current_tracer, tracing_on as found" unchanged
t_check "the repairing run removed the dead run's state file" \
	test ! -e "$RCU_PERF_STATE_DIR/state.$killed"

# 9-. The kill sweep, with the injected knobs off (the programs' own
# changes are what must come back). The temporary trees go to $tmp/t.
mkdir -p "$tmp/t"
leaks=0
declare -A span=([gp_throttle]=6 [gp_expedited]=0.8 [dcache_scaling]=4)
for r in $(seq "$rounds"); do
	for p in "${sweep_progs[@]}"; do
		for sig in INT TERM KILL; do
			# A random point of the run (the lock is ours: no
			# waiting first); a --quick gp_expedited is short.
			delay=$(awk -v r=$RANDOM -v m="${span[$p]}" \
				'BEGIN { printf "%.1f", 0.1 + m * r / 32768 }')
			log=$tmp/sweep-$p-$sig-$r.log
			TMPDIR=$tmp/t env --default-signal=INT "$RP_BIN/$p" --quick \
				>"$log" 2>&1 &
			pid=$!
			sleep "$delay"
			kill -"$sig" $pid 2>/dev/null
			wait $pid 2>/dev/null
			rc=$?
			repaired=
			if [ "$sig" = KILL ]; then
				# The next suite program repairs what it left.
				"$RP_BIN/boot_marker" --quick >"$log.repair" 2>&1
				repaired=" (repaired: $(grep -c '^# repaired' "$log.repair") lines)"
			fi
			left=$({ compgen -G "$tmp/t/*"
				 compgen -G "$RCU_PERF_STATE_DIR/state.*"; } | wc -l)
			if unchanged && [ "$left" = 0 ]; then
				t_ok "sweep $r: $p SIG$sig after $delay s (exit $rc): all as found$repaired"
			else
				leaks=$((leaks + 1))
				t_show "$log"
				ls -A "$tmp/t" "$RCU_PERF_STATE_DIR" | sed 's/^/# left: /'
				t_fail "sweep $r: $p SIG$sig after $delay s (exit $rc): all as found$repaired"
				cleanup_sweep=1
			fi
			[ -n "$cleanup_sweep" ] && rm -rf "${tmp:?}"/t/* && cleanup_sweep=
		done
	done
done
t_note "kill sweep leaks: $leaks"

# Two programs at once: ours holds the (private) lock; the second waits
# at most RCU_PERF_LOCK_TIMEOUT and SKIPs, changing nothing.
exec {plock}>>"$RCU_PERF_STATE_DIR/lock"
flock $plock
start_s=$(date +%s.%N)
RCU_PERF_LOCK_TIMEOUT=3 t_run "$tmp/locked.log" "$RP_BIN/gp_expedited" --quick
waited=$(awk -v a="$start_s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
exec {plock}>&-
t_check "second program: waits $waited s (timeout 3 s), then a 1..0 plan that skips: cannot take the rcu_perf lock, exit 4" \
	eval 'test "$T_RC" = 4 && grep -q "^1\.\.0 # SKIP cannot take the rcu_perf lock" "$tmp/locked.log" &&
	      awk -v w="$waited" "BEGIN { exit !(w >= 3 && w < 30) }"'
# The default wait must end well within kselftest's timeout (settings).
t_check "the default lock timeout (40 s) is below kselftest's timeout" \
	eval 'grep -q "RP_LOCK_TIMEOUT_DEFAULT[[:space:]]*40" "$RP_SUITE/lib/guard.c" &&
	      test "$(sed -n "s/^timeout=//p" "$RP_SUITE/settings")" -gt 40 && unchanged'
