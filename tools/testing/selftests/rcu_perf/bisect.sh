#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect.sh: the "git bisect run" helper of rcu_perf.
#
#   bisect.sh --baseline PATH [options] -- CMD [ARGS...]
#
# Runs CMD on the kernel under test: a suite program, or any command that
# writes rcu_perf results to the file named by $RCU_PERF_JSON (every suite
# program does). Its
# results are compared with the stored results of a good kernel (PATH: a
# results file or a directory of them) by rcu_perf_compare, and CMD is run
# again while the verdict is inconclusive, up to --runs times. Exit status,
# as "git bisect run" wants it:
#
#   0    good: no metric regressed beyond its allowed change
#   1    bad: a metric regressed, significantly and beyond its allowed change
#   125  skip: still inconclusive after --runs runs, or CMD skipped (exit 4)
#   128  abort the bisection: bad usage or input, or CMD failed; a broken
#        setup must not mark commits bad
#
# Options:
#   --baseline PATH     stored good results (repeatable; required)
#   --runs N            at most N runs of CMD (default 5)
#   --min-runs N        at least N runs of CMD (default 2)
#   --budget SECONDS    no new run after this long (default 1800)
#   --metric GLOB       judge only matching <test>.<metric> (repeatable)
#   --allow GLOB=PCT    allowed change of matching metrics (repeatable)
#   --set NAME=VALUE    a parameter of rcu_perf_compare (repeatable)
#   --keep DIR          keep the runs in DIR (default: a temporary dir)
#   --compare PROG      rcu_perf_compare to use (default: beside this script)

usage() {
	sed -n '3,/^$/s/^# \{0,1\}//p' "$0"
}

# One line, whatever the arguments quoted in it hold.
die() {
	local msg="$*"
	echo "bisect.sh: ${msg//$'\n'/\\n}" >&2
	exit 128
}

here=$(cd "$(dirname "$0")" && pwd)
compare=$here/rcu_perf_compare
runs=5
min_runs=2
budget=1800
keep=
cargs=()
have_base=0

# need "$@": the option in $1 has a value, of one line (which
# rcu_perf_compare's messages can quote on one line).
need() {
	[ $# -ge 2 ] || die "option $1 needs a value"
	[[ $2 != *$'\n'* ]] || die "option $1: a newline in '$2'"
}
# whole OPT VALUE: VALUE is 1..999999999 (more digits would overflow the
# shell's arithmetic, and a test error there must not read as a verdict).
whole() {
	if ! [[ $2 =~ ^[0-9]{1,9}$ ]] || ((10#$2 < 1)); then
		die "$1 $2: expected a whole number 1..999999999"
	fi
}

while [ $# -gt 0 ]; do
	case $1 in
	--baseline)
		need "$@"
		[ -e "$2" ] || die "--baseline '$2': no such file or directory"
		cargs+=(--base "$2"); have_base=1; shift ;;
	--runs) need "$@"; whole "$1" "$2"; runs=$((10#$2)); shift ;;
	--min-runs) need "$@"; whole "$1" "$2"; min_runs=$((10#$2)); shift ;;
	--budget) need "$@"; whole "$1" "$2"; budget=$((10#$2)); shift ;;
	--metric|--allow|--set) need "$@"; cargs+=("$1" "$2"); shift ;;
	--keep) need "$@"; keep=$2; shift ;;
	--compare) need "$@"; compare=$2; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done
[ -n "${1:-}" ] || die "no command to run (bisect.sh --baseline PATH -- CMD...)"
[ "$have_base" = 1 ] || die "no --baseline PATH of a good kernel"
[ -x "$compare" ] || die "$compare: not found (build the suite, or --compare PROG)"
[ "$min_runs" -le "$runs" ] || min_runs=$runs

# CMD as one shell word list: every argument single-quoted.
cmd=
for a in "$@"; do
	cmd="$cmd '${a//\'/\'\\\'\'}'"
done

if [ -n "$keep" ]; then
	dir=$keep
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/rcu_perf_bisect.XXXXXX" 2>/dev/null) ||
		die "cannot create a directory in ${TMPDIR:-/tmp}"
	trap 'rm -rf "$dir"' EXIT
fi

"$compare" --repeat "$dir" --cand-cmd "$cmd" "${cargs[@]}" \
	--set repeat_max_rounds="$runs" --set repeat_min_rounds="$min_runs" \
	--set repeat_budget="$budget"
rc=$?
case $rc in
0) echo "bisect.sh: good" ;;
1) echo "bisect.sh: bad (regressed)" ;;
3) echo "bisect.sh: skip (inconclusive after the allowed runs)"; rc=125 ;;
4) echo "bisect.sh: skip (the command skipped)"; rc=125 ;;
*) echo "bisect.sh: abort (rcu_perf_compare exit $rc)"; rc=128 ;;
esac
exit $rc
