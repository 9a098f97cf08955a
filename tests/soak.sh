#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# soak.sh BIN [N]: the default suite (the programs of TEST_GEN_PROGS in
# BIN) N times back to back (default 20), then N times beside one CPU hog,
# then N times as an unprivileged user (nobody). Prints per phase and
# check the ok / FAIL / SKIP counts, per measured value (the "# check:
# measured X" lines) its mean and spread (coefficient of variation), and
# the kernel state (knobs, tracer, online CPUs) before and after, which
# must be equal. Logs stay in the directory printed at the end. Exit 1
# if the state changed or a program crashed (exit other than 0, 1, 4).
#
# Meant for a quiet machine: "make soak N=20" on a shared one measures
# the others.

bin=${1:?usage: soak.sh BIN [N]}
n=${2:-20}
progs=(gp_throttle gp_expedited boot_marker dcache_scaling)
knobs="/sys/kernel/rcu_expedited /sys/kernel/rcu_normal
/sys/module/rcutree/parameters/jiffies_till_first_fqs
/sys/module/rcutree/parameters/jiffies_till_next_fqs
/sys/devices/system/cpu/online
/sys/kernel/tracing/current_tracer /sys/kernel/tracing/tracing_on"
out=$(mktemp -d /tmp/rcu_perf_soak.XXXXXX)
chmod 755 "$out"
hog=
trap '[ -n "$hog" ] && kill $hog 2>/dev/null' EXIT

# tracefs through a private mount: the programs mount and unmount
# /sys/kernel/tracing themselves.
tfs=$(mktemp -d /tmp/rcu_perf_soak_tfs.XXXXXX)
mount -t tracefs nodev "$tfs" 2>/dev/null || { rmdir "$tfs"; tfs=; }
state() {
	local k
	for k in $knobs; do
		case $k in
		/sys/kernel/tracing/*) [ -n "$tfs" ] && k=$tfs/${k##*/} ;;
		esac
		[ -r "$k" ] && echo "${k##*/}=$(cat "$k" 2>/dev/null)"
	done
}

crashes=0
# phase NAME [RUNNER...]: N rounds of every program.
phase() {
	local name=$1 i p rc
	shift
	mkdir -p "$out/$name"
	for i in $(seq "$n"); do
		for p in "${progs[@]}"; do
			"$@" "$bin/$p" >"$out/$name/$i-$p.log" 2>&1
			rc=$?
			case $rc in
			0 | 1 | 4) ;;
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

for ph in default hog unprivileged; do
	echo "== $ph ($n runs of ${progs[*]})"
	cat "$out/$ph"/*.log | awk '
	/^ok [0-9]+ .*# SKIP/ { split($0, a, " "); c[a[3]]; s[a[3]]++; next }
	/^ok [0-9]+ / { c[$3]; ok[$3]++; next }
	/^not ok [0-9]+ / { c[$4]; f[$4]++; next }
	/^# [A-Za-z0-9_.]+: measured [-0-9.e+]+/ {
		m = substr($2, 1, length($2) - 1); v = $4 + 0
		nm[m]++; sum[m] += v; sq[m] += v * v
	}
	END {
		printf "%-34s %5s %5s %5s\n", "check", "ok", "FAIL", "SKIP"
		for (k in c)
			printf "%-34s %5d %5d %5d\n", k, ok[k], f[k], s[k] | "sort"
		close("sort")
		printf "%-34s %5s %12s %8s\n", "measured", "n", "mean", "CV"
		for (k in nm) {
			mean = sum[k] / nm[k]
			var = nm[k] > 1 ? (sq[k] - nm[k] * mean * mean) / (nm[k] - 1) : 0
			cv = mean != 0 && var > 0 ? sqrt(var) / (mean < 0 ? -mean : mean) : 0
			printf "%-34s %5d %12.4g %7.1f%%\n", k, nm[k], mean, 100 * cv | "sort"
		}
		close("sort")
	}'
done
echo "== kernel state before: ${before//$'\n'/ }"
echo "== kernel state after:  ${after//$'\n'/ }"
if [ -n "$tfs" ]; then
	umount "$tfs" 2>/dev/null || umount -l "$tfs"
	rmdir "$tfs"
fi
[ "$crashes" = 0 ] || { echo "crashed runs: $crashes"; cat "$out/crashes"; }
echo "logs: $out"
[ "$before" = "$after" ] && [ "$crashes" = 0 ]
