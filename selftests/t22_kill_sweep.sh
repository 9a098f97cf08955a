#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kill sweep of the programs with children, trees and hotplug:
# kernbench (a generated tree built by make) and dcache_scaling with a CPU
# offlined by --knob each get SIGINT, SIGTERM and SIGKILL at a random
# point of their run (KILL_SWEEP=N rounds, default 1; "make killsweep"
# runs more). Each runs in a session of its own; afterwards (after a
# SIGKILL: after the next run's repair) the knobs, current_tracer,
# tracing_on and online CPUs are as found, no process of its session is
# left (make, compilers), no temporary tree, file or state file is left
# and no mount was added.
#
# Like t21_guard_live.sh, the test holds the suite's lock throughout and
# its runs use a private state dir (and lock), so that the SIGKILL repair
# is its own and no other suite program changes knobs meanwhile.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
lockdir=${RCU_PERF_STATE_DIR:-/run/rcu_perf}
export RCU_PERF_STATE_DIR=$tmp/state
rounds=${KILL_SWEEP:-1}
progs=(kernbench dcache_hotplug)
nr=$((rounds * ${#progs[@]} * 3))
echo "TAP version 13"
echo "1..$nr"
unset RCU_PERF_QUICK

if [ "$(id -u)" != 0 ]; then
	for i in $(seq $nr); do t_skip "kill sweep $i" "needs root"; done
	exit 0
fi
t_tracefs_mount

# What must be as found: knobs, the tracer through our own mount (the
# programs mount and unmount /sys/kernel/tracing), and the mounts where the
# programs mount (tracefs, the temporary trees, the state dir).
state() {
	t_live_state
	awk -v t="$tmp" '$2 == "/sys/kernel/tracing" || index($2, t) == 1 {
		print "mount " $2 " " $3 }' /proc/self/mounts
}
cleanup() {
	t_tracefs_umount
	rm -rf "$tmp"
}
trap cleanup EXIT

mkdir -p "$lockdir" "$tmp/t"
exec {glock}>>"$lockdir/lock"
flock -w 600 $glock || t_note "could not take $lockdir/lock"
before=$(state)
t_note "before: ${before//$'\n'/ }"

# The span (s) of each program's run in which the signal comes (a random
# point of it).
declare -A span=([kernbench]=8 [dcache_hotplug]=5)
# dcache_hotplug offlines a CPU: the last online one that can go offline.
hotplug_file='' hotplug_missing="no CPU can go offline"
for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
	[ -w "$f" ] && [ "$(cat "$f")" = 1 ] && hotplug_file=$f hotplug_missing=
done

# left SID: what is left of a run: processes of its session, temporary
# trees, state files; nothing when all is gone.
left() {
	pgrep -s "$1" -a
	compgen -G "$tmp/t/*"
	compgen -G "$RCU_PERF_STATE_DIR/state.*"
	compgen -G "$RCU_PERF_STATE_DIR/tracefs.*"
}

# settle SID: wait up to 2 s for its processes to go (SIGKILLed by the
# kernel or the guard, they need no more), then print what is left.
settle() {
	local i
	for i in $(seq 20); do
		pgrep -s "$1" >/dev/null || break
		sleep 0.1
	done
	left "$1"
}

leaks=0 runs=0
for r in $(seq "$rounds"); do
	for p in "${progs[@]}"; do
		for sig in INT TERM KILL; do
			desc="sweep $r: $p SIG$sig"
			why=
			case $p in
			kernbench)
				cmd=("$RP_BIN/kernbench" --quick) ;;
			dcache_hotplug)
				cmd=("$RP_BIN/dcache_scaling" --quick
				     --knob "$hotplug_file=0")
				why=$hotplug_missing ;;
			esac
			if [ -n "$why" ]; then
				t_skip "$desc" "$why"
				continue
			fi
			delay=$(awk -v r=$RANDOM -v m="${span[$p]}" \
				'BEGIN { printf "%.1f", 0.3 + m * r / 32768 }')
			log=$tmp/$p-$sig-$r.log
			# Its own session (pid = session id): its children too.
			TMPDIR=$tmp/t setsid env --default-signal=INT \
				"${cmd[@]}" >"$log" 2>&1 &
			pid=$!
			sleep "$delay"
			kill -"$sig" $pid 2>/dev/null
			wait $pid 2>/dev/null
			rc=$?
			runs=$((runs + 1))
			repaired=
			leftover=
			if [ "$sig" = KILL ]; then
				# dcache_scaling's workers die with it; a
				# build lives until the next suite program
				# repairs.
				settle $pid >/dev/null
				[ "$p" = kernbench ] ||
					leftover=$(pgrep -s $pid -a)
				"$RP_BIN/boot_marker" --quick >"$log.repair" 2>&1
				repaired=" (repaired: $(grep -c '^# repaired' "$log.repair") lines)"
			fi
			leftover+=$(settle $pid)
			if [ -z "$leftover" ] && [ "$(state)" = "$before" ]; then
				t_ok "$desc after $delay s (exit $rc): all as found$repaired"
				continue
			fi
			leaks=$((leaks + 1))
			t_show "$log"
			[ -e "$log.repair" ] && t_show "$log.repair"
			diff <(echo "$before") <(state) | sed 's/^/# changed: /'
			t_note "left: ${leftover//$'\n'/ }"
			t_fail "$desc after $delay s (exit $rc): all as found$repaired"
			# shellcheck disable=SC2046 # one pid a word
			kill -KILL $(pgrep -s $pid) 2>/dev/null
			rm -rf "${tmp:?}"/t/* "$RCU_PERF_STATE_DIR"/state.*
		done
	done
done
t_note "kill sweep: $runs runs killed, $leaks left something"
