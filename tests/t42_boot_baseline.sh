#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot_marker against a baseline of earlier boots: Debian's cloud kernel
# ($RP_CLOUD_KERNEL) booted six times in instruction-counted QEMU guests
# (guest.sh --mode icount) is the baseline; another boot of the same
# kernel never FAILs boot.time_to_user_vs_baseline, and one with
# rcupdate.rcu_normal=1 (every grace period normal while the kernel boots)
# is judged by its change: FAIL when past
# baseline_change (1%) and significant, SKIP naming the MDE when the
# baseline's boots spread too much to tell a single boot's change (the
# marker moves by whole jiffies with the phase of the tick: one boot in
# six 2.5% early here), never a PASS past the limit. In these guests
# rcu_normal=1 cost +0.8% (3 jiffies) in one boot, boot_ab's dithered
# medians ~4.5%. The 60 s budget passes both by far. Nine boots, two at a
# time: ~5-10 minutes on a busy host.
source "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kernel=${RP_CLOUD_KERNEL:-}
guest=$RP_STATIC/guest.sh
check=boot.time_to_user_vs_baseline
echo "TAP version 13"
echo "1..5"
unset RCU_PERF_QUICK RCU_PERF_BASELINE QEMU

# boot NAME [guest.sh options]: one icount boot running boot_marker only
boot() {
	local name=$1
	shift
	nice -n 10 "$guest" --kernel "$kernel" --mode icount --bindir "$RP_STATIC" \
		--outdir "$tmp/$name" "$@" -- boot_marker >"$tmp/$name.log" 2>&1
	echo $? >"$tmp/$name.rc"
}

missing=$(t_qemu_missing "$kernel")
[ -n "$missing" ] || [ -x "$guest" ] || missing="no static suite (make static)"
if [ -n "$missing" ]; then
	for d in "baseline boots" "bad --baseline" "repeat boot passes" \
		 "rcu_normal=1 boot fails" "budget still passes"; do
		t_skip "$d" "$missing"
	done
	exit 0
fi

# 1. Six boots of the known-good kernel: the baseline.
mkdir -p "$tmp/base"
for i in 1 3 5; do boot base/run-$i & boot base/run-$((i + 1)) & wait; done
ok=1
for i in 1 2 3 4 5 6; do
	if [ "$(cat "$tmp/base/run-$i.rc")" != 0 ] ||
	   [ ! -f "$tmp/base/run-$i/boot_marker.json" ]; then
		ok=0
		t_show "$tmp/base/run-$i.log"
	fi
	rm -f "$tmp/base/run-$i.rc" "$tmp/base/run-$i.log"
done
t_check "baseline: six icount boots with results" test $ok = 1
grep -h '^# marker_time_s' "$tmp"/base/run-*/boot_marker.ktap | sed 's/^/# baseline /'

# 2. guest.sh refuses a baseline that is not a directory.
t_run "$tmp/bad.log" "$guest" --kernel "$kernel" --outdir "$tmp/bad" \
	--baseline "$tmp/nonexistent" -- boot_marker
t_check "guest.sh --baseline of no directory: exit 2, one line" \
	test "$T_RC" = 2 -a "$(wc -l <"$tmp/bad.log")" = 1

# 3-5. The same kernel again, and with rcupdate.rcu_normal=1.
boot again --baseline "$tmp/base" &
boot normal --baseline "$tmp/base" --append rcupdate.rcu_normal=1 &
wait
for r in again normal; do
	t_note "$r: $(grep -h -e '^# marker_time_s' -e "^# $check" "$tmp/$r/boot_marker.ktap" 2>/dev/null |
		tr '\n' ' ')"
done
t_check "repeat boot: $check judged against 6 boots, does not fail" \
	eval 'test "$(ktap_result "$tmp/again/boot_marker.ktap" "$check")" != fail &&
	      grep -q "# baseline: /rcu_perf/baseline (RCU_PERF_BASELINE): 6 runs" \
		"$tmp/again/boot_marker.ktap"'
# the change in % worse, from "# <check>: measured +X % worse ..."
change=$(sed -n "s/^# $check: measured \([-+0-9.e]*\) % worse.*/\1/p" \
	"$tmp/normal/boot_marker.ktap" 2>/dev/null)
verdict=$(ktap_result "$tmp/normal/boot_marker.ktap" "$check")
t_note "rcu_normal=1: ${change:-?} % slower, $verdict"
case $verdict in
skip)	t_skip "rcupdate.rcu_normal=1: judged by its change" \
		"$(grep -m1 -o 'too noisy.*' "$tmp/normal/boot_marker.ktap")" ;;
*)	t_check "rcupdate.rcu_normal=1: judged by its change" \
		awk -v c="${change:-x}" -v v="$verdict" -v rc="$(cat "$tmp/normal/boot_marker.rc")" \
		'BEGIN { exit !(c ~ /[0-9]/ && (v == "fail" ? c > 1 && rc == 1 : v == "pass" && c <= 1)) }' ;;
esac
t_check "rcupdate.rcu_normal=1: the 60 s budget alone would pass" \
	test "$(ktap_result "$tmp/normal/boot_marker.ktap" boot_time_to_user)" = pass
