#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernbench on a small generated tree (--quick: 60 C files, 2 runs per CPU
# count): the speedup and system share checks pass, the report is in the
# seed's format (per run and "Elapsed: ...s User: ...s System: ...s CPU:
# ...% [average of 2]" per CPU count) and the JSON has the runs. Then the
# real injections: jobs=1 (make -j1 at every CPU count) fails the speedup
# check (~0.5 per CPU), and a tiny system_share_max fails the system share
# check. The work directory is removed; bad input exits 2 with one line.
#
# Runs during which other tasks used the build's CPUs are left out of the
# speedup; if none is left the check is an error ("not judged"), and the
# run is retried, then skipped - a busy machine is no evidence.
source "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prog=$RP_BIN/kernbench
nr=8
echo "TAP version 13"
echo "1..$nr"
before=$(t_knob_snapshot)

results() {
	echo "speedup=$(ktap_result "$1" kernbench_speedup)" \
	     "system_share=$(ktap_result "$1" kernbench_system_share)"
}
busy() { grep -qE '^not ok [0-9]+ kernbench_speedup # error.*other tasks' "$1"; }

# run_settled LOG ARGS...: kernbench ARGS (KTAP to LOG, progress on stderr
# to LOG.err), again (up to 3 runs) while other tasks kept it from measuring.
run_settled() {
	local log=$1 try
	shift
	for try in 1 2 3; do
		"$prog" "$@" >"$log" 2>"$log.err"
		T_RC=$?
		t_show "$log"
		t_show "$log.err"
		busy "$log" || return 0
		t_note "run $try disturbed by other tasks; again"
	done
}

if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	for i in $(seq $nr); do t_skip "kernbench $i" "needs 2 CPUs"; done
	exit 0
fi

# 1. Healthy, quick.
mkdir "$tmp/work"
run_settled "$tmp/ok.log" --quick --workdir "$tmp/work" \
	--json "$tmp/ok.json"
if [ "$T_RC" = 4 ]; then
	why=$(grep -m1 -o '# SKIP.*' "$tmp/ok.log")
	for i in $(seq $nr); do t_skip "kernbench $i" "${why:-skipped}"; done
	exit 0
fi
t_note "healthy: $(results "$tmp/ok.log")"
if busy "$tmp/ok.log"; then
	t_skip "healthy: speedup and system share pass, exit 0" \
		"machine busy in 3 runs"
else
	t_check "healthy: speedup and system share pass, exit 0" eval \
		'test "$T_RC" = 0 &&
		 test "$(results "$tmp/ok.log")" = "speedup=pass system_share=pass"'
fi
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
	 grep -q "kernbench.n1.system" "$tmp/ok.json" && test -z "$(ls -A "$tmp/work")"'

# 2. make -j1 at every CPU count, and a system share limit of 1%.
run_settled "$tmp/inj.log" --quick --set jobs=1 \
	--set system_share_max=0.01
t_note "jobs=1, system_share_max=0.01: $(results "$tmp/inj.log")"
if busy "$tmp/inj.log"; then
	t_skip "jobs=1: speedup fails" "machine busy in 3 runs"
else
	t_check "jobs=1: speedup fails" eval \
		'test "$(ktap_result "$tmp/inj.log" kernbench_speedup)" = fail'
fi
t_check "system_share_max=0.01: system share fails, exit 1" eval \
	'test "$T_RC" = 1 &&
	 test "$(ktap_result "$tmp/inj.log" kernbench_system_share)" = fail'

# 3. The kernel-tree mode's plumbing, on a stand-in tree that records what
# it is asked: defconfig once into the O= directory, then per build an
# untimed clean and a timed "vmlinux" with -jN.
mkdir -p "$tmp/ktree" "$tmp/kwork"
touch "$tmp/ktree/Kbuild"
cat >"$tmp/ktree/Makefile" <<'EOF2'
defconfig clean vmlinux:
	@test -d "$(O)" && echo "$@ $(filter -j%,$(MAKEFLAGS))" >>"$(CALLS)"
	@if [ $@ = vmlinux ]; then sleep 0.2; fi
EOF2
CALLS=$tmp/calls KBUILD_TREE=$tmp/ktree t_run "$tmp/k.log" "$prog" --quick \
	--workdir "$tmp/kwork"
# warm-up at -j2, then 2 runs at -j1 and -j2, alternating
want="defconfig clean vmlinux -j2 clean vmlinux -j1 clean vmlinux -j2 clean vmlinux -j1 clean vmlinux -j2"
got=$(tr '\n' ' ' <"$tmp/calls" 2>/dev/null | sed 's/ *$//; s/  */ /g')
t_note "stand-in kernel tree was asked: $got"
[ "$got" = "$want" ] || t_note "expected: $want"
t_check "KBUILD_TREE: defconfig once (O=), clean + timed vmlinux -jN per run" eval \
	'test "$T_RC" = 0 -o "$T_RC" = 1 && test "$got" = "$want" &&
	 grep -q "^# tree: $tmp/ktree (kernel" "$tmp/k.log" && test -z "$(ls -A "$tmp/kwork")"'

# 4. Bad input: exit 2, one line each.
bad_ok=1
for args in "--tree $tmp" "--workdir /nonexistent" "--set runs=0" \
	    "--set includes=100000" "--no-such-option"; do
	# shellcheck disable=SC2086
	t_run "$tmp/bad.log" "$prog" $args
	if [ "$T_RC" != 2 ] || [ "$(wc -l <"$tmp/bad.log")" != 1 ]; then
		t_note "bad input '$args': exit $T_RC"
		bad_ok=0
	fi
done
KBUILD_TREE=/ t_run "$tmp/bad.log" "$prog"
[ "$T_RC" = 2 ] || bad_ok=0
t_check "not a kernel tree (--tree, KBUILD_TREE), bad settings: exit 2, one line" \
	test $bad_ok = 1
t_check "knobs as found" t_knobs_unchanged "$before"
