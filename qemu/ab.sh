#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab.sh: is kernel B slower than kernel A? Boot each in QEMU guests whose
# time counts instructions (guest.sh --mode icount: -icount shift=0,
# sleep=off), run the suite's workloads whose cost is deterministic there
# (one vCPU: dcache_scaling's lookups at N=1 and its controls, boot_marker's
# time to user space; two vCPUs: gp_throttle's and gp_expedited's grace-
# period latencies), and compare the results with rcu_perf_compare: a
# table per metric (A, B, change %) and a verdict.
#
#   ab.sh --kernel-a IMAGE [--kernel-b IMAGE] [options]
#   ab.sh --judge DIR [options]
#   ab.sh --one IMAGE [--append-a ARGS] [options]
#
#   --kernel-a IMAGE    kernel A: a bzImage, or a directory holding
#                       bzImage or vmlinuz (required)
#   --kernel-b IMAGE    kernel B (default: kernel A)
#   --append-a ARGS     A's extra kernel command line
#   --append-b ARGS     B's extra kernel command line
#   --outdir DIR        the guests' results: DIR/A-1, DIR/A-again, DIR/B-1,
#                       ..., the GP guests' DIR/A-1-gp, ... (default: a
#                       temporary directory, removed)
#   --boots N           boots per side (default 1; 2 also judges the boot
#                       time, which has one sample per boot)
#   --no-repeat         do not boot A once more to measure repeatability
#   --no-gp             no grace-period guests (only the lookups and boot)
#   --gp-cpus N         the GP guests' vCPUs (default 2)
#   --jobs N            guests at once (default: online CPUs; the results
#                       do not depend on the host's load)
#   --quick             shorter workloads (dcache_scaling --quick)
#   --judge DIR         boot nothing: compare the guests' results already
#                       in DIR (A-N, B-N, A-again and their -gp: an earlier
#                       --outdir)
#   --one IMAGE         boot only IMAGE, once, and copy its dcache_scaling
#                       results to $RCU_PERF_JSON: the command bisect.sh
#                       runs at each step, against a stored --one of the
#                       good kernel
#   --set NAME=PCT      an allowed change (see --list)
#   --list              the allowed changes, their defaults and reasons
#   --bindir, --busybox, --qemu, --timeout: as guest.sh
#
# Every metric has an allowed change in % of A's median (for the grace
# periods also of its mean, what a loop of them feels, and of its 90th
# percentile, the tail). Under icount the noise is ~0, so the defaults are
# small. That claim is checked on every run: A is booted once more
# (A-again) and the change between the two boots of A is printed as the
# measured repeatability; a metric that moves by more than half its
# allowed change between two boots of the same kernel is not judged
# (exit 3).
#
# The GP guests have two vCPUs, which take turns on one host thread: a GP
# needs a second CPU to wait for. Their latencies repeat boot to boot to
# 0.01% (the busy levels' samples spread within a boot, but repeat too);
# another kernel, even one changed far from RCU, takes another path
# through the busy levels' interleaving (see the limits). Scaling across
# CPUs stays with the wall-clock kernel matrix (matrix.sh). Instruction
# counts do not model caches either: a patch that only changes cache
# behaviour (false sharing, data layout) is invisible here.
#
# Exit status (as rcu_perf_compare's): 0 no regression, 1 a metric of B
# regressed beyond its allowed change, 2 bad usage or a guest failed
# (panic, hang, no results), 3 inconclusive (A did not repeat, or too
# few samples), 4 cannot run (no QEMU, no static busybox).

set -u -o pipefail
me=ab.sh
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "$me: $*" >&2; exit 2; }

# The allowed changes: name, default %, the metrics (globs over
# <test>.<metric>, the last matching line wins), why.
limits=(
	"lookup_change|1|dcache_scaling.*|the dcache workloads' ops/s at N=1: two boots of one kernel under icount repeat them to 0.01% (measured each run): 1% leaves room for other kernels and is half the 2% worth reporting"
	"negative_change|3|dcache_scaling.negative.*|on tmpfs each miss allocates a dentry and frees it after a grace period: RCU's callback batches fall differently in the sample windows: boots of one kernel differ by up to 0.6%"
	"control_change|1|dcache_scaling.parallel.* dcache_scaling.serial.*|the controls (fstat() of an open file, with and without a lock) walk no path: they move only when syscall entry, the scheduler or the timer tick cost more"
	"boot_change|2.5|boot_marker.*|virtual time to user space: two boots of Debian's kernel differ by up to 1.5% even here (the small kernel: 0.001%); a changed command line moves the tick's phase, a stddev of 1.6%"
	"gp_idle_change|10|gp_throttle.*.idle.* gp_expedited.membarrier.normal.*|idle GPs (2 vCPUs): two boots of one kernel repeat them to 0.01%, kernels changed outside RCU move them by <2% (mean); one jiffy more per GP is +50%, seed 000's throttling +39%"
	"gp_busy_change|50|gp_throttle.*busy.*|GPs beside busy CPUs: they repeat boot to boot, but the hogs' time slices cut them anywhere and any code change reshuffles them: kernels changed outside RCU moved them by up to 31%; 50 samples resolve 12-36% (the MDE)"
	"exp_change|25|gp_expedited.membarrier.expedited.*|expedited GPs (IPIs, tens of us): two boots repeat them exactly, kernels changed outside RCU moved the mean by up to 7%; a slower expedited path is several times slower"
)

# lim_field LINE N: field N (1: name, 2: default, 3: globs, 4: reason)
lim_field() { local f; IFS='|' read -r -a f <<<"$1"; echo "${f[$2 - 1]}"; }
declare -A lim_val=()
for l in "${limits[@]}"; do lim_val[$(lim_field "$l" 1)]=$(lim_field "$l" 2); done

kernel_a="" kernel_b="" append_a="" append_b="" outdir="" boots=1
repeat=1 jobs="" quick=0 list=0 gargs=() judge="" one="" gp=1 gp_cpus=2
need() { [ $# -ge 2 ] || die "option $1 needs a value"; }
while [ $# -gt 0 ]; do
	case $1 in
	--kernel-a) need "$@"; kernel_a=$2; shift 2 ;;
	--kernel-b) need "$@"; kernel_b=$2; shift 2 ;;
	--append-a) need "$@"; append_a=$2; shift 2 ;;
	--append-b) need "$@"; append_b=$2; shift 2 ;;
	--outdir) need "$@"; outdir=$2; shift 2 ;;
	--boots) need "$@"; boots=$2; shift 2 ;;
	--no-repeat) repeat=0; shift ;;
	--no-gp) gp=0; shift ;;
	--gp-cpus) need "$@"; gp_cpus=$2; shift 2 ;;
	--jobs) need "$@"; jobs=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--judge) need "$@"; judge=$2; shift 2 ;;
	--one) need "$@"; one=$2; shift 2 ;;
	--set)
		need "$@"
		n=${2%%=*} v=${2#*=}
		if [ -z "${lim_val[$n]+x}" ] || [ "$n" = "$2" ]; then
			die "--set $2: expected NAME=PCT, NAME one of: ${!lim_val[*]}"
		fi
		[[ $v =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
			die "--set $2: $v is not a percentage (a number >= 0)"
		lim_val[$n]=$v
		shift 2 ;;
	--list) list=1; shift ;;
	--bindir|--busybox|--qemu|--timeout)
		need "$@"; gargs+=("$1" "$2")
		[ "$1" = --bindir ] && here=$2
		shift 2 ;;
	-h|--help) sed -n '4,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "unknown argument $1 (--help)" ;;
	esac
done

if [ $list = 1 ]; then
	for l in "${limits[@]}"; do
		n=$(lim_field "$l" 1)
		printf '%s = %s %% (default %s) for %s\n    %s\n' "$n" \
			"${lim_val[$n]}" "$(lim_field "$l" 2)" \
			"$(lim_field "$l" 3)" "$(lim_field "$l" 4)"
	done
	exit 0
fi

# image PATH: the kernel image PATH names (a file, or a directory with one)
image() {
	local k=$1 f
	if [ -d "$k" ]; then
		for f in "$k/bzImage" "$k/vmlinuz"; do
			[ -f "$f" ] && { echo "$f"; return 0; }
		done
		return 1
	fi
	[ -f "$k" ] && [ -r "$k" ] && echo "$k"
}
if [ -n "$one" ]; then
	[ -z "$kernel_a$kernel_b$judge" ] || die "--one IMAGE: no --kernel-a/--kernel-b/--judge"
	kernel_a=$one boots=1 repeat=0
fi
if [ -n "$judge" ]; then
	[ -z "$kernel_a$kernel_b$outdir" ] ||
		die "--judge DIR boots nothing: no --kernel-a/--kernel-b/--outdir"
	[ -d "$judge/A-1" ] || die "--judge $judge: no A-1 there (not an ab.sh --outdir)"
	img_a=$(cat "$judge/A-1/cmdline" 2>/dev/null) img_b=$(cat "$judge/B-1/cmdline" 2>/dev/null)
	img_a="results of $judge/A-1 (cmdline ${img_a:-?})"
	img_b="results of $judge/B-1 (cmdline ${img_b:-?})"
	outdir=$judge
else
	[ -n "$kernel_a" ] || die "--kernel-a IMAGE (or --judge DIR) is required"
	img_a=$(image "$kernel_a") || die "--kernel-a '$kernel_a': no kernel image there"
	img_b=$(image "${kernel_b:-$kernel_a}") ||
		die "--kernel-b '$kernel_b': no kernel image there"
fi
[[ $boots =~ ^[1-9][0-9]?$ ]] || die "--boots '$boots': a number from 1 to 99"
[ -z "$jobs" ] || [[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs '$jobs': not a positive number"
[[ $gp_cpus =~ ^[2-9]$ ]] || die "--gp-cpus '$gp_cpus': 2 to 9 (a GP needs a second CPU)"
jobs=${jobs:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
[[ $append_a$append_b != *[$'\n\'"']* ]] ||
	die "--append-a/--append-b: no newlines or quotes, please"
[ -z "$one" ] || gp=0
gp_progs=()
[ $gp = 0 ] || gp_progs=(gp_throttle gp_expedited)
for p in guest.sh rcu_perf_compare boot_marker dcache_scaling "${gp_progs[@]}"; do
	[ -x "$here/$p" ] || die "$here/$p: missing (--bindir: a make static install)"
done
compare=$here/rcu_perf_compare

if [ -n "$outdir" ]; then
	mkdir -p "$outdir" || die "cannot create $outdir"
	outdir=$(cd "$outdir" && pwd)
	tmp=""
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/rcu_perf-ab.XXXXXX") || die "no temporary directory"
	outdir=$tmp
fi
pids=()
# shellcheck disable=SC2317 # a trap
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	[ -z "$tmp" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---- the guests ----------------------------------------------------
dargs=""
[ $quick = 1 ] && dargs=--quick
if [ -n "$judge" ]; then
	# What an earlier run left: its boots per side, A-again, GP guests.
	boots=0
	while [ -d "$outdir/A-$((boots + 1))" ] && [ -d "$outdir/B-$((boots + 1))" ]; do
		boots=$((boots + 1))
	done
	[ $boots -gt 0 ] || die "--judge $judge: no A-1 and B-1 there"
	[ $repeat = 1 ] && [ ! -d "$outdir/A-again" ] &&
		echo "# $me: no A-again in $judge: repeatability not measured"
	[ -d "$outdir/A-again" ] || repeat=0
	[ -d "$outdir/A-1-gp" ] || gp=0
fi
# The guests: A-N and B-N boot 1 vCPU for the lookups and the boot, A-N-gp
# and B-N-gp $gp_cpus for the grace periods; A-again (-gp) repeats A.
runs=()
for ((i = 1; i <= boots; i++)); do
	runs+=("A-$i" "B-$i")
	[ $gp = 0 ] || runs+=("A-$i-gp" "B-$i-gp")
done
if [ $repeat = 1 ]; then
	runs+=(A-again)
	[ $gp = 0 ] || runs+=(A-again-gp)
fi
[ -z "$one" ] || runs=(A-1)

echo "# $me: A: $img_a${append_a:+ ($append_a)}"
[ -n "$one" ] || echo "# $me: B: $img_b${append_b:+ ($append_b)}"
echo "# $me: instruction-counted guests (QEMU -icount shift=0,sleep=off):" \
	"1 vCPU for the lookups and the boot${gp_progs:+, $gp_cpus for the grace periods};" \
	"scaling stays with the wall-clock kernel matrix (matrix.sh);" \
	"instruction counts do not model caches"

# guest RUN: start RUN's guest in the background (guest.sh itself, so
# that a signal to its pid stops its QEMU)
guest() {
	local r=$1 img=$img_a app=$append_a progs
	case $r in B-*) img=$img_b app=$append_b ;; esac
	mkdir -p "$outdir/$r"
	case $r in
	*-gp) progs=(--cpus "$gp_cpus" -- "gp_throttle${dargs:+ $dargs}"
		     "gp_expedited${dargs:+ $dargs}") ;;
	*) progs=(--cpus 1 -- boot_marker "dcache_scaling${dargs:+ $dargs}") ;;
	esac
	"$here/guest.sh" --mode icount --settle 2 --kernel "$img" --outdir "$outdir/$r" \
		${app:+--append "$app"} "${gargs[@]}" "${progs[@]}" >"$outdir/$r.log" 2>&1 &
}

# run_guests: every run, $jobs at a time; rcs[i]: guest.sh's exit status
rcs=()
run_guests() {
	local next=0 nr_done=0 fin rc
	local -A pid_of=()

	while [ $nr_done -lt ${#runs[@]} ]; do
		while [ $next -lt ${#runs[@]} ] && [ ${#pid_of[@]} -lt "$jobs" ]; do
			guest "${runs[$next]}"
			pid_of[$!]=$next
			pids+=($!)
			next=$((next + 1))
		done
		fin=""
		wait -n -p fin "${!pid_of[@]}"
		rc=$?
		[ -n "$fin" ] || continue
		rcs[${pid_of[$fin]}]=$rc
		unset "pid_of[$fin]"
		nr_done=$((nr_done + 1))
	done
	pids=()
}

if [ -z "$judge" ]; then
	echo "# $me: ${#runs[@]} guests (${runs[*]}), $jobs at a time"
	t0=$SECONDS
	run_guests
	echo "# $me: the guests took $((SECONDS - t0)) s"
fi
bad=""
for i in "${!runs[@]}"; do
	r=${runs[$i]}
	if [ "${rcs[$i]:-}" = 4 ]; then
		sed 's/^/# /' "$outdir/$r.log"
		echo "# $me: SKIP: cannot run a guest"
		exit 4
	fi
	w=$(cat "$outdir/$r/wall" 2>/dev/null || echo "?")
	st=$(head -n 1 "$outdir/$r/status" 2>/dev/null || echo "no status")
	mt=$(sed -n 's/^# marker_time_s: //p' "$outdir/$r/boot_marker.ktap" 2>/dev/null)
	echo "# $me: $r: $st, $w s on the host${mt:+, time to user space $mt s}"
	if [ "$st" != ok ]; then
		bad+=" $r"
		sed -n '2,$s/^/# /p' "$outdir/$r/status" 2>/dev/null
		tail -n 3 "$outdir/$r.log" 2>/dev/null | sed 's/^/# /'
	fi
	progs=(boot_marker dcache_scaling)
	[[ $r != *-gp ]] || progs=(gp_throttle gp_expedited)
	for p in "${progs[@]}"; do
		[ -s "$outdir/$r/$p.json" ] || bad+=" $r($p: no results)"
	done
done
[ -z "$bad" ] || { echo "# $me: no comparison: failed guests:$bad" >&2; exit 2; }
if [ -n "$one" ]; then
	f=$outdir/A-1/dcache_scaling.json
	if [ -n "${RCU_PERF_JSON:-}" ]; then
		cp "$f" "$RCU_PERF_JSON" || die "cannot write $RCU_PERF_JSON"
		f=$RCU_PERF_JSON
	fi
	"$compare" --table "$f" | sed '1d'
	exit 0
fi

# ---- the comparison ------------------------------------------------
files() {
	local s=$1 r

	for r in "${runs[@]}"; do
		[[ $r == "$s"-* ]] && printf '%s\n' "$outdir/$r/"*.json
	done
}
mapfile -t fa < <(files A)
mapfile -t fb < <(files B)
# The metrics, as A's first results name them: every dcache_scaling
# throughput (ops/s: its lookups and its controls at N=1) and, with two
# boots of A (--boots 2, or A-again), the time to user space, else only
# shown: one boot of B is judged against A's two, whose spread is
# measured. The CPU time per op is left out: tick-sampled, it moves by
# 10% boot to boot.
judged=() shown=()
while read -r key unit; do
	case $key:$unit in
	dcache_scaling.*:ops/s) judged+=(--metric "$key") ;;
	boot_marker.*:s) if [ "$boots" -ge 2 ] || [ $repeat = 1 ]; then
				judged+=(--metric "$key")
			 else shown+=(--metric "$key"); fi ;;
	esac
done < <("$compare" "$outdir"/A-1/*.json | sed -n 's/^\([^ ]*\) \[\([^,]*\),.*/\1 \2/p')
[ ${#judged[@]} -gt 0 ] || die "no dcache_scaling ops/s metrics in $outdir/A-1 (renamed?)"
allow=()
for l in "${limits[@]}"; do
	n=$(lim_field "$l" 1)
	read -ra globs <<<"$(lim_field "$l" 3)"
	for g in "${globs[@]}"; do allow+=(--allow "$g=${lim_val[$n]}"); done
done

# The tables: name, the statistic compared, the metrics. Grace periods are
# judged on the median, the mean (what a loop of them feels: a throttled
# idle CPU delays one GP in five, which the median never sees) and, where
# no hog cuts them at random, the 90th percentile. gp_expedited's
# controls (no RCU in them) are not grace periods, and its expedited GPs
# beside a busy vCPU wait for the other vCPU's turn on the host thread
# here: they do not repeat from boot to boot (3.9999 -> 5.9931 ms).
tables=("lookups|median|${judged[*]}")
gp_exp="--metric gp_expedited.membarrier.normal.latency"
gp_exp+=" --metric gp_expedited.membarrier.expedited.latency"
gp_all="--metric gp_throttle.*.latency $gp_exp"
gp_tail="--metric gp_throttle.*.idle.latency $gp_exp"
[ $gp = 0 ] || tables+=("gp|median|$gp_all" "gp|mean|$gp_all" "gp|p90|$gp_tail")

allowed=""
for l in "${limits[@]}"; do
	n=$(lim_field "$l" 1)
	allowed+="$n ${lim_val[$n]}% "
done
echo "# allowed changes: $allowed(--list says why)"

# compare OUT LABELS TABLE FILES...: rcu_perf_compare's table of TABLE
# into OUT (its exit status); rows of a statistic but the median are
# named <metric>[<statistic>].
compare() {
	local out=$1 labels=$2 t=$3 name stat metrics rc
	shift 3
	IFS='|' read -r name stat metrics <<<"$t"
	# split, never expanded as file names (read -a does not glob)
	read -ra metrics <<<"$metrics"
	"$compare" --table --stat "$stat" --labels "$labels" "${allow[@]}" \
		"${metrics[@]}" "$@" >"$out"
	rc=$?
	[ $rc -le 3 ] || die "rcu_perf_compare failed (exit $rc)"
	[ "$stat" = median ] || sed -i "3,\$ { /^verdict:/! s/^\([^ ]*\)/\1[$stat]/ }" "$out"
	sed -i "\$s/^verdict:/verdict ($name, $stat):/" "$out"
	return $rc
}

# The A-again guests beside the A-1 guests of the same kind.
again() {
	local f
	for f in "$@"; do
		case $f in
		"$outdir"/A-1/*) printf '%s\n' "$outdir/A-again/${f##*/}" ;;
		"$outdir"/A-1-gp/*) printf '%s\n' "$outdir/A-again-gp/${f##*/}" ;;
		esac
	done
}
unsteady=""
if [ $repeat = 1 ]; then
	echo
	echo "Repeatability: two boots of A"
	a1=("$outdir"/A-1/*.json)
	[ $gp = 0 ] || a1+=("$outdir"/A-1-gp/*.json)
	mapfile -t a2 < <(again "${a1[@]}")
	: >"$outdir/repeat.txt"
	for t in "${tables[@]}"; do
		compare "$outdir/repeat.part" A,A-again "$t" "${a1[@]}" -- "${a2[@]}"
		sed '1d;$d' "$outdir/repeat.part" | { [ -s "$outdir/repeat.txt" ] &&
			sed 1d || cat; } | tee -a "$outdir/repeat.txt"
	done
	rm -f "$outdir/repeat.part"
	# change and allowed columns: "+0.0%" "1%"
	# A change between two boots of one kernel above half the allowed
	# change leaves too little room for B's own: not judged. A metric
	# reported only (never judged) is no reason.
	unsteady=$(awk 'NR > 1 && $5 ~ /%$/ && $6 ~ /%$/ && !/reported only/ {
		c = $5 + 0; a = $6 + 0; if (c < 0) c = -c
		if (c > a / 2) printf " %s (%+.2f%%)", $1, $5 + 0 }' "$outdir/repeat.txt")
	awk 'NR > 1 && $5 ~ /%$/ {
		c = $5 + 0; if (c < 0) c = -c
		if (c >= m) { m = c; k = $1 } }
		END { if (k != "") printf "repeatability: largest change " \
			"between two boots of A: %.2f%% (%s)\n", m, k }' \
		"$outdir/repeat.txt"
fi

echo
if [ -n "$judge" ]; then
	echo "A/B: A = $img_a, B = $img_b"
else
	echo "A/B: A = $img_a${append_a:+ ($append_a)}, B = $img_b${append_b:+ ($append_b)}"
fi
# The worst of the tables: a regression (1), else inconclusive (3).
rc=0
: >"$outdir/ab.txt"
for t in "${tables[@]}"; do
	compare "$outdir/ab.part" A,B "$t" "${fa[@]}" -- "${fb[@]}"
	r=$?
	[ $r = 1 ] || [ $rc = 1 ] || [ $r = 0 ] || rc=$r
	[ $r != 1 ] || rc=1
	sed '1d' "$outdir/ab.part" | { [ -s "$outdir/ab.txt" ] && sed 1d || cat; } |
		tee -a "$outdir/ab.txt"
done
rm -f "$outdir/ab.part"
if [ ${#shown[@]} -gt 0 ]; then
	echo
	echo "Not judged (one sample a boot; --boots 2, or A-again, judges it):"
	"$compare" --table --labels A,B "${allow[@]}" "${shown[@]}" \
		"${fa[@]}" -- "${fb[@]}" | sed '1d;$d'
fi
echo
if [ -n "$unsteady" ]; then
	echo "# $me: A does not repeat within the allowed change:$unsteady; not judged"
	[ $rc = 1 ] && echo "# $me: (rcu_perf_compare alone said: regressed)"
	rc=3
fi
case $rc in
0) echo "ab: B is not slower than A (exit 0)" ;;
1) echo "ab: B regressed:$(awk '/ regressed$/ {
	printf " %s (%s)", $1, $5 }' "$outdir/ab.txt") (exit 1)" ;;
2) echo "ab: bad input (exit 2)" ;;
3) echo "ab: inconclusive (exit 3)" ;;
esac
[ -z "$tmp" ] || echo "# $me: (results removed; --outdir DIR keeps them)"
exit $rc
