#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The inputs of `make kernels`, without building a kernel: the config
# fragment holds only Kconfig lines; every injected regression in
# config/kernel/patches applies to the tree, is kernel style, has a unique
# name and at least one well-formed expectation naming a suite program.
source "$(dirname "$0")/lib.sh"
cd "$RP_TOP" || exit 2

frag=config/kernel/rcu_perf.config
patches=(config/kernel/patches/*.patch)
[ -e "${patches[0]}" ] || patches=()
echo "TAP version 13"
echo "1..$((1 + ${#patches[@]} * 3))"

bad=$(grep -vnE '^(#.*|CONFIG_[A-Z0-9_]+=.+|)$' "$frag")
[ -n "$bad" ] && t_note "not a Kconfig line: $bad"
t_check "$frag: only CONFIG_ lines and comments" test -z "$bad"

# expect_ok PATCH: "expect: PROGRAM CHECK-GLOB fail|ok|skip|any", PROGRAM a
# test, CHECK-GLOB matching one of its checks (a renamed check leaves none).
expect_ok() {
	local prog glob verdict extra c hit n=0
	while read -r prog glob verdict extra; do
		n=$((n + 1))
		if [ ! -f "$RP_SUITE/$prog.c" ] || [ -z "$glob" ] || [ -n "$extra" ] ||
		   [[ ! $verdict =~ ^(fail|ok|skip|any)$ ]]; then
			t_note "bad expectation: expect: $prog $glob $verdict $extra"
			return 1
		fi
		hit=0
		for c in $(t_prog_checks "$RP_SUITE/$prog.c"); do
			# shellcheck disable=SC2053 # the glob is one
			[[ $c == $glob ]] && hit=1 && break
		done
		if [ $hit = 0 ]; then
			t_note "expect: $prog $glob: no check of $prog matches"
			return 1
		fi
	done < <(sed -n 's/^expect: //p' "$1")
	[ $n -gt 0 ] || t_note "no \"expect: PROGRAM CHECK-GLOB VERDICT\" line"
	[ $n -gt 0 ]
}

names=" healthy "
for p in "${patches[@]}"; do
	b=$(basename "$p" .patch)
	name=${b#[0-9][0-9][0-9][0-9]-}
	good=1
	if [[ $b == "$name" || $names == *" $name "* ]]; then
		t_note "$b: not NNNN-name, or a name already taken"
		good=0
	fi
	names+="$name "
	expect_ok "$p" || good=0
	t_check "$b: named NNNN-name, name unique, expectations well-formed" \
		test $good = 1
	t_check "$b: applies to $RP_TREE" \
		patch -s -p1 -f --dry-run -d "$RP_TREE" -i "$RP_TOP/$p"
	out=$(perl "$RP_TREE/scripts/checkpatch.pl" --no-tree --strict --no-signoff \
		--quiet --show-types - <"$p" 2>&1)
	[ -n "$out" ] && t_note "${out//$'\n'/$'\n# '}"
	t_check "$b: checkpatch clean" test -z "$out"
done
