#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot_marker: this boot's marker is found in /dev/kmsg, agrees with what
# dmesg shows, and its time goes to the JSON; without a baseline the check
# SKIPs saying how to judge it, and so it does against a directory with no
# results (t42 and t76 FAIL it: boots 3-4% slower against earlier ones); saved
# logs (--log) of other shapes are parsed, a log without any marker is a
# SKIP (exit 4) with the reason, so is a malformed one (naming the line); --parse
# prints "<seconds> <marker>" for scripts (the A/B boot tool's contract).
# It only reads, so it never waits for another run's lock.
#
# untimed: it reads the boot log (runs beside the kernel build)
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prog=$RP_BIN/boot_marker
check=boot_time_to_user_vs_baseline
echo "TAP version 13"
echo "1..13"
# Only what this program may change: other programs running meanwhile
# (under the rcu_perf lock) may change the tracer or the FQS delays.
RP_KNOBS="/sys/kernel/rcu_expedited /sys/kernel/rcu_normal"
before=$(t_knob_snapshot)

# 1-3. This boot.
t_run "$tmp/boot.log" "$prog" --json "$tmp/boot.json"
if ! grep -q "^# marker: " "$tmp/boot.log"; then
	t_skip "this boot's marker" "$(grep -m1 -o 'SKIP.*' "$tmp/boot.log")"
	t_skip "this boot's marker agrees with dmesg" "no marker in this boot's log"
	t_skip "a baseline without results" "no marker in this boot's log"
else
	t_check "this boot: marker found, no baseline: the check SKIPs saying so, exit 4" \
		eval 'test "$T_RC" = 4 && ktap_valid "$tmp/boot.log" &&
		      test "$(ktap_result "$tmp/boot.log" $check)" = skip &&
		      grep -q "^ok 1 $check # SKIP no baseline: .*--baseline" "$tmp/boot.log" &&
		      grep -q "^# marker: " "$tmp/boot.log" &&
		      grep -q "^# rcu_boot_params: " "$tmp/boot.log" &&
		      grep -q "boot.time_to_user" "$tmp/boot.json"'
	# dmesg is an independent reader of the same buffer
	got=$("$prog" --parse)
	want=$(dmesg 2>/dev/null | sed -n \
		's/^\[ *\([0-9.]*\)\] Write protecting the kernel read-only data:.*/\1/p' |
		head -n 1)
	t_note "--parse: '$got', dmesg: '$want'"
	if [ -n "$want" ]; then
		t_check "this boot's marker agrees with dmesg" \
			test "$got" = "$want Write protecting the kernel read-only data"
	else
		t_skip "this boot's marker agrees with dmesg" "dmesg shows no x86 marker"
	fi
	mkdir "$tmp/nobase"
	t_run "$tmp/nobase.log" "$prog" --baseline "$tmp/nobase"
	t_check "a baseline without results: the check SKIPs naming it, exit 4" \
		eval 'test "$T_RC" = 4 &&
		      grep -q "^ok 1 $check # SKIP .*no boot_marker results in $tmp/nobase" "$tmp/nobase.log"'
fi

# 4-5. Saved logs: a serial capture of an x86 guest and an arm64 dmesg.
printf '\033c\033[2JSeaBIOS (version 1.16.3)\r\nBooting from ROM..\r\r\n%s\r\n%s\r\n%s\r\n%s\r\n%s' \
	'[    0.000000] Kernel command line: console=ttyS0 rcupdate.rcu_expedited=1' \
	'[    0.210000] rcu: 	All grace periods are expedited (rcu_expedited).' \
	'[    0.431000] Freeing unused kernel image (initmem) memory: 3728K' \
	$'\033[0m[    0.431200] Write protecting the kernel read-only data: 32768k' \
	'[    0.439000] Run /init as init process' >"$tmp/serial.txt"
t_run "$tmp/serial.log" "$prog" --log "$tmp/serial.txt"
t_check "--log serial capture: marker, time and RCU boot parameters" \
	eval 'test "$T_RC" = 4 &&
	      grep -q "^# marker_time_s: 0.431200" "$tmp/serial.log" &&
	      grep -q "^# rcu_boot_params: rcupdate.rcu_expedited=1\$" "$tmp/serial.log" &&
	      grep -q "^# rcu_boot_announce: All grace periods are expedited" "$tmp/serial.log"'
printf '%s\n' '[    1.812345] Freeing unused kernel memory: 9984K' \
	'[    1.812500] Run /init as init process' >"$tmp/arm64.txt"
# A reader does not wait for the lock: it runs while another run holds it.
mkdir -m 700 "$tmp/state"
exec {lk}>>"$tmp/state/lock"
flock $lk
RCU_PERF_STATE_DIR=$tmp/state RCU_PERF_LOCK_TIMEOUT=1 \
	t_run "$tmp/locked.log" "$prog" --log "$tmp/serial.txt"
exec {lk}>&-
t_check "another run holds the lock: it does not wait, exit 4 (no baseline)" \
	eval 'test "$T_RC" = 4 && ! grep -q "waiting for" "$tmp/locked.log"'
got=$("$prog" --parse --log - <"$tmp/arm64.txt")
t_check "--parse --log - (stdin): arm64 fallback marker" \
	test "$got" = "1.812345 Freeing unused kernel memory"

# 6-7. No marker at all: SKIP with the reason, from both modes.
printf '%s\n' '[    0.000000] Linux version 6.12.9' \
	'[    0.100000] rcu: Hierarchical RCU implementation.' >"$tmp/none.txt"
t_run "$tmp/none.log" "$prog" --log "$tmp/none.txt"
t_check "log without a marker: SKIP exit 4 with the reason" \
	eval 'test "$T_RC" = 4 && grep -q "^ok 1 .*# SKIP .*no boot marker" "$tmp/none.log"'
"$prog" --parse --log "$tmp/none.txt" >"$tmp/none.out" 2>"$tmp/none.err"
r=$?
t_check "--parse without a marker: exit 4, reason on stderr" \
	eval 'test $r = 4 -a ! -s "$tmp/none.out" && grep -q "no boot marker" "$tmp/none.err"'

# 8-9. Malformed timestamps: a clear reason, never a verdict (SKIP).
printf '%s\n' '[    0.44x800] Write protecting the kernel read-only data: 32768k' \
	>"$tmp/bad.txt"
t_run "$tmp/bad.log" "$prog" --log "$tmp/bad.txt"
t_check "malformed timestamp: skip naming the line, exit 4" \
	eval 'test "$T_RC" = 4 && ktap_valid "$tmp/bad.log" &&
	      test "$(ktap_result "$tmp/bad.log" $check)" = skip &&
	      grep -q "line 1: malformed timestamp" "$tmp/bad.log"'
"$prog" --parse --log "$tmp/bad.txt" >/dev/null 2>"$tmp/bad.err"
r=$?
t_check "--parse malformed: exit 1, one line on stderr" \
	eval 'test $r = 1 -a "$(wc -l <"$tmp/bad.err")" = 1'

# 10-12. Garbage and bad input: no crash, clear errors.
head -c 200000 /dev/urandom >"$tmp/random.bin"
"$prog" --parse --log "$tmp/random.bin" >/dev/null 2>&1
r=$?
t_check "random bytes: exit 4 or 1, no crash (exit $r)" test $r = 4 -o $r = 1
t_run "$tmp/nofile.log" "$prog" --log "$tmp/does-not-exist"
t_check "unreadable --log: skip naming the file, exit 4" \
	eval 'test "$T_RC" = 4 && grep -q "cannot read .*does-not-exist" "$tmp/nofile.log"'
t_run "$tmp/opt.log" "$prog" --log
r1=$T_RC
t_run "$tmp/opt2.log" "$prog" --parse --bogus
t_check "bad options: exit 1; knobs untouched" \
	eval 'test "$r1" = 1 -a "$T_RC" = 1 && t_knobs_unchanged "$before"'
