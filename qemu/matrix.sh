#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel matrix: boot every kernel in every scenario (guest.sh, one
# QEMU guest at a time), run the suite's programs there, and print a table
# kernel x scenario x check -> ok / FAIL / SKIP with each guest's wall time,
# checking every cell against the verdicts its scenario (and its kernel)
# expects (ERR: "not ok # error"). Like rcutorture's kvm.sh. This
# project's, not the kernel's: make static copies it beside the statically
# linked programs (make matrix); --bindir names another such install.
#
#   matrix.sh --scenarios DIR --kernel [NAME=]PATH... [options] [--] [CMD...]
#
#   --kernel [NAME=]PATH  a bzImage, or a directory holding bzImage (or
#                         vmlinuz) and optionally "expect"; repeatable; a
#                         missing PATH makes that kernel's cells SKIP
#   --scenarios DIR       the scenario files (config/matrix/)
#   --only NAMES          run only these scenarios (space separated)
#   --results DIR         where the cells go (default results/matrix-<date>)
#   --args ARGS           appended to every program (e.g. --quick)
#   --boots N             boot every cell N times (default 1); the cells
#                         are then named <scenario>.<boot>
#   --jobs N              instruction-counted cells at once (default 1):
#                         each uses one host CPU and its virtual time does
#                         not depend on the others; wall-clock cells and
#                         the reference's cells always run alone
#   --reference NAME      the kernel (a --kernel's NAME) every other kernel
#                         is compared with in "baseline: reference"
#                         scenarios (default: the one a kernel directory's
#                         expect file names in a "reference: NAME" line)
#   --bindir, --prog-timeout, --timeout, --busybox, --qemu: as guest.sh
#   CMD...                programs to run (default: guest.sh's, the
#                         kselftest set)
#
#   matrix.sh --evaluate CELLDIR     (re)judge one finished cell
#   matrix.sh --table RESULTSDIR     print the table of finished cells
#
# A scenario file holds "key: value" lines and "#" comments:
#   cpus: 2                 vCPUs (default 2)
#   memory: 512             MB (default 512)
#   mode: wall              or icount (see guest.sh)
#   settle: S               guest.sh --settle (default 0)
#   disk: ext2              guest.sh --disk: the programs' TMPDIR on ext2
#   append: ARGS            extra kernel command line
#   kernels: GLOB...        run only on kernels so named (default: all;
#                           "!GLOB" excludes), for a scenario whose effect
#                           depends on the kernel
#   programs: PROG...       run only these programs here (default: all
#                           of CMD...)
#   args: PROG ARGS         appended to PROG's command here (its limits:
#                           --set NAME=VALUE); one line per program
#   baseline: reference     (mode icount only) judge each kernel's cells
#                           against its reference kernel's cells of this
#                           scenario in the same run (see below)
#   expect: PROG CHECK VERDICT
# PROG and CHECK are shell globs over the KTAP results of each program.
# VERDICT fail: at least one matching check is "not ok"; skip: every
# matching check is a SKIP; ok: no matching check is "not ok"; any: a
# matching check may FAIL or not (a real regression it may see), but not
# ERR. A check no
# expect line covers must not be "not ok". A kernel directory's "expect"
# file adds its lines to every scenario's (an injected bug: "fail").
#
# The reference: kernels of one tree and config differ by their code
# only, and in an instruction-counted guest a lookup or a boot costs the
# same in every boot of one kernel, so a regression of 2% is there to
# see against the unpatched kernel, never against a budget. In a
# "baseline: reference" scenario the reference kernel runs first (all its
# boots); the JSON results of its cells that met their expectations
# become the --baseline (lib/baseline.c: <metric>_vs_baseline checks) of
# every other kernel's cells of that scenario, and of its own third boot
# (the A = A control). The reference boots at least three times there: its
# first two, side by side and with no baseline (one boot has no spread to
# judge against), are the baseline of its third (cells <scenario>.again and
# <scenario>.control, with one boot a cell), which must then be judged, and
# all three of every other kernel's cells. An expect line whose CHECK ends in _vs_baseline
# applies only to cells that had a reference: it is passed over where
# there is none (other scenarios, a run without the reference) and misses
# where the reference gave no results. Each such cell has a file
# "baseline": the directory, or "none", and what it holds.
#
# Each cell RESULTS/<kernel>/<scenario>/ holds guest.sh's output (KTAP,
# JSON results, console.log, status, wall) plus expect, checks (one line
# per check: program, check, ok/FAIL/ERR/SKIP, reason) and verdict (met,
# miss, warn, timeout, panic, no-boot or skip: guest.sh's status where the
# guest failed; then one line per missed expectation). The reference's
# results are kept in RESULTS/.reference/<kernel>/<scenario>/<boot>/, what
# each cell was given (padded: see cell_baseline) in RESULTS/.baseline/.
# Exit status: 0 every cell met its expectations (or was skipped), 1 not,
# 2 bad usage.

set -u -o pipefail
me=matrix.sh
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "$me: $*" >&2; exit 2; }

# checks CELLDIR PROG...: one tab-separated line per top-level KTAP result
# of each program: prog, check, ok|FAIL|ERR|SKIP, reason. ERR is "not ok
# ... # error": no verdict, yet a CI bot counts it as a failure, so only
# a real FAIL meets an expected "fail" and both miss an expected "ok". A
# program that gave no result or fewer than its plan (crashed, hung, never
# ran) has one more ERR named "(run)".
checks() {
	local dir=$1 p
	shift
	for p in "$@"; do
		awk -v prog="$p" -v rcf="$dir/$p.rc" '
		BEGIN { FS = "\n"; OFS = "\t" }
		# The "# name: measured ..." line before a result says why
		# (check names have no dots; results of older programs did:
		# boot.time_to_user_vs_baseline).
		/^# [A-Za-z0-9_.-]+: / { why[substr($0, 3, index($0, ":") - 3)] = substr($0, 3) }
		/^1\.\.[0-9]+/ { plan = substr($0, 4) + 0 }
		/^(not )?ok [0-9]+ / {
			line = $0
			notok = sub(/^not ok [0-9]+ /, "", line)
			if (!notok)
				sub(/^ok [0-9]+ /, "", line)
			name = line; sub(/ .*/, "", name)
			dir = ""
			if (index(line, " # "))
				dir = substr(line, index(line, " # ") + 3)
			if (notok)
				v = dir ~ /^error/ ? "ERR" : "FAIL"
			else
				v = dir ~ /^SKIP/ ? "SKIP" : "ok"
			r = (name in why) ? why[name] : ""
			if (dir != "")
				r = r (r != "" ? "; " : "") dir
			print prog, name, v, r
			n++
		}
		END {
			if ((getline rc < rcf) <= 0)
				rc = "none: did not finish"
			if (!n)
				print prog, "(run)", "ERR", "no KTAP result (exit " rc ")"
			else if (n < plan)
				print prog, "(run)", "ERR", "incomplete KTAP: " n " of " \
					plan " results (exit " rc ")"
		}' "$dir/$p.ktap" 2>/dev/null ||
			printf '%s\t(run)\tERR\tno KTAP output\n' "$p"
	done
}

# evaluate CELLDIR: judge the cell's checks against its expect lines;
# writes CELLDIR/verdict and returns 0 when met.
evaluate() {
	local dir=$1 status base="" basewhy=""
	status=$(head -n 1 "$dir/status" 2>/dev/null)
	status=${status:-no-boot}
	[ -f "$dir/checks" ] || die "$dir: no checks (not a matrix cell)"
	if [ "$status" = skip ]; then
		{ echo skip; sed -n '2p' "$dir/status"; } >"$dir/verdict"
		return 0
	fi
	if [ -f "$dir/baseline" ]; then
		base=$(head -n 1 "$dir/baseline")
		basewhy=$(sed -n 2p "$dir/baseline")
		base=${base:-none}
	fi
	awk -v status="$status" -v base="$base" -v basewhy="$basewhy" '
	BEGIN { FS = "\t" }
	# Shell glob to an anchored awk regex.
	function re(g) {
		gsub(/[][.+^$(){}|\\]/, "\\\\&", g)
		gsub(/\*/, ".*", g); gsub(/\?/, ".", g)
		return "^" g "$"
	}
	FILENAME ~ /expect$/ {
		split($0, f, /[ \t]+/)
		if (f[1] == "")
			next
		ne++; eprog[ne] = f[1]; echk[ne] = f[2]; ev[ne] = f[3]
		next
	}
	{ nc++; cprog[nc] = $1; cname[nc] = $2; cv[nc] = $3; cr[nc] = $4; ran[$1] = 1 }
	END {
		for (e = 1; e <= ne; e++) {
			if (!(ev[e] ~ /^(ok|fail|skip|any)$/)) {
				miss[++nm] = "bad expect line: " eprog[e] " " echk[e] " " ev[e]
				continue
			}
			pr = re(eprog[e]); cr_ = re(echk[e])
			# Checks against a baseline exist only where the
			# matrix gave one: passed over without a reference,
			# a miss where the reference left nothing to compare.
			if (echk[e] ~ /_vs_baseline$/ && base == "")
				continue
			m = 0; nf = 0; ns = 0; prog_ran = 0
			if (echk[e] ~ /_vs_baseline$/ && base == "none") {
				for (c = 1; c <= nc; c++)
					if (cprog[c] ~ pr)
						prog_ran = 1
				if (prog_ran && ev[e] == "fail")
					miss[++nm] = eprog[e] " " echk[e] ": no reference " \
						"results, expected FAIL: " basewhy
				continue
			}
			for (c = 1; c <= nc; c++) {
				if (cprog[c] !~ pr)
					continue
				prog_ran = 1
				if (cname[c] !~ cr_ || cname[c] == "(run)")
					continue
				m++; covered[c] = 1
				if (cv[c] == "FAIL") nf++
				if (cv[c] == "SKIP") ns++
				if (ev[e] == "any" && cv[c] == "ERR")
					miss[++nm] = cprog[c] " " cname[c] ": ERR: " cr[c]
				if (ev[e] == "ok" && cv[c] ~ /FAIL|ERR/)
					miss[++nm] = cprog[c] " " cname[c] ": " cv[c] \
						", expected ok: " cr[c]
				if (ev[e] == "skip" && cv[c] != "SKIP")
					miss[++nm] = cprog[c] " " cname[c] ": " cv[c] \
						", expected SKIP" (cr[c] != "" ? ": " cr[c] : "")
			}
			if (!prog_ran)
				continue	# that program did not run here
			if (ev[e] == "fail" && nf == 0)
				miss[++nm] = eprog[e] " " echk[e] ": " m \
					" checks, none FAIL, expected FAIL"
			if (ev[e] == "skip" && m == 0)
				miss[++nm] = eprog[e] " " echk[e] ": no such check, expected SKIP"
		}
		for (c = 1; c <= nc; c++)
			if (!covered[c] && cv[c] ~ /FAIL|ERR/)
				miss[++nm] = cprog[c] " " cname[c] ": " cv[c] \
					" (healthy by default): " cr[c]
		if (status != "ok")
			print status
		else
			print (nm ? "miss" : "met")
		for (i = 1; i <= nm; i++)
			print miss[i]
	}' "$dir/expect" "$dir/checks" >"$dir/verdict"
	[ "$(head -n 1 "$dir/verdict")" = met ]
}

# table RESULTSDIR: per kernel, one row per check and one column per
# scenario (a "!" marks a cell that missed its expectation), the guests'
# wall times and status; with several boots (cells <scenario>.<boot>) a
# second block counts each check's results over the boots of a scenario;
# then every miss with its reason.
table() {
	local res=$1 k s c cell kernels cells
	# In the order they ran, else by name.
	if [ -f "$res/kernels" ]; then
		mapfile -t kernels <"$res/kernels"
	else
		mapfile -t kernels < <(cd "$res" &&
			find . -mindepth 1 -maxdepth 1 -type d ! -name '.*' -printf '%f\n' | sort)
	fi
	for k in "${kernels[@]}"; do
		k=$res/$k
		[ -d "$k" ] || continue
		echo
		echo "== kernel $(basename "$k")$(sed -n '1s/^/: /p' "$k/kernel" 2>/dev/null)"
		# boot 10 after boot 9
		mapfile -t cells < <(find "$k" -mindepth 1 -maxdepth 1 -type d \
			-printf '%f\n' | sort -V)
		for c in "${cells[@]}"; do
			cell=$k/$c
			[ -f "$cell/verdict" ] || continue
			s=$(basename "$cell")
			printf '%s\t%s\t%s\t%s\n' "@" "$s" \
				"$(head -n 1 "$cell/verdict")" "$(cat "$cell/wall" 2>/dev/null)"
			awk -v s="$s" -v v="$cell/verdict" '
			BEGIN {
				FS = OFS = "\t"
				while ((getline l < v) > 0)
					if (l ~ / /) { split(l, w, " "); bad[w[1] " " w[2]] = 1 }
			}
			{ print $1 "/" $2, s, $3 ((($1 " " $2 ":") in bad) ? "!" : "") }
			' "$cell/checks"
		done | awk '
		BEGIN { FS = "\t" }
		$1 == "@" {
			ns++; sc[ns] = $2; st[$2] = $3; wall[$2] = $4
			next
		}
		{
			if (!($1 in seen)) { seen[$1] = 1; rows[++nr] = $1 }
			v[$1, $2] = $3
		}
		END {
			w = 6
			for (r = 1; r <= nr; r++)
				if (length(rows[r]) > w) w = length(rows[r])
			printf "%-" w "s", ""
			for (i = 1; i <= ns; i++) printf " %-10s", sc[i]
			printf "\n%-" w "s", "cell"
			for (i = 1; i <= ns; i++) printf " %-10s", st[sc[i]]
			printf "\n%-" w "s", "wall (s)"
			for (i = 1; i <= ns; i++) printf " %-10s", wall[sc[i]]
			printf "\n"
			for (r = 1; r <= nr; r++) {
				printf "%-" w "s", rows[r]
				for (i = 1; i <= ns; i++) {
					x = v[rows[r], sc[i]]
					printf " %-10s", x == "" ? "-" : x
				}
				printf "\n"
			}
			over_boots(w)
		}
		# The cells <scenario>.<boot> of each scenario together: "FAIL
		# 5/5" when every boot agreed, else the count of each result.
		function over_boots(w,   i, b, r, x, k, n, c, out) {
			for (i = 1; i <= ns; i++) {
				b = sc[i]
				if (!sub(/\.[0-9]+$/, "", b))
					continue
				if (!(b in nb)) bases[++nbase] = b
				nb[b]++
				cnt["cell", b, st[sc[i]]]++
				for (r = 1; r <= nr; r++) {
					x = v[rows[r], sc[i]]
					sub(/!$/, "", x)
					if (x != "")
						cnt[rows[r], b, x]++
				}
			}
			if (!nbase)
				return
			printf "\n%-" w "s", "over boots"
			for (i = 1; i <= nbase; i++) printf " %-14s", bases[i]
			printf "\n"
			for (r = 0; r <= nr; r++) {
				k = r ? rows[r] : "cell"
				printf "%-" w "s", k
				for (i = 1; i <= nbase; i++) {
					out = ""; n = 0
					split("met miss warn timeout panic no-boot error skip " \
					      "ok FAIL ERR SKIP", c, " ")
					for (x = 1; x in c; x++)
						if (cnt[k, bases[i], c[x]]) {
							n++
							out = out (out == "" ? "" : " ") c[x] ":" \
								cnt[k, bases[i], c[x]]
						}
					if (n == 1)
						sub(/:/, " ", out)
					if (n == 1)
						out = out "/" nb[bases[i]]
					printf " %-14s", out == "" ? "-" : out
				}
				printf "\n"
			}
		}'
	done
	echo
	for k in "${kernels[@]}"; do
		[ -d "$res/$k" ] || continue
		mapfile -t cells < <(find "$res/$k" -mindepth 1 -maxdepth 1 -type d \
			-printf '%f\n' | sort -V)
		for c in "${cells[@]}"; do
			[ -f "$res/$k/$c/verdict" ] && miss_report "$res/$k/$c" "$k/$c"
		done
	done
	for k in "${kernels[@]}"; do
		for cell in "$res/$k"/*/verdict; do
			[ -f "$cell" ] && head -n 1 "$cell"
		done
	done | sort | uniq -c | awk '
		{ s = s (s == "" ? "" : ", ") $1 " " $2; n += $1 }
		END { if (n) print n " cells: " s }'
}

# miss_report CELLDIR NAME: what a cell that did not meet its expectations
# missed, and why its guest failed.
miss_report() {
	local v
	v=$(head -n 1 "$1/verdict")
	case $v in
	met) ;;
	skip) echo "SKIP $2: $(sed -n 2p "$1/verdict")" ;;
	*)
		echo "$(echo "$v" | tr '[:lower:]' '[:upper:]') $2:"
		sed -n '2,$s/^/  /p' "$1/verdict"
		# The reason and the console's last 8 lines (all in status).
		[ "$(head -n 1 "$1/status")" = ok ] ||
			sed -n '2,$s/^/  /p' "$1/status" | awk '
			NR <= 2 { print; next }
			{ l[NR] = $0 }
			END { for (i = (NR > 10 ? NR - 7 : 3); i <= NR; i++) print l[i] }'
		;;
	esac
}

# cell_checks CELLDIR [PROG...]: checks of the programs that ran in the
# cell (those that left an exit code or KTAP), else of PROG...
cell_checks() {
	local dir=$1 progs
	shift
	[ "$(head -n 1 "$dir/status" 2>/dev/null)" = skip ] && return
	mapfile -t progs < <(find "$dir" -maxdepth 1 \( -name '*.rc' -o -name '*.ktap' \) \
		-printf '%f\n' | sed 's/\.[a-z]*$//' | sort -u)
	[ ${#progs[@]} -gt 0 ] || progs=("$@")
	[ ${#progs[@]} -gt 0 ] || progs=(gp_throttle gp_expedited boot_marker dcache_scaling)
	checks "$dir" "${progs[@]}"
}

# for_kernel NAME GLOBS: the scenario applies to kernel NAME: it matches
# one of GLOBS, or none is given; a GLOB "!PATTERN" excludes.
for_kernel() {
	local g globs pos=0 hit=0
	read -ra globs <<<"$2"
	for g in "${globs[@]}"; do
		# shellcheck disable=SC2053 # globs on purpose
		if [[ $g == !* ]]; then
			[[ $1 == ${g#!} ]] && return 1
		else
			pos=1
			[[ $1 == $g ]] && hit=1
		fi
	done
	[ $pos = 0 ] || [ $hit = 1 ]
}

# scenario_get FILE KEY: the value of the last "KEY:" line.
scenario_get() {
	sed -n "s/^[[:space:]]*$2:[[:space:]]*//p" "$1" | sed 's/[[:space:]]*$//' | tail -n 1
}

# expect_lines FILE: its expect lines, "PROG CHECK VERDICT" each.
expect_lines() {
	sed -n 's/^[[:space:]]*expect:[[:space:]]*//p' "$1" 2>/dev/null
}

case ${1:-} in
--evaluate)
	[ $# = 2 ] || die "usage: --evaluate CELLDIR"
	[ -d "$2" ] || die "$2: no such directory"
	cell_checks "$2" >"$2/checks"
	evaluate "$2"
	rc=$?
	cat "$2/verdict"
	exit $rc
	;;
--table)
	[ $# = 2 ] || die "usage: --table RESULTSDIR"
	[ -d "$2" ] || die "$2: no such directory"
	table "$2"
	exit 0
	;;
esac

kernels=() scen_dir="" only="" results="" gargs=() boots=1 reference="" jobs=1
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || die "--kernel needs a value"; kernels+=("$2"); shift 2 ;;
	--scenarios) [ $# -ge 2 ] || die "--scenarios needs a value"; scen_dir=$2; shift 2 ;;
	--only) [ $# -ge 2 ] || die "--only needs a value"; only=$2; shift 2 ;;
	--results) [ $# -ge 2 ] || die "--results needs a value"; results=$2; shift 2 ;;
	--boots) [ $# -ge 2 ] || die "--boots needs a value"; boots=$2; shift 2 ;;
	--jobs) [ $# -ge 2 ] || die "--jobs needs a value"; jobs=$2; shift 2 ;;
	--reference) [ $# -ge 2 ] || die "--reference needs a value"; reference=$2; shift 2 ;;
	--args|--bindir|--prog-timeout|--timeout|--busybox|--qemu)
		[ $# -ge 2 ] || die "$1 needs a value"; gargs+=("$1" "$2"); shift 2 ;;
	-h|--help) sed -n '4,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown option $1 (--help)" ;;
	*) break ;;
	esac
done
cmds=("$@")
[ ${#kernels[@]} -gt 0 ] || die "no --kernel given"
[ -n "$scen_dir" ] || die "--scenarios DIR is required"
[ -d "$scen_dir" ] || die "--scenarios '$scen_dir': no such directory"
[[ $boots =~ ^[1-9][0-9]?$ ]] || die "--boots '$boots': a number from 1 to 99"
[[ $jobs =~ ^[1-9][0-9]?$ ]] || die "--jobs '$jobs': a number from 1 to 99"
# The reference's boots in a "baseline: reference" scenario: three at least.
ref_boots=$((boots > 3 ? boots : 3))
results=${results:-results/matrix-$(date +%Y%m%d-%H%M%S)}

scenarios=()
for f in "$scen_dir"/*; do
	s=$(basename "$f")
	{ [ -f "$f" ] && [[ $s =~ ^[A-Za-z0-9_.-]+$ ]]; } || continue
	[ -z "$only" ] || [[ " $only " == *" $s "* ]] || continue
	keys="cpus|memory|mode|settle|disk|append|kernels|programs|args|baseline|expect"
	bad=$(grep -vnE "^[[:space:]]*(#.*)?\$|^[[:space:]]*($keys):" "$f" | head -n 1)
	[ -z "$bad" ] ||
		die "$f:${bad%%:*}: not a \"key: value\" line (${keys//|/, })"
	while read -r p c v extra; do
		{ [ -z "$extra" ] && [[ $v =~ ^(ok|fail|skip|any)$ ]]; } ||
			die "$f: expect: '$p $c $v${extra:+ $extra}':" \
				"want PROGRAM CHECK ok|fail|skip|any"
	done < <(expect_lines "$f")
	v=$(scenario_get "$f" settle)
	[[ ${v:-0} =~ ^[0-9]+$ ]] || die "$f: settle: '$v': whole seconds"
	v=$(scenario_get "$f" disk)
	[[ ${v:-ext2} = ext2 ]] || die "$f: disk: '$v': ext2 or no line"
	v=$(scenario_get "$f" programs)
	[[ $v =~ ^[A-Za-z0-9_.\ -]*$ ]] || die "$f: programs: '$v': program names"
	while read -r v; do
		[[ $v =~ ^[A-Za-z0-9_.-]+\ [A-Za-z0-9_.=,\ -]+$ ]] ||
			die "$f: args: '$v': want PROGRAM ARGS (no quotes or globs)"
	done < <(sed -n 's/^[[:space:]]*args:[[:space:]]*//p' "$f")
	# Wall-clock guests of two kernels differ by what the host did
	# meanwhile: only instruction-counted ones compare exactly.
	case $(scenario_get "$f" baseline) in
	"" | none) ;;
	reference)
		[ "$(scenario_get "$f" mode)" = icount ] ||
			die "$f: baseline: reference needs mode: icount" \
				"(wall-clock guests do not compare)" ;;
	*) die "$f: baseline: '$(scenario_get "$f" baseline)': reference or none" ;;
	esac
	scenarios+=("$s")
done
[ ${#scenarios[@]} -gt 0 ] || die "no scenario in $scen_dir${only:+ named $only}"
# split, never expanded as file names of the current directory
read -ra onlys <<<"$only"
for s in "${onlys[@]}"; do
	[ -f "$scen_dir/$s" ] || die "no scenario $s in $scen_dir"
done

# The kernels: name, image, expect file, why not (no image), reference.
knames=() kimages=() kexpects=() kwhys=() krefs=() kpaths=()
declare -A is_ref=()
for spec in "${kernels[@]}"; do
	path=${spec#*=}
	if [ "$path" != "$spec" ]; then
		name=${spec%%=*}
	elif [ -d "$path" ]; then
		name=$(basename "$path")
	elif [[ $path == */arch/x86/boot/bzImage ]]; then
		name=$(basename "${path%/arch/x86/boot/bzImage}")
	else
		name=$(basename "$(dirname "$path")")
	fi
	[[ -n $name && $name != .* && $name != */* ]] ||
		die "--kernel $spec: '$name' is no kernel name"
	for n in "${knames[@]}"; do
		[ "$n" != "$name" ] || die "--kernel $spec: a second kernel named $name"
	done
	image=$path kexpect="" why=""
	if [ -d "$path" ]; then
		image=$path/bzImage
		[ -f "$image" ] || image=$path/vmlinuz
		kexpect=$path/expect
	fi
	[ -f "$image" ] || why="no kernel image at $image (offline? make matrix fetches Debian's)"
	ref=$reference
	[ -n "$ref" ] || [ -z "$kexpect" ] ||
		ref=$(scenario_get "$kexpect" reference 2>/dev/null)
	[ "$ref" != "$name" ] || ref=""
	knames+=("$name") kpaths+=("$path") kimages+=("$image") kexpects+=("$kexpect")
	kwhys+=("$why") krefs+=("$ref")
done
[ -z "$reference" ] || [[ " ${knames[*]} " == *" $reference "* ]] ||
	die "--reference $reference: no --kernel of that name (${knames[*]})"
# A reference runs first: its results must exist before the others'
# cells start. One not in this run is no reference.
for i in "${!knames[@]}"; do
	ref=${krefs[$i]}
	[ -n "$ref" ] || continue
	if [[ " ${knames[*]} " == *" $ref "* ]]; then
		is_ref[$ref]=1
	else
		echo "$me: ${knames[$i]}: its reference $ref is not in this run:" \
			"its *_vs_baseline expectations are not judged" >&2
		krefs[i]=""
	fi
done
order=()
for i in "${!knames[@]}"; do [ -z "${is_ref[${knames[$i]}]:-}" ] || order+=("$i"); done
for i in "${!knames[@]}"; do [ -n "${is_ref[${knames[$i]}]:-}" ] || order+=("$i"); done

# cell_cmds SCENARIO-FILE: the commands of its cells (into ccmds): those
# of the command line that its "programs:" names, or those programs, each
# with its "args:".
cell_cmds() {
	local progs c p a i
	progs=$(scenario_get "$1" programs)
	ccmds=()
	if [ -z "$progs" ]; then
		ccmds=("${cmds[@]}")
	elif [ ${#cmds[@]} = 0 ]; then
		read -ra ccmds <<<"$progs"
	else
		for c in "${cmds[@]}"; do
			[[ " $progs " != *" ${c%% *} "* ]] || ccmds+=("$c")
		done
	fi
	while read -r p a; do
		[ ${#ccmds[@]} -gt 0 ] ||
			ccmds=(gp_throttle gp_expedited boot_marker dcache_scaling)
		for i in "${!ccmds[@]}"; do
			[ "${ccmds[i]%% *}" != "$p" ] || ccmds[i]+=" $a"
		done
	done < <(sed -n 's/^[[:space:]]*args:[[:space:]]*//p' "$1")
}

# cell_baseline CELL SCENARIO KERNEL REF PROG...: in a "baseline:
# reference" scenario, the reference's results of SCENARIO (REF's, or
# KERNEL's own earlier boots, from its third, when it is a reference) as
# CELL/baseline ("none" if there are none); prints the directory for the
# guest.
#
# The guest carries its baseline in its initramfs, which the kernel
# unpacks before the boot marker: a few KB more moved Debian's kernel's
# marker by two jiffies (+0.5%) in one test. So every cell of the
# scenario gets the same bytes to unpack: one directory per boot, one
# file per program in each, every file padded to pad_bytes with JSON
# whitespace (a boot the reference has not had yet: "{}", which
# lib/baseline.c passes over as not results).
pad_bytes=131072
cell_baseline() {
	local cell=$1 s=$2 k=$3 r=$4 dir n=0 bb p f sz pay note="" upto=$ref_boots
	local have=""
	shift 4
	[ $# -gt 0 ] || set -- gp_throttle gp_expedited boot_marker dcache_scaling
	[ "$(scenario_get "$scen_dir/$s" baseline)" = reference ] || return 0
	if [ -z "$r" ]; then
		[ -n "${is_ref[$k]:-}" ] || return 0
		r=$k
		# boot $b: its first two run side by side, with none
		upto=$((b > 2 ? b - 1 : 0))
	fi
	dir=$results/.reference/$r/$s
	pay=$results/.baseline/$k/$(basename "$cell")
	rm -rf "$pay"
	for ((bb = 1; bb <= ref_boots; bb++)); do
		mkdir -p "$pay/$bb"
		[ "$bb" -gt "$upto" ] || [ ! -d "$dir/$bb" ] || { n=$((n + 1)); have+="$bb "; }
		for p in "$@"; do
			f=$dir/$bb/$p.json
			[ "$bb" -le "$upto" ] && [ -f "$f" ] || f=/dev/null
			sz=$(stat -c %s "$f")
			if [ "$f" = /dev/null ]; then
				printf '{}' >"$pay/$bb/$p.json"
				sz=2
			else
				cp "$f" "$pay/$bb/$p.json"
			fi
			if [ "$sz" -gt $pad_bytes ]; then
				note=" (not padded: $f has $sz bytes)"
				continue
			fi
			head -c $((pad_bytes - sz)) /dev/zero | tr '\0' ' ' >>"$pay/$bb/$p.json"
		done
	done
	if [ "$n" = 0 ]; then
		if [ "$r" = "$k" ]; then
			printf 'none\none of the first two boots of the reference %s\n' "$r"
		else
			printf 'none\nno cell of the reference %s met its expectations in %s\n' \
				"$r" "$s"
		fi >"$cell/baseline"
	else
		printf '%s\n%s boot(s) of the reference %s in %s: %s%s\n' "$pay" "$n" "$r" "$s" \
			"$have" "$note" >"$cell/baseline"
	fi
	echo "$pay"
}

mkdir -p "$results" || die "cannot create $results"
results=$(cd "$results" && pwd)
rm -rf "$results/.reference" "$results/.baseline" "$results/.cells"
: >"$results/kernels"
echo "$boots" >"$results/boots"
echo "$me: ${#kernels[@]} kernels x ${#scenarios[@]} scenarios x $boots boot(s) -> $results" >&2
# run_cell: the cell $cell of kernel $name in scenario $s (file $f), boot
# $b: its guest, its checks and verdict, and, for a reference's cell that
# met its expectations, its JSON results into the scenario's baseline.
# $cell/.fail says 1 when the cell counts against the run.
run_cell() {
	local fail=0 cpus mem mode append settle disk base against="" wall

	if [ -n "$why" ]; then
		printf 'skip\n%s\n' "$why" >"$cell/status"
	else
		cpus=$(scenario_get "$f" cpus) mem=$(scenario_get "$f" memory)
		mode=$(scenario_get "$f" mode) append=$(scenario_get "$f" append)
		settle=$(scenario_get "$f" settle) disk=$(scenario_get "$f" disk)
		base=$(cell_baseline "$cell" "$s" "$name" "$ref" "${ccmds[@]%% *}")
		if [ "$(head -n 1 "$cell/baseline" 2>/dev/null)" = none ]; then
			against=", no baseline: $(sed -n 2p "$cell/baseline")"
		elif [ -n "$base" ]; then
			against=", against $(sed -n 2p "$cell/baseline")"
		fi
		echo "$me: $name / $(basename "$cell"): ${cpus:-2} vCPUs," \
			"${mode:-wall}${append:+, $append}${base:+$against}" >&2
		"$here/guest.sh" --kernel "$image" --outdir "$cell" \
			--cpus "${cpus:-2}" --mem "${mem:-512}" --mode "${mode:-wall}" \
			--settle "${settle:-0}" ${disk:+--disk} --append "$append" \
			${base:+--baseline "$base"} "${gargs[@]}" -- "${ccmds[@]}"
		[ $? -le 1 ] || fail=1
	fi
	cell_checks "$cell" "${ccmds[@]%% *}" >"$cell/checks"
	evaluate "$cell" || fail=1
	echo $fail >"$cell/.fail"
	wall=$(cat "$cell/wall" 2>/dev/null || echo -)
	echo "$me: $name / $(basename "$cell"): $(head -n 1 "$cell/verdict"), $wall s" >&2
	if [ -n "${is_ref[$name]:-}" ] && [ "$(head -n 1 "$cell/verdict")" = met ] &&
	   [ "$(scenario_get "$f" baseline)" = reference ]; then
		mkdir -p "$results/.reference/$name/$s/$b"
		cp "$cell"/*.json "$results/.reference/$name/$s/$b/" 2>/dev/null
	fi
}

# kernel_cells I WHICH: kernel ${order[I]}'s cells, all of them or only
# the instruction-counted (icount) or the other (wall) ones.
kernel_cells() {
	local i=$1 which=$2 nb b s m
	name=${knames[$i]} path=${kpaths[$i]} image=${kimages[$i]}
	kexpect=${kexpects[$i]} why=${kwhys[$i]} ref=${krefs[$i]}
	if [ "$which" != wall ]; then
		mkdir -p "$results/$name"
		echo "$name" >>"$results/kernels"
		[ -f "$path/package" ] && cp "$path/package" "$results/$name/kernel"
		[ -n "$why" ] || [ -f "$path/package" ] || echo "$image" >"$results/$name/kernel"
	fi
	nb=$boots
	[ -z "${is_ref[$name]:-}" ] || nb=$ref_boots
	for ((b = 1; b <= nb; b++)); do
	for s in "${scenarios[@]}"; do
		f=$scen_dir/$s cell=$results/$name/$s
		m=$(scenario_get "$f" mode)
		case $which in
		icount) [ "$m" = icount ] || continue ;;
		wall) [ "$m" != icount ] || continue ;;
		esac
		if [ "$b" -gt "$boots" ]; then
			# the reference's extra boot: only where it is one
			[ "$(scenario_get "$f" baseline)" = reference ] || continue
			if [ "$boots" != 1 ]; then
				cell+=.$b
			elif [ "$b" = 2 ]; then
				cell+=.again
			else
				cell+=.control
			fi
		else
			[ "$boots" = 1 ] || cell+=.$b
		fi
		if ! for_kernel "$name" "$(scenario_get "$f" kernels)"; then
			[ "$b" != 1 ] || echo "$me: $name / $s: not for this kernel" \
				"(kernels: $(scenario_get "$f" kernels))" >&2
			continue
		fi
		cell_cmds "$f"
		if [ ${#ccmds[@]} = 0 ] && [ ${#cmds[@]} -gt 0 ]; then
			[ "$b" != 1 ] || echo "$me: $name / $s: none of its programs" \
				"($(scenario_get "$f" programs)) asked for" >&2
			continue
		fi
		rm -rf "$cell"
		mkdir -p "$cell"
		echo "$cell" >>"$results/.cells"
		{ expect_lines "$f"; [ -z "$kexpect" ] || expect_lines "$kexpect"; } >"$cell/expect"
		# In the background: icount cells of a kernel that is nobody's
		# reference, and a reference's first two boots. The rest alone.
		if [ "$which" = icount ] && [ -z "$why" ] &&
		   { [ -z "${is_ref[$name]:-}" ] || [ "$b" -le 2 ]; }; then
			while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
			run_cell &
		else
			wait
			run_cell
		fi
	done
	done
}

# The reference kernels first, alone but for their first two boots side
# by side: the others' cells and their own third boot need their results.
# Then, with --jobs N, every other kernel's instruction-counted cells, N at
# a time (each uses one host CPU, and no guest's virtual time depends on
# the others), and last the wall-clock cells, alone: their timing must not
# share the host.
: >"$results/.cells"
for i in "${order[@]}"; do
	if [ "$jobs" = 1 ]; then
		kernel_cells "$i" all
	elif [ -n "${is_ref[${knames[$i]}]:-}" ]; then
		kernel_cells "$i" icount
		wait
		kernel_cells "$i" wall
	else
		kernel_cells "$i" icount
	fi
done
wait
if [ "$jobs" -gt 1 ]; then
	for i in "${order[@]}"; do
		[ -n "${is_ref[${knames[$i]}]:-}" ] || kernel_cells "$i" wall
	done
fi
mapfile -t cells_run <"$results/.cells"
fails=0
for c in "${cells_run[@]}"; do
	[ "$(cat "$c/.fail" 2>/dev/null)" = 0 ] || fails=$((fails + 1))
done
table "$results" | tee "$results/table.txt"
echo "results: $results"
[ $fails = 0 ]
