#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rcu_perf_compare on the live kernel, with gp_throttle --quick: a
# candidate whose grace periods are slowed down by the seed-sized FQS delay
# (jiffies_till_{first,next}_fqs 1 -> 2) is "regressed" (exit 1) against a
# default baseline, and two healthy runs show "no significant change"
# (exit 0), judged over the runs.
# The comparison on synthetic results is tests/t60_compare.sh.
source "$(dirname "$0")/../tests/lib.sh"

C=$RP_BIN/rcu_perf_compare
G=$RP_BIN/gp_throttle
FQS=/sys/module/rcutree/parameters
# The seed-sized slowdown: an FQS scan every 2 jiffies instead of every
# one makes idle GPs 8 -> 12 ms here (+50%; seed 000 was +39%).
LIVE_FQS=${RP_T60_FQS:-2}
tmp=$(mktemp -d /tmp/t60_compare_live.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
echo "TAP version 13"

# gp_throttle --quick, ~4 s a run on an idle machine: the idle latency of
# membarrier(MEMBARRIER_CMD_GLOBAL), where a delayed FQS scan shows (busy
# CPUs report quiescent states from the tick and hide it). With three runs
# or more the run is the unit: each run's median is one value (Welch's t,
# one run against several by Student's prediction interval). Idle GPs end
# on whole jiffies and a healthy run's median is 2 jiffies to 0.1%, so the
# live comparisons allow 10% at alpha 0.01 (two or three looks of
# --repeat; a healthy change of 10% is never seen): FQS every 2 jiffies
# is +50%, p < 1e-6 over three runs a side, and under 2 runs a side, with
# Welch's df near 1, p ~0.002. ~20 s in all. A machine that is never idle
# gives no idle samples: then the part is skipped.
LIVE_METRIC=gp_throttle.membarrier.idle.latency
LIVE_ARGS=(--metric "$LIVE_METRIC" --allow "$LIVE_METRIC=10" --set alpha=0.01)

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
	# Three rounds at least: three baseline runs for the next part
	# (Student's df 2 for one candidate run against them, not 1).
	live live_healthy_is_same 0 --repeat "$tmp/live_same" \
		--set repeat_min_rounds=3 \
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
		# One candidate run against the healthy ones may decide (a
		# regression needs no second look); an erratic candidate
		# (a run median of 24 ms once, after t53 freed its tree) is
		# what more rounds are for.
		live live_fqs_delay_is_regressed 1 --repeat "$tmp/live_fqs" \
			"${base[@]}" --set repeat_min_rounds=1 \
			--set repeat_max_rounds=4 --set repeat_budget=90 \
			--cand-cmd "$G --quick $slow"
	fi
	t_note "live part: $(($(date +%s) - start)) s"
	after=$(locked_snapshot)
	t_check "live_knobs_restored" test "$before" = "$after"
fi

echo "1..$T_N"
