#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The unit tests and one --quick run of each program that needs no QEMU,
# built with gcc's AddressSanitizer and UndefinedBehaviorSanitizer ("make
# asan", $RP_ASAN_BIN and $RP_ASAN_TESTS): no sanitizer report, and a
# normal exit. A program's verdicts are not judged here (on a busy
# machine they SKIP): exit 0, 1 or 4 all count, a sanitizer's own exit
# codes (97, 98) or a signal do not.
#
# untimed: any exit 0, 1 or 4 counts (runs beside the kernel build)
source "$(dirname "$0")/../tests/lib.sh"

: "${RP_ASAN_BIN:?run through make check}"
: "${RP_ASAN_TESTS:?}"
tmp=$(mktemp -d /tmp/t05_sanitizers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=halt_on_error=1:exitcode=97:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:exitcode=98:print_stacktrace=1

units=("$RP_ASAN_TESTS"/test_*)
progs=(gp_throttle gp_expedited boot_marker dcache_scaling)
echo "TAP version 13"
echo "1..$((${#units[@]} + ${#progs[@]} + 2))"

# clean LOG: no sanitizer report in LOG.
clean() {
	! grep -qE 'runtime error|AddressSanitizer|LeakSanitizer' "$1"
}

reports=0
for u in "${units[@]}"; do
	name=$(basename "$u")
	"$u" >"$tmp/$name.log" 2>&1
	rc=$?
	clean "$tmp/$name.log" || reports=$((reports + 1))
	# a report or a failed case: show which
	if [ $rc != 0 ] || ! clean "$tmp/$name.log"; then
		t_show "$tmp/$name.log"
	fi
	t_check "$name under ASan+UBSan: exit $rc, no report" \
		eval 'test $rc = 0 && clean "$tmp/$name.log"'
done

before=$(t_knob_snapshot)
for p in "${progs[@]}"; do
	t_run "$tmp/$p.log" "$RP_ASAN_BIN/$p" --quick
	clean "$tmp/$p.log" || reports=$((reports + 1))
	t_check "$p --quick under ASan+UBSan: exit $T_RC, no report" \
		eval 'case $T_RC in 0|1|4) clean "$tmp/$p.log" ;; *) false ;; esac'
done

# rcu_perf_compare on canned input: two synthetic results files each side.
for s in base cand; do
	mkdir "$tmp/$s"
	for i in 1 2; do
		awk -f "$(dirname "$0")/../tests/synth_results.awk" -v test=gp_throttle \
			-v metrics="a.latency b.latency" -v n=20 -v mean=10 \
			-v sd=0.5 -v seed="$i$s" >"$tmp/$s/r$i.json"
	done
done
t_run "$tmp/compare.log" "$RP_ASAN_BIN/rcu_perf_compare" \
	--kcidb "$tmp/kcidb.json" --origin rcu_perf_ci \
	--build-id rcu_perf_ci:asan "$tmp/base" -- "$tmp/cand"
clean "$tmp/compare.log" || reports=$((reports + 1))
t_check "rcu_perf_compare under ASan+UBSan: exit $T_RC, no report" \
	eval 'case $T_RC in 0|1|3|4) clean "$tmp/compare.log" ;; *) false ;; esac'
t_note "sanitizer reports: $reports"
t_check "the sanitized runs left the knobs as found" t_knobs_unchanged "$before"
