#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The suite as a maintainer receives it: `make kernel-patch`'s series
# (scripts/kernel-patch.sh) applies with `git am` to a pristine 6.12 tree,
# one patch per program (named in its subject, listed in the Makefile by
# it) after the library, then the TARGETS and documentation patches, each
# with a commit message and under 100 KB; every patch is clean under that
# tree's scripts/checkpatch.pl --strict, the tree builds after every patch
# (bisectable), the tree then holds this repository's suite unchanged,
# rcu_perf is in the default kselftest TARGETS (in its sorted place) and
# builds through that default route without a compiler warning, the
# suite's .gitignore covers everything the in-tree build leaves, and
# get_maintainer.pl names the new MAINTAINERS entry for the suite and its
# documentation, and what the series ships works from the applied tree:
# installed with kselftest's install rule, the runner lists the four
# programs, every installed program and tool answers --help, every
# program --list with the installed rcu_perf.conf, and this project's
# QEMU scripts (qemu/: guest.sh, matrix.sh, ab.sh, which need scenarios
# and kernels the tree does not have) are neither in the tree nor
# installed.
#
# The pristine tree is a git repository of Debian's linux-source-6.12
# tarball (not the staged tree, which carries the suite), made once under
# $RP_BUILD/pristine and reset to its first commit on every run.
#
# checkpatch runs without UNKNOWN_COMMIT_ID only: the tarball has no
# history, so the well-formed reference to commit c229828ca6bc in the
# commit messages cannot be looked up here (GIT_COMMIT_ID, the format
# check, stays on). A patch that adds files without touching MAINTAINERS
# also runs without FILE_PATH_CHANGES ("does MAINTAINERS need
# updating?"): check 10 requires the first patch's entry to cover every
# file the series adds, which is the answer to that question.
source "$(dirname "$0")/lib.sh"
cd "$RP_TOP" || exit 2

tarball=/usr/src/linux-source-6.12.tar.xz
repo=$RP_BUILD/pristine/linux-6.12
series=$RP_BUILD/kernel-patch
suite=tools/testing/selftests/rcu_perf
doc=Documentation/dev-tools/rcu_perf.rst
ksft=$repo/tools/testing/selftests
tmp=$(mktemp -d)
steps_pid=""
trap '[ -z "$steps_pid" ] || kill "$steps_pid" 2>/dev/null; wait; rm -rf "$tmp"' EXIT
echo "TAP version 13"

# 1. The series, written twice: the same files give the same patches.
: >"$tmp/diff.log"
gen() { scripts/kernel-patch.sh "$RP_TOP" "$RP_TREE" "$series" >>"$tmp/gen.log" 2>&1; }
gen && mkdir "$tmp/again" && cp "$series"/*.patch "$tmp/again/" && gen &&
	diff -rq "$tmp/again" "$series" >"$tmp/diff.log"
same=$?
patches=()
for p in "$series"/*.patch; do
	[[ $p == */0000-cover-letter.patch ]] || [ ! -e "$p" ] || patches+=("$p")
done
cover=$series/0000-cover-letter.patch
if [ ${#patches[@]} -ge 3 ] && [ $same = 0 ] && [ -s "$cover" ] &&
   ! grep -q '\*\*\* .* HERE \*\*\*' "$cover"; then
	t_ok "make kernel-patch writes ${#patches[@]} patches and a cover letter, the same twice"
else
	t_show "$tmp/gen.log"
	t_show "$tmp/diff.log"
	t_fail "make kernel-patch writes a reproducible series"
fi

# skip_rest WHY FIRST: the checks from FIRST on (0: git am), skipped.
rest=("git am" "one patch per program" "checkpatch --strict"
	"the suite as in this repository"
	"rcu_perf in the default TARGETS" "default-TARGETS build" ".gitignore"
	"get_maintainer.pl" "installed from the applied tree"
	"every patch builds" "LLVM=1 O= build")
skip_rest() {
	local d
	for d in "${rest[@]:$2}"; do
		t_skip "$d" "$1"
	done
	echo "1..$T_N"
	exit 0
}

# 2. The pristine tree, made once (~2 minutes), then reset (seconds).
if [ ! -f "$repo/.git/rp-pristine" ]; then
	[ -r "$tarball" ] || skip_rest "no $tarball (apt-get install linux-source-6.12)" 0
	t_note "making a git repository of $tarball (once)"
	rm -rf "$repo" && mkdir -p "$repo"
	# Debian's .gitignore ignores its whole top level: -f keeps every
	# file of the tarball. No automatic gc: the first commit's ~85k loose
	# objects would start a detached one, ~2 minutes of CPU taken from the
	# kernels' build and the live proofs after it.
	if ! { nice -n 10 tar -C "$repo" --strip-components=1 -xJf "$tarball" &&
	       git -C "$repo" init -q && git -C "$repo" config gc.auto 0 &&
	       nice -n 10 git -C "$repo" add -A -f &&
	       git -C "$repo" -c user.name=rcu_perf -c user.email=rcu_perf@localhost \
		commit -q -m "linux-source-6.12 as unpacked" &&
	       git -C "$repo" tag pristine; } >"$tmp/repo.log" 2>&1; then
		t_show "$tmp/repo.log"
		skip_rest "cannot make a git repository of $tarball" 0
	fi
	touch "$repo/.git/rp-pristine"
fi
git -C "$repo" am --abort >/dev/null 2>&1
git -C "$repo" config gc.auto 0	# a repository made before it said so
git -C "$repo" reset -q --hard pristine && git -C "$repo" clean -qfdx ||
	skip_rest "cannot reset $repo" 0

# 3. git am, as the maintainer applies it.
if git -C "$repo" -c user.name=rcu_perf -c user.email=rcu_perf@localhost \
	am -q "${patches[@]}" >"$tmp/am.log" 2>&1; then
	t_ok "git am applies the ${#patches[@]} patches to pristine 6.12"
else
	t_show "$tmp/am.log"
	t_fail "git am applies the series to pristine 6.12"
	skip_rest "the series does not apply" 1
fi

mapfile -t commits < <(git -C "$repo" rev-list --reverse pristine..HEAD)

# The builds of checks 12 and 13 run meanwhile: the tree after every
# patch, in order, built incrementally into one O= directory, as a
# bisection would (LLVM=1, else gcc), from a sparse clone of the applied
# tree (tools/ and scripts/ are all a selftest build reads). The
# library's patches add no program, so nothing is compiled there: their
# files are compiled by the first program's patch, each file being added
# once in its final form. The last step is the LLVM=1 O= build of check
# 13. Per step: "N RC" and the programs its Makefile lists but that are
# not built.
llvm=""
command -v clang >/dev/null && llvm=LLVM=1
steps_src=$tmp/steps-src
steps_out=$tmp/steps
steps_start=$SECONDS
(
	git clone -q --shared --no-checkout "$repo" "$steps_src" &&
		git -C "$steps_src" sparse-checkout set --cone tools scripts || exit 2
	k=0
	for c in "${commits[@]}"; do
		k=$((k + 1))
		git -C "$steps_src" checkout -q --detach "$c" || exit 2
		nice -n 10 make -C "$steps_src/tools/testing/selftests" TARGETS=rcu_perf \
			$llvm O="$steps_out" >"$tmp/step.$k.log" 2>&1
		rc=$?
		missing=""
		for p in $(make -s -C "$steps_src/$suite" --eval \
			'rp-progs: ; @echo $(notdir $(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED))' \
			rp-progs); do
			[ -x "$steps_out/kselftest/rcu_perf/$p" ] || missing+=" $p"
		done
		echo "$k $rc$missing"
	done >"$tmp/steps.status"
) >"$tmp/steps.log" 2>&1 &
steps_pid=$!

# 4. The series' shape: each program of the Makefile is added with its
# source by one patch that names it in its subject and lists it in the
# Makefile; the last two patches are the TARGETS and the documentation;
# every commit has a message of its own and every patch is under 100 KB.
mk_progs=$(sed -nE 's/^TEST_GEN_PROGS(_EXTENDED)? *:= *//p' "$suite/Makefile")
bad=""
for p in $mk_progs; do
	c=$(git -C "$repo" log --diff-filter=A --format=%H pristine..HEAD -- "$suite/$p.c")
	s=$(git -C "$repo" log -1 --format=%s "$c" 2>/dev/null)
	if [ -z "$c" ] || [ "$(echo "$c" | wc -l)" != 1 ] || [[ $s != *"$p"* ]] ||
	   ! git -C "$repo" show "$c:$suite/Makefile" |
		grep -qE "^TEST_GEN_PROGS(_EXTENDED)? *:=.* $p( |\$)"; then
		bad+=" $p"
	fi
done
[ -n "$bad" ] && t_note "no patch of its own that adds, names and lists:$bad"
subj=$(git -C "$repo" log --reverse --format=%s pristine..HEAD)
n=${#commits[@]}
t_note "series: $(echo "$subj" | grep -c '^selftests/rcu_perf: ') patches of the suite, then:" \
	"$(echo "$subj" | tail -n 2 | paste -sd ';')"
[ "$(echo "$subj" | tail -n 2)" = "selftests: Add rcu_perf to the default TARGETS
Documentation: dev-tools: Add rcu_perf" ] || bad+=" (the last two patches)"
for c in "${commits[@]}"; do
	body=$(git -C "$repo" log -1 --format=%b "$c" | grep -vc -e '^Signed-off-by:' -e '^$')
	[ "$body" -ge 5 ] || bad+=" (a commit message of $body lines: $c)"
done
for p in "${patches[@]}"; do
	[ "$(stat -c %s "$p")" -lt 100000 ] || bad+=" $(basename "$p") ($(stat -c %s "$p") bytes)"
done
[ -n "$bad" ] && t_note "not as expected:$bad"
t_check "$n patches: the library, one per program, TARGETS, documentation" test -z "$bad"

# 5. checkpatch --strict on each patch: 0 errors, warnings and checks.
# spdxcheck.py needs python3's ply and git modules: Debian's python3
# first, not a python3 of another installation without them.
start=$SECONDS
for p in "${patches[@]}"; do
	ignore=UNKNOWN_COMMIT_ID
	grep -q '^ MAINTAINERS ' "$p" || ignore+=,FILE_PATH_CHANGES
	out=$(cd "$repo" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict \
		--show-types --ignore $ignore "$p" 2>&1)
	sum=$(echo "$out" | grep '^total: ')
	t_note "$(basename "$p"): ${sum#total: }"
	if [[ $sum == "total: 0 errors, 0 warnings, 0 checks, "* ]] &&
	   ! echo "$out" | grep -q Traceback; then
		t_ok "checkpatch --strict $(basename "$p")"
	else
		echo "$out" | grep -vE '^(NOTE|      |$)' | sed 's/^/# /'
		t_fail "checkpatch --strict $(basename "$p")"
	fi
done

t_note "checkpatch: $((SECONDS - start)) s"

# 6. What the series carries is this repository's suite, file for file.
git ls-files -co --exclude-standard -- "$suite" | sed "s|^$suite/||" | sort >"$tmp/ours"
git -C "$repo" ls-files -- "$suite" | sed "s|^$suite/||" | sort >"$tmp/theirs"
bad=$(diff "$tmp/ours" "$tmp/theirs"; while read -r f; do
	cmp -s "$suite/$f" "$repo/$suite/$f" || echo "differs: $f"
done <"$tmp/ours")
[ -n "$bad" ] && echo "$bad" | sed 's/^/# /'
t_check "the applied tree holds this repository's suite unchanged" test -z "$bad"

# 7. rcu_perf among the default TARGETS, between its sorted neighbours.
targets() {
	make -s -C "$ksft" SKIP_TARGETS= --eval 'rp-targets: ; @echo $(TARGETS)' rp-targets
}
all=$(targets)
prev=$(grep -B1 '^TARGETS += rcu_perf$' "$ksft/Makefile" | head -n 1)
next=$(grep -A1 '^TARGETS += rcu_perf$' "$ksft/Makefile" | tail -n 1)
t_note "default TARGETS: ... ${prev#TARGETS += } rcu_perf ${next#TARGETS += } ..."
t_check "rcu_perf is in the default TARGETS, in sorted place" \
	test -n "$(echo "$all" | tr ' ' '\n' | grep -x rcu_perf)" -a \
	"${prev#TARGETS += }" "<" rcu_perf -a rcu_perf "<" "${next#TARGETS += }"

# 8. The default route (no TARGETS=), every other target skipped: what
# "make -C tools/testing/selftests" builds of rcu_perf, in the tree.
skip=$(echo "$all" | tr ' ' '\n' | grep -vx rcu_perf | tr '\n' ' ')
start=$SECONDS
nice -n 10 make -C "$ksft" SKIP_TARGETS="$skip" >"$tmp/build.log" 2>&1
rc=$?
t_note "default-TARGETS build: $((SECONDS - start)) s"
progs=$(make -s -C "$ksft/rcu_perf" --eval \
	'rp-progs: ; @echo $(notdir $(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED))' rp-progs)
# built_ok RC LOG DIR: make exited RC, wrote LOG without a compiler
# warning, and every program is in DIR.
built_ok() {
	local p missing="" warn

	for p in $progs; do [ -x "$3/$p" ] || missing+=" $p"; done
	warn=$(grep -E 'warning:|error:' "$2")
	[ -n "$missing" ] && t_note "not built:$missing"
	[ -n "$warn" ] && echo "$warn" | head -n 20 | sed 's/^/# /'
	[ "$1" = 0 ] || tail -n 20 "$2" | sed 's/^/# /'
	[ "$1" = 0 ] && [ -z "$missing" ] && [ -z "$warn" ] && [ -n "$progs" ]
}
t_check "default-TARGETS build makes all $(echo $progs | wc -w) programs, no warning" \
	built_ok $rc "$tmp/build.log" "$ksft/rcu_perf"

# 9. The in-tree build's output is ignored by git: the suite's .gitignore
# and the kernel's own (*.o), asked in a scratch repository because
# Debian's top-level .gitignore ends by ignoring everything.
gi=$tmp/gi
git init -q "$gi"
sed '/^# Debian packaging/,$d' "$repo/.gitignore" >"$gi/.gitignore"
d=$suite
while [ "$d" != . ]; do
	[ -f "$repo/$d/.gitignore" ] && install -D -m 644 "$repo/$d/.gitignore" "$gi/$d/.gitignore"
	d=$(dirname "$d")
done
left=$(git -C "$repo" ls-files -o --directory -- "$suite" | while read -r f; do
	git -C "$gi" check-ignore --no-index -q "$f" || echo "$f"
done)
[ -n "$left" ] && t_note "not ignored by git: $(echo $left)"
t_check ".gitignore covers the in-tree build's output" test -z "$left"

# 10. The MAINTAINERS entry is found for the suite and its documentation,
# and the first patch's entry covers every file a later patch adds (why
# checkpatch's FILE_PATH_CHANGES is not asked for them).
bad=""
for f in $suite/gp_throttle.c Documentation/dev-tools/rcu_perf.rst; do
	m=$(cd "$repo" && perl scripts/get_maintainer.pl --nogit --nogit-fallback -f "$f" 2>&1)
	echo "$m" | grep -q 'RCU PERFORMANCE SELFTESTS' && echo "$m" | grep -q 'rcu@vger' ||
		bad+=" $f"
done
first_f=$(git -C "$repo" show "${commits[0]}:MAINTAINERS" |
	awk '$0 == "RCU PERFORMANCE SELFTESTS" { e = 1; next } e && /^$/ { exit }
		e && /^F:/ { print $2 }')
for c in "${commits[@]:1}"; do
	git -C "$repo" diff-tree -r --no-commit-id --name-only --diff-filter=A "$c" |
		while read -r f; do
			[ "$f" = "$doc" ] && continue
			for d in $first_f; do [[ $d == */ && $f == "$d"* ]] && continue 2; done
			echo "$f"
		done
done >"$tmp/uncovered"
[ -s "$tmp/uncovered" ] && bad+=" $(tr '\n' ' ' <"$tmp/uncovered")(not under the first patch's F:)"
[ -n "$bad" ] && t_note "no rcu_perf MAINTAINERS entry for:$bad"
t_check "get_maintainer.pl names the rcu_perf entry and rcu@vger; it covers every file added" \
	test -z "$bad"

# 11. What the series ships, installed from the applied tree and run
# there: the runner's list, --help of everything installed, --list of
# every program with the installed rcu_perf.conf (it parses), and none
# of this project's QEMU scripts.
inst=$tmp/inst
bad=""
if nice -n 10 make -C "$ksft" TARGETS=rcu_perf INSTALL_PATH="$inst" install \
	>"$tmp/install.log" 2>&1; then
	listed=$(cd "$inst" && ./run_kselftest.sh -l 2>&1 | sort | paste -sd ' ')
	want=$(for p in $(sed -nE 's/^TEST_GEN_PROGS *:= *//p' "$repo/$suite/Makefile"); do
		echo "rcu_perf:$p"; done | sort | paste -sd ' ')
	[ "$listed" = "$want" ] || bad+=" (run_kselftest.sh -l: '$listed', want '$want')"
	for p in $progs bisect.sh; do
		if [ ! -x "$inst/rcu_perf/$p" ]; then
			bad+=" $p (not installed)"
		elif ! "$inst/rcu_perf/$p" --help >"$tmp/help.out" 2>&1 ||
		     [ ! -s "$tmp/help.out" ]; then
			bad+=" $p --help"
		fi
	done
	for p in $(sed -nE 's/^TEST_GEN_PROGS(_EXTENDED)? *:= *//p' "$repo/$suite/Makefile"); do
		[ -f "$inst/rcu_perf/rcu_perf.conf" ] &&
			"$inst/rcu_perf/$p" --list >/dev/null 2>"$tmp/list.err" ||
			bad+=" $p --list ($(head -n 1 "$tmp/list.err"))"
	done
	for f in guest.sh matrix.sh ab.sh; do
		[ -e "$repo/$suite/$f" ] || [ -e "$inst/rcu_perf/$f" ] && bad+=" $f (shipped)"
	done
else
	t_show "$tmp/install.log"
	bad+=" (make install failed)"
fi
[ -n "$bad" ] && t_note "from the applied tree:$bad"
t_check "installed from the applied tree: listed, --help, --list; no QEMU scripts" \
	test -z "$bad"

# 12. Every patch builds, with the programs its Makefile lists and no
# warning; 13. the last is LLVM=1, out of tree (O=).
wait "$steps_pid"
rc=$?
steps_pid=""
t_note "builds after each of the $n patches: done $((SECONDS - steps_start)) s after their start"
bad=$(awk -v n=$n '$2 != 0 || NF > 2 { print "patch " $1 ": make " $2 \
	(NF > 2 ? ", not built:" substr($0, index($0, $3) - 1) : "") } END { if (NR != n) print NR " of " n " steps" }' \
	"$tmp/steps.status" 2>&1)
warn=$(cat "$tmp"/step.*.log 2>/dev/null | grep -E 'warning:|error:')
[ $rc = 0 ] || t_show "$tmp/steps.log"
[ -n "$bad" ] && echo "$bad" | sed 's/^/# /'
[ -n "$warn" ] && echo "$warn" | head -n 20 | sed 's/^/# /'
t_check "the tree builds after every patch (${llvm:-gcc}, incremental O=), no warning" \
	test $rc = 0 -a -z "$bad" -a -z "$warn"
if [ -n "$llvm" ]; then
	t_check "LLVM=1 O= build makes all programs, no warning" \
		built_ok $rc "$tmp/step.$n.log" "$steps_out/kselftest/rcu_perf"
else
	t_skip "LLVM=1 O= build" "no clang (apt-get install clang)"
fi

echo "1..$T_N"
