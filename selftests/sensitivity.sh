#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sensitivity.sh BIN [N]: how often each check FAILs a graded injected
# regression, and how often it FAILs a healthy kernel (make sensitivity).
# For each injection, N default runs (default 10) of the program that
# judges it, each with and without a baseline of three healthy runs
# recorded first; then rcu_perf_compare on three runs against three:
# 2N random splits of the healthy runs against each other (a false alarm
# is exit 1, anything but exit 0 misses the target) and of the FQS 1 -> 2
# runs against healthy ones (exit 1 is a detection). Prints one row per
# injection and check: FAIL / ok / SKIP counts without and with the
# baseline. dcache_scaling's one-CPU rates (healthy: false alarms;
# locked_1cpu: a small per-lookup cost) are judged against a baseline
# only. The knobs go through the programs' guard (--knob): the kernel
# is left as found. Meant for a quiet machine: ~13 minutes at N=10.
#
# An injection whose name ends in _hog runs beside a busy loop on the last
# online CPU (another task's load: gp_throttle then judges one busy CPU).
# ONLY=REGEX (make sensitivity ONLY=...) runs only the injections whose
# name or program matches, e.g. ONLY='^(healthy|fqs_first_1_2)$' N=20 or
# ONLY=dcache_scaling.
#
# The expedited path a few times slower, which no knob makes, is the test
# kernel exp-select-slow of make kernels: its rate is in t76
# (instruction-counted guests repeat it exactly, every boot).

bin=${1:?usage: sensitivity.sh BIN [N]}
n=${2:-10}
fqs=/sys/module/rcutree/parameters
out=$(mktemp -d /tmp/rcu_perf_sensitivity.XXXXXX)
chmod 755 "$out"

[ "$(id -u)" = 0 ] || { echo "sensitivity: needs root" >&2; exit 2; }
[ "$(cat $fqs/jiffies_till_first_fqs)" = 1 ] ||
	{ echo "sensitivity: needs FQS scans every jiffy (HZ <= 250)" >&2; exit 2; }

# The injections: name, program, its arguments. dcache_scaling's are its
# one-CPU rates against the baseline (its scaling checks need 2 CPUs and
# SKIP at one); locked_1cpu takes an uncontended spinlock around every
# lookup, the size of a small per-lookup cost.
one_cpu="--quick --set max_cpus=1"
inj=(
	"healthy|gp_throttle|"
	"fqs_first_1_2|gp_throttle|--knob $fqs/jiffies_till_first_fqs=2"
	"fqs_both_1_2|gp_throttle|--knob $fqs/jiffies_till_first_fqs=2 --knob $fqs/jiffies_till_next_fqs=2"
	"fqs_both_1_3|gp_throttle|--knob $fqs/jiffies_till_first_fqs=3 --knob $fqs/jiffies_till_next_fqs=3"
	"healthy_hog|gp_throttle|"
	"fqs_first_1_2_hog|gp_throttle|--knob $fqs/jiffies_till_first_fqs=2"
	"healthy|gp_expedited|"
	"rcu_normal|gp_expedited|--knob /sys/kernel/rcu_normal=1"
	"healthy|dcache_scaling|$one_cpu"
	"locked_1cpu|dcache_scaling|$one_cpu --set serialize_lookups=1"
)
only=${ONLY:-.}
keep=()
for e in "${inj[@]}"; do
	IFS='|' read -r name p _ <<<"$e"
	[[ $name =~ $only || $p =~ $only ]] && keep+=("$e")
done
inj=("${keep[@]}")
hog_cpu=$(tr ',' '\n' </sys/devices/system/cpu/online | tail -n 1 | sed 's/.*-//')

# The baselines: three healthy runs of each program (with its healthy
# injection's arguments), the programs in turn, so that a program's runs
# are apart as make baseline's are (a lookup rate drifts between runs).
progs=$(for e in "${inj[@]}"; do IFS='|' read -r _ p _ <<<"$e"; echo "$p"; done | sort -u)
for i in 1 2 3; do
	for p in $progs; do
		args=$(for e in "${inj[@]}"; do [[ $e == "healthy|$p|"* ]] && echo "${e#*|*|}"; done)
		# shellcheck disable=SC2086 # args are words
		"$bin/$p" --baseline none $args --json "$out/base-$p/run-$i/$p.json" \
			>"$out/base-$p-$i.log" 2>&1
	done
done

# run NAME PROG ARGS: N runs without a baseline, N with one.
for e in "${inj[@]}"; do
	IFS='|' read -r name p args <<<"$e"
	hog=
	if [[ $name == *_hog ]]; then
		taskset -c "$hog_cpu" sh -c 'while :; do :; done' &
		hog=$!
	fi
	for i in $(seq "$n"); do
		# shellcheck disable=SC2086 # args are words
		"$bin/$p" --baseline none $args \
			--json "$out/$name-$p/run-$i/$p.json" >"$out/$name-$p-nb-$i.log" 2>&1
		# shellcheck disable=SC2086
		"$bin/$p" --baseline "$out/base-$p" $args \
			>"$out/$name-$p-b-$i.log" 2>&1
	done
	[ -n "$hog" ] && kill "$hog" && wait "$hog" 2>/dev/null
	echo "# $name ($p): $n + $n runs done" >&2
done

# verdicts FILES...: "check verdict" of every top-level KTAP result.
verdicts() {
	awk '/^(not )?ok [0-9]+ / {
		v = /^not ok/ ? "FAIL" : / # SKIP/ ? "SKIP" : "ok"
		c = /^not ok/ ? $4 : $3
		print c, v }' "$@"
}

echo
echo "Detection and false-alarm rates, $n runs each ($(uname -r), $(nproc) CPUs):"
printf '%-14s %-13s %-40s %-16s %s\n' injection program check \
	"no baseline" "3-run baseline"
for e in "${inj[@]}"; do
	IFS='|' read -r name p _ <<<"$e"
	{ verdicts "$out/$name-$p"-nb-*.log | sed 's/^/nb /'
	  verdicts "$out/$name-$p"-b-*.log | sed 's/^/b /'; } |
	awk -v inj="$name" -v prog="$p" '
		{ k = $2; n[$1, k, $3]++; seen[k] = 1 }
		END {
			for (k in seen) {
				a = sprintf("%d/%d/%d", n["nb", k, "FAIL"], n["nb", k, "ok"], n["nb", k, "SKIP"])
				b = sprintf("%d/%d/%d", n["b", k, "FAIL"], n["b", k, "ok"], n["b", k, "SKIP"])
				printf "%-14s %-13s %-40s %-16s %s\n", inj, prog, k, a, b
			}
		}' | sort -k3
done
echo "(FAIL/ok/SKIP; a check only with a baseline has 0/0/0 without one)"

# rcu_perf_compare, three runs against three, random splits.
if [ ! -d "$out/healthy-gp_throttle" ] || [ ! -d "$out/fqs_both_1_2-gp_throttle" ]; then
	echo "logs: $out (rcu_perf_compare: needs the healthy and fqs_both_1_2 runs)"
	exit 0
fi
C=$bin/rcu_perf_compare
M=gp_throttle.membarrier.idle.latency
healthy=("$out/healthy-gp_throttle"/run-*/gp_throttle.json "$out/base-gp_throttle"/run-*/gp_throttle.json)
split() { printf '%s\n' "$@" | shuf; }
same=(0 0 0 0) slow=(0 0 0 0)
for t in $(seq $((2 * n))); do
	mapfile -t h < <(split "${healthy[@]}")
	"$C" "${h[@]:0:3}" -- "${h[@]:3:3}" >"$out/cmp-same-$t.log" 2>&1
	r=$?
	[ $r -le 3 ] && same[$r]=$((same[$r] + 1))
	mapfile -t f < <(split "$out/fqs_both_1_2-gp_throttle"/run-*/gp_throttle.json)
	"$C" "${h[@]:0:3}" -- "${f[@]:0:3}" >"$out/cmp-slow-$t.log" 2>&1
	r=$?
	[ $r -le 3 ] && slow[$r]=$((slow[$r] + 1))
done
echo
echo "rcu_perf_compare, 3 runs vs 3 (all metrics; exit 0 / 1 / 3), $((2 * n)) random splits:"
echo "  healthy vs healthy:      ${same[0]} / ${same[1]} / ${same[3]}"
echo "  healthy vs FQS 1 -> 2:   ${slow[0]} / ${slow[1]} / ${slow[3]}"
echo "  $M in the FQS splits: $(cat "$out"/cmp-slow-*.log |
	grep -A4 "^$M " | grep -c ': regressed$') of $((2 * n)) regressed"
echo "logs: $out"
