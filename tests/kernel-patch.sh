#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Write the suite as a `git format-patch` series for the kernel, from this
# repository's current files (tracked and untracked, not ignored):
#
#   0001 selftests/rcu_perf: the suite, its .gitignore and a MAINTAINERS entry
#   0002 selftests: rcu_perf in the default TARGETS
#   0003 Documentation: rcu_perf.rst, the dev-tools index, MAINTAINERS F:
#
# and 0000-cover-letter.patch, which introduces them.
#
# The series is made in a scratch repository holding only the kernel files
# it changes (MAINTAINERS, tools/testing/selftests/Makefile,
# Documentation/dev-tools/index.rst), taken from TREE, which must not carry
# rcu_perf there yet; it applies with `git am` to that kernel. The author
# and Signed-off-by are this repository's git user, the date that of its
# HEAD, so the same commit always gives the same series.
#
#   tests/kernel-patch.sh TOP TREE OUT     (make kernel-patch)
set -e -o pipefail
die() { echo "kernel-patch: $*" >&2; exit 2; }
[ $# -eq 3 ] || die "usage: kernel-patch.sh TOP TREE OUT"
top=$(realpath "$1") && tree=$(realpath "$2") || die "no such directory"
out=$(realpath -m "$3")
suite=tools/testing/selftests/rcu_perf
ksft_mk=tools/testing/selftests/Makefile
index=Documentation/dev-tools/index.rst
doc=Documentation/dev-tools/rcu_perf.rst
for f in MAINTAINERS $ksft_mk $index; do
	[ -f "$tree/$f" ] || die "$tree is not a kernel tree: no $f"
done
grep -q 'rcu_perf' "$tree/$ksft_mk" "$tree/MAINTAINERS" "$tree/$index" &&
	die "$tree already lists rcu_perf: need the kernel's own files"

name=$(git -C "$top" config user.name) && email=$(git -C "$top" config user.email) ||
	die "git config user.name and user.email are needed for Signed-off-by"
export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email
export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
GIT_AUTHOR_DATE=$(git -C "$top" log -1 --format=%ad --date=raw)
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE

work=$out/.work
rm -rf "$work" "$out"/*.patch
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
g() { git -C "$work" "$@"; }
g init -q
for f in MAINTAINERS $ksft_mk $index; do
	install -D -m 644 "$tree/$f" "$work/$f"
done
g add -A
g commit -q -m base
g tag base

# maint_entry FILE...: MAINTAINERS with the rcu_perf section for FILE...
# inserted where the section titles' order puts it.
maint_entry() {
	awk -v files="$*" -v who="$name <$email>" '
	function entry(  n, i, f) {
		print "RCU PERFORMANCE SELFTESTS"
		print "M:\t" who
		print "L:\trcu@vger.kernel.org"
		print "S:\tMaintained"
		n = split(files, f, " ")
		for (i = 1; i <= n; i++)
			print "F:\t" f[i]
		print ""
	}
	{ line[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			if (!done && line[i - 1] == "" && line[i + 1] ~ /^[A-Z]:\t/ &&
			    line[i] ~ /^[A-Z0-9]/ && line[i] > "RCU PERFORMANCE SELFTESTS" &&
			    i > 100) {
				entry()
				done = 1
			}
			print line[i]
		}
		if (!done)
			exit 1
	}' "$tree/MAINTAINERS" >"$work/MAINTAINERS"
}

# Patch 1: the suite as this repository has it now.
git -C "$top" ls-files -co --exclude-standard -- "$suite" |
	while read -r f; do
		[ -f "$top/$f" ] && install -D -m "$(stat -c %a "$top/$f")" "$top/$f" "$work/$f"
	done
maint_entry "$suite/"
g add -A
g commit -q -s -F - <<'MSG'
selftests/rcu_perf: Add RCU performance selftests

RCU performance regressions have so far been found by people timing
something by hand: a loop of tracer switches, a boot, a kernel build.
Add a kselftest target that automates three such cases and turns each
into KTAP pass/fail results that a CI bot can act on:

1. gp_throttle: after commit c229828ca6bc ("rcu: Throttle
   rcu_try_advance_all_cbs() execution") a loop of ftrace tracer
   switches took 49 s instead of 35 s on an idle 2-CPU machine, while
   with both CPUs busy it took 20 s on either kernel: an idle CPU is
   noticed only by the force-quiescent-state scans. The test times
   grace-period bound operations (tracer switches,
   membarrier(MEMBARRIER_CMD_GLOBAL)) with no, one and all CPUs busy
   and fails when the mean or the tail of the idle latency exceeds the
   all-busy median by more than the kernel's default FQS pace allows.

2. gp_expedited, boot_marker: expediting grace periods during boot cut
   the time to "Write protecting the kernel read-only data" by 18%.
   gp_expedited checks that expedited grace periods are faster than
   normal ones on the running kernel (rcu_normal=1 fails it);
   boot_marker reports this boot's time to that marker. boot_ab, not
   run by default, boots two kernels or two command lines under QEMU N
   times each, for the before-and-after boot times a maintainer asks
   for.

3. dcache_scaling: dcache_rcu was merged on kernbench numbers from UP
   to 16 CPUs. The test runs path-lookup workloads on 1, 2, 4, ... CPUs
   and judges their scaling against a parallel and a serial control
   measured in the same run; a lookup that takes one global lock
   fails. kernbench, not run by default, times builds at each CPU
   count.

Limits derive from a control measured in the same run or from the
running kernel's own parameters (HZ, the default FQS interval, the CPU
count), not from constants tuned on one machine. Whatever prevents a
judgement (not root, a missing feature, one CPU, a busy machine, too
much noise) is a SKIP with the reason. Every result is preceded by the
measured value and its limit, and --json writes the samples for
rcu_perf_compare, which compares kernels, and for bisect.sh, a
"git bisect run" helper.

The tests change rcu_expedited, rcu_normal, the rcutree FQS parameters,
the current tracer and online CPUs only through one guard that restores
them on exit, on the signals of kselftest's timeout and, after a
SIGKILL, on the next run.

Counters come from libperf's public API (software counters) and from
perf_event_open(2) with PERF_EVENT_IOC_SET_FILTER (filtered tracepoints,
one per online CPU); libperf and libapi are built from tools/lib into
the output directory and linked statically, so an installed copy runs
anywhere.

Run with:

  make -C tools/testing/selftests TARGETS=rcu_perf run_tests

or a program alone, e.g. "./gp_throttle --quick"; "--list" shows every
limit with its unit and reason.
MSG

# Patch 2: the default TARGETS, in their alphabetical place.
awk '!done && /^TARGETS \+= / && $3 > "rcu_perf" {
	print "TARGETS += rcu_perf"; done = 1 }
	{ print } END { exit !done }' "$tree/$ksft_mk" >"$work/$ksft_mk"
g commit -q -s -a -F - <<'MSG'
selftests: Add rcu_perf to the default TARGETS

Build and run the RCU performance tests with the other default targets,
so that "make kselftest" and CI bots that run the default set report
the three regressions rcu_perf checks: grace periods delayed on idle
CPUs, expedited grace periods that are not faster, and RCU path walk
that stops scaling with CPUs.

Each program ends well within kselftest's 120 s timeout and reports a
SKIP, not a failure, where it cannot judge: without root, on one CPU,
on a busy or emulated machine that is too noisy.
MSG

# Patch 3: the documentation, its index entry and MAINTAINERS.
install -D -m 644 "$top/$doc" "$work/$doc"
awk '{ print } /^   kselftest$/ { print "   rcu_perf"; done = 1 } END { exit !done }' \
	"$tree/$index" >"$work/$index"
maint_entry "$doc" "$suite/"
g add -A
g commit -q -s -F - <<'MSG'
Documentation: dev-tools: Add rcu_perf

Document the RCU performance selftests: how to run them, what a result
means to a CI bot (not ok is a measured regression; SKIP means not
judged here, with the reason), and for each check the historical
regression it automates, how its limit is derived and how to make it
fail on purpose: idle grace periods after commit c229828ca6bc ("rcu:
Throttle rcu_try_advance_all_cbs() execution"), expedited grace periods
at boot, and RCU path-walk scaling. Also the guard that restores what
the tests change, and comparing results between kernels.

Link it from the dev-tools index next to kselftest and list it in the
rcu_perf MAINTAINERS entry.
MSG

# The cover letter: what the series is for; format-patch adds the
# shortlog and diffstat, and dates it now: HEAD's date instead.
g format-patch -q --cover-letter -o "$out" base..HEAD
cover=$out/0000-cover-letter.patch
awk -v date="$(g log -1 --format=%aD)" 'FNR == NR { blurb = blurb $0 "\n"; next }
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/,
		"selftests: Add RCU performance tests (rcu_perf)") }
	/^\*\*\* BLURB HERE \*\*\*$/ { printf "%s", blurb; next }
	/^Date: / && !dated { print "Date: " date; dated = 1; next }
	{ print }' - "$cover" >"$cover.new" <<'BLURB'
RCU performance regressions have been found by hand: a loop of tracer
switches on an idle machine, a boot timed before and after, kernbench
across CPU counts. This series turns three such cases into a kselftest
target with KTAP verdicts a CI bot can act on: grace periods delayed on
idle CPUs (gp_throttle), expedited grace periods that are not faster
(gp_expedited, boot_marker) and RCU path walk that stops scaling with
CPUs (dcache_scaling). Every limit derives from a control measured in
the same run or from the kernel's own parameters; whatever cannot be
judged on a machine is a SKIP with the reason.

Patch 1 adds the tests, patch 2 adds them to the default TARGETS, patch
3 the documentation. Run with:

  make -C tools/testing/selftests TARGETS=rcu_perf run_tests
BLURB
mv "$cover.new" "$cover"
ls "$out"/*.patch
