#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# soak.sh BIN [N]: the default suite (the programs of TEST_GEN_PROGS in
# BIN) N times back to back (default 20), then N times beside one CPU hog,
# then N times as an unprivileged user (nobody). Prints per phase and
# check the ok / FAIL / SKIP counts, per measured value (the "# check:
# measured X" lines) and per metric of the JSON results (each run's
# median) the mean and spread (coefficient of variation), and the kernel
# state (knobs, tracer, online CPUs) before and after, which must be
# equal. Logs and JSON stay in the directory printed at the end. Exit 1
# if the state changed or a program crashed (exit other than 0, 1, 4, or
# still running at kselftest's timeout).
#
# Meant for a quiet machine: "make soak N=20" on a shared one measures
# the others.

bin=${1:?usage: soak.sh BIN [N]}
n=${2:-20}
progs=(gp_throttle gp_expedited boot_marker dcache_scaling)
# kselftest's timeout of the suite (its settings file).
ksft_timeout=$(sed -n 's/^timeout=//p' "$bin/settings" 2>/dev/null ||
	sed -n 's/^timeout=//p' \
		"$(dirname "$0")/../tools/testing/selftests/rcu_perf/settings")
ksft_timeout=${ksft_timeout:-120}
knobs="/sys/kernel/rcu_expedited /sys/kernel/rcu_normal
/sys/module/rcutree/parameters/jiffies_till_first_fqs
/sys/module/rcutree/parameters/jiffies_till_next_fqs
/sys/devices/system/cpu/online
/sys/kernel/tracing/current_tracer /sys/kernel/tracing/tracing_on"
out=$(mktemp -d /tmp/rcu_perf_soak.XXXXXX)
chmod 755 "$out"
hog=
trap '[ -n "$hog" ] && kill $hog 2>/dev/null' EXIT

# The tracer read through a tracefs mount made for the purpose (mounted
# only while reading: the programs must find tracefs as a run would, and
# mount /sys/kernel/tracing themselves when it is not), and where tracefs
# is mounted: a program that mounted it must have unmounted it.
state() {
	local k tfs
	tfs=$(mktemp -d /tmp/rcu_perf_soak_tfs.XXXXXX)
	mount -t tracefs nodev "$tfs" 2>/dev/null || { rmdir "$tfs"; tfs=; }
	for k in $knobs; do
		case $k in
		/sys/kernel/tracing/*) [ -n "$tfs" ] && k=$tfs/${k##*/} ;;
		esac
		[ -r "$k" ] && echo "${k##*/}=$(cat "$k" 2>/dev/null)"
	done
	if [ -n "$tfs" ]; then
		umount "$tfs" 2>/dev/null || umount -l "$tfs"
		rmdir "$tfs"
	fi
	echo "tracefs_mounts=$(awk '$3 == "tracefs" { print $2 }' \
		/proc/self/mounts | tr '\n' ' ')"
}

crashes=0
# phase NAME [RUNNER...]: N rounds of every program.
phase() {
	local name=$1 i p rc
	shift
	mkdir -p "$out/$name"
	chmod 1777 "$out/$name"		# the JSON of user nobody
	for i in $(seq "$n"); do
		for p in "${progs[@]}"; do
			timeout "$ksft_timeout" "$@" "$bin/$p" \
				--json "$out/$name/$i-$p.json" \
				>"$out/$name/$i-$p.log" 2>&1
			rc=$?
			case $rc in
			0 | 1 | 4) ;;
			124) crashes=$((crashes + 1))
			     echo "$name $i $p: still running after $ksft_timeout s" >>"$out/crashes" ;;
			*) crashes=$((crashes + 1))
			   echo "$name $i $p: exit $rc" >>"$out/crashes" ;;
			esac
		done
		echo "  $name: round $i/$n done" >&2
	done
}

before=$(state)
echo "soak: N=$n, logs in $out" >&2
phase default
yes >/dev/null &
hog=$!
phase hog
kill $hog
hog=
phase unprivileged setpriv --reuid=65534 --regid=65534 --clear-groups
after=$(state)

# cv_table TITLE: "KEY VALUE" lines on stdin; per KEY the count, the mean
# and the coefficient of variation, sorted by KEY.
cv_table() {
	awk -v title="$1" '
	{ n[$1]++; sum[$1] += $2; sq[$1] += $2 * $2 }
	END {
		printf "%-44s %5s %12s %8s\n", title, "n", "mean", "CV"
		for (k in n) {
			mean = sum[k] / n[k]
			var = n[k] > 1 ? (sq[k] - n[k] * mean * mean) / (n[k] - 1) : 0
			cv = mean != 0 && var > 0 ? sqrt(var) / (mean < 0 ? -mean : mean) : 0
			printf "%-44s %5d %12.4g %7.1f%%\n", k, n[k], mean, 100 * cv | "sort"
		}
		close("sort")
	}'
}

for ph in default hog unprivileged; do
	echo "== $ph ($n runs of ${progs[*]})"
	cat "$out/$ph"/*.log | awk '
	/^ok [0-9]+ .*# SKIP/ { split($0, a, " "); c[a[3]]; s[a[3]]++; next }
	/^ok [0-9]+ / { c[$3]; ok[$3]++; next }
	/^not ok [0-9]+ / { c[$4]; f[$4]++; next }
	END {
		printf "%-44s %5s %5s %5s\n", "check", "ok", "FAIL", "SKIP"
		for (k in c)
			printf "%-44s %5d %5d %5d\n", k, ok[k], f[k], s[k] | "sort"
		close("sort")
	}'
	cat "$out/$ph"/*.log | awk '/^# [A-Za-z0-9_.]+: measured [-0-9.e+]+/ {
		print substr($2, 1, length($2) - 1), $4 + 0 }' |
		cv_table "measured (per check)"
	# Each metric's median in each run's JSON ("metrics": [{"name",
	# ..., "summary": {..., "median"}}], as lib/report.c writes it).
	awk '
	FNR == 1 { test = ""; inm = 0; cur = "" }
	/^  "test": / { test = $2; gsub(/[",]/, "", test) }
	/^  "metrics": \[/ { inm = 1; next }
	/^  []"]/ { inm = 0 }
	inm && /^      "name": / { cur = $2; gsub(/[",]/, "", cur) }
	inm && cur != "" && /^        "median": / {
		if ($2 !~ /^null/)	# no sample (a busy machine)
			print test "." cur, $2 + 0
		cur = ""
	}' "$out/$ph"/*.json 2>/dev/null | cv_table "metric (median per run)"
done
echo "== kernel state before: ${before//$'\n'/ }"
echo "== kernel state after:  ${after//$'\n'/ }"
[ "$crashes" = 0 ] || { echo "crashed runs: $crashes"; cat "$out/crashes"; }
echo "logs: $out"
[ "$before" = "$after" ] && [ "$crashes" = 0 ]
