#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The proofs catch a broken check. Every limit can be set from the
# environment (RCU_PERF_<NAME>, read by every program a proof starts), so
# a check whose limit is raised out of reach (1e300) is a check that
# cannot fail. Run with that, a proof script must say `not ok` to exactly
# the proofs that the check FAILs under an injected regression, and keep
# the rest: t30 with the three gp_expedited limits out of reach
# (rcu_normal=1 must FAIL the three checks; t30's guests do not inherit
# the environment, so they are not booted), t20 with gp_throttle's
# mean_slack and pace_slack out of reach (the FQS=50, FQS=3x and first-FQS
# +1 proofs of the idle means and the idle pace; RP_T20_PROOFS_ONLY leaves
# out its proofs beside a CPU hog and of bad input). Both: ~25 s.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
here=$(dirname "$0")
echo "TAP version 13"
echo "1..2"

if [ "$(id -u)" != 0 ] || [ "$(nproc)" -lt 2 ]; then
	t_skip "gp_expedited limits out of reach" "needs root and 2 CPUs"
	t_skip "gp_throttle mean_slack and pace_slack out of reach" "needs root and 2 CPUs"
	exit 0
fi

# broken DESC SCRIPT WANT ENV...: SCRIPT run with ENV says `not ok` to the
# proofs WANT (their descriptions, one a line) and to nothing else.
broken() {
	local d=$1 script=$2 want=$3 got
	shift 3
	env "$@" bash "$here/$script" >"$tmp/out" 2>&1
	t_show "$tmp/out"
	got=$(sed -n 's/^not ok [0-9]* //p' "$tmp/out")
	t_note "not ok: ${got//$'\n'/; }"
	t_check "$d: exactly the FAIL proofs of the broken checks say not ok" \
		test "$got" = "$want"
}

broken "gp_expedited limits out of reach" t30_gp_expedited.sh \
	"rcu_normal=1: expedited_gp_ratio fails, exit 1
rcu_normal=1: expedited_gp_wakeups fails
rcu_normal=1: expedited_gp_ipis fails" \
	RCU_PERF_EXPEDITED_RATIO=1e300 RCU_PERF_EXPEDITED_WAKEUPS=1e300 \
	RCU_PERF_EXPEDITED_IPIS=1e300

broken "gp_throttle mean_slack and pace_slack out of reach" t20_gp_throttle.sh \
	"fqs=50: membarrier idle mean fails, exit 1
fqs=50: every idle check FAILs
fqs=3x default: membarrier idle mean fails, exit 1
fqs first +1 jiffy: the tracer idle mean fails
fqs first +1 jiffy: the membarrier idle pace fails" \
	RCU_PERF_MEAN_SLACK=1e300 RCU_PERF_PACE_SLACK=1e300 RP_T20_PROOFS_ONLY=1
