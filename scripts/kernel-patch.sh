#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Write the suite as a `git format-patch` series for the kernel, from this
# repository's current files (tracked and untracked, not ignored), one
# reviewable step per patch:
#
#   the library in four patches (the first with the Makefile, .gitignore,
#   settings, config, rcu_perf.conf's global part and the MAINTAINERS
#   entry), one patch per program, then bisect.sh, rcu_perf in the
#   default TARGETS and the documentation,
#
# and 0000-cover-letter.patch, which introduces them.
#
# Which file goes in which patch is the table below (defpatch): names, or
# globs such as lib/*, matched exactly first, then as globs. A file of the
# suite in no patch, or a name that matches no file, stops the script: a
# new file needs a place and a word in its commit message. The files every
# step changes are made here from the current ones for the programs added
# so far: the Makefile's TEST_* lists and its paragraphs (blocks between
# blank lines) that name no program not added yet - so a program's own
# rules stay in one paragraph that names it -, .gitignore's lines of those
# programs and rcu_perf.conf's "[program]" sections. So the tree builds after every patch, and after
# the last one it holds the suite file for file.
#
# The series is made in a scratch repository holding only the kernel files
# it changes (MAINTAINERS, tools/testing/selftests/Makefile,
# Documentation/dev-tools/index.rst), taken from TREE, which must not carry
# rcu_perf there yet; it applies with `git am` to that kernel. The author
# and Signed-off-by are this repository's git user, the date that of its
# HEAD, so the same commit always gives the same series.
#
#   scripts/kernel-patch.sh TOP TREE OUT     (make kernel-patch)
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

# The series: defpatch PATTERN... <<MSG, in order. Only the suite's
# patches are here; the TARGETS and documentation patches follow them.
np=0
p_pats=()
p_msg=()
defpatch() {
	p_pats[np]="$*"
	p_msg[np]=$(cat)
	np=$((np + 1))
}

defpatch Makefile .gitignore settings config rcu_perf.conf \
	lib/rcu_perf.h lib/internal.h lib/main.c lib/opts.c lib/checks.c \
	lib/util.c 'lib/*' <<'MSG'
selftests/rcu_perf: Add a library for RCU performance tests

RCU performance regressions have so far been found by people timing
something by hand: a loop of tracer switches, a boot, a kernel build.
This series adds a kselftest target that automates such cases and
turns each into KTAP pass/fail results a CI bot can act on. Its
programs share one library, added in this and the next three patches;
the programs follow one per patch.

Start with what every program is made of:

- lib/rcu_perf.h, the library's interface, and lib/internal.h, what its
  files tell each other;
- main.c: start-up and exit. rp_init() reads the options before
  anything is touched; every way out (rp_finish(), rp_exit_skip(),
  rp_fatal()) reports every planned check, restores what the program
  changed and prints the KTAP totals;
- opts.c: the options every program takes and its named thresholds,
  each with a unit, a default and a one-line reason ("--list"),
  overridden by rcu_perf.conf, the environment (RCU_PERF_<NAME>) and
  "--set NAME=VALUE", in that order;
- util.c: allocation that exits on out of memory, the clock, whole-file
  reads and tree removal, the leaf every other file may call;
- checks.c: the KTAP checks. Each result is preceded by what was
  measured against which limit; "not ok" only when even the favourable
  end of the confidence interval is past it; whatever prevents a
  judgement (not root, one CPU, a busy machine, too much noise) is a
  SKIP with the reason.

The Makefile links the library's objects into every program, with
libperf and libapi built from tools/lib into the output directory and
linked statically, so that an installed copy runs anywhere. It lists no
program yet. settings raises the runner's per-test timeout from its
default 45 s to 120 s, config is
the kernel configuration the tests need, rcu_perf.conf documents the
global settings (each program's section comes with the program).

Add a MAINTAINERS entry for the directory.
MSG

defpatch lib/guard.c lib/allow.c lib/proc.c lib/tracefs.c lib/cpus.c <<'MSG'
selftests/rcu_perf: Add a guard that restores what the tests change

The tests change rcu_expedited, rcu_normal, the rcutree FQS parameters,
the current tracer and the online CPUs. A performance test that leaves
a machine with slow grace periods or an offline CPU breaks every test
run after it, and kselftest ends a test that overruns its timeout with
SIGTERM, a user with ^C and an OOM kill with SIGKILL.

Add the guard every such change goes through: one program at a time
(an exclusive flock), the original value saved before the first write
(in memory and, fsync'ed, in a state file under /run/rcu_perf), and
everything restored in reverse order at exit, on SIGINT, SIGTERM,
SIGHUP and the other fatal signals, and, after a SIGKILL, by the next
run. "--knob PATH=VALUE" sets any sysfs or tracefs file for the
duration of a run through the same guard: that is how a regression is
injected on purpose, e.g. slower grace-period scans.

guard.c holds the lock, the state file, the replay and the restore;
allow.c the files that may be changed at all; proc.c the temporary
trees and child process groups, tracefs.c the tracefs mount, each
recording its changes through the guard first; cpus.c lists the online
CPUs.
MSG

defpatch lib/load.c lib/stats.c lib/scaling.c lib/sampler.c lib/kmsg.c <<'MSG'
selftests/rcu_perf: Add the library's measurements and statistics

Add what the tests measure with and how they judge it:

- load.c: busy threads pinned to chosen CPUs, a loop without system
  calls, so that RCU must force their quiescent states: the "busy CPU"
  of the regressions checked here;
- stats.c: summaries of samples, block-bootstrap confidence intervals
  that stay honest for skewed and bimodal latencies, Mann-Whitney and
  Welch tests and the minimum detectable effect, and rp_compare_stat()
  and rp_compare_runs(), one before/after verdict (regressed only when
  significant and beyond the allowed change; inconclusive when the test
  could not have seen it);
- scaling.c: CPU-count sweeps and the Karp-Flatt serial fraction of a
  workload relative to a parallel and a serial control measured in the
  same run;
- sampler.c: what the programs' measurement loops share, written once:
  samples kept, intervals that have all settled, the reasons a check
  cannot be judged, a work directory of the run's own;
- kmsg.c: the time the kernel handed over to user space, from the
  kernel log ("Write protecting the kernel read-only data" and the
  fallbacks of other architectures and configurations).
MSG

defpatch lib/system.c lib/report.c lib/json.c lib/results.c lib/baseline.c <<'MSG'
selftests/rcu_perf: Add machine facts, JSON results and baselines

A KTAP verdict says whether a limit held; to find a regression of a
few percent, or to bisect one, a maintainer needs the samples and what
they were measured on. Add:

- system.c: facts of the machine and the running kernel: the clock,
  HZ and the kernel's default FQS interval (the limits of the tests are
  derived from them rather than tuned on one machine), CPU lists and
  CPU time, the kernel configuration, the CPU model and the preemption
  model; the "system" object of every results file and the key that
  tells whether a baseline was recorded on the same machine;
- report.c: the results document of a run, written with --json FILE
  or --outdir DIR: kernel release and configuration, per metric the
  samples, summary and unit, and each check's threshold and verdict
  (schema "rcu_perf-results", version 1);
- json.c: a small JSON writer and a strict RFC 8259 reader;
- results.c: the one reader of results files, for baselines and for
  before/after comparisons: each metric's samples merged over the runs
  read, run by run, and each check kept per file;
- baseline.c: with --baseline DIR, each metric a program names is also
  judged against earlier results of known-good kernels on the same
  machine and configuration ("<metric>_vs_baseline", the metric's dots
  as '_': KCIDB paths split at dots), with
  rp_compare_runs(); results recorded on another CPU model, CPU count, HZ,
  kernel configuration or command line make those checks SKIP.

A limit derived from the kernel's own parameters must hold on every
machine, so it leaves room for the slowest of them; a baseline of the
same machine does not need that room.
MSG

defpatch gp_throttle.c <<'MSG'
selftests/rcu_perf: Add gp_throttle, grace periods on idle CPUs

After commit c229828ca6bc ("rcu: Throttle rcu_try_advance_all_cbs()
execution") a loop of ftrace tracer switches took 49 s instead of 35 s
on an idle 2-CPU machine, while with both CPUs busy it took 20 s on
either kernel: a busy CPU reports its quiescent states from the tick,
an idle one is noticed only by the force-quiescent-state (FQS) scans.

gp_throttle times grace-period bound operations one at a time (tracer
switches, membarrier(MEMBARRIER_CMD_GLOBAL)) with no, one and all CPUs
busy, in interleaved blocks, and judges what idle adds over the
all-busy median, in jiffies: the mean (what a loop of them takes in
total) against one default FQS interval plus half a jiffy of tick
phase, and the 90th percentile against the first and the next FQS
interval plus one jiffy. The default FQS interval is the kernel's own
(1 + (HZ > 250) + (HZ > 500) + nr_cpu_ids / 256), not the current
value, so a kernel booted or tuned with slower scans shows as the
regression it is.

How it fails: rcutree.jiffies_till_first_fqs and jiffies_till_next_fqs
raised from 1 to 3 (e.g. with --knob) make idle grace periods twice as
slow and the mean check fails; at 50 both fail, while busy ones stay
fast. An idle block during which other tasks kept the CPUs busy is
thrown away; a machine with one CPU, a busy or too noisy machine is a
SKIP.
MSG

defpatch gp_expedited.c <<'MSG'
selftests/rcu_perf: Add gp_expedited, expedited grace periods

Expediting grace periods during boot (rcupdate.rcu_expedited=1) cut
the time to "Write protecting the kernel read-only data" by 18% in a
KVM guest. Such a change relies on expedited grace periods being much
faster than normal ones.

gp_expedited times membarrier(MEMBARRIER_CMD_GLOBAL), which waits for
a synchronize_rcu(), with /sys/kernel/rcu_expedited 0 and 1 in
alternating blocks, and judges the ratio of the mean expedited latency
to the mean normal one with a block-bootstrap interval: a normal grace
period waits for ticks and FQS scans, an expedited one only for IPIs
to be answered, so a ratio near 1 means expedited grace periods no
longer expedite. That limit lets an expedited path get a hundred times
slower: a second check sets the mean expedited latency against a
control timed in the same run, a wake-up round trip to a thread on
another CPU (an idle expedited grace period is two or three such
wake-ups), at most 3 round trips; healthy kernels measured 0.03-1.7.
On a VM an idle expedited grace period is a quarter of that round
trip, so a third check times expedited grace periods beside a thread
spinning in user space on another CPU, which the grace period must
interrupt, against membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) to the
same CPU plus one wake-up: at most 2, healthy 0.86-1.48 (a 2-CPU VM,
TCG and instruction-counted QEMU guests). Controls that found other
tasks on the busy CPU interrupted nothing and are left out. It is
skipped where the host does not give the vCPUs a CPU each.

How it fails: /sys/kernel/rcu_normal=1 (the PREEMPT_RT default after
boot) turns expedited grace periods into normal ones; the ratio goes
to about 1 and every check fails. An expedited path five times slower
fails the last two in an instruction-counted QEMU guest. A kernel
without the sysfs files (TINY_RCU) or a system that disables expedited
grace periods on purpose is a SKIP.
MSG

defpatch boot_marker.c <<'MSG'
selftests/rcu_perf: Add boot_marker, this boot's time to user space

Expediting grace periods during boot (rcupdate.rcu_expedited=1) was
measured as the time of "Write protecting the kernel read-only data"
in the kernel log, and the RCU maintainer asked for measurements of
actual boot time.

boot_marker reads this boot's kernel log (/dev/kmsg), finds that marker
or the fallback of other architectures and configurations, and reports
its time and the RCU boot parameters in effect. How long a boot should
take depends on the machine, so the one check judges the time against
earlier boots of it (--baseline; a kernel that boots 3% slower fails
it); without a baseline it skips, and the time goes to the JSON
results, a baseline's run. "--parse" prints only the marker's time and
name, of this boot or of a saved log (--log FILE), for scripts.
MSG

defpatch dcache_scaling.c <<'MSG'
selftests/rcu_perf: Add dcache_scaling, path lookup across CPUs

dcache_rcu (Linux 2.5.62) made dcache lookups lock-free; its evidence
was kernbench on UP, 2, 4 and 16 CPUs. Path walk has since become
rcu-walk, and lookups of private paths should still scale nearly
linearly with CPUs.

dcache_scaling runs path-lookup workloads (stat() of private and shared
paths, cached negative dentries, open() of a shared file, ".." and
symlinks) on 1, 2, 4, ... CPUs and judges each workload's Karp-Flatt
serial fraction against two controls measured at every CPU count in
the same run: a parallel one (private fstat() and arithmetic, nothing
shared) and a serial one (the same under one global spinlock). 0
scales like the parallel control, 1 is as serialized as one global
lock; the limit is 0.5 for rcu-walk workloads and 0.9 for those that
end on one shared lockref. A machine that cannot run N workers at once
(a CPU quota, overcommitted vCPUs) shows in the parallel control and
that CPU count is a SKIP, not a failure.

How it fails: --set serialize_lookups=1 makes every worker take the
serial control's lock around each lookup, as dcache_lock serialized
lookups before dcache_rcu, and the rcu-walk checks fail.
MSG

defpatch kernbench.c <<'MSG'
selftests/rcu_perf: Add kernbench, build times across CPU counts

dcache_rcu was merged on kernbench numbers: "make -j" on UP, 2, 4 and
16 CPUs, five runs each, reported as "Elapsed: User: System: CPU:". A
build is dominated by path lookups in its kernel part, as the compiler
searches every -I directory for every #include.

kernbench times builds of a generated header-heavy tree at each CPU
count as GNU time does, restricted to N CPUs by affinity, prints each
run and the averages in that format, and judges the build's Karp-Flatt
serial fraction relative to a parallel control timed beside every
build. System time is kept in the results for a comparison with a
baseline of the same machine.

How it fails: --set jobs=1 builds with -j1 at every CPU count and the
speedup check fails. Too long for kselftest's default run: an extended
program.
MSG

defpatch rcu_perf_compare.c 'compare_*.c' compare.h <<'MSG'
selftests/rcu_perf: Add rcu_perf_compare to compare kernels

Every RCU performance regression found so far was a before/after
comparison judged by hand in a mail. rcu_perf_compare makes it one
command with a verdict a bot can act on: it merges the samples of each
metric over the results files of each side and judges every metric
with rp_compare_stat() or, run by run, rp_compare_runs(): regressed only
when the change is significant and worse than the metric's allowed
change, "no significant change" only when the test could have seen that
change, else inconclusive. Exit status 0, 1 (regressed), 2 (bad input)
or 3 (inconclusive).

One file per other job: compare_input.c reads the results files,
compare_kcidb.c writes KCIDB v5 test objects (--kcidb), compare_repeat.c
runs two commands alternately until the verdict is conclusive
(--repeat).
MSG

defpatch bisect.sh <<'MSG'
selftests/rcu_perf: Add bisect.sh, a git bisect run helper

Once a regression is seen between two kernels, the commit is found by
bisection; a performance verdict needs repeated runs and must not mark
a commit bad because the setup broke. bisect.sh runs a command (a
suite program, or anything that writes rcu_perf results), compares its
results with the stored results of a good kernel using
rcu_perf_compare, runs it again while the verdict is inconclusive, and
exits as "git bisect run" wants: 0 good, 1 bad, 125 skip, 128 abort.
MSG

work=$out/.work
rm -rf "$work" "$out"/*.patch
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
g() { git -C "$work" "$@"; }

# The suite's files, relative to $suite, and each one's patch.
mapfile -t files < <(git -C "$top" ls-files -co --exclude-standard -- "$suite" |
	while read -r f; do
		if [ -f "$top/$f" ]; then echo "${f#"$suite"/}"; fi
	done | LC_ALL=C sort)
declare -A owner=()
set -f
for pass in name glob; do
	for ((i = 0; i < np; i++)); do
		for pat in ${p_pats[i]}; do
			if [[ $pat == *[*?[]* ]]; then
				[ $pass = glob ] || continue
			else
				[ $pass = name ] || continue
				[ -f "$top/$suite/$pat" ] ||
					die "patch $((i + 1)) names $pat, not in the suite: update $0"
			fi
			for f in "${files[@]}"; do
				# shellcheck disable=SC2053 # $pat is a glob
				if [ -z "${owner[$f]}" ] && [[ $f == $pat ]]; then
					owner[$f]=$i
				fi
			done
		done
	done
done
set +f
orphans=""
for f in "${files[@]}"; do
	[ -n "${owner[$f]}" ] || orphans+=" $f"
done
[ -z "$orphans" ] || die "in no patch of the series:$orphans (add them to $0)"

# The programs, as the Makefile lists them; each is added by the patch of
# its source (X.c or the script X).
mk=$top/$suite/Makefile
grep -qE '^TEST_[A-Z_]+ *:=.*\\$' "$mk" && die "$mk: a TEST_* list continues over lines"
all_progs=" $(sed -nE 's/^TEST(_GEN)?_PROGS(_EXTENDED)? *:= *//p' "$mk" | tr '\n' ' ')"
declare -A prog_patch=()
for p in $all_progs; do
	for f in "$p.c" "$p"; do
		if [ -n "${owner[$f]}" ]; then
			prog_patch[$p]=${owner[$f]}
			break
		fi
	done
	[ -n "${prog_patch[$p]}" ] || die "program $p of $mk has no source in the suite"
done
conf=$top/$suite/rcu_perf.conf
for s in $(sed -nE 's/^#? *\[([^]]*)\].*/\1/p' "$conf"); do
	[[ $all_progs == *" $s "* ]] || die "$conf: section [$s] is no program of $mk"
done

# The files each step changes, for the programs in $missing not added yet
# (" a b "): gen_step SRC DST.
gen_step() {
	case ${1##*/} in
	Makefile)
		# Each TEST_* list without them (a list left empty goes), and
		# every other paragraph that names one of them.
		awk -v missing="$missing" '
		function named(s,  t, n, i) {
			n = split(s, t, /[^A-Za-z0-9_.]+/)
			for (i = 1; i <= n; i++)
				if (t[i] != "" && index(missing, " " t[i] " "))
					return 1
			return 0
		}
		function flush(  i) {
			if (n && (lists || !named(para)))
				printf "%s", blanks para
			n = 0; para = ""; blanks = ""; lists = 0
		}
		/^$/ { if (n) flush(); blanks = blanks "\n"; next }
		/^TEST(_GEN)?_PROGS(_EXTENDED)? *:=/ {
			lists = 1
			split($0, kv, /:= */)
			m = split(kv[2], w, / +/)
			keep = ""
			for (i = 1; i <= m; i++)
				if (w[i] != "" && !index(missing, " " w[i] " "))
					keep = keep " " w[i]
			n++
			if (keep != "")
				para = para kv[1] ":=" keep "\n"
			next
		}
		{ n++; para = para $0 "\n" }
		END { flush() }' "$1" >"$2"
		;;
	.gitignore)
		awk -v missing="$missing" '{ p = $0; gsub(/^\/|\/$/, "", p) }
			!index(missing, " " p " ")' "$1" >"$2"
		;;
	rcu_perf.conf)
		# The global part and the sections of the programs added;
		# no blank line at the end.
		awk -v missing="$missing" '
		match($0, /^#? *\[[^]]*\]/) {
			s = substr($0, RSTART, RLENGTH)
			sub(/^#? *\[/, "", s)
			sub(/\]$/, "", s)
			drop = index(missing, " " s " ")
		}
		drop { next }
		/^$/ { blanks = blanks "\n"; next }
		{ printf "%s%s\n", blanks, $0; blanks = "" }' "$1" >"$2"
		;;
	*)
		die "gen_step: $1"
		;;
	esac
}
generated="Makefile .gitignore rcu_perf.conf"

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

# The suite, patch by patch.
for ((i = 0; i < np; i++)); do
	n=0
	for f in "${files[@]}"; do
		[ "${owner[$f]}" = "$i" ] || continue
		install -D -m "$(stat -c %a "$top/$suite/$f")" "$top/$suite/$f" "$work/$suite/$f"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || die "patch $((i + 1)) of the table has no file"
	missing=" "
	for p in $all_progs; do
		[ "${prog_patch[$p]}" -le $i ] || missing+="$p "
	done
	for f in $generated; do
		if [ -f "$work/$suite/$f" ]; then
			gen_step "$top/$suite/$f" "$work/$suite/$f"
		fi
	done
	if [ $i = 0 ]; then
		maint_entry "$suite/"
	fi
	g add -A
	printf '%s\n' "${p_msg[i]}" | g commit -q -s -F -
done
# After the last patch of the suite, the suite is this repository's.
for f in "${files[@]}"; do
	cmp -s "$top/$suite/$f" "$work/$suite/$f" ||
		die "$suite/$f: the series does not end with this repository's file"
done

# The default TARGETS, in their alphabetical place.
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

Each program ends well within the suite's 120 s timeout and reports a
SKIP, not a failure, where it cannot judge: without root, on one CPU,
on a busy or emulated machine that is too noisy.
MSG

# The documentation, its index entry and MAINTAINERS.
install -D -m 644 "$top/$doc" "$work/$doc"
awk '{ print } /^   kselftest$/ { print "   rcu_perf"; done = 1 } END { exit !done }' \
	"$tree/$index" >"$work/$index"
maint_entry "$doc" "$suite/"
g add -A
g commit -q -s -F - <<'MSG'
Documentation: dev-tools: Add rcu_perf

Document the RCU performance selftests for a kernel tree and a CI bot:
the three historical regressions they guard (idle grace periods after
commit c229828ca6bc ("rcu: Throttle rcu_try_advance_all_cbs()
execution"), expedited grace periods at boot, RCU path-walk scaling),
how to run them, what each program measures and every check name it can
print with what its verdicts mean (not ok is a measured regression, a
SKIP is not judged here and says why), the options, rcu_perf.conf and
RCU_PERF_* variables, exit codes, the JSON results and baselines, the
guard that restores what the tests change, rcu_perf_compare and
bisect.sh, and how to validate a patched kernel.

Link it from the dev-tools index next to kselftest and list it in the
rcu_perf MAINTAINERS entry.
MSG

# The cover letter: what the series is for and how to run it;
# format-patch adds the shortlog and diffstat, and dates it now: HEAD's
# date instead.
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

The series first adds the tests' shared library (options and limits,
KTAP checks, the guard that restores every knob a test changes,
statistics, JSON results and baselines) with the Makefile and
a MAINTAINERS entry, then one program per patch, each commit message
naming the regression it checks and how to make its checks fail, then
the maintainer's tools (rcu_perf_compare, bisect.sh). The last two
patches add rcu_perf to the default TARGETS and the documentation. The
tree builds after every patch.

Run with:

  make -C tools/testing/selftests TARGETS=rcu_perf run_tests

or one program alone, e.g. "./gp_throttle --quick"; "--list" shows every
limit with its unit and reason.
BLURB
mv "$cover.new" "$cover"
ls "$out"/*.patch
