#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Style gate: every C file and header of the suite and of the unit tests is
# clean under the tree's scripts/checkpatch.pl --no-tree --strict, and every
# source file of the project starts with an SPDX line.
source "$(dirname "$0")/lib.sh"
cd "$RP_TOP" || exit 2

cp=$RP_TREE/scripts/checkpatch.pl
echo "TAP version 13"
files=$(git ls-files -co --exclude-standard -- \
	'tools/testing/selftests/rcu_perf/*.c' 'tools/testing/selftests/rcu_perf/*.h' \
	'tools/testing/selftests/rcu_perf/lib/*.c' 'tests/unit/*.c' 'tests/unit/*.h' \
	'tests/fuzz/*.c' 'tests/fuzz/*.h' 2>/dev/null | sort -u)
srcs=$(git ls-files -co --exclude-standard -- '*.c' '*.h' '*.sh' Makefile '*/Makefile' \
	'.ci/run' 2>/dev/null | sort -u)
echo "1..$(($(echo "$files" | wc -w) + 1))"

# checkpatch is one perl process per file: run them on every CPU, report
# in order.
out_dir=$(mktemp -d)
trap 'rm -rf "$out_dir"' EXIT
echo "$files" | awk 'NF { print NR, $0 }' |
	xargs -P "$(nproc)" -L 1 sh -c 'perl "$0" --no-tree --strict --quiet \
		--show-types --ignore FILE_PATH_CHANGES -f "$3" >"$1/$2" 2>&1' \
		"$cp" "$out_dir"
# (sh -c: $0 checkpatch.pl, $1 the output dir, then "NR FILE" from xargs)
i=0
for f in $files; do
	i=$((i + 1))
	out=$(cat "$out_dir/$i" 2>/dev/null || echo "checkpatch did not run")
	if [ -z "$out" ]; then
		t_ok "checkpatch $f"
	else
		echo "$out" | sed 's/^/# /'
		t_fail "checkpatch $f"
	fi
done

nospdx=""
for f in $srcs; do
	head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0' || nospdx="$nospdx $f"
done
[ -n "$nospdx" ] && t_note "no SPDX line in:$nospdx"
t_check "SPDX line in every source file" test -z "$nospdx"
