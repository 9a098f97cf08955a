#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The documentation the kernel series carries, Documentation/dev-tools/
# rcu_perf.rst, against the code: it names every check a program can
# print (its check list and its baseline metrics, from the sources) and
# every parameter (--list of each program and tool) and RCU_PERF_*
# variable the code reads, it is true of a kernel tree (none of this
# repository's machinery: make targets, config/, selftests/, the QEMU
# scripts of qemu/; those are docs/project.md's), it stays short, and it
# builds as reStructuredText without a warning.
source "$(dirname "$0")/lib.sh"
cd "$RP_TOP" || exit 2

rst=Documentation/dev-tools/rcu_perf.rst
suite=$RP_SUITE
echo "TAP version 13"
echo "1..6"

# in_rst NAME...: those not in the rst as a word of a ``literal``
# (``NAME``, ``--set NAME=1``), printed.
in_rst() {
	grep -oE '``[^`]+``' "$rst" | awk -v names="$*" '
	BEGIN { n = split(names, want, " ") }
	{ lit = lit " " $0 " " }
	END {
		for (i = 1; i <= n; i++) {
			w = want[i]
			s = lit
			found = 0
			while ((p = index(s, w)) > 0) {
				if (substr(s, p - 1, 1) !~ /[A-Za-z0-9_.]/ &&
				    substr(s, p + length(w), 1) !~ /[A-Za-z0-9_.]/) {
					found = 1
					break
				}
				s = substr(s, p + 1)
			}
			if (!found)
				print w
		}
	}'
}

# 1. Check names: the strings of each program's check_names[] or checks[]
# array, with the #define'd names resolved.
checks=$(for f in "$suite"/*.c; do
	t_prog_checks "$f" own
done | sort -u)
n=$(echo "$checks" | wc -w)
missing=$(in_rst $checks)
[ -n "$missing" ] && t_note "check names not in $rst: $(echo $missing)"
t_check "the rst names all $n checks of the programs" test "$n" -ge 15 -a -z "$missing"

# 2. The metrics judged against a baseline (each a "<metric>_vs_baseline").
metrics=$(for f in "$suite"/*.c; do
	awk '/baseline_metrics\[\] = \{/ { on = 1 }
	on { n = split($0, w, /"/); for (i = 2; i <= n; i += 2) print w[i] }
	on && /\};/ { on = 0 }' "$f"
done | sort -u)
n=$(echo "$metrics" | wc -w)
# Their check names have no dots (lib/baseline.c: '.' as '_'); the rst
# names one as the code does and none with a dot.
missing=$(in_rst $metrics "<metric>_vs_baseline")
[ -n "$missing" ] && t_note "baseline metrics not in $rst: $(echo $missing)"
vs=$(echo "$metrics" | sed 's/\./_/g; s/$/_vs_baseline/')
named=$(($(echo "$vs" | wc -w) - $(in_rst $vs | wc -w)))
dotted=$(grep -oE '``[^`]*\.[^`]*_vs_baseline``' "$rst")
[ "$named" -gt 0 ] || t_note "no <metric>_vs_baseline check named in $rst as the code names it"
[ -n "$dotted" ] && t_note "check names with dots in $rst: $(echo $dotted)"
t_check "the rst names all $n metrics of the <metric>_vs_baseline checks, their checks without dots" \
	test "$n" -ge 10 -a -z "$missing" -a "$named" -gt 0 -a -z "$dotted"

# 3. Every parameter of every program and tool, as --list prints them.
bad="" n=0
for p in $(sed -nE 's/^TEST_GEN_PROGS(_EXTENDED)? *:= *//p' "$suite/Makefile"); do
	if ! names=$("$RP_BIN/$p" --config "" --list 2>/dev/null | awk 'NR > 1 { print $1 }') ||
	   [ -z "$names" ]; then
		bad+=" $p(--list failed)"
		continue
	fi
	n=$((n + $(echo "$names" | wc -l)))
	missing=$(in_rst $names)
	[ -n "$missing" ] && bad+=" $p: $(echo $missing);"
done
[ -n "$bad" ] && t_note "parameters not in $rst:$bad"
t_check "the rst names all $n parameters (--list of every program)" test -z "$bad"

# 4. The environment: every RCU_PERF_* variable the code reads.
vars=$(grep -ohE 'getenv\("RCU_PERF_[A-Z_]+"\)|"RCU_PERF_[A-Z_]+"' "$suite"/*.c "$suite"/lib/*.c |
	grep -oE 'RCU_PERF_[A-Z_]+' | sort -u)
missing=$(for v in $vars; do grep -qF "$v" "$rst" || echo "$v"; done)
[ -n "$missing" ] && t_note "environment variables not in $rst: $(echo $missing)"
t_check "the rst names every RCU_PERF_* variable the code reads ($(echo $vars | wc -w))" \
	test -z "$missing"

# 5. True of a kernel tree, and short: none of this repository's own
# commands and files (docs/project.md has them), the runner's timeout
# told right.
lines=$(wc -l <"$rst")
repo=$(grep -nE 'make (matrix|kernels|soak|sensitivity|fuzz|ab|asan|check|test|run|baseline|static|report|killsweep|kernel-patch)\b|config/(matrix|kernel)|selftests/t[0-9]|tests/t[0-9]|\bt[0-9][0-9]_[a-z]|(guest|matrix|ab)\.sh|qemu/|build/|results/|docs/project' "$rst")
grep -qiE "kselftest'?s? (default )?timeout[^.]*120|120 s[^.]*kselftest's timeout" "$rst" &&
	repo+=$'\n'"120 s called kselftest's timeout (the runner's default is 45 s)"
[ -n "$repo" ] && echo "$repo" | sed 's/^/# not in a kernel tree: /'
t_note "$rst: $lines lines"
t_check "the rst is true of a kernel tree and <= 520 lines" test -z "$repo" -a "$lines" -le 520

# 6. reStructuredText without a warning (the kernel's Sphinx build would
# show it).
if python3 -c 'import docutils' 2>/dev/null; then
	log=$(mktemp)
	if python3 -m docutils --halt=warning --report=warning "$rst" /dev/null \
		>"$log" 2>&1; then
		t_ok "the rst builds with docutils, no warning"
	else
		t_show "$log"
		t_fail "the rst builds with docutils, no warning"
	fi
	rm -f "$log"
else
	t_skip "the rst builds with docutils" "no python3-docutils (apt-get install python3-docutils)"
fi
