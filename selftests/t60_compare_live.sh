#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rcu_perf_compare on the live kernel, with gp_throttle --quick: a
# candidate whose grace periods are slowed down by a modest FQS delay
# (jiffies_till_{first,next}_fqs) is "regressed" (exit 1) against a default
# baseline, and two healthy runs show "no significant change" (exit 0).
# The comparison on synthetic results is tests/t60_compare.sh.
source "$(dirname "$0")/../tests/lib.sh"

C=$RP_BIN/rcu_perf_compare
G=$RP_BIN/gp_throttle
FQS=/sys/module/rcutree/parameters
# The modest slowdown: an FQS scan every 3 jiffies instead of every one
# doubles idle GPs here (median 8 -> 16 ms; 5: 24-32 ms, 10: 48 ms).
LIVE_FQS=${RP_T60_FQS:-3}
tmp=$(mktemp -d /tmp/t60_compare_live.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
echo "TAP version 13"

# gp_throttle --quick, ~4 s a run on an idle machine: the idle latency of
# membarrier(MEMBARRIER_CMD_GLOBAL), where a delayed FQS scan shows (busy
# CPUs report quiescent states from the tick and hide it). Idle GPs end on
# whole jiffies: a healthy run has 15 samples of 8 ms (2 jiffies at HZ=250)
# with 1-4 of 16 ms, sd ~3.4 ms. So the live comparisons allow a 50% change
# and use alpha 0.001 (a false alarm below 0.1% per look); with 30 samples
# a side the MDE is then ~40-48%. FQS every 3 jiffies gives 16 ms with a
# few of 32 (gp_throttle's own idle_penalty check of 3x still passes it):
# +100%, p 1e-7..1e-13 with two runs a side (one run: down to 7e-4 on a
# noisy machine, too close). ~20 s in all. A machine that is never idle
# gives no idle samples: then the part is skipped.
LIVE_METRIC=gp_throttle.membarrier.idle.latency
LIVE_ARGS=(--metric "$LIVE_METRIC" --allow "$LIVE_METRIC=50" --set alpha=0.001)

# The knobs, read while no rcu_perf program holds the guard's lock (other
# programs running meanwhile have their own changes in place).
locked_snapshot() {
	local d=${RCU_PERF_STATE_DIR:-/run/rcu_perf}

	mkdir -p "$d" && (flock -w 300 9 && t_knob_snapshot) 9>>"$d/lock"
}

# live NAME WANT_RC COMPARE_ARGS...
live() {
	local name=$1 want=$2 log=$tmp/$1.log rc
	shift 2
	"$C" "${LIVE_ARGS[@]}" "$@" >"$log" 2>&1
	rc=$?
	t_show "$log"
	if [ "$rc" = "$want" ]; then
		t_ok "$name"
	elif grep -qs "membarrier idle: no samples" "$tmp"/live*/*.log; then
		t_skip "$name" "no idle samples: the machine is never idle"
	else
		t_note "exit $rc, want $want"
		t_fail "$name"
	fi
}

if [ "$(id -u)" != 0 ] || [ ! -w $FQS/jiffies_till_first_fqs ]; then
	t_skip live_healthy_is_same "needs root and $FQS"
	t_skip live_fqs_delay_is_regressed "needs root and $FQS"
else
	before=$(locked_snapshot)
	start=$(date +%s)
	# Two healthy kernels, i.e. the same one twice, alternately.
	live live_healthy_is_same 0 --repeat "$tmp/live_same" \
		--set repeat_max_rounds=6 --set repeat_budget=120 \
		--base-cmd "$G --quick" --cand-cmd "$G --quick"
	# The same baseline runs against slower grace periods.
	slow="--knob $FQS/jiffies_till_first_fqs=$LIVE_FQS"
	slow="$slow --knob $FQS/jiffies_till_next_fqs=$LIVE_FQS"
	base=()
	for f in "$tmp"/live_same/base-*.json; do
		[ -f "$f" ] && base+=(--base "$f")
	done
	if [ ${#base[@]} = 0 ]; then
		t_fail live_fqs_delay_is_regressed
	elif grep -q "no baseline samples" "$tmp/live_healthy_is_same.log"; then
		t_skip live_fqs_delay_is_regressed "no idle samples: the machine is never idle"
	else
		live live_fqs_delay_is_regressed 1 --repeat "$tmp/live_fqs" \
			"${base[@]}" --set repeat_max_rounds=4 --set repeat_budget=90 \
			--cand-cmd "$G --quick $slow"
	fi
	t_note "live part: $(($(date +%s) - start)) s"
	after=$(locked_snapshot)
	t_check "live_knobs_restored" test "$before" = "$after"
fi

echo "1..$T_N"
