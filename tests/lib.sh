# SPDX-License-Identifier: GPL-2.0
# Sourced by every test script of this project. Scripts print TAP:
# "ok N desc", "not ok N desc", "ok N desc # SKIP why"; anything else they
# print must start with "# " (t_show) so that tests/run.sh counts only
# their own results.

: "${RP_BIN:?run through make check}"
: "${RP_BUILD:?}"
: "${RP_SUITE:?}"
# A baseline is what a test gives its programs, never one from outside.
unset RCU_PERF_BASELINE
T_N=0

# A '#' in a description starts a KTAP directive ("ok 3 x # SKIP y" is a
# SKIP): a test that writes one fails, so no pass is counted as a skip.
t_ok() {
	T_N=$((T_N + 1))
	case "$*" in
	*'#'*) echo "not ok $T_N ${*//#/(hash)} (bug of the test: '#' in its description)" ;;
	*) echo "ok $T_N $*" ;;
	esac
}
t_fail() { T_N=$((T_N + 1)); echo "not ok $T_N $*"; }
t_skip() { T_N=$((T_N + 1)); echo "ok $T_N $1 # SKIP $2"; }
# t_check DESC CMD...: ok when CMD succeeds.
t_check() { local d=$1; shift; if "$@"; then t_ok "$d"; else t_fail "$d"; fi; }
# Show a file (a program's KTAP, a log) as diagnostics.
t_show() { sed 's/^/# /' "$1"; }
t_note() { echo "# $*"; }

# t_run LOG PROG ARGS...: run a suite program, output to LOG; sets T_RC.
t_run() {
	local log=$1; shift
	"$@" >"$log" 2>&1
	T_RC=$?
	t_show "$log"
	return 0
}

# ktap_result LOG CHECK: prints pass, fail, skip, error or missing for the
# top-level KTAP result of CHECK (the description) in LOG.
ktap_result() {
	local line
	line=$(grep -E "^(ok|not ok) [0-9]+ $2( |\$)" "$1" | tail -n 1)
	case "$line" in
	"") echo missing ;;
	*"# SKIP"*) echo skip ;;
	"not ok "*"# error"*) echo error ;;
	"not ok "*) echo fail ;;
	*) echo pass ;;
	esac
}

# t_prove DESC CHECKS WANT LOG CMD...: the proof that CMD gives each of
# CHECKS (one name, or several separated by spaces) the verdict WANT:
# "fail" (`not ok` CHECK, exit 1: an injected regression) or "pass"
# (CHECK judged ok and no check `not ok`, exit 0: a healthy run). A run
# that could not judge one of them (SKIP: machine busy, too noisy) is no
# evidence either way: CMD runs again, T_PROVE_TRIES runs at most
# (default 3), and then the proof FAILs, saying so: a broken check cannot
# hide behind a busy machine. A run that judged one the other way, or
# left it out, fails the proof at once. LOG holds the last run. Between
# tries, T_PROVE_AGAIN (a function, if set) is called with LOG.
t_prove() {
	local d=$1 checks=$2 want=$3 log=$4 try got check start=$SECONDS
	shift 4
	for try in $(seq "${T_PROVE_TRIES:-3}"); do
		t_run "$log" "$@"
		got=
		for check in $checks; do
			got=$(ktap_result "$log" "$check")
			case "$want/$got/$T_RC" in
			fail/fail/1 | pass/pass/0) got=ok ;;
			*/skip/*) break ;;
			*)
				t_note "$check: $got (exit $T_RC), the proof wants $want"
				t_fail "$d"
				return 1
				;;
			esac
		done
		if [ "$got" = ok ]; then
			t_ok "$d"
			return 0
		fi
		t_note "run $try: $check not judged:$(grep -m1 -oE "^ok [0-9]+ $check # SKIP.*" "$log" | sed 's/.*# SKIP//')"
		[ -z "${T_PROVE_AGAIN:-}" ] || "$T_PROVE_AGAIN" "$log"
	done
	t_note "could not prove it: $check not judged in $try runs ($((SECONDS - start)) s)"
	t_fail "$d"
	return 1
}

# t_baseline DESC DIR UNFIT PROG ARGS...: three runs of PROG ARGS
# --baseline none into DIR/run-N/<prog>.json, the baseline of the checks
# against one, five tries at most: a run that UNFIT LOG (a function) calls
# unfit (busy, disturbed), or that failed, is not kept. ok when three were;
# returns 1 when not.
t_baseline() {
	local d=$1 dir=$2 unfit=$3 prog=$4 n=0 i
	shift 3
	for i in 1 2 3 4 5; do
		t_run "$dir.$i.log" "$@" --baseline none \
			--json "$dir/run-$n/$(basename "$prog").json"
		if [ "$T_RC" != 0 ] && [ "$T_RC" != 4 ] || "$unfit" "$dir.$i.log"; then
			t_note "baseline try $i: exit $T_RC or $unfit: not kept"
			rm -rf "$dir/run-$n"
			continue
		fi
		n=$((n + 1))
		[ $n = 3 ] && break
	done
	t_check "$d (in $i tries)" test $n = 3
	[ $n = 3 ]
}

# The kernel state a test must leave as it found it.
RP_KNOBS="/sys/kernel/rcu_expedited /sys/kernel/rcu_normal
/sys/module/rcutree/parameters/jiffies_till_first_fqs
/sys/module/rcutree/parameters/jiffies_till_next_fqs
/sys/devices/system/cpu/online
/sys/kernel/tracing/current_tracer /sys/kernel/tracing/tracing_on"

# t_wait_line LOG REGEX PID: wait (40 s at most) until LOG has a line
# matching REGEX (0) or PID has ended (1).
t_wait_line() {
	local i
	for i in $(seq 400); do
		grep -q "$2" "$1" && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# t_tracefs_mount: tracefs mounted on a private directory, its path in
# T_TFS (empty if it cannot be): the tracer read whatever the programs
# mount and unmount at /sys/kernel/tracing. t_tracefs_umount undoes it.
t_tracefs_mount() {
	T_TFS=$(mktemp -d /tmp/rp_tracefs.XXXXXX)
	mount -t tracefs nodev "$T_TFS" 2>/dev/null || { rmdir "$T_TFS"; T_TFS=; }
}
t_tracefs_umount() {
	[ -n "${T_TFS:-}" ] || return 0
	umount "$T_TFS" 2>/dev/null || umount -l "$T_TFS"
	rmdir "$T_TFS"
	T_TFS=
}

# t_live_state: what a live test must leave as found: the knobs, with
# current_tracer and tracing_on read through T_TFS.
t_live_state() {
	t_knob_snapshot | grep -v '^/sys/kernel/tracing/'
	[ -n "${T_TFS:-}" ] &&
		echo "current_tracer=$(cat "$T_TFS/current_tracer")" &&
		echo "tracing_on=$(cat "$T_TFS/tracing_on")"
}

t_knob_snapshot() {
	local k
	for k in $RP_KNOBS; do
		[ -r "$k" ] && echo "$k=$(cat "$k" 2>/dev/null)"
	done
}

# t_same BEFORE NOW WHAT: ok when two snapshots are equal, else the lines
# that changed, each "# WHAT changed: ".
t_same() {
	[ "$2" = "$1" ] && return 0
	diff <(echo "$1") <(echo "$2") | sed "s/^/# $3 changed: /"
	return 1
}

# t_knobs_unchanged BEFORE: ok when the knobs are as in BEFORE (a snapshot).
t_knobs_unchanged() { t_same "$1" "$(t_knob_snapshot)" knob; }

# t_bad_args PROG ARGS...: each ARGS (one word-split string) makes PROG
# exit 1 with one line of output; else 1, with a note of each that did not.
t_bad_args() {
	local prog=$1 args ok=0 log
	shift
	log=$(mktemp)
	for args in "$@"; do
		# shellcheck disable=SC2086
		t_run "$log" "$prog" $args
		if [ "$T_RC" != 1 ] || [ "$(wc -l <"$log")" != 1 ]; then
			t_note "bad input '$args': exit $T_RC"
			ok=1
		fi
	done
	rm -f "$log"
	return $ok
}

# ktap_valid LOG: the top-level KTAP in LOG is well-formed: a version line,
# one plan "1..N" (before or after the results), N results numbered 1..N in
# order, and only "#" diagnostics or indented subtests otherwise.
ktap_valid() {
	awk '
	function bad(m) { printf "# ktap: line %d: %s: %s\n", NR, m, $0; err = 1 }
	/^TAP version [0-9]+$/ || /^KTAP version [0-9]+$/ { ver++; next }
	/^1\.\.[0-9]+/ { if (plan != "") bad("second plan"); split($0, a, /[. ]/); plan = a[3]; next }
	/^(not )?ok [0-9]+/ {
		n = ($1 == "not") ? $3 : $2
		if (n != ++seen) bad("result " n " out of order")
		next
	}
	/^#/ || /^[ \t]/ || /^$/ { next }
	{ bad("stray line") }
	END {
		if (ver != 1) { print "# ktap: " ver + 0 " version lines"; err = 1 }
		if (plan == "") { print "# ktap: no plan"; err = 1 }
		else if (plan + 0 != seen) { print "# ktap: plan " plan " but " seen " results"; err = 1 }
		exit err
	}' "$1"
}

# t_busy LOG: the run in LOG could not judge because of other work on this
# machine: a check SKIPped "machine busy" / "other load", or another run
# held the suite's lock for the whole wait.
t_busy() {
	grep -qE '^ok [0-9]+ .*# SKIP .*(machine busy|other load)|^1\.\.0 # SKIP cannot take the rcu_perf lock' "$1"
}

# t_usage_error RC DESC PREFIX CMD...: CMD exits RC with one line on
# stderr, starting with PREFIX, and nothing on stdout: bad input, as every
# command of the suite answers it. RC is 1 for the programs (kselftest
# reads 2 as XFAIL), 2 for the tools (rcu_perf_compare, ab.sh...).
t_usage_error() {
	local want=$1 d=$2 pfx=$3 out err rc lines
	shift 3
	out=$(mktemp) err=$(mktemp)
	"$@" >"$out" 2>"$err"
	rc=$?
	lines=$(wc -l <"$err")
	if [ "$rc" = "$want" ] && [ "$lines" = 1 ] && [ ! -s "$out" ] &&
	   grep -q "^$pfx" "$err"; then
		t_note "$(cat "$err")"
		t_ok "usage: $d"
	else
		t_note "exit $rc, $lines stderr lines:"
		t_show "$err"
		t_show "$out"
		t_fail "usage: $d"
	fi
	rm -f "$out" "$err"
}

# t_qemu_missing KERNEL: why QEMU boots of KERNEL cannot run here, on
# stdout; nothing when they can.
t_qemu_missing() {
	if [ -z "$1" ] || [ ! -r "$1" ]; then
		echo "no cloud kernel (make cloud-kernel; offline?)"
	elif ! command -v qemu-system-x86_64 >/dev/null; then
		echo "no qemu-system-x86_64"
	elif [ ! -x /bin/busybox ]; then
		echo "no /bin/busybox (busybox-static)"
	fi
}

# t_wait_background: an untimed proof that boots the test kernels waits
# here for run.sh's background command (the kernels' build) and returns
# its exit status; 0 at once when there is none (run alone, or the
# kernels were built before).
t_wait_background() {
	local f=${RP_BACKGROUND_RC:-} i
	[ -n "$f" ] || return 0
	for ((i = 0; i < 3600; i += 2)); do
		[ -s "$f" ] && return "$(cat "$f")"
		sleep 2
	done
	return 124
}

# t_cells DESC SCENARIO KERNEL...: matrix.sh boots the test kernels of
# $small (healthy first) in SCENARIO, results under $tmp/SCENARIO; every
# cell must meet its expectations. In a "baseline: reference" scenario,
# also the A = A control: healthy's third boot, against its first two,
# must have judged every check against them (no SKIP) and passed it.
# CELL_ARGS: matrix.sh --args.
t_cells() {
	local d=$1 s=$2 k args=() missing want ref="" ctl
	shift 2
	want=$(($# + 1))
	# and the reference's second and third boots
	grep -q '^baseline: reference' "$RP_TOP_CONFIG/matrix/$s" && want=$((want + 2)) ref=1
	missing=$(t_qemu_missing "$small/healthy/bzImage")
	for k in healthy "$@"; do
		[ -f "$small/$k/bzImage" ] || missing=${missing:-"no $small/$k (make kernels)"}
		args+=(--kernel "$small/$k")
	done
	if [ -n "$missing" ]; then
		t_skip "$d" "$missing"
		[ -z "$ref" ] || t_skip "$d: the A = A control" "$missing"
		return
	fi
	t_run "$tmp/$s.log" nice -n 10 "$RP_STATIC/matrix.sh" \
		--scenarios "$RP_TOP_CONFIG/matrix" --results "$tmp/$s" \
		--only "$s" --jobs 2 ${CELL_ARGS:+--args "$CELL_ARGS"} "${args[@]}"
	t_note "$(grep -E '^[0-9]+ cells: ' "$tmp/$s.log")"
	t_check "$d: every cell met its expectations" eval \
		'test "$T_RC" = 0 && grep -qE "^$want cells: $want met" "$tmp/$s.log"'
	[ -n "$ref" ] || return 0
	ctl=$tmp/$s/healthy/$s.control/checks
	t_note "A = A: $(grep -P '_vs_baseline\t' "$ctl" 2>/dev/null | cut -f2,3 | tr '\t\n' '= ')"
	t_check "$d: the A = A control judged its checks against the reference, all ok" eval \
		'grep -qP "_vs_baseline\t" "$ctl" && ! grep -P "_vs_baseline\t" "$ctl" | grep -qvP "\tok\t"'
}

# t_prog_checks FILE.c [own]: the check names a program can print, from
# its check_names[] or checks[] array (#define'd names resolved) and its
# baseline_metrics[] (each "<metric>_vs_baseline", the dots as '_':
# lib/baseline.c); with "own", not the baseline ones.
t_prog_checks() {
	awk -v own="${2:-}" '
	/^#define[ \t]+[A-Z_]+[ \t]+"[^"]*"/ { gsub(/"/, "", $3); def[$2] = $3 }
	/(check_names|checks|baseline_metrics)\[\] = \{/ {
		vs = /baseline_metrics/
		on = !(vs && own != "")
	}
	on {
		s = $0
		sub(/.*\{/, "", s)
		n = split(s, w, /[ \t,{};]+/)
		for (i = 1; i <= n; i++) {
			t = w[i]
			if (t ~ /^".*"$/)
				gsub(/"/, "", t)
			else if (t in def)
				t = def[t]
			else
				continue
			if (vs) {
				gsub(/\./, "_", t)
				t = t "_vs_baseline"
			}
			print t
		}
	}
	on && /\};/ { on = 0 }' "$1"
}
