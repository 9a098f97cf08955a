#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The private trees of dcache_scaling (and kernbench) are guarded
# like knobs: gone after a SIGTERM mid-run, and after a SIGKILL removed by
# the next suite program.
#
# untimed: it judges removals, not verdicts (runs beside the kernel build)
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/t"
echo "TAP version 13"
echo "1..3"
if [ "$(id -u)" != 0 ]; then
	for i in 1 2 3; do t_skip "tmpdir guard $i" "needs root"; done
	exit 0
fi

# interrupt SIG LOG: start dcache_scaling, send SIG once it has made its
# tree (it may first wait for another rcu_perf run's lock); sets made, rc.
interrupt() {
	local i pid

	TMPDIR=$tmp/t "$RP_BIN/dcache_scaling" --quick >"$2" 2>&1 &
	pid=$!
	made=1
	for i in $(seq 600); do
		compgen -G "$tmp/t/dcache_scaling.*" >/dev/null && made=0 && break
		sleep 0.1
	done
	sleep 0.5
	kill "-$1" $pid
	wait $pid 2>/dev/null
	rc=$?
	t_show "$2"
}

interrupt TERM "$tmp/term.log"
left=$(ls "$tmp/t")
t_check "SIGTERM mid-run (exit $rc): its tree is removed" \
	test $made = 0 -a $rc = 143 -a -z "$left"

interrupt KILL "$tmp/kill.log"
left=$(ls "$tmp/t")
t_check "SIGKILL mid-run leaves its tree" test $made = 0 -a -n "$left"

t_run "$tmp/next.log" "$RP_BIN/boot_marker" --quick
# Whichever rcu_perf program takes the lock next repairs: with another run
# waiting for it too, that one may say so instead.
repaired() {
	grep -q "^# repaired: removed $tmp/t/dcache_scaling" "$tmp/next.log" ||
		t_note "the repair was not this run's: another took the lock first"
	[ -z "$(ls "$tmp/t")" ]
}
t_check "the next run removes it" repaired
