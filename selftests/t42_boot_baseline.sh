#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot_marker against a baseline of earlier boots: Debian's cloud kernel
# ($RP_CLOUD_KERNEL) booted twice in instruction-counted QEMU guests
# (guest.sh --mode icount), which repeat a boot exactly, is the baseline.
# Another boot of the same kernel passes boot_time_to_user_vs_baseline;
# a slower one fails it, past baseline_change (1%): rcupdate.rcu_normal=1 (every grace period normal
# while the kernel boots) with initcall_debug (each initcall timed and
# logged), +4.3% here. rcu_normal=1 alone is too small to prove anything
# in a 1-vCPU guest, whose grace periods mostly end at once: +3.9%, +2.3%
# and -0.5% in three builds of the programs (any change to the initramfs
# moves the tick's phase by ~1.6%). Four boots, two at a time (virtual
# time does not mind a busy host), 25-120 s of host time each under TCG
# with -icount: 1-4 minutes. The baseline's own boots, with none, SKIP
# the check saying so.
# untimed: its guests' time is their instruction count, whatever the host
# does, so it runs beside the tests of tests/ once the kernel is fetched.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kernel=${RP_CLOUD_KERNEL:-}
guest=$RP_STATIC/guest.sh
check=boot_time_to_user_vs_baseline
echo "TAP version 13"
echo "1..6"
unset RCU_PERF_QUICK RCU_PERF_BASELINE QEMU

# boot NAME [guest.sh options]: one icount boot running boot_marker only
boot() {
	local name=$1
	shift
	nice -n 10 "$guest" --kernel "$kernel" --mode icount --bindir "$RP_STATIC" \
		--outdir "$tmp/$name" "$@" -- boot_marker >"$tmp/$name.log" 2>&1
	echo $? >"$tmp/$name.rc"
}
# marker NAME: the boot's time to user space, as boot_marker found it
marker() { sed -n 's/^# marker_time_s: //p' "$tmp/$1/boot_marker.ktap" 2>/dev/null; }

t_wait_background || t_note "the background failed: the cloud kernel may be missing"
missing=$(t_qemu_missing "$kernel")
[ -n "$missing" ] || [ -x "$guest" ] || missing="no static suite (make static)"
if [ -n "$missing" ]; then
	for d in "baseline boots" "the baseline's boots repeat" "bad --baseline" \
		 "repeat boot passes" "slower boot fails" "no baseline: SKIP"; do
		t_skip "$d" "$missing"
	done
	exit 0
fi

# 1-2. Two boots of the known-good kernel: the baseline. In virtual time
# they are one boot twice, to the microsecond of the marker. Two are
# enough: their spread is nil, and so is a repeat's distance from them.
mkdir -p "$tmp/base"
ok=1 times=""
boot base/run-1 &
boot base/run-2
wait
for i in 1 2; do
	if [ "$(cat "$tmp/base/run-$i.rc")" != 0 ] || [ -z "$(marker base/run-$i)" ] ||
	   [ ! -f "$tmp/base/run-$i/boot_marker.json" ]; then
		ok=0
		t_show "$tmp/base/run-$i.log"
	fi
	times+=" $(marker base/run-$i)"
	rm -f "$tmp/base/run-$i.rc" "$tmp/base/run-$i.log"
done
t_note "baseline: time to user space$times s"
t_check "baseline: two icount boots with results" test $ok = 1
# shellcheck disable=SC2086 # one word per boot
t_check "baseline: the two boots repeat exactly" \
	test $ok = 1 -a "$(printf '%s\n' $times | sort -u | wc -l)" = 1

# 3. guest.sh refuses a baseline that is not a directory.
t_run "$tmp/bad.log" "$guest" --kernel "$kernel" --outdir "$tmp/bad" \
	--baseline "$tmp/nonexistent" -- boot_marker
t_check "guest.sh --baseline of no directory: exit 2, one line" \
	test "$T_RC" = 2 -a "$(wc -l <"$tmp/bad.log")" = 1

# 4-6. The same kernel again, and a slower boot of it.
boot again --baseline "$tmp/base" &
boot normal --baseline "$tmp/base" --append "rcupdate.rcu_normal=1 initcall_debug"
wait
for r in again normal; do
	t_note "$r: $(grep -h -e "^# $check" -e '^# baseline: ' "$tmp/$r/boot_marker.ktap" 2>/dev/null |
		tr '\n' ' ')"
done
t_check "repeat boot: $check against 2 boots passes" \
	eval 'test "$(ktap_result "$tmp/again/boot_marker.ktap" "$check")" = pass &&
	      test "$(cat "$tmp/again/boot_marker.rc")" = 0 &&
	      grep -q "# baseline: /rcu_perf/baseline (RCU_PERF_BASELINE): 2 runs" \
		"$tmp/again/boot_marker.ktap"'
# the change in % worse, from "# <check>: measured +X % worse ..."
change=$(sed -n "s/^# $check: measured \([-+0-9.e]*\) % worse.*/\1/p" \
	"$tmp/normal/boot_marker.ktap" 2>/dev/null)
t_note "slower boot: $(marker normal) s, ${change:-?} % slower than the baseline"
t_check "rcu_normal=1 initcall_debug: $check fails (> 1% slower)" \
	awk -v c="${change:-x}" -v v="$(ktap_result "$tmp/normal/boot_marker.ktap" "$check")" \
	-v rc="$(cat "$tmp/normal/boot_marker.rc" 2>/dev/null)" \
	'BEGIN { exit !(c ~ /[0-9]/ && c > 1 && v == "fail" && rc == 1) }'
t_check "the baseline's boots, with none: $check SKIPs saying so" \
	grep -q "^ok 1 $check # SKIP no baseline" "$tmp/base/run-1/boot_marker.ktap"
