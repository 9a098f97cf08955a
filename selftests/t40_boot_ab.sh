#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot_ab, the A/B boot-time tool. Bad input is a one-line error (exit 1)
# and a missing emulator a skip. Then real QEMU boots of Debian's cloud
# kernel ($RP_CLOUD_KERNEL, "make cloud-kernel") in virtual time (-icount):
# rcupdate.rcu_normal=1, which keeps grace periods normal while the kernel
# boots, is reported as a regression against the default boot (~+4.5%); an
# identical A/B as no significant change; a side B that panics where A
# boots as a FAIL; a boot that hangs as a SKIP, not a verdict. A boot in
# virtual time repeats exactly, so an identical A/B needs 2 boots a side,
# not 16: 16 icount boots (~11 s of CPU, ~14 s of QEMU each, two at a
# time) and 3 in real time (~8 s each), ~1.5 minutes on a quiet 2-CPU
# machine; a busy one slows the boots, not the results.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ab=$RP_BIN/boot_ab
kernel=${RP_CLOUD_KERNEL:-}
echo "TAP version 13"
echo "1..17"
before=$(t_knob_snapshot)
# No --quick from the environment: the tests set the number of boots.
unset RCU_PERF_QUICK KERNEL QEMU

# usage_error DESC ARGS...: exit 1, one line on stderr, nothing on stdout.
usage_error() { t_usage_error 1 "$1" "boot_ab: " "$ab" "${@:2}"; }

usage_error "unknown option" --bogus
usage_error "option without its value" --kernel
usage_error "unreadable kernel image" --kernel /nonexistent/vmlinuz
echo "not a kernel" >"$tmp/vmlinuz"
usage_error "runs=0" --set runs=0 --kernel "$tmp/vmlinuz"
usage_error "newline in a command line" --append-b $'a\nb'
usage_error "dynamically linked busybox" --busybox /bin/true
RCU_PERF_BOOT_TIMEOUT=soon usage_error "bad number in the environment"

# No emulator: a skip with the reason, exit 4.
t_run "$tmp/noqemu.log" env PATH=/nonexistent "$ab" --kernel "$tmp/vmlinuz" \
	--busybox /bin/busybox
t_check "no qemu-system-x86_64 in PATH: skip (exit 4)" \
	test "$T_RC" = 4 -a "$(ktap_result "$tmp/noqemu.log" boot_time_change)" = skip

live=$(t_qemu_missing "$kernel")
if [ -n "$live" ]; then
	for t in "B panics" "initramfs" "boot timeout" "regression" \
		 "identical" "icount" "json" "wall: a B panic" "knobs"; do
		t_skip "live: $t" "$live"
	done
	exit 0
fi
t_note "kernel: $(readlink -f "$kernel")"

# A side B that panics (no init, no root device) where A boots is a FAIL
# naming the boot; the logs stay.
t_run "$tmp/panic.log" "$ab" --kernel "$kernel" --set runs=1 \
	--append-b rdinit=/nonexistent --logdir "$tmp/panic"
panic_ok() {
	[ "$T_RC" = 1 ] && [ -s "$tmp/panic/boot-01-B.serial" ] &&
	[ "$(ktap_result "$tmp/panic.log" boot_time_change)" = fail ] &&
	grep -q 'boot 2 (B) panicked where A booted: .*Kernel panic' "$tmp/panic.log"
}
t_check "live: B panics where A boots: a FAIL naming the boot" panic_ok

# The initramfs generated in C is a valid newc archive with the guest init.
cpio -it <"$tmp/panic/initramfs.cpio" >"$tmp/cpio.txt" 2>/dev/null
t_check "live: initramfs: newc archive with init, busybox, console" \
	test "$(sort "$tmp/cpio.txt" | tr '\n' ' ')" = "bin bin/busybox dev dev/console init "

t_run "$tmp/timeout.log" "$ab" --kernel "$kernel" --set runs=1 --logdir "$tmp/to" \
	--set boot_timeout=2
timeout_ok() {
	[ "$T_RC" = 4 ] && grep -q 'timed out after 2 s' "$tmp/timeout.log" &&
	[ "$(ktap_result "$tmp/timeout.log" boot_time_change)" = skip ]
}
t_check "live: boot timeout: a SKIP, not a verdict" timeout_ok

# The injected regression: no expedited grace periods during boot. Each
# round's dither is another phase of the tick, the same one in every run:
# with Debian's 6.12.117 cloud kernel A took 1.570334, 1.566201, 1.522549
# and 1.570171 s, B 1.618-1.626 s: +3.33% (medians), p 0.011 (Welch).
runs=4
t_run "$tmp/reg.log" "$ab" --kernel "$kernel" --set runs=$runs \
	--json "$tmp/reg.json" --logdir "$tmp/reg"
reg_ok() {
	[ "$T_RC" = 1 ] && grep -q '^# verdict: regressed' "$tmp/reg.log" &&
	grep -q 'which, in percentage, is an\? [0-9.]*% regression' "$tmp/reg.log" &&
	[ "$(ktap_result "$tmp/reg.log" boot_time_change)" = fail ]
}
t_check "live: regression: rcupdate.rcu_normal=1 is slower (not ok, exit 1)" reg_ok

# Healthy: the same boot on both sides. With dithering each round is
# another phase of the tick (a spread of ~1.5%), and 16 rounds bound the
# change below allowed_change; without it every boot is the same boot,
# which repeats exactly: no variance, no change, for sure, after 2 rounds.
# That boot is round 1 of A above: its dither parameter, given to both
# sides, makes the same command line.
d1=$(grep -ao -m 1 'boot_ab\.dither=[0-9a-f]*' "$tmp/reg/boot-01-A.serial" 2>/dev/null)
t_run "$tmp/same.log" "$ab" --kernel "$kernel" --set runs=2 --set dither=0 \
	--append "$d1" --append-b "" --logdir "$tmp/same"
same_ok() {
	[ "$T_RC" = 0 ] && grep -q '^# verdict: no significant change' "$tmp/same.log" &&
	[ "$(ktap_result "$tmp/same.log" boot_time_change)" = pass ]
}
t_check "live: identical A/B: no significant change (ok, exit 0)" same_ok

# Virtual time is exact: round 1 of A in the regression run and the 4
# boots of the identical A/B (two runs, two boots at a time) took the same
# time and printed the same kernel log, every timestamp to the microsecond,
# whatever the host was doing; the three runs wrote the same initramfs.
boot_times() { sed -n 's/^# boot *[0-9]* [AB]: \([0-9.]*\) s .*/\1/p' "$1"; }
exact_ok() {
	local f
	[ -n "$d1" ] && [ "$(boot_times "$tmp/same.log" | wc -l)" = 4 ] &&
	[ "$( (boot_times "$tmp/reg.log" | head -n 1; boot_times "$tmp/same.log") |
	      sort -u | wc -l)" = 1 ] &&
	cmp -s "$tmp/panic/initramfs.cpio" "$tmp/same/initramfs.cpio" &&
	cmp -s "$tmp/reg/initramfs.cpio" "$tmp/same/initramfs.cpio" || return 1
	for f in "$tmp"/same/boot-0[12]-[AB].serial; do
		cmp -s "$tmp/reg/boot-01-A.serial" "$f" || return 1
	done
}
t_note "round 1 of A ($d1): $(boot_times "$tmp/reg.log" | head -n 1) s;" \
	"identical A/B: $(boot_times "$tmp/same.log" | tr '\n' ' ')s;" \
	"serial logs: $(md5sum "$tmp"/reg/boot-01-A.serial "$tmp"/same/boot-*.serial \
	2>/dev/null | cut -c1-12 | tr '\n' ' ')"
t_check "live: icount: the same boot takes the same time in every run" exact_ok

# Both sides' boot times in the results, readable by rcu_perf_compare.
"$RP_BIN/rcu_perf_compare" "$tmp/reg.json" >"$tmp/cmp.log" 2>&1
rc=$?
t_show "$tmp/cmp.log"
json_ok() {
	[ $rc = 0 ] && [ "$(grep -cE "^ +results +$runs " "$tmp/cmp.log")" = 2 ] &&
	grep -q '^boot_ab.a.time_to_user ' "$tmp/cmp.log" &&
	grep -q '^boot_ab.b.time_to_user ' "$tmp/cmp.log"
}
t_check "live: json: rcu_perf_compare reads both sides, $runs boots each" json_ok

# Wall-clock mode (KVM if it boots here, else TCG) boots A in real time.
# There a panic can be the emulator's (multi-threaded TCG and
# self-patching code): B is booted once more, and a panic that repeats
# is still a FAIL.
t_run "$tmp/wpanic.log" "$ab" --kernel "$kernel" --set runs=1 --wall \
	--append-b rdinit=/nonexistent --logdir "$tmp/wpanic"
wall_panic_ok() {
	[ "$T_RC" = 1 ] && grep -q '^# mode: wall clock' "$tmp/wpanic.log" &&
	[ -s "$tmp/wpanic/boot-01-A.serial" ] && [ -s "$tmp/wpanic/repeat-01-B.serial" ] &&
	grep -q '^# repeated: .*Kernel panic' "$tmp/wpanic.log" &&
	[ "$(ktap_result "$tmp/wpanic.log" boot_time_change)" = fail ]
}
t_check "live: wall: A boots in real time, a B panic that repeats is a FAIL" wall_panic_ok

t_check "live: knobs: kernel knobs as found" t_knobs_unchanged "$before"
