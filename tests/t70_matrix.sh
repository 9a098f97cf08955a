#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel matrix (matrix.sh, guest.sh) without QEMU, on canned KTAP and
# a fake QEMU: how checks are judged against expect lines, the table, bad
# input, a kernel that is not there, and the reference of a "baseline:
# reference" scenario (its cells' results the baseline of the other
# kernels' cells, expectations on *_vs_baseline checks). Seconds. Real
# guests: selftests/t72_matrix_cloud.sh, t76 and t77.
source "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
matrix=$RP_TOP/qemu/matrix.sh
guest=$RP_TOP/qemu/guest.sh
echo "TAP version 13"
echo "1..45"

# cell NAME STATUS: a finished cell with expect lines from stdin; KTAP
# files are added by the caller.
cell() {
	mkdir -p "$tmp/$1"
	echo "$2" >"$tmp/$1/status"
	cat >"$tmp/$1/expect"
}
# ktap FILE RESULT...: a program's KTAP with these result lines.
ktap() {
	local f=$1 i=0 r name
	shift
	{
		echo "TAP version 13"
		echo "1..$#"
		for r in "$@"; do
			i=$((i + 1))
			name=${r#not ok }
			name=${name#ok }
			echo "# ${name%% *}: measured something"
			case $r in
			"not ok "*) echo "not ok $i ${r#not ok }" ;;
			*) echo "ok $i ${r#ok }" ;;
			esac
		done
	} >"$f"
}
verdict() { "$matrix" --evaluate "$tmp/$1" >/dev/null; head -n 1 "$tmp/$1/verdict"; }
expect_verdict() {
	local got
	got=$(verdict "$1")
	if [ "$got" = "$2" ]; then
		t_ok "$3"
	else
		t_note "verdict $got, expected $2:"
		t_show "$tmp/$1/verdict"
		t_fail "$3"
	fi
}

gp_ok=("ok tracer_idle_mean" "ok membarrier_idle_mean" "ok membarrier_idle_tail")

cell healthy ok </dev/null
ktap "$tmp/healthy/gp_throttle.ktap" "${gp_ok[@]}" "ok tracer_idle_tail # SKIP slow"
expect_verdict healthy met "healthy: ok and SKIP meet the healthy default"

cell notok ok </dev/null
ktap "$tmp/notok/gp_throttle.ktap" "${gp_ok[@]}" "not ok tracer_idle_tail"
expect_verdict notok miss "healthy: one not ok misses the healthy default"
t_check "the miss names the check and its reason" \
	grep -q '^gp_throttle tracer_idle_tail: FAIL (healthy by default): tracer_idle_tail: measured' \
	"$tmp/notok/verdict"

cell error ok <<<"gp_throttle tracer_* fail"
ktap "$tmp/error/gp_throttle.ktap" "${gp_ok[@]}" "not ok tracer_idle_tail # error too few"
expect_verdict error miss "fail: a KTAP error directive is no FAIL"
t_check "a KTAP error directive is ERR in the checks" \
	grep -qP '^gp_throttle\ttracer_idle_tail\tERR\t' "$tmp/error/checks"

cell fqs ok <<<"gp_throttle membarrier_idle_* fail"
ktap "$tmp/fqs/gp_throttle.ktap" "ok tracer_idle_mean" \
	"not ok membarrier_idle_mean" "ok membarrier_idle_tail"
expect_verdict fqs met "fail: one FAIL among the matching checks meets it"

cell fqs_missed ok <<<"gp_throttle membarrier_idle_* fail"
ktap "$tmp/fqs_missed/gp_throttle.ktap" "${gp_ok[@]}"
expect_verdict fqs_missed miss "fail: no FAIL misses it"

cell normal ok <<<"gp_expedited * skip"
ktap "$tmp/normal/gp_expedited.ktap" "ok expedited_gp_ratio # SKIP rcu_normal=1 set"
expect_verdict normal met "skip: every matching check SKIPs"

cell normal_ok ok <<<"gp_expedited * skip"
ktap "$tmp/normal_ok/gp_expedited.ktap" "ok expedited_gp_ratio"
expect_verdict normal_ok miss "skip: a judged check misses it"

cell notrun ok <<<"gp_expedited * skip"
ktap "$tmp/notrun/gp_throttle.ktap" "${gp_ok[@]}"
expect_verdict notrun met "an expect line of a program that did not run is ignored"

cell anyfail ok <<<"gp_throttle tracer_* any"
ktap "$tmp/anyfail/gp_throttle.ktap" "${gp_ok[@]}" "not ok tracer_idle_tail"
expect_verdict anyfail met "any: a FAIL among the matching checks meets it"
cell anyerr ok <<<"gp_throttle tracer_* any"
ktap "$tmp/anyerr/gp_throttle.ktap" "${gp_ok[@]}" "not ok tracer_idle_tail # error x"
expect_verdict anyerr miss "any: an ERR misses it"

cell okexp ok <<<"gp_throttle *_cap ok"
ktap "$tmp/okexp/gp_throttle.ktap" "${gp_ok[@]}" "not ok tracer_idle_tail # error x"
expect_verdict okexp miss "ok: an ERR among the matching checks misses it"

cell hang timeout </dev/null
echo 124 >"$tmp/hang/gp_throttle.rc"
expect_verdict hang timeout "a guest that timed out is a timeout, whatever its checks"
t_check "a program without KTAP is one ERR named (run)" \
	grep -qP '^gp_throttle\t\(run\)\tERR\tno KTAP' "$tmp/hang/checks"

# The table: kernel x scenario x check, "!" on a missed expectation.
mkdir -p "$tmp/res/k1"
for c in healthy notok fqs; do cp -r "$tmp/$c" "$tmp/res/k1/"; echo 42 >"$tmp/res/k1/$c/wall"; done
"$matrix" --table "$tmp/res" >"$tmp/table" 2>&1
if grep -qE '^gp_throttle/tracer_idle_tail +- +SKIP +FAIL! *$' "$tmp/table" &&
   grep -qE '^wall \(s\) +42 +42 +42' "$tmp/table" &&
   grep -q '^MISS k1/notok:' "$tmp/table"; then
	t_ok "table: one row per check, one column per scenario, misses marked"
else
	t_show "$tmp/table"
	t_fail "table: one row per check, one column per scenario, misses marked"
fi

# Bad input: one line, exit 2. A missing kernel: its cells SKIP, exit 0.
mkdir -p "$tmp/scen"
printf 'cpus: 2\nexpect: gp_throttle * fail\n' >"$tmp/scen/two"
bad_input() {
	local d=$1; shift
	"$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
	local rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <"$tmp/bad.err")" = 1 ]; then
		t_note "$(cat "$tmp/bad.err")"
		t_ok "bad input: $d"
	else
		t_note "exit $rc"; t_show "$tmp/bad.err"; t_fail "bad input: $d"
	fi
}
bad_input "unknown option" "$matrix" --bogus
printf 'cpu: 2\n' >"$tmp/scen/typo"
bad_input "a scenario with an unknown key" "$matrix" --scenarios "$tmp/scen" --kernel /x
rm "$tmp/scen/typo"
bad_input "guest.sh without --kernel" "$guest" --outdir "$tmp/g"
"$matrix" --scenarios "$tmp/scen" --kernel "gone=$tmp/nokernel" \
	--results "$tmp/skipped" >"$tmp/skip.log" 2>&1
rc=$?
if [ $rc = 0 ] && [ "$(head -n 1 "$tmp/skipped/gone/two/verdict")" = skip ] &&
   grep -q "^SKIP gone/two: no kernel image at $tmp/nokernel" "$tmp/skip.log"; then
	t_ok "a missing kernel: its cells SKIP with the reason, exit 0"
else
	t_note "exit $rc"; t_show "$tmp/skip.log"
	t_fail "a missing kernel: its cells SKIP with the reason, exit 0"
fi

# guest.sh's outcome, with a fake QEMU that plays the guest: its serial
# console and its data port.
fake=$tmp/fake
mkdir -p "$fake/bin" "$fake/res"
printf '#!/bin/sh\nexit 0\n' >"$fake/bin/gp_throttle"
chmod +x "$fake/bin/gp_throttle"
cp "$fake/bin/gp_throttle" "$fake/busybox"
echo "not a kernel" >"$fake/bzImage"
ktap "$fake/res/gp_throttle.ktap" "${gp_ok[@]}"
echo 0 >"$fake/res/gp_throttle.rc"
echo '{"checks": []}' >"$fake/res/gp_throttle.json"
cat >"$fake/qemu" <<'EOF'
#!/bin/bash
serial=() initrd=""
while [ $# -gt 0 ]; do
	[ "$1" = -serial ] && serial+=("${2#file:}")
	[ "$1" = -initrd ] && initrd=$2
	shift
done
con=${serial[0]} data=${serial[1]}
# The baseline the guest was given (the reference's tests look): the
# results files in the archive guest.sh packs (zeros when there is none).
bl=$(mktemp -d)
(cd "$bl" && cpio -id --quiet '*baseline.tar' init <"$initrd" 2>/dev/null)
cp "$bl/init" "$(dirname "$con")/init.txt" 2>/dev/null
# --jobs: when each guest ran (FAKE_LOG), 3 s long: two guests started
# together overlap even when a loaded host (the kernels' build beside
# make check's tests) starts the second a second or two later
if [ -n "${FAKE_LOG:-}" ]; then
	echo "start $(basename "$(dirname "$con")")" >>"$FAKE_LOG"
	sleep 3
	echo "end $(basename "$(dirname "$con")")" >>"$FAKE_LOG"
fi
tar=$(find "$bl" -name baseline.tar | head -n 1)
if [ -n "$tar" ] && [ -n "$(head -c 512 "$tar" | tr -d '\0')" ]; then
	tar -tf "$tar" 2>/dev/null
fi | sed 's|^\./||; s|^|rcu_perf/baseline/|' | grep 'json$' | sort \
	>"$(dirname "$con")/initrd.list"
rm -rf "$bl"
[ "$FAKE" = noboot ] && { echo "[    0.1] Linux" >"$con"; exit 1; }
if [ "$FAKE" = split ]; then
	# A kernel message in the middle of the console's boot marker.
	printf '[    1.0] Run /init\n@@RCU_PERF_BOOTE[    1.8] tsc: Refined TSC\n' >"$con"
else
	printf '[    1.0] Run /init\n@@RCU_PERF_BOOTED@@ 1.0\n' >"$con"
fi
echo "# selftests: rcu_perf: ./gp_throttle" >>"$con"
case $FAKE in
panic)	printf 'TAP version 13\n1..3\nok 1 tracer_idle_mean\n' >>"$con"
	echo "[    2.0] Kernel panic - not syncing: Fatal exception" >>"$con"
	exit 0 ;;
hang)	exec sleep 60 ;;
warn)	echo "[    3.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [x:1]" >>"$con" ;;
esac
{
	echo "@@RCU_PERF_BOOTED@@ 1.0"
	echo "@@RCU_PERF_FILES gp_throttle@@"
	tar -C "$FAKE_RES" -c . | gzip | base64
	echo "@@RCU_PERF_END gp_throttle@@"
	echo "@@RCU_PERF_DONE@@"
} | sed 's/$/\r/' >"$data"
echo "@@RCU_PERF_DONE@@" >>"$con"
EOF
chmod +x "$fake/qemu"
fake_guest() {
	FAKE=$1 FAKE_RES=$fake/res "$guest" --kernel "$fake/bzImage" \
		--outdir "$fake/out-$1" --bindir "$fake/bin" --busybox "$fake/busybox" \
		--qemu "$fake/qemu" --timeout 3 -- gp_throttle >"$fake/$1.log" 2>&1
	echo $? "$(head -n 1 "$fake/out-$1/status" 2>/dev/null)"
}
for c in "ok:0 ok" "split:0 ok" "warn:1 warn" "panic:1 panic" "hang:1 timeout" "noboot:1 no-boot"; do
	got=$(fake_guest "${c%%:*}")
	if [ "$got" = "${c#*:}" ]; then
		t_ok "guest.sh: guest '${c%%:*}' is exit/status ${c#*:}"
	else
		t_note "exit/status $got"
		t_show "$fake/${c%%:*}.log"
		t_fail "guest.sh: guest '${c%%:*}' is exit/status ${c#*:}"
	fi
done
FAKE=hang "$guest" --kernel "$fake/bzImage" --outdir "$fake/out-stuck" \
	--bindir "$fake/bin" --busybox "$fake/busybox" --qemu "$fake/qemu" \
	--prog-timeout 1 --timeout 50 -- gp_throttle >"$fake/stuck.log" 2>&1
t_check "guest.sh: a program stuck past its timeout ends the guest early" \
	grep -q "its program ran 2 s, past its timeout" "$fake/out-stuck/status"
if cmp -s "$fake/res/gp_throttle.ktap" "$fake/out-ok/gp_throttle.ktap" &&
   cmp -s "$fake/res/gp_throttle.json" "$fake/out-ok/gp_throttle.json" &&
   grep -q "Kernel panic" "$fake/out-panic/status" &&
   grep -q "^ok 1 tracer_idle_mean" "$fake/out-panic/gp_throttle.ktap" &&
   ! grep -q "Kernel panic" "$fake/out-panic/gp_throttle.ktap" &&
   grep -q "last program started: ./gp_throttle" "$fake/out-hang/status"; then
	t_ok "guest.sh: results come back intact; the status says why"
	t_ok "guest.sh: a panicked program's KTAP is kept from the console"
else
	t_fail "guest.sh: a panicked program's KTAP is kept from the console"
	t_show "$fake/out-ok/status"
	t_show "$fake/out-panic/status"
	t_show "$fake/out-hang/status"
	t_fail "guest.sh: results come back intact; the status says why"
fi

cp -r "$fake/out-panic" "$tmp/partial"
: >"$tmp/partial/expect"
"$matrix" --evaluate "$tmp/partial" >/dev/null
t_check "an incomplete KTAP is one more ERR named (run)" \
	grep -qP '^gp_throttle\t\(run\)\tERR\tincomplete KTAP: 1 of 3 results' \
	"$tmp/partial/checks"

# A kernel directory's expect lines apply on top of the scenario's.
mkdir -p "$fake/kernels/bug"
cp "$fake/bzImage" "$fake/kernels/bug/bzImage"
echo "expect: gp_throttle membarrier_idle_* fail" >"$fake/kernels/bug/expect"
printf 'cpus: 2\n' >"$tmp/scen/healthy"
FAKE=ok FAKE_RES=$fake/res "$matrix" --scenarios "$tmp/scen" --only healthy \
	--kernel "$fake/kernels/bug" --results "$tmp/kdir" --bindir "$fake/bin" \
	--busybox "$fake/busybox" --qemu "$fake/qemu" -- gp_throttle >"$tmp/kdir.log" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q '^gp_throttle membarrier_idle_\*: 2 checks, none FAIL, expected FAIL$' \
	"$tmp/kdir/bug/healthy/verdict"; then
	t_ok "a kernel directory's expect file applies to its cells"
else
	t_note "exit $rc"; t_show "$tmp/kdir.log"
	t_fail "a kernel directory's expect file applies to its cells"
fi

# "kernels:" keeps a scenario off the kernels it does not apply to.
printf 'kernels: !b?g other\ncpus: 2\nexpect: gp_throttle * fail\n' >"$tmp/scen/notbug"
FAKE=ok FAKE_RES=$fake/res "$matrix" --scenarios "$tmp/scen" --only notbug \
	--kernel "$fake/kernels/bug" --results "$tmp/knames" --bindir "$fake/bin" \
	--busybox "$fake/busybox" --qemu "$fake/qemu" -- gp_throttle >"$tmp/knames.log" 2>&1
rc=$?
t_check "a scenario's kernels: line keeps it off other kernels (exit $rc)" eval \
	'test $rc = 0 && test ! -e "$tmp/knames/bug/notbug" &&
	 grep -q "bug / notbug: not for this kernel" "$tmp/knames.log"'

# Expectations on checks against a baseline hold where the matrix gave a
# cell one (a "baseline" file naming it), are passed over where it gave
# none and miss where the reference left nothing to compare.
bm_skip="ok boot_time_to_user_vs_baseline # SKIP no baseline: judged against earlier boots"
cell based ok <<<"boot_marker *_vs_baseline fail"
ktap "$tmp/based/boot_marker.ktap" "not ok boot_time_to_user_vs_baseline"
printf '%s\n1 boot(s) of the reference ref\n' "$tmp" >"$tmp/based/baseline"
expect_verdict based met "*_vs_baseline fail: met by a FAIL against the reference"
cell unbased ok <<<"boot_marker *_vs_baseline fail"
ktap "$tmp/unbased/boot_marker.ktap" "$bm_skip"
expect_verdict unbased met "*_vs_baseline: passed over in a cell without a reference"
cell noref ok <<<"boot_marker *_vs_baseline fail"
ktap "$tmp/noref/boot_marker.ktap" "$bm_skip"
printf 'none\nno cell of the reference ref met its expectations\n' >"$tmp/noref/baseline"
expect_verdict noref miss "*_vs_baseline fail: a miss when the reference gave no results"
t_check "the miss says the reference gave nothing" grep -q \
	'^boot_marker \*_vs_baseline: no reference results, expected FAIL: no cell of the reference' \
	"$tmp/noref/verdict"

printf 'cpus: 2\nbaseline: reference\n' >"$tmp/scen/wallref"
bad_input "baseline: reference in a wall-clock scenario" \
	"$matrix" --scenarios "$tmp/scen" --kernel /x
rm "$tmp/scen/wallref"
printf 'cpus: 2\nargs: gp_throttle "--set x=1"\n' >"$tmp/scen/badargs"
bad_input "an args: line with quotes" "$matrix" --scenarios "$tmp/scen" --kernel /x
rm "$tmp/scen/badargs"
printf 'cpus: 2\ndisk: xfs\n' >"$tmp/scen/baddisk"
bad_input "a disk: other than ext2" "$matrix" --scenarios "$tmp/scen" --kernel /x
rm "$tmp/scen/baddisk"

# The reference runs first, whatever the order of --kernel; each of its
# cells that met its expectations joins the baseline of the scenario:
# none for its first two boots, both for its third (the A = A control),
# all three for every boot of the other kernel, whose expect file names it. The guests get
# those results in their initramfs (the fake QEMU lists them), every
# guest the same files of the same size (placeholders for boots not yet
# had), so that the kernel unpacks the same bytes before the boot marker.
mkdir -p "$fake/kernels/ref" "$fake/kernels/var" "$tmp/iscen"
cp "$fake/bzImage" "$fake/kernels/ref/bzImage"
cp "$fake/bzImage" "$fake/kernels/var/bzImage"
echo "reference: ref" >"$fake/kernels/var/expect"
printf 'mode: icount\ncpus: 1\nprograms: gp_throttle\nbaseline: reference\n' >"$tmp/iscen/ic"
FAKE=ok FAKE_RES=$fake/res "$matrix" --scenarios "$tmp/iscen" --boots 2 \
	--kernel "$fake/kernels/var" --kernel "$fake/kernels/ref" --results "$tmp/refrun" \
	--bindir "$fake/bin" --busybox "$fake/busybox" --qemu "$fake/qemu" >"$tmp/refrun.log" 2>&1
rc=$?
r=$tmp/refrun
t_check "the reference runs first (exit $rc)" eval \
	'test $rc = 0 && test "$(tr "\n" " " <"$r/kernels")" = "ref var "'
want3=$(printf 'rcu_perf/baseline/%s/gp_throttle.json\n' 1 2 3)
sizes=$(find "$r/.baseline" -name '*.json' -printf '%s\n' | sort | uniq -c)
if [ "$(head -n 1 "$r/ref/ic.1/baseline")" = none ] &&
   [ "$(cat "$r/ref/ic.1/initrd.list")" = "$want3" ] &&
   [ "$(head -n 1 "$r/ref/ic.2/baseline")" = none ] &&
   [ "$(head -n 1 "$r/ref/ic.3/baseline")" = "$r/.baseline/ref/ic.3" ] &&
   grep -q '^2 boot(s) of the reference ref in ic: 1 2 $' "$r/ref/ic.3/baseline" &&
   [ "$(cat "$r/ref/ic.3/initrd.list")" = "$want3" ] &&
   [ "$(cat "$r/var/ic.1/initrd.list")" = "$want3" ] &&
   [ "$(cat "$r/var/ic.2/initrd.list")" = "$want3" ] &&
   grep -q '^3 boot(s) of the reference ref in ic: 1 2 3 $' "$r/var/ic.2/baseline" &&
   [ ! -e "$r/var/ic.3" ] && [ "$(echo $sizes)" = "15 131072" ] &&
   cmp -s <(tr -d ' ' <"$r/.baseline/var/ic.1/1/gp_throttle.json") \
	<(tr -d ' ' <"$fake/res/gp_throttle.json") &&
   [ "$(tr -d ' ' <"$r/.baseline/ref/ic.1/1/gp_throttle.json")" = "{}" ]; then
	t_ok "the reference's results are the baseline of the later cells"
else
	t_show "$tmp/refrun.log"
	for c in ref/ic.1 ref/ic.2 ref/ic.3 var/ic.1 var/ic.2; do
		t_note "$c:"; t_show "$r/$c/baseline"; t_show "$r/$c/initrd.list"
	done
	t_note "payload sizes: $sizes"
	t_fail "the reference's results are the baseline of the later cells"
fi
if grep -qE '^over boots +ic' "$r/table.txt" && grep -qE '^cell +met 2/2' "$r/table.txt" &&
   grep -qE '^gp_throttle/tracer_idle_mean +ok 2/2' "$r/table.txt"; then
	t_ok "table: with --boots, each check counted over the boots"
else
	t_show "$r/table.txt"
	t_fail "table: with --boots, each check counted over the boots"
fi

# With one boot a cell, the reference still boots three times in a
# "baseline: reference" scenario (<scenario>.again with no baseline, and
# <scenario>.control, the A = A control, against the first two), so that
# one boot of another kernel meets three of it; an "args:" line reaches
# its program's command.
printf 'mode: icount\ncpus: 1\nprograms: gp_throttle\nargs: gp_throttle --set x=1\nbaseline: reference\n' \
	>"$tmp/iscen/ic"
FAKE=ok FAKE_RES=$fake/res "$matrix" --scenarios "$tmp/iscen" \
	--kernel "$fake/kernels/var" --kernel "$fake/kernels/ref" --results "$tmp/again" \
	--bindir "$fake/bin" --busybox "$fake/busybox" --qemu "$fake/qemu" >"$tmp/again.log" 2>&1
rc=$?
r=$tmp/again
t_check "one boot a cell: the reference boots three times, ic, ic.again, ic.control (exit $rc)" eval \
	'test $rc = 0 && test "$(head -n 1 "$r/ref/ic.control/verdict")" = met &&
	 test "$(head -n 1 "$r/ref/ic.again/baseline")" = none &&
	 grep -q "^2 boot(s) of the reference ref in ic: 1 2 $" "$r/ref/ic.control/baseline" &&
	 grep -q "^3 boot(s) of the reference ref in ic: 1 2 3 $" "$r/var/ic/baseline" &&
	 test "$(cat "$r/var/ic/initrd.list")" = "$want3" && test ! -e "$r/var/ic.again"'
t_check "an args: line is appended to its program's command" \
	grep -q '^run gp_throttle [0-9]* ./gp_throttle --set x=1 *$' "$r/var/ic/init.txt"
# --jobs 2: instruction-counted cells of kernels that are nobody's
# reference run two at a time, and the reference's first two boots; its
# third and the wall-clock cells alone.
mkdir -p "$fake/kernels/var2"
cp "$fake/kernels/var/bzImage" "$fake/kernels/var/expect" "$fake/kernels/var2/"
printf 'cpus: 2\nprograms: gp_throttle\n' >"$tmp/iscen/wall"
FAKE=ok FAKE_RES=$fake/res FAKE_LOG=$tmp/jobs.order "$matrix" --scenarios "$tmp/iscen" \
	--jobs 2 --kernel "$fake/kernels/ref" --kernel "$fake/kernels/var" \
	--kernel "$fake/kernels/var2" --results "$tmp/jobs" --bindir "$fake/bin" \
	--busybox "$fake/busybox" --qemu "$fake/qemu" >"$tmp/jobs.log" 2>&1
rc=$?
rm "$tmp/iscen/wall"
# Lines "start CELL"/"end CELL": how many guests ran at once, per cell.
# A cell that started first and one that joined it both ran beside another.
overlap=$(awk '$1 == "start" { run[$2]++; n++; if (n > max) max = n
		if (n > 1) for (c in run) if (run[c]) both[c] = 1 }
	$1 == "end" { run[$2]--; n-- }
	END { printf "%d\n", max; for (c in both) print c }' "$tmp/jobs.order" |
	{ read -r max; echo "$max $(sort | paste -sd " ")"; })
# 8 guests: ref's ic, ic.again, wall and ic.control, var's and var2's ic
# and wall; only ref's first two ic cells and those of var and var2 ever
# ran beside another.
if [ $rc = 0 ] && [ "$(grep -c '^start' "$tmp/jobs.order")" = 8 ] &&
   [ "$overlap" = "2 ic ic.again" ] && grep -q "^var2 *$" "$tmp/jobs/kernels" &&
   [ "$(cat "$tmp/jobs/var2/ic/initrd.list")" = "$want3" ]; then
	t_ok "--jobs 2: two icount cells at once, the reference's third and wall-clock cells alone"
else
	t_note "exit $rc, at most ${overlap%% *} at once"; t_show "$tmp/jobs.order"
	t_show "$tmp/jobs.log"
	t_fail "--jobs 2: two icount cells at once, the reference's third and wall-clock cells alone"
fi
