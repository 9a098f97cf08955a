#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dcache_scaling on the running kernel. Healthy: the rcu-walk and
# lockref-bound workloads pass their efficiency limits and the control
# (renames in one directory) is seen not to scale. Each check is then
# made to fail for real:
# - efficiency: the program runs in a cgroup with a CFS bandwidth limit of
#   one CPU, so that the pinned workers of N=2 get one CPU's time between
#   them - the effect of a lookup path that serializes. Every efficiency
#   check fails (~0.5 or less) while the control stays non-scaling, so the
#   verdict is a failure, not an error.
# - control: --control stat_private puts a scaling op in the control's
#   place: the guard reports an error (never a pass) and the efficiency
#   checks are not judged.
# - baseline: an absurd baseline_stat_ops fails the single-CPU check; the
#   healthy run's own 1-CPU throughput (minus 10%) passes it.
# The opt-in hotplug sweep offlines CPU 1 for N=1 and brings it back. Every
# run leaves the knobs (CPUs online) as found and removes its tree; bad
# input exits 2 with one line.
#
# Samples during which other tasks used the workers' CPUs are re-taken and,
# when the machine never quiets down, reported as errors ("not judged"):
# such a run is retried, then skipped - a busy machine is no evidence.
source "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
cg=""
cleanup() {
	[ -n "$cg" ] && rmdir "$cg" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
prog=$RP_BIN/dcache_scaling
# Re-takes of disturbed samples end sooner than by default: a busy machine
# is retried as a whole, then skipped.
export RCU_PERF_QUICK_TIME_BUDGET=8
effs="stat_private_efficiency stat_shared_efficiency negative_efficiency
open_shared_efficiency dotdot_symlink_efficiency"
nr=11
echo "TAP version 13"
echo "1..$nr"
before=$(t_knob_snapshot)

# results LOG: "check=result ..." of the seven checks.
results() {
	local c
	for c in control_not_scaling $effs single_cpu_vs_baseline; do
		echo -n "$c=$(ktap_result "$1" "$c") "
	done
}

# count LOG RESULT: how many efficiency checks have RESULT (pass, fail,
# error, skip; negative lookups skip where the tree is on tmpfs).
count() {
	local c n=0
	for c in $effs; do [ "$(ktap_result "$1" "$c")" = "$2" ] && n=$((n + 1)); done
	echo $n
}

# busy LOG: the run could not measure for other tasks on the CPUs.
busy() { grep -qE '^not ok [0-9]+ .*# error.*other tasks used' "$1"; }

# run_settled LOG ARGS...: dcache_scaling ARGS, again (up to 3 runs) while
# other tasks kept it from measuring.
run_settled() {
	local log=$1 try
	shift
	for try in 1 2 3; do
		t_run "$log" "$@"
		busy "$log" || return 0
		t_note "run $try disturbed by other tasks; again"
	done
}

nproc=$(getconf _NPROCESSORS_ONLN)
if [ "$(id -u)" != 0 ] || [ "$nproc" -lt 2 ]; then
	for i in $(seq $nr); do t_skip "dcache_scaling $i" "needs root and 2 CPUs"; done
	exit 0
fi

# 1. Healthy.
mkdir "$tmp/tree"
run_settled "$tmp/ok.log" "$prog" --dir "$tmp/tree" --json "$tmp/ok.json" \
	--set time_budget=15
t_note "healthy: $(results "$tmp/ok.log")"
if busy "$tmp/ok.log"; then
	t_skip "healthy: efficiencies pass, control does not scale, exit 0" \
		"machine busy in 3 runs"
else
	t_check "healthy: efficiencies pass, control does not scale, exit 0" eval \
		'test "$T_RC" = 0 && test $(($(count "$tmp/ok.log" pass) +
		 $(count "$tmp/ok.log" skip))) = 5 && test "$(count "$tmp/ok.log" skip)" -le 1 &&
		 test "$(ktap_result "$tmp/ok.log" control_not_scaling)" = pass &&
		 test "$(ktap_result "$tmp/ok.log" single_cpu_vs_baseline)" = skip'
fi
# json_ok: the JSON has every point's ops/s; efficiencies and counters per
# op where a point was measured (all of them unless the machine was busy).
json_ok() {
	grep -q '"stat_private.n1.ops"' "$tmp/ok.json" &&
		grep -q '"rename.n2.ops"' "$tmp/ok.json" || return 1
	busy "$tmp/ok.log" && return 0
	grep -q '"rename.n2.efficiency"' "$tmp/ok.json" &&
		grep -q '"sched_switch"' "$tmp/ok.json"
}
t_check "KTAP well-formed (plan 1..7), JSON has ops/s, efficiency, counters" eval \
	'ktap_valid "$tmp/ok.log" && grep -qx "1..7" "$tmp/ok.log" && json_ok'
t_check "tree removed, knobs as found" eval \
	'test -z "$(ls -A "$tmp/tree")" && t_knobs_unchanged "$before"'

# 2. One CPU of bandwidth for the whole program: no parallelism at N=2.
# make_cg DIR CMD...: create the cgroup DIR and run CMD to limit it; on
# failure nothing is left and cg is empty.
make_cg() {
	cg=$1
	shift
	mkdir "$cg" 2>/dev/null || { cg=""; return; }
	"$@" 2>/dev/null || { rmdir "$cg"; cg=""; }
}
if [ -w /sys/fs/cgroup/cpu/cgroup.procs ] && [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
	make_cg /sys/fs/cgroup/cpu/rcu_perf_t50.$$ eval \
		'echo 20000 >"$cg/cpu.cfs_period_us" && echo 20000 >"$cg/cpu.cfs_quota_us"'
else
	for d in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		grep -qw cpu "$d/cgroup.subtree_control" 2>/dev/null || continue
		make_cg "$d/rcu_perf_t50.$$" eval 'echo "20000 20000" >"$cg/cpu.max"'
		break
	done
fi
if [ -z "$cg" ]; then
	t_skip "1-CPU quota: every efficiency check fails, control still passes" \
		"no CFS bandwidth control (cpu cgroup) here"
else
	# Throttled workers look like disturbed ones to the harness (their CPU
	# time arrives in bursts): here the contention is the point.
	run_settled "$tmp/quota.log" bash -c \
		'echo $$ >"$1/cgroup.procs" && exec "$2" --quick --set max_disturbance=0.5' \
		_ "$cg" "$prog"
	t_note "1-CPU quota: $(results "$tmp/quota.log")"
	if busy "$tmp/quota.log"; then
		t_skip "1-CPU quota: every efficiency check fails, control still passes" \
			"machine busy in 3 runs"
	else
		t_check "1-CPU quota: every efficiency check fails, control still passes" eval \
			'test "$T_RC" = 1 &&
			 test "$(ktap_result "$tmp/quota.log" control_not_scaling)" = pass &&
			 test $(($(count "$tmp/quota.log" fail) + $(count "$tmp/quota.log" skip))) = 5 &&
			 test "$(count "$tmp/quota.log" skip)" -le 1'
	fi
	rmdir "$cg" 2>/dev/null
	cg=""
fi

# 3. A scaling op as the control: an error, never a pass.
run_settled "$tmp/ctl.log" "$prog" --quick --control stat_private
t_note "scaling control: $(results "$tmp/ctl.log")"
if busy "$tmp/ctl.log"; then
	t_skip "scaling control: guard errors, efficiencies not judged, exit 1" \
		"machine busy in 3 runs"
else
	t_check "scaling control: guard errors, efficiencies not judged, exit 1" eval \
		'test "$T_RC" = 1 &&
		 grep -qE "^not ok 1 control_not_scaling # error control stat_private scales" "$tmp/ctl.log" &&
		 test $(($(count "$tmp/ctl.log" error) + $(count "$tmp/ctl.log" skip))) = 5 &&
		 test "$(count "$tmp/ctl.log" skip)" -le 1'
fi

# 4. Baseline of the single-CPU throughput (max_cpus=1: 1 CPU only, the
# scaling checks skip).
base=$(sed -n 's/^# stat_private N=1: \([0-9.e+]*\) ops\/s.*/\1/p' "$tmp/ok.log")
if [ -z "$base" ]; then
	t_skip "baseline: 90% of the healthy 1-CPU ops/s passes" "no healthy number"
else
	base=$(awk -v b="$base" 'BEGIN { printf "%.0f", b * 0.9 }')
	run_settled "$tmp/base.log" "$prog" --quick --set max_cpus=1 \
		--set baseline_stat_ops="$base"
	t_check "baseline: 90% of the healthy 1-CPU ops/s passes" eval \
		'test "$T_RC" = 0 &&
		 test "$(ktap_result "$tmp/base.log" single_cpu_vs_baseline)" = pass &&
		 test "$(ktap_result "$tmp/base.log" stat_private_efficiency)" = skip'
fi
run_settled "$tmp/absurd.log" "$prog" --quick --set max_cpus=1 \
	--set baseline_stat_ops=1e12
t_check "baseline: an absurd 1e12 ops/s fails it, exit 1" eval \
	'test "$T_RC" = 1 &&
	 test "$(ktap_result "$tmp/absurd.log" single_cpu_vs_baseline)" = fail'

# 5. The opt-in hotplug sweep: UP, then both CPUs; CPU 1 back online.
if [ ! -w /sys/devices/system/cpu/cpu1/online ]; then
	t_skip "hotplug sweep: N=1 with one CPU online, all back after" \
		"CPU 1 cannot go offline"
else
	t_run "$tmp/hp.log" "$prog" --quick --set hotplug_sweep=1
	t_check "hotplug sweep: N=1 with one CPU online, all back after" eval \
		'test "$T_RC" = 0 -o "$T_RC" = 1 &&
		 grep -q "^# hotplug: 1 CPU(s) online" "$tmp/hp.log" &&
		 grep -q "^# hotplug: $nproc CPU(s) online" "$tmp/hp.log" &&
		 ktap_valid "$tmp/hp.log" && t_knobs_unchanged "$before"'
fi

# 6. Bad input: exit 2, one line.
bad_ok=1
for args in "--control nosuch" "--set depth=3" "--dir /nonexistent" \
	    "--set reps=0" "--set no_such_param=1"; do
	# shellcheck disable=SC2086
	t_run "$tmp/bad.log" "$prog" $args
	if [ "$T_RC" != 2 ] || [ "$(wc -l <"$tmp/bad.log")" != 1 ]; then
		t_note "bad input '$args': exit $T_RC"
		bad_ok=0
	fi
done
t_check "bad --control, depth, --dir, reps, name: exit 2, one line each" \
	test $bad_ok = 1
listed() {
	local p
	for p in control_efficiency_max ${effs//_efficiency/_efficiency_min} \
		 baseline_ratio_min baseline_stat_ops hotplug_sweep; do
		grep -q "^$p " "$tmp/list.log" || return 1
	done
}
t_run "$tmp/list.log" "$prog" --list
t_check "--list names every limit and the baseline" eval \
	'test "$T_RC" = 0 && listed'
t_check "every run left the knobs and CPUs as found" t_knobs_unchanged "$before"
