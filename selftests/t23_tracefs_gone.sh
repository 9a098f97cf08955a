#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tracefs unmounted under a running program by someone else: gp_throttle
# mounts /sys/kernel/tracing itself (nothing else has tracefs mounted),
# switches tracers, and the test unmounts /sys/kernel/tracing mid-run.
# Whether it then ends by itself, by SIGTERM, or by SIGKILL (and the next
# run repairs), current_tracer and tracing_on come back as found - the
# guard writes them through a private tracefs mount in its state dir -
# and no mount, private directory or state file is left.
#
# All of it happens in a private mount namespace (the unmount disturbs
# no one, the host's mounts are left as found by construction); tracefs
# itself is one instance, so what is restored is the host's real tracer.
# The test holds the suite's lock; its runs use a private state dir.
#
# untimed: it judges restores, not verdicts (runs beside the kernel build)
source "$(dirname "$0")/../tests/lib.sh"

nr=6
if [ -z "${RP_T23_NS:-}" ]; then
	if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
	   unshare -m --propagation private true 2>/dev/null; then
		RP_T23_NS=1 exec unshare -m --propagation private bash "$0" "$@"
	fi
	echo "TAP version 13"
	echo "1..$nr"
	for i in $(seq $nr); do
		t_skip "tracefs gone $i" "needs root and unshare -m"
	done
	exit 0
fi

echo "TAP version 13"
echo "1..$nr"
tmp=$(mktemp -d)
tfs=$tmp/tfs
mkdir "$tfs"
prog=$RP_BIN/gp_throttle
lockdir=${RCU_PERF_STATE_DIR:-/run/rcu_perf}
export RCU_PERF_STATE_DIR=$tmp/state
fast=(--set samples=10 --set min_samples=5 --set time_budget=20
      --set idle_busy_max=100)

# tracer [NAME=VALUE...]: read (or first write) the tracer files through
# a mount of our own, made only for that.
tracer() {
	local kv
	mount -t tracefs nodev "$tfs" || return 1
	for kv in "$@"; do echo "${kv#*=}" >"$tfs/${kv%%=*}"; done
	echo "current_tracer=$(cat "$tfs/current_tracer") tracing_on=$(cat "$tfs/tracing_on")"
	umount "$tfs"
}
cleanup() {
	# shellcheck disable=SC2086 # one NAME=VALUE a word
	[ -n "${orig:-}" ] && tracer $orig >/dev/null
	umount -l "$tfs" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# No tracefs anywhere in this namespace: the program mounts its own.
awk '$3 == "tracefs" { print $2 }' /proc/self/mounts | sort -r |
	while read -r m; do umount -l "$m"; done
mkdir -p "$lockdir"
exec {glock}>>"$lockdir/lock"
flock -w 600 $glock || t_note "could not take $lockdir/lock"
orig=$(tracer)
# From current_tracer=blk: gp_throttle leaves nop between its switches,
# so a restore that did not happen shows.
before=$(tracer current_tracer=blk)
t_note "before: $before"

# gone LOG HOW: gp_throttle until it switches tracers, then unmount its
# tracefs; HOW: "self" (let it end), TERM or KILL. Sets T_RC, mid.
gone() {
	local log=$1
	"$prog" --verbose "${fast[@]}" >"$log" 2>&1 &
	pid=$!
	t_wait_line "$log" '^tracer ' $pid
	mid=$(grep -c '^tracer ' "$log")
	umount -l /sys/kernel/tracing
	case $2 in
	self) ;;
	*) kill -"$2" $pid ;;
	esac
	wait $pid
	T_RC=$?
	t_show "$log" | grep -vE '^# [a-z]+ [a-z_]+ [0-9]+ [0-9.]+ ms$'
}

# as_found: tracer files as before, no mount, private dir or state file.
as_found() {
	local now left
	now=$(tracer)
	left=$({ grep -E " (/sys/kernel/tracing|$tmp)" /proc/self/mounts
		 compgen -G "$RCU_PERF_STATE_DIR/tracefs.*"
		 compgen -G "$RCU_PERF_STATE_DIR/state.*"; })
	[ "$now" = "$before" ] && [ -z "$left" ] && return 0
	t_note "now: $now"
	t_note "left: ${left//$'\n'/ }"
	return 1
}

# Left to end by itself, it exits with its verdicts (0, 1 or 4: which
# one is the machine's business here), not by a signal.
for how in self TERM; do
	gone "$tmp/$how.log" $how
	want="0 1 4"
	[ $how = TERM ] && want=143
	t_check "$how: it switched tracers ($mid), lost /sys/kernel/tracing, exit $T_RC (want $want)" \
		eval '[ "$mid" -gt 0 ] && [[ " $want " == *" $T_RC "* ]]'
	t_check "$how: current_tracer, tracing_on restored, nothing left" as_found
done

gone "$tmp/kill.log" KILL
t_note "after SIGKILL: $(tracer)"
t_check "KILL: it switched tracers ($mid), then lost /sys/kernel/tracing" \
	test "$mid" -gt 0 -a "$T_RC" = 137
t_run "$tmp/repair.log" "$RP_BIN/boot_marker" --quick
t_check "KILL: the next run repairs current_tracer, tracing_on; nothing left" \
	eval 'grep -q "^# repaired .*current_tracer = blk" "$tmp/repair.log" && as_found'
