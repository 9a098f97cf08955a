#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Integration: the suite as a kernel CI bot sees it. It builds inside the
# staged kernel tree through kselftest's own Makefile, runs through
# kselftest's runner (run_tests, and an installed run_kselftest.sh as
# "make run" does), every program prints well-formed KTAP, writes a JSON
# results file, and the kernel is left as it was found.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"	# the programs run as nobody too (6.)
ksft=$RP_TREE/tools/testing/selftests
progs=$(make -s -C "$RP_SUITE" -f - print-progs <<'MK' 2>/dev/null
include Makefile
print-progs:
	@echo $(notdir $(TEST_GEN_PROGS))
MK
)
[ -n "$progs" ] || progs="gp_throttle gp_expedited boot_marker dcache_scaling"
nprogs=$(echo $progs | wc -w)
echo "TAP version 13"
echo "1..$((nprogs + 8))"
before=$(t_knob_snapshot)
export RCU_PERF_QUICK=1

# 1. kselftest's top-level Makefile builds the target out of tree.
t_run "$tmp/build.log" make -j"$(nproc)" -C "$ksft" TARGETS=rcu_perf O="$tmp/o" all
t_check "kselftest Makefile builds TARGETS=rcu_perf" test "$T_RC" = 0 -a \
	-x "$tmp/o/kselftest/rcu_perf/gp_throttle"

# 2. run_tests through lib.mk's runner, as "make kselftest" does. A real
# regression may fail a check; a crash or a timeout may not.
# kselftest's runner reopens /dev/stdout for appending: a log opened without
# O_APPEND would be overwritten from its start.
RCU_PERF_OUTDIR=$tmp/rt make -C "$ksft" TARGETS=rcu_perf O="$tmp/o" \
	run_tests >>"$tmp/run_tests.log" 2>&1
t_show "$tmp/run_tests.log"
n=$(grep -cE '^(not )?ok [0-9]+ selftests: rcu_perf: ' "$tmp/run_tests.log")
crash=$(grep -E '^not ok [0-9]+ selftests: rcu_perf: ' "$tmp/run_tests.log" |
	grep -vE '# exit=1$')
t_check "run_tests runs all $nprogs programs, none crashes or times out" \
	test "$n" = "$nprogs" -a -z "$crash"

# 3. Installed copy and run_kselftest.sh, as "make run" does.
t_run "$tmp/install.log" make -C "$ksft" TARGETS=rcu_perf O="$tmp/o" \
	INSTALL_PATH="$tmp/inst" install
t_check "install carries programs, tools and the config file" \
	test -x "$tmp/inst/rcu_perf/rcu_perf_compare" -a \
	-f "$tmp/inst/rcu_perf/rcu_perf.conf" -a -f "$tmp/inst/rcu_perf/settings"
(cd "$tmp/inst" && RCU_PERF_OUTDIR=$tmp/res ./run_kselftest.sh -c rcu_perf) \
	>>"$tmp/rk.log" 2>&1
t_show "$tmp/rk.log"
t_check "run_kselftest.sh output is well-formed KTAP" ktap_valid "$tmp/rk.log"

# 4. Each program's own KTAP (nested by the runner) and its JSON file.
awk -v dir="$tmp" '
	/^# selftests: rcu_perf: / { f = dir "/" $4 ".ktap"; printf "" > f; next }
	/^(not )?ok [0-9]+ selftests: rcu_perf: / { f = ""; next }
	f != "" && /^# / { print substr($0, 3) > f }
	f != "" && /^#$/ { print "" > f }
' "$tmp/rk.log"
for p in $progs; do
	ok=1
	if [ ! -f "$tmp/$p.ktap" ]; then
		echo "# $p did not run"
		ok=0
	elif ! ktap_valid "$tmp/$p.ktap"; then
		ok=0
	fi
	if [ ! -s "$tmp/res/$p.json" ]; then
		echo "# $p wrote no JSON"
		ok=0
	elif ! "$RP_BIN/rcu_perf_compare" "$tmp/res/$p.json" \
		>/dev/null 2>"$tmp/$p.err"; then
		t_show "$tmp/$p.err"
		ok=0
	fi
	t_check "$p: well-formed KTAP and a valid JSON results file" test $ok = 1
done

# 5. The parsers a CI system uses, on that real output: 0 parse errors, as
# many results as the file has at its top level. A check may FAIL on a
# regressed kernel: that is a result, not a parse error.
kunit=$RP_TREE/tools/testing/kunit/kunit.py
ktaps=("$tmp/rk.log")
for p in $progs; do [ -f "$tmp/$p.ktap" ] && ktaps+=("$tmp/$p.ktap"); done
nres() { grep -cE '^(not )?ok [0-9]+' "$1"; }
kunit_ok() {
	local out n

	out=$(python3 "$kunit" parse "$1" 2>&1)
	n=$(echo "$out" | sed -n 's/.*Testing complete\. Ran \([0-9]*\) tests.*/\1/p')
	if [ "$n" != "$(nres "$1")" ] || echo "$out" | grep -qE 'errors:|crashed|\[ERROR\]'; then
		echo "# kunit.py parse $(basename "$1"): $(nres "$1") results, read ${n:-none}:"
		echo "$out" | grep -E 'ERROR|CRASHED|Testing complete|Traceback' | sed 's/^/# /'
		return 1
	fi
}
prove_ok() {
	local out

	out=$(prove --exec cat "$1" 2>&1)
	if ! echo "$out" | grep -q "Tests=$(nres "$1")," || echo "$out" | grep -q 'Parse errors'; then
		echo "# prove $(basename "$1"):"
		echo "$out" | sed 's/^/# /'
		return 1
	fi
}
each() { local f r=0; for f in "${ktaps[@]}"; do "$1" "$f" || r=1; done; return $r; }
if [ -r "$kunit" ]; then
	t_check "kunit.py parse reads the run and ${#ktaps[@]} KTAP logs, 0 errors" each kunit_ok
else
	t_skip "kunit.py parse" "no $kunit in this tree"
fi
if command -v prove >/dev/null; then
	t_check "prove (TAP::Parser) reads the run and ${#ktaps[@]} KTAP logs, 0 errors" \
		each prove_ok
else
	t_skip "prove (TAP::Parser)" "no prove (perl)"
fi

# 6. Test names do not depend on why a check SKIPs: as nobody every
# program SKIPs (not root), with the names and numbers of the root run.
names() { sed -nE 's/^(not )?ok ([0-9]+) ([^#]*[^# ]).*/\2 \3/p' "$1"; }
bad="" compared=0
for p in $progs; do
	if [ -z "$(names "$tmp/$p.ktap" 2>/dev/null)" ]; then
		t_note "$p: no results as root (the lock?), names not compared"
		continue
	fi
	compared=$((compared + 1))
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		timeout 100 "$tmp/o/kselftest/rcu_perf/$p" --quick >"$tmp/$p.nobody" 2>&1
	if [ "$(names "$tmp/$p.ktap")" != "$(names "$tmp/$p.nobody")" ]; then
		diff <(names "$tmp/$p.ktap") <(names "$tmp/$p.nobody") | sed "s/^/# $p: /"
		bad+=" $p"
	fi
done
[ -n "$bad" ] && t_note "names differ:$bad"
# Comparing no program's names proves nothing: a failure, not a pass.
t_check "test names are the same whatever the SKIP reason (root vs nobody, $compared programs)" \
	eval '[ -z "$bad" ] && [ "$compared" -gt 0 ]'

t_check "kernel knobs as found" t_knobs_unchanged "$before"
