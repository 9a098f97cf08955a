#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect.sh, the "git bisect run" helper: exit 0 (good), 1 (bad), 125
# (skip: inconclusive after the allowed runs, or the command skipped) and
# 128 (abort: bad usage, input or command) on synthetic results; then a
# whole "git bisect run" over a scratch repository whose commits carry the
# "latency" their results report, which must name the commit that made it
# slower.
source "$(dirname "$0")/lib.sh"

B=$RP_SUITE/bisect.sh
C=$RP_BIN/rcu_perf_compare
AWK_GEN=$(cd "$(dirname "$0")" && pwd)/synth_results.awk
tmp=$(mktemp -d /tmp/t61_bisect.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
echo "TAP version 13"

# The stored good baseline: three runs of 20 samples around 10 ms.
mkdir -p "$tmp/good"
for s in 1 2 3; do
	awk -f "$AWK_GEN" -v test=gp_throttle -v metrics=membarrier.idle.latency \
		-v mean=10 -v sd=0.3 -v n=20 -v seed=$s >"$tmp/good/run$s.json"
done
# A noisy baseline: two runs whose medians are 3 and 17 ms (the run is the
# unit: no candidate can be told from that).
mkdir -p "$tmp/noisy"
awk -f "$AWK_GEN" -v test=gp_throttle -v metrics=membarrier.idle.latency \
	-v samples="2 3 18" >"$tmp/noisy/run1.json"
awk -f "$AWK_GEN" -v test=gp_throttle -v metrics=membarrier.idle.latency \
	-v samples="2 17 18" >"$tmp/noisy/run2.json"

# run.sh MEAN [SAMPLES]: one candidate run into $RCU_PERF_JSON.
cat >"$tmp/run.sh" <<EOF
#!/bin/sh
s=\$((\$(cat "$tmp/seed" 2>/dev/null || echo 100) + 1))
echo \$s >"$tmp/seed"
awk -f "$AWK_GEN" -v test=gp_throttle -v metrics=membarrier.idle.latency \\
	-v mean="\$1" -v sd=0.3 -v n=20 -v seed=\$s -v samples="\$2" >"\$RCU_PERF_JSON"
EOF

# bisect_rc NAME EXPECTED ARGS...
bisect_rc() {
	local name=$1 want=$2 log=$tmp/$1.log
	shift 2
	bash "$B" --compare "$C" "$@" >"$log" 2>&1
	local rc=$?
	t_show "$log"
	if [ "$rc" = "$want" ]; then
		t_ok "$name"
	else
		t_note "exit $rc, want $want"
		t_fail "$name"
	fi
}

bisect_rc bisect_good 0 --baseline "$tmp/good" -- sh "$tmp/run.sh" 10
bisect_rc bisect_bad 1 --baseline "$tmp/good" -- sh "$tmp/run.sh" 13
bisect_rc bisect_skip_inconclusive 125 --baseline "$tmp/noisy" --runs 2 \
	-- sh "$tmp/run.sh" 10
bisect_rc bisect_skip_command_skipped 125 --baseline "$tmp/good" -- sh -c 'exit 4'
bisect_rc bisect_abort_command_failed 128 --baseline "$tmp/good" -- sh -c 'exit 2'
bisect_rc bisect_abort_bad_baseline 128 --baseline "$tmp/nosuch.json" -- sh "$tmp/run.sh" 10
bisect_rc bisect_abort_no_command 128 --baseline "$tmp/good"
bisect_rc bisect_abort_bad_option 128 --runs x --baseline "$tmp/good" -- true
# Arguments with spaces and quotes reach the command intact.
bisect_rc bisect_quoting 0 --baseline "$tmp/good" -- \
	sh -c 'test "$1" = "a '\''b'\'' c" && sh "$2" 10' sh "a 'b' c" "$tmp/run.sh"
# --keep keeps the runs; --min-runs/--runs bound them.
bisect_rc bisect_keep 0 --keep "$tmp/kept" --min-runs 3 --runs 3 \
	--baseline "$tmp/good" -- sh "$tmp/run.sh" 10
kept=("$tmp"/kept/cand-*.json)
t_check "bisect_keep_runs" test ${#kept[@]} = 3 -a -f "${kept[2]}"

# git bisect run: commit i of 10 has latency 10 ms before commit 6, 13 after.
repo=$tmp/repo
git init -q "$repo" >/dev/null 2>&1 && cd "$repo" || exit 2
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
for i in $(seq 1 10); do
	if [ "$i" -lt 6 ]; then echo 10 >latency; else echo 13 >latency; fi
	git add latency && git commit -q --allow-empty -m "commit $i" >/dev/null 2>&1
done
bad_commit=$(git rev-parse HEAD~4)
git bisect start HEAD HEAD~9 >/dev/null 2>&1
git bisect run bash "$B" --compare "$C" --baseline "$tmp/good" -- \
	sh -c 'sh "$0" "$(cat latency)"' "$tmp/run.sh" >"$tmp/git.log" 2>&1
found=$(git rev-parse refs/bisect/bad 2>/dev/null)
git bisect reset -q >/dev/null 2>&1
cd / || exit 2
grep -E "is the first bad commit|bisect found" "$tmp/git.log" | t_show /dev/stdin
if [ "$found" = "$bad_commit" ]; then
	t_ok "git_bisect_run_finds_the_commit"
else
	t_show "$tmp/git.log"
	t_fail "git_bisect_run_finds_the_commit"
fi

echo "1..$T_N"
