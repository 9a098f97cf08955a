#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh OUT SECONDS [--tap]: run every harness built in OUT for SECONDS
# each, starting from tests/fuzz/corpus/<harness>/ (new inputs go to
# OUT/corpus/<harness>, crashes to OUT/crashes/). Prints per harness the
# executions, coverage and crashes; with --tap, as TAP results. Exit 1 if
# any harness crashed: keep the input in corpus/ and fix the library.

out=$1 secs=$2 tap=$3
src=$(cd "$(dirname "$0")" && pwd)
crashes=0 n=0
harnesses=()
# A harness left from a removed fuzz_*.c does not count.
for h in "$out"/fuzz_*; do
	[ -f "$h" ] && [ -x "$h" ] && [ -f "$src/${h##*/}.c" ] && harnesses+=("$h")
done
# No harness built is a failure of the build, not zero passes.
if [ ${#harnesses[@]} = 0 ]; then
	[ "$tap" = --tap ] && printf 'TAP version 13\n1..1\nnot ok 1 no fuzz harness in %s\n' "$out" ||
		echo "no fuzz harness in $out (make fuzz-build)" >&2
	exit 1
fi
[ "$tap" = --tap ] && echo "TAP version 13" && echo "1..${#harnesses[@]}"
mkdir -p "$out/crashes" "$out/logs"
for h in "${harnesses[@]}"; do
	name=$(basename "$h")
	n=$((n + 1))
	mkdir -p "$out/corpus/$name"
	log=$out/logs/$name.log
	# stdout/stderr of the code under test closed: the parsers complain.
	"$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 \
		-close_fd_mask=3 -print_final_stats=1 \
		-artifact_prefix="$out/crashes/$name-" \
		"$out/corpus/$name" "$src/corpus/$name" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
	line="$name: ${execs:-0} execs in $secs s, ${cov:-no coverage}, exit $rc"
	if [ "$rc" != 0 ]; then
		crashes=$((crashes + 1))
		grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$log" |
			head -n 5 | sed 's/^/# /'
	fi
	if [ "$tap" = --tap ]; then
		[ "$rc" = 0 ] && echo "ok $n $line" || echo "not ok $n $line"
	else
		echo "$line"
	fi
done
[ "$tap" = --tap ] && echo "# fuzz crashes: $crashes" || echo "crashes: $crashes"
[ "$crashes" = 0 ]
