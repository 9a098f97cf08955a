#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernbench on a small generated tree (--quick: 60 C files, 2 runs per CPU
# count), asserting what holds on any machine, never a measured value: a
# healthy run judges its speedup ok, exit 0 (a quiet 2-CPU machine always
# judges it), the report is in the seed's format (per run
# and "Elapsed: ...s User: ...s System: ...s CPU: ...% [average of 2]" per
# CPU count) and the JSON has the runs and the control. The injection:
# jobs=1 (make -j1 at every CPU count) FAILs the speedup check (serial
# fraction ~1). The work directory is removed; bad input exits 1 with one
# line. A run the machine kept from judging is retried, up to three runs;
# a proof still unjudged then FAILs, saying so.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prog=$RP_BIN/kernbench
nr=6
echo "TAP version 13"
echo "1..$nr"
before=$(t_knob_snapshot)

results() {
	echo "speedup=$(ktap_result "$1" kernbench_speedup)" \
	     "$(grep -m1 '^# parallel control: lowest' "$1")"
}

# run_until LOG COND ARGS...: kernbench ARGS (KTAP to LOG, progress on
# stderr to LOG.err), again (up to 3 runs) while COND LOG fails and the
# machine was busy.
run_until() {
	local log=$1 cond=$2 try
	shift 2
	for try in 1 2 3; do
		"$prog" "$@" >"$log" 2>"$log.err"
		T_RC=$?
		t_show "$log"
		t_show "$log.err"
		$cond "$log" && return 0
		t_busy "$log" || return 1
		t_note "run $try disturbed by other tasks; again"
	done
	return 1
}

if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	for i in $(seq $nr); do t_skip "kernbench $i" "needs 2 CPUs"; done
	exit 0
fi

# 1. Healthy, quick: the speedup judged ok, nothing else failed.
speedup_ok() {
	test "$T_RC" = 0 && ! grep -q "^not ok" "$1" &&
		test "$(ktap_result "$1" kernbench_speedup)" = pass
}
mkdir "$tmp/work"
run_until "$tmp/ok.log" speedup_ok --quick --workdir "$tmp/work" --json "$tmp/ok.json"
# Nothing built (no make or compiler): the whole test skips.
if [ "$T_RC" = 4 ] && ! grep -q '^# CPU counts:' "$tmp/ok.log"; then
	why=$(grep -m1 -o '# SKIP.*' "$tmp/ok.log")
	for i in $(seq $nr); do t_skip "kernbench $i" "${why:-skipped}"; done
	exit 0
fi
t_note "healthy: $(results "$tmp/ok.log")"
t_check "healthy: speedup judged ok, no 'not ok', exit 0" speedup_ok "$tmp/ok.log"
# seed_format LOG: a line per run and the seed's average line per CPU count.
seed_format() {
	local num='[0-9]+\.[0-9]{3}' n
	grep -qE "^# 1 CPU\(s\) run 2: real [0-9.]+s user [0-9.]+s sys [0-9.]+s CPU [0-9]+%" "$1" ||
		return 1
	for n in 1 2; do
		grep -qE "^# $n CPU\(s\): Elapsed: ${num}s User: ${num}s System: ${num}s CPU: [0-9]+\.[0-9]% \[average of 2\]\$" \
			"$1" || return 1
	done
}
t_check "report in the seed's format: per run, and the average per CPU count" \
	seed_format "$tmp/ok.log"
t_check "KTAP well-formed, progress on stderr, JSON has the runs, work dir removed" eval \
	'ktap_valid "$tmp/ok.log" && grep -q "^kernbench: 2 CPU(s), make -j2, run 2/2" "$tmp/ok.log.err" && grep -q "kernbench.n2.elapsed" "$tmp/ok.json" &&
	 grep -q "kernbench.n1.system" "$tmp/ok.json" &&
	 grep -q "kernbench.n2.control_efficiency" "$tmp/ok.json" && test -z "$(ls -A "$tmp/work")"'

# 2. make -j1 at every CPU count: the speedup FAILs.
j1_failed() {
	test "$T_RC" = 1 && test "$(ktap_result "$1" kernbench_speedup)" = fail
}
if run_until "$tmp/inj.log" j1_failed --quick --set jobs=1; then
	t_note "jobs=1: $(results "$tmp/inj.log")"
	t_ok "jobs=1: speedup FAILs, exit 1"
else
	t_busy "$tmp/inj.log" && t_note "could not prove it: machine busy in 3 runs"
	t_note "jobs=1: $(results "$tmp/inj.log")"
	t_fail "jobs=1: speedup FAILs, exit 1"
fi

# 3. Bad input: exit 1, one line each.
t_check "bad --workdir, bad settings: exit 1, one line each" \
	t_bad_args "$prog" "--workdir /nonexistent" "--set runs=0" \
	"--set includes=100000" "--no-such-option"
t_check "knobs as found" t_knobs_unchanged "$before"
