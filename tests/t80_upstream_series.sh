#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The suite as a maintainer receives it: `make kernel-patch`'s series
# (tests/kernel-patch.sh) applies with `git am` to a pristine 6.12 tree,
# every patch is clean under that tree's scripts/checkpatch.pl --strict,
# the tree then holds this repository's suite unchanged, rcu_perf is in
# the default kselftest TARGETS (in its sorted place) and builds through
# that default route without a compiler warning, the suite's .gitignore
# covers everything the in-tree build leaves, and get_maintainer.pl names
# the new MAINTAINERS entry for the suite and its documentation.
#
# The pristine tree is a git repository of Debian's linux-source-6.12
# tarball (not the staged tree, which carries the suite), made once under
# $RP_BUILD/pristine and reset to its first commit on every run.
#
# checkpatch runs without UNKNOWN_COMMIT_ID only: the tarball has no
# history, so the well-formed reference to commit c229828ca6bc in the
# commit messages cannot be looked up here (GIT_COMMIT_ID, the format
# check, stays on).
source "$(dirname "$0")/lib.sh"
cd "$RP_TOP" || exit 2

tarball=/usr/src/linux-source-6.12.tar.xz
repo=$RP_BUILD/pristine/linux-6.12
series=$RP_BUILD/kernel-patch
suite=tools/testing/selftests/rcu_perf
ksft=$repo/tools/testing/selftests
tmp=$(mktemp -d)
llvm_pid=""
trap '[ -z "$llvm_pid" ] || kill "$llvm_pid" 2>/dev/null; wait; rm -rf "$tmp"' EXIT
echo "TAP version 13"

# 1. The series, written twice: the same files give the same patches.
: >"$tmp/diff.log"
gen() { tests/kernel-patch.sh "$RP_TOP" "$RP_TREE" "$series" >>"$tmp/gen.log" 2>&1; }
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
rest=("git am" "checkpatch --strict" "the suite as in this repository"
	"rcu_perf in the default TARGETS" "default-TARGETS build" ".gitignore"
	"get_maintainer.pl" "LLVM=1 O= build")
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
	# file of the tarball.
	if ! { nice -n 10 tar -C "$repo" --strip-components=1 -xJf "$tarball" &&
	       git -C "$repo" init -q && nice -n 10 git -C "$repo" add -A -f &&
	       git -C "$repo" -c user.name=rcu_perf -c user.email=rcu_perf@localhost \
		commit -q -m "linux-source-6.12 as unpacked" &&
	       git -C "$repo" tag pristine; } >"$tmp/repo.log" 2>&1; then
		t_show "$tmp/repo.log"
		skip_rest "cannot make a git repository of $tarball" 0
	fi
	touch "$repo/.git/rp-pristine"
fi
git -C "$repo" am --abort >/dev/null 2>&1
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

# The LLVM=1 build of check 10 runs meanwhile, out of tree.
if command -v clang >/dev/null; then
	llvm_start=$SECONDS
	nice -n 10 make -C "$ksft" TARGETS=rcu_perf LLVM=1 O="$tmp/llvm" \
		>"$tmp/llvm.log" 2>&1 &
	llvm_pid=$!
fi

# 4. checkpatch --strict on each patch: 0 errors, warnings and checks.
# spdxcheck.py needs python3's ply and git modules: Debian's python3
# first, not a python3 of another installation without them.
start=$SECONDS
for p in "${patches[@]}"; do
	out=$(cd "$repo" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict \
		--show-types --ignore UNKNOWN_COMMIT_ID "$p" 2>&1)
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

# 5. What the series carries is this repository's suite, file for file.
git ls-files -co --exclude-standard -- "$suite" | sed "s|^$suite/||" | sort >"$tmp/ours"
git -C "$repo" ls-files -- "$suite" | sed "s|^$suite/||" | sort >"$tmp/theirs"
bad=$(diff "$tmp/ours" "$tmp/theirs"; while read -r f; do
	cmp -s "$suite/$f" "$repo/$suite/$f" || echo "differs: $f"
done <"$tmp/ours")
[ -n "$bad" ] && echo "$bad" | sed 's/^/# /'
t_check "the applied tree holds this repository's suite unchanged" test -z "$bad"

# 6. rcu_perf among the default TARGETS, between its sorted neighbours.
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

# 7. The default route (no TARGETS=), every other target skipped: what
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

# 8. The in-tree build's output is ignored by git: the suite's .gitignore
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

# 9. The MAINTAINERS entry is found for the suite and its documentation.
bad=""
for f in $suite/gp_throttle.c Documentation/dev-tools/rcu_perf.rst; do
	m=$(cd "$repo" && perl scripts/get_maintainer.pl --nogit --nogit-fallback -f "$f" 2>&1)
	echo "$m" | grep -q 'RCU PERFORMANCE SELFTESTS' && echo "$m" | grep -q 'rcu@vger' ||
		bad+=" $f"
done
[ -n "$bad" ] && t_note "no rcu_perf MAINTAINERS entry for:$bad"
t_check "get_maintainer.pl names the rcu_perf entry and rcu@vger" test -z "$bad"

# 10. LLVM=1, out of tree (O=): the same programs, no warning either.
if [ -n "$llvm_pid" ]; then
	wait "$llvm_pid"
	rc=$?
	t_note "LLVM=1 build: done $((SECONDS - llvm_start)) s after its start"
	t_check "LLVM=1 O= build makes all programs, no warning" \
		built_ok $rc "$tmp/llvm.log" "$tmp/llvm/kselftest/rcu_perf"
else
	t_skip "LLVM=1 O= build" "no clang (apt-get install clang)"
fi

echo "1..$T_N"
