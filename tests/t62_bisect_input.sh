#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect.sh's argument handling under bad input. First a table: each bad
# command line exits 128 (abort: a broken setup must not mark a commit
# good, bad or skipped), says why on stderr in lines of bisect.sh or
# rcu_perf_compare (no shell error such as "integer expression
# expected"), and leaves no directory in $TMPDIR. Then BISECT_FUZZ=N
# (default 40) random command lines drawn from good and bad arguments:
# the exit is one of bisect's (0, 1, 125, 128), stderr holds no shell
# error, nothing is left in $TMPDIR.
source "$(dirname "$0")/lib.sh"

B=$RP_SUITE/bisect.sh
C=$RP_BIN/rcu_perf_compare
tmp=$(mktemp -d /tmp/t62_bisect.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp/tmpdir
mkdir -p "$TMPDIR" "$tmp/empty"
awk -f "$(dirname "$0")/synth_results.awk" -v test=t -v metrics=a.x \
	-v mean=10 -v sd=0.3 -v n=5 -v seed=1 >"$tmp/good.json"
echo "not json" >"$tmp/text"
good=(--baseline "$tmp/good.json")
echo "TAP version 13"

# shell_clean ERR: stderr holds only lines of bisect.sh and rcu_perf_compare.
shell_clean() { ! grep -vqE '^(bisect\.sh|rcu_perf_compare): ' "$1"; }

# bad DESC ARGS...: exit 128, a reason on stderr, nothing left.
bad() {
	local d=$1 rc
	shift
	bash "$B" --compare "$C" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc = 128 ] && [ -s "$tmp/err" ] && shell_clean "$tmp/err" &&
	   [ -z "$(ls -A "$TMPDIR")" ]; then
		t_note "$(head -n 1 "$tmp/err")"
		t_ok "bad input: $d"
	else
		t_note "exit $rc"
		t_show "$tmp/err"
		t_show "$tmp/out"
		find "$TMPDIR" -mindepth 1 | sed "s/^/# left: /"
		t_fail "bad input: $d"
		rm -rf "${TMPDIR:?}"/*
	fi
}

bad "no arguments"
bad "no --baseline" -- true
bad "no command" "${good[@]}"
bad "no command after --" "${good[@]}" --
bad "empty command" "${good[@]}" -- ''
bad "unknown option" -x "${good[@]}" -- true
bad "--baseline=PATH form" "--baseline=$tmp/good.json" -- true
bad "--baseline without value" --baseline
bad "--runs without value" "${good[@]}" --runs
bad "--runs 0" --runs 0 "${good[@]}" -- true
bad "--runs -1" --runs -1 "${good[@]}" -- true
bad "--runs 1e3" --runs 1e3 "${good[@]}" -- true
bad "--runs ' 5'" --runs ' 5' "${good[@]}" -- true
bad "--runs ''" --runs '' "${good[@]}" -- true
bad "--runs with 20 digits" --runs 99999999999999999999 "${good[@]}" -- true
bad "--min-runs x" --min-runs x "${good[@]}" -- true
bad "--budget 0x10" --budget 0x10 "${good[@]}" -- true
bad "--compare ''" --compare '' "${good[@]}" -- true
bad "--compare missing" --compare "$tmp/nosuch" "${good[@]}" -- true
bad "--baseline missing" --baseline "$tmp/nosuch.json" -- true
bad "--baseline ''" --baseline '' -- true
bad "--baseline: not JSON" --baseline "$tmp/text" -- true
bad "--baseline: a directory without results" --baseline "$tmp/empty" -- true
bad "--allow without PCT" --allow x "${good[@]}" -- true
bad "--set without =" --set 'a b' "${good[@]}" -- true
bad "--set unknown" --set nosuch=1 "${good[@]}" -- true
bad "--keep: a file" --keep "$tmp/good.json" "${good[@]}" -- true
bad "command without results" "${good[@]}" -- true
bad "command not found" "${good[@]}" -- "$tmp/nosuch"

# Random command lines: pieces of good and bad arguments.
# shellcheck disable=SC2016 # '$(x)': a literal, that must stay one
pool=(--baseline "$tmp/good.json" "$tmp/empty" "$tmp/text" --runs 1 2 0 x
      99999999999999999999 --min-runs --budget --metric 'a.*' --allow
      'a.*=5' '=' --set alpha=0.1 'a b' --keep "$tmp/k" --compare "$C" --
      true false '' -- "$tmp/run.sh" --help -h $'a\nb' "'" '"' '$(x)')
cat >"$tmp/run.sh" <<EOF
#!/bin/sh
awk -f "$(cd "$(dirname "$0")" && pwd)/synth_results.awk" -v test=t \
	-v metrics=a.x -v mean=10 -v sd=0.3 -v n=5 -v seed=\$\$ >"\$RCU_PERF_JSON"
EOF
chmod +x "$tmp/run.sh"
fuzz_n=${BISECT_FUZZ:-40}
fuzz_bad=0
for _ in $(seq "$fuzz_n"); do
	args=()
	for _ in $(seq $((RANDOM % 8 + 1))); do
		args+=("${pool[RANDOM % ${#pool[@]}]}")
	done
	timeout 60 bash "$B" --compare "$C" "${args[@]}" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	rm -rf "$tmp/k"
	case $rc in
	0 | 1 | 125 | 128)
		shell_clean "$tmp/err" && [ -z "$(ls -A "$TMPDIR")" ] &&
			continue ;;
	esac
	fuzz_bad=$((fuzz_bad + 1))
	t_note "exit $rc: bisect.sh$(printf " %q" "${args[@]}")"
	t_show "$tmp/err"
	rm -rf "${TMPDIR:?}"/*
done
t_check "$fuzz_n random command lines: bisect's exits only, no shell error, nothing left ($fuzz_bad bad)" \
	test $fuzz_bad = 0

echo "1..$T_N"
