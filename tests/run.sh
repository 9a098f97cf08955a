#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run this project's tests: the unit test binaries built by tests/Makefile,
# then the scripts tests/t*.sh (no root, the kernel untouched), then, with
# RP_LIVE=1 (make check), the live proofs selftests/t*.sh (root; they
# change the running kernel through the guard or boot QEMU guests), each
# directory in name order. Each prints TAP; its top-level results are
# counted. A test that exits non-zero without reporting a failure counts as
# one failure. With arguments, only tests whose name contains one of them
# run.
#
# RP_BACKGROUND=CMD (make check: the test kernels' build) runs beside the
# tests of tests/, which time nothing and need no test kernel, and beside
# the live proofs whose header has an "# untimed:" line (they judge no
# verdict, so a busy machine changes none of their results); it is waited
# for before the first other live proof, which may time or boot them. It
# counts as one result: a failed build fails. The untimed proofs run one
# after another in two jobs, beside the tests of tests/ (whose sleeps and
# single-threaded steps leave CPU time); their logs are shown and counted
# in their turn. Those that boot the background's kernels wait for it
# (t_wait_background: its exit status lands in RP_BACKGROUND_RC) in a job
# of their own, so that the others need not wait with them.
#
# Ends with "N passed, N failed, N skipped"; exit 1 if anything failed.

cd "$(dirname "$0")/.." || exit 2
logdir=$RP_BUILD/test-logs
mkdir -p "$logdir"
pass=0 fail=0 skip=0
failed=()

# untimed T: T is a live proof that may run beside the background command
untimed() { head -n 30 "$1" | grep -q '^# untimed: '; }
# booting T: an untimed proof that waits for the background's kernels
booting() { grep -q '^t_wait_background' "$1"; }

tests=()
scripts=(tests/t[0-9]*.sh)
if [ "${RP_LIVE:-0}" = 1 ]; then
	for t in selftests/t[0-9]*.sh; do untimed "$t" && scripts+=("$t"); done
	for t in selftests/t[0-9]*.sh; do untimed "$t" || scripts+=("$t"); done
fi
for t in tests/unit/test_*.c "${scripts[@]}"; do
	case $t in tests/unit/*) t=$RP_BUILD/tests/$(basename "$t" .c) ;; esac
	[ -e "$t" ] || [[ $t == "$RP_BUILD"/* ]] || continue
	if [ $# -gt 0 ]; then
		m=0
		for pat in "$@"; do [[ ${t##*/} == *"$pat"* ]] && m=1; done
		[ $m = 1 ] || continue
	fi
	tests+=("$t")
done

# The untimed live proofs' jobs: each proof's log, then "RC SECONDS" in
# LOG.done.
declare -A grouped=()
untimed_pids=""
if [ -n "${RP_BACKGROUND:-}" ]; then
	export RP_BACKGROUND_RC=$logdir/background.rc
	rm -f "$RP_BACKGROUND_RC"
fi
# untimed_job T...: them one after another, in a session of their own
untimed_job() {
	local t
	[ $# -gt 0 ] || return 0
	for t; do rm -f "$logdir/$(basename "$t").log.done"; done
	# shellcheck disable=SC2016 # the job's own shell expands them
	setsid bash -c 'd=$1; shift; for t; do
		l=$d/${t##*/}.log s=$(date +%s)
		bash "$t" >"$l" 2>&1
		echo "$? $(($(date +%s) - s))" >"$l.done"
	done' untimed "$logdir" "$@" </dev/null &
	untimed_pids+=" $!"
}
if [ "${RP_LIVE:-0}" = 1 ]; then
	plain=() boots=()
	for t in "${tests[@]}"; do
		case $t in selftests/*) untimed "$t" || continue ;; *) continue ;; esac
		grouped[$t]=1
		if booting "$t"; then boots+=("$t"); else plain+=("$t"); fi
	done
	untimed_job "${plain[@]}"
	untimed_job "${boots[@]}"
fi

# The background command in a session of its own too, so that an
# interrupted run stops all of it and of the untimed job (whose proofs
# restore what they changed on SIGTERM).
bg_pid=""
bg_start=$SECONDS
if [ -n "${RP_BACKGROUND:-}" ]; then
	echo "# background: $RP_BACKGROUND"
	# shellcheck disable=SC2016 # the background's own shell expands them
	setsid bash -c '(eval "$1"); rc=$?; echo $rc >"$2"; exit $rc' background \
		"$RP_BACKGROUND" "$RP_BACKGROUND_RC" >"$logdir/background.log" 2>&1 </dev/null &
	bg_pid=$!
fi
stop_jobs() {
	local p
	for p in $bg_pid $untimed_pids; do kill -TERM -- -"$p" 2>/dev/null; done
}
trap 'stop_jobs; exit 130' INT TERM HUP
bg_wait() {
	local rc
	[ -n "$bg_pid" ] || return 0
	echo "# === background (waited for $((SECONDS - bg_start)) s after its start)"
	wait "$bg_pid"
	rc=$?
	bg_pid=""
	cat "$logdir/background.log"
	if [ "$rc" = 0 ]; then
		pass=$((pass + 1))
		echo "# --- background: 1 passed, 0 failed, 0 skipped ($((SECONDS - bg_start)) s)"
	else
		fail=$((fail + 1))
		failed+=("background: $RP_BACKGROUND exited $rc")
		echo "not ok - background: $RP_BACKGROUND exited $rc"
	fi
}

for t in "${tests[@]}"; do
	name=$(basename "$t")
	case $t in selftests/*) untimed "$t" || bg_wait ;; esac
	echo "# === $name"
	log=$logdir/$name.log
	if [ -n "${grouped[$t]:-}" ]; then
		# run in an untimed job: its turn to be shown, both jobs done
		for p in $untimed_pids; do wait "$p"; done
		untimed_pids=""
		read -r rc secs <"$log.done" || rc=2 secs=0
	else
		start=$(date +%s)
		case $t in
		*.sh) bash "$t" >"$log" 2>&1 ;;
		*) "$t" >"$log" 2>&1 ;;
		esac
		rc=$?
		secs=$(($(date +%s) - start))
	fi
	cat "$log"
	while read -r l; do
		failed+=("$name: $l")
	done < <(grep -E '^not ok [0-9]+' "$log")
	p=$(grep -cE '^ok [0-9]+' "$log")
	s=$(grep -cE '^ok [0-9]+.*# SKIP' "$log")
	f=$(grep -cE '^not ok [0-9]+' "$log")
	p=$((p - s))
	if [ "$rc" != 0 ] && [ "$rc" != 4 ] && [ "$f" = 0 ]; then
		echo "not ok - $name exited $rc without reporting a failure"
		failed+=("$name: exited $rc without reporting a failure")
		f=1
	fi
	if [ "$rc" = 4 ] && [ $((p + s + f)) = 0 ]; then
		s=1
	fi
	echo "# --- $name: $p passed, $f failed, $s skipped ($secs s)"
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done

bg_wait

# A CI log that keeps only its start and end still names what failed.
for l in "${failed[@]}"; do
	echo "# failed: $l"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
