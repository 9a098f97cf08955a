#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rcu_perf_compare. On synthetic results (tests/synth_results.awk): the
# verdicts and exit codes of a clear shift, no shift and too few samples,
# in both metric directions; bad input and usage (exit 2 with one line
# naming the file); KTAP and KCIDB output, scripts/plot.py; --repeat. The same on the
# live kernel is selftests/t60_compare_live.sh.
source "$(dirname "$0")/lib.sh"

C=$RP_BIN/rcu_perf_compare
AWK_GEN=$(cd "$(dirname "$0")" && pwd)/synth_results.awk
tmp=$(mktemp -d /tmp/t60_compare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
echo "TAP version 13"

# gen FILE MEAN SD N SEED [TEST [METRICS [BETTER]]]: random normal samples.
# Every verdict below holds for any draw (mawk and gawk differ), or the
# samples are given literally (SAMPLES="...").
gen() {
	awk -f "$AWK_GEN" -v mean="$2" -v sd="$3" -v n="$4" -v seed="$5" \
		-v test="${6:-gp_throttle}" \
		-v metrics="${7:-membarrier.idle.latency}" \
		-v better="${8:-lower}" -v samples="$SAMPLES" >"$1"
}

# cmp_rc NAME EXPECTED_RC WORD ARGS...: run the comparison, check the exit
# code and that WORD appears in its output.
cmp_rc() {
	local name=$1 want=$2 word=$3 log=$tmp/$1.log
	shift 3
	"$C" "$@" >"$log" 2>&1
	local rc=$?
	t_show "$log"
	if [ "$rc" = "$want" ] && grep -q -- "$word" "$log"; then
		t_ok "$name"
	else
		t_note "exit $rc (want $want), '$word' in output: $(grep -c -- "$word" "$log")"
		t_fail "$name"
	fi
}

# bad_input NAME ARGS...: exit 2, one line on stderr, nothing on stdout.
bad_input() {
	local name=$1 want=$2
	shift 2
	"$C" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	t_show "$tmp/err"
	if [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	   grep -q -- "$want" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		t_ok "$name"
	else
		t_note "exit $rc, stdout $(wc -c <"$tmp/out") bytes"
		t_fail "$name"
	fi
}

# ---------------------------------------------------------------- verdicts
# Two runs a side are judged over the runs' medians (Welch, df ~2): runs
# of sd 2% samples repeat their medians to ~0.5%, enough to exclude 10%.
gen "$tmp/b1.json" 10 0.2 20 1
gen "$tmp/b2.json" 10 0.2 20 2
gen "$tmp/shift1.json" 13 0.5 20 3
gen "$tmp/shift2.json" 13 0.5 20 4
gen "$tmp/same1.json" 10 0.2 20 5
gen "$tmp/same2.json" 10 0.2 20 6
gen "$tmp/better1.json" 7 0.5 20 7
gen "$tmp/few_b.json" 10 0.5 1 8
gen "$tmp/few_c.json" 13 0.5 1 9
SAMPLES="5 15 8 12" gen "$tmp/noisy_b.json"
SAMPLES="6 14 9 13" gen "$tmp/noisy_c.json"

cmp_rc shift_is_regressed 1 ": regressed" "$tmp/b1.json" "$tmp/b2.json" -- \
	"$tmp/shift1.json" "$tmp/shift2.json"
cmp_rc no_shift_is_same 0 ": no significant change" "$tmp/b1.json" "$tmp/b2.json" -- \
	"$tmp/same1.json" "$tmp/same2.json"
cmp_rc faster_is_improved 0 ": improved" --base "$tmp/b1.json" --cand "$tmp/better1.json"
cmp_rc one_sample_is_inconclusive 3 ": inconclusive" "$tmp/few_b.json" -- "$tmp/few_c.json"
cmp_rc noisy_is_inconclusive 3 ": inconclusive" "$tmp/noisy_b.json" -- "$tmp/noisy_c.json"
# A slow tail (every fifth op +48 ms): the median does not move, the mean
# and the 90th percentile do (--stat), each naming its test.
SAMPLES="$(awk 'BEGIN { for (i = 0; i < 50; i++) printf "%.3f ", 16 + 0.001 * (i % 3) }')" \
	gen "$tmp/tail_b.json"
SAMPLES="$(awk 'BEGIN { for (i = 0; i < 50; i++) printf "%.3f ", 16 + 0.001 * (i % 3) + (i % 5 == 4 ? 48 : 0) }')" \
	gen "$tmp/tail_c.json"
cmp_rc tail_median_same 0 "change of the median +0.0 %" "$tmp/tail_b.json" -- "$tmp/tail_c.json"
cmp_rc tail_mean_regressed 1 "(Welch t).*: regressed" --stat mean "$tmp/tail_b.json" -- \
	"$tmp/tail_c.json"
cmp_rc tail_p90_regressed 1 "(bootstrap of p90).*: regressed" --stat p90 "$tmp/tail_b.json" -- \
	"$tmp/tail_c.json"
# A +30% shift within a per-metric allowed change of 40%: not a regression.
cmp_rc allow_overrides_limit 0 ": no significant change" \
	--allow 'gp_throttle.*.latency=40' "$tmp/b1.json" -- "$tmp/shift1.json"
cmp_rc set_overrides_limit 0 "allowed 40 %" --set allowed_change=40 \
	"$tmp/b1.json" -- "$tmp/shift1.json"
RCU_PERF_ALLOWED_CHANGE=40 cmp_rc env_overrides_limit 0 "allowed 40 %" \
	"$tmp/b1.json" -- "$tmp/shift1.json"

# Higher is better: a throughput drop is the regression, a rise is not.
gen "$tmp/ops_b.json" 1000 20 10 12 dcache_scaling lookup.cpus2.ops_per_s higher
gen "$tmp/ops_drop.json" 800 20 10 13 dcache_scaling lookup.cpus2.ops_per_s higher
gen "$tmp/ops_rise.json" 1200 20 10 14 dcache_scaling lookup.cpus2.ops_per_s higher
cmp_rc throughput_drop_is_regressed 1 ": regressed" "$tmp/ops_b.json" -- "$tmp/ops_drop.json"
cmp_rc throughput_rise_is_improved 0 ": improved" "$tmp/ops_b.json" -- "$tmp/ops_rise.json"

# A directory of runs is merged; --metric picks what is judged.
mkdir -p "$tmp/dir_b" "$tmp/dir_c"
cp "$tmp/b1.json" "$tmp/b2.json" "$tmp/ops_b.json" "$tmp/dir_b/"
cp "$tmp/same1.json" "$tmp/same2.json" "$tmp/ops_drop.json" "$tmp/dir_c/"
cmp_rc dirs_merge_runs 1 "baseline  *40  *2 " --base "$tmp/dir_b" --cand "$tmp/dir_c"
cmp_rc metric_filter 0 "1 no significant change" --metric 'gp_throttle.*' \
	"$tmp/dir_b" -- "$tmp/dir_c"

# ---------------------------------------------------------------- KTAP
"$C" --ktap "$tmp/dir_b" -- "$tmp/dir_c" >"$tmp/ktap.log" 2>&1
rc=$?
t_show "$tmp/ktap.log"
t_check "ktap_plan_and_results" test "$rc" = 1 -a \
	"$(grep -c '^1\.\.2$' "$tmp/ktap.log")" = 1 -a \
	"$(ktap_result "$tmp/ktap.log" dcache_scaling_lookup_cpus2_ops_per_s)" = fail -a \
	"$(ktap_result "$tmp/ktap.log" gp_throttle_membarrier_idle_latency)" = pass
"$C" --ktap "$tmp/few_b.json" -- "$tmp/few_c.json" >"$tmp/ktap3.log" 2>&1
t_check "ktap_inconclusive_is_skip" test \
	"$(ktap_result "$tmp/ktap3.log" gp_throttle_membarrier_idle_latency)" = skip
# Nothing but KTAP at top level.
# KTAP names have no dots (KCIDB/KernelCI would split them into levels).
t_check "ktap_names_without_dots" test -z \
	"$(grep -E '^(not )?ok [0-9]+ [^ #]*\.' "$tmp/ktap.log")"
t_check "ktap_only_tap_lines" test -z \
	"$(grep -vE '^(TAP version 13|1\.\.[0-9]+|(not )?ok [0-9]+ .*|#.*)$' "$tmp/ktap.log")"

# ---------------------------------------------------------------- bad input
head -c 300 "$tmp/b1.json" >"$tmp/truncated.json"
echo 'not json' >"$tmp/garbage.json"
: >"$tmp/empty.json"
echo '{"schema": "something-else", "version": 1}' >"$tmp/schema.json"
sed 's/"version": 1/"version": 99/' "$tmp/b1.json" >"$tmp/version.json"
sed 's/"samples": \[ /"samples": [ "x", /' "$tmp/b1.json" >"$tmp/sample.json"
sed 's/"unit": "ms"/"unit": "us"/' "$tmp/b2.json" >"$tmp/unit.json"
mkdir -p "$tmp/nojson"
bad_input bad_truncated_json truncated.json "$tmp/b1.json" -- "$tmp/truncated.json"
bad_input bad_not_json garbage.json "$tmp/garbage.json" -- "$tmp/b1.json"
bad_input bad_stat "median, mean, p90 or p25" --stat p99 "$tmp/b1.json" -- "$tmp/b2.json"
bad_input bad_empty_file empty.json "$tmp/b1.json" -- "$tmp/empty.json"
bad_input bad_schema schema.json "$tmp/b1.json" -- "$tmp/schema.json"
bad_input bad_version version.json "$tmp/b1.json" -- "$tmp/version.json"
bad_input bad_sample sample.json "$tmp/b1.json" -- "$tmp/sample.json"
bad_input bad_unit_mismatch unit.json "$tmp/b1.json" "$tmp/unit.json" -- "$tmp/b2.json"
bad_input bad_missing_file nosuch.json "$tmp/b1.json" -- "$tmp/nosuch.json"
bad_input bad_empty_dir nojson "$tmp/nojson" -- "$tmp/b1.json"
bad_input bad_usage_no_input "no input"
bad_input bad_usage_option "unknown option" --frobnicate "$tmp/b1.json"
bad_input bad_usage_alpha "alpha" --set alpha=2 "$tmp/b1.json" -- "$tmp/b2.json"
bad_input bad_usage_allow "--allow" --allow nopercent "$tmp/b1.json" -- "$tmp/b2.json"
bad_input bad_usage_param "unknown parameter" --set nosuch=1 "$tmp/b1.json" -- "$tmp/b2.json"

# ---------------------------------------------------------------- KCIDB
"$C" --kcidb "$tmp/kcidb.json" --origin rcu_perf_ci --build-id rcu_perf_ci:b1 \
	--run-id r1 "$tmp/dir_b" -- "$tmp/dir_c" >"$tmp/kcidb.log" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q '"path": "rcu_perf.dcache_scaling.lookup_cpus2_ops_per_s"' \
	"$tmp/kcidb.json" && grep -q '"status": "FAIL"' "$tmp/kcidb.json" &&
	grep -q '"status": "PASS"' "$tmp/kcidb.json"; then
	t_ok "kcidb_statuses"
else
	t_show "$tmp/kcidb.log"
	t_fail "kcidb_statuses"
fi
sed 's/synthetic_check/a.dotted.check/' "$tmp/b2.json" >"$tmp/dotted.json"
"$C" --kcidb "$tmp/kcidb1.json" --origin rcu_perf_ci --build-id kernelci:b2 \
	"$tmp/b1.json" "$tmp/dotted.json" >/dev/null 2>&1
t_check "kcidb_single_results" grep -q '"status": "DONE"' "$tmp/kcidb1.json"
# No made-up origin or build: a record no CI could attach is bad usage.
bad_input kcidb_needs_origin "--origin NAME and --build-id ORIGIN:ID" \
	--kcidb - --build-id kernelci:b2 "$tmp/b1.json"
bad_input kcidb_needs_build_id "--origin NAME and --build-id ORIGIN:ID" \
	--kcidb - --origin rcu_perf_ci "$tmp/b1.json"
bad_input kcidb_bad_origin "KCIDB origins" --kcidb - --origin Bad.Name \
	--build-id kernelci:b2 "$tmp/b1.json"
bad_input kcidb_bad_build_id "KCIDB ids" --kcidb - --origin rcu_perf_ci \
	--build-id b2 "$tmp/b1.json"
bad_input kcidb_empty_build_id "KCIDB ids" --kcidb - --origin rcu_perf_ci \
	--build-id kernelci: "$tmp/b1.json"
# Check names have no dots (a KCIDB path splits at them); results of
# older programs that had one get today's name.
sed 's/"synthetic_check"/"membarrier.idle.latency_vs_baseline"/' "$tmp/b1.json" \
	>"$tmp/olddots.json"
"$C" --kcidb "$tmp/kcidb_old.json" --origin rcu_perf_ci --build-id kernelci:b1 \
	"$tmp/olddots.json" >/dev/null 2>&1
t_check "kcidb_old_dotted_check_name_undotted" eval \
	'grep -q "\"path\": \"rcu_perf.gp_throttle.membarrier_idle_latency_vs_baseline\"" \
		"$tmp/kcidb_old.json" &&
	 ! grep -qF "membarrier.idle.latency_vs_baseline" "$tmp/kcidb_old.json"'
# The KCIDB v5 rules (kcidb-io, kcidb_io/schema/v05_00.py up to v05_03.py)
# that a receiver enforces, where python3 is there.
if command -v python3 >/dev/null; then
	cat >"$tmp/kcidb_check.py" <<'EOF'
import json, re, sys
build_id = sys.argv[1]
for path in sys.argv[2:]:
    d = json.load(open(path))
    assert d["version"] == {"major": 5, "minor": 0}, d["version"]
    assert set(d) <= {"version", "checkouts", "builds", "tests", "issues", "incidents"}
    assert d["tests"], path
    ids = set()
    for t in d["tests"]:
        assert set(t) <= {"id", "build_id", "origin", "environment", "path", "comment",
                          "log_url", "log_excerpt", "status", "number", "start_time",
                          "duration", "input_files", "output_files", "misc"}, t
        assert {"id", "build_id", "origin"} <= set(t), t
        assert re.fullmatch(r"[a-z0-9_]+", t["origin"])
        assert t["id"].startswith(t["origin"] + ":") and t["id"] not in ids, t["id"]
        ids.add(t["id"])
        assert t["build_id"] == build_id, t["build_id"]
        # v5: no empty path component, nothing but [a-zA-Z0-9_-] in one
        assert re.fullmatch(r"rcu_perf\.[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]+", t["path"]), t["path"]
        assert t["status"] in ("FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP")
        if "number" in t:
            n = t["number"]
            assert set(n) <= {"value", "unit", "prefix"} and isinstance(n["value"], (int, float))
            assert n.get("prefix", "metric") in ("metric", "binary")
        if "start_time" in t:
            assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)",
                                t["start_time"]), t["start_time"]
        assert isinstance(t.get("misc", {}), dict)
        def nonull(v):
            assert v is not None
            if isinstance(v, dict): [nonull(x) for x in v.values()]
            if isinstance(v, list): [nonull(x) for x in v]
        nonull(t)
EOF
	t_check "kcidb_schema_v5" python3 "$tmp/kcidb_check.py" rcu_perf_ci:b1 "$tmp/kcidb.json"
	t_check "kcidb_schema_v5_single_results" python3 "$tmp/kcidb_check.py" \
		kernelci:b2 "$tmp/kcidb1.json"
else
	t_skip "kcidb_schema_v5" "no python3 to check the output against the schema"
	t_skip "kcidb_schema_v5_single_results" "no python3"
fi
# A metric's or a check's dots are not levels of the tree: one component.
t_check "kcidb_path_metric_dots" grep -q \
	'"path": "rcu_perf.gp_throttle.membarrier_idle_latency"' "$tmp/kcidb1.json"
t_check "kcidb_path_check_dots" grep -q \
	'"path": "rcu_perf.gp_throttle.a_dotted_check"' "$tmp/kcidb1.json"

# ---------------------------------------------------------------- plots
# SVG plots left the suite: scripts/plot.py, one well-formed SVG per metric.
gen "$tmp/dir_b/ops1.json" 500 10 10 15 dcache_scaling lookup.cpus1.ops_per_s higher
gen "$tmp/dir_c/ops1.json" 480 10 10 16 dcache_scaling lookup.cpus1.ops_per_s higher
PLOT=$(dirname "$0")/../scripts/plot.py
if command -v python3 >/dev/null; then
	python3 "$PLOT" -o "$tmp/svg" "$tmp/dir_b" -- "$tmp/dir_c" >"$tmp/svg.log" 2>&1
	t_show "$tmp/svg.log"
	ok=1
	for f in "$tmp/svg/gp_throttle.membarrier.idle.latency.svg" \
		 "$tmp/svg/dcache_scaling.lookup.cpus1.ops_per_s.svg"; do
		python3 -c 'import sys, xml.dom.minidom as m
d = m.parse(sys.argv[1])
assert d.documentElement.tagName == "svg"
assert "candidate" in d.toxml()' "$f" || ok=0
	done
	t_check "svg_one_per_metric_both_sides" test "$ok" = 1
	t_check "svg_plot_names_the_files" grep -q "wrote $tmp/svg/" "$tmp/svg.log"
	# "make report": without other input, the plots go beside the results.
	python3 "$PLOT" "$tmp/dir_b" >"$tmp/svg1.log" 2>&1
	t_check "svg_single_dir" test -s "$tmp/dir_b/gp_throttle.membarrier.idle.latency.svg"
else
	t_skip "svg_one_per_metric_both_sides" "no python3"
	t_skip "svg_plot_names_the_files" "no python3"
	t_skip "svg_single_dir" "no python3"
fi
# rcu_perf_compare itself no longer plots.
bad_input "svg_option_gone" "svg" --svg "$tmp/svg" "$tmp/dir_b"

# ---------------------------------------------------------------- --repeat
# Each run of a command is one synthetic results file; the seed advances.
cat >"$tmp/run.sh" <<EOF
#!/bin/sh
# run.sh MEAN SD N [SAMPLES]: one synthetic run into \$RCU_PERF_JSON
s=\$((\$(cat "$tmp/seed" 2>/dev/null || echo 100) + 1))
echo \$s >"$tmp/seed"
awk -f "$AWK_GEN" -v test=gp_throttle -v metrics=membarrier.idle.latency \\
	-v mean="\$1" -v sd="\$2" -v n="\$3" -v seed=\$s -v samples="\$4" \\
	>"\$RCU_PERF_JSON"
EOF
nruns() { local f n=0; for f in "$1/$2"-*.json; do [ -f "$f" ] && n=$((n + 1)); done; echo $n; }

# Equal sides, one sample a run: the first round cannot tell (1 vs 1), a
# later one can ("no significant change"), long before the round limit.
cmp_rc repeat_until_conclusive 0 ": no significant change" --repeat "$tmp/r1" \
	--set repeat_min_rounds=1 \
	--base-cmd "sh $tmp/run.sh 10 0.1 1" --cand-cmd "sh $tmp/run.sh 10 0.1 1"
n=$(nruns "$tmp/r1" base)
t_note "rounds until conclusive: $n"
t_check "repeat_stops_when_conclusive" test "$n" -ge 2 -a "$n" -lt 10
# A clear shift stops at repeat_min_rounds.
cmp_rc repeat_regressed 1 ": regressed" --repeat "$tmp/r2" \
	--base-cmd "sh $tmp/run.sh 10 0.3 10" --cand-cmd "sh $tmp/run.sh 14 0.3 10"
t_check "repeat_min_rounds" test "$(nruns "$tmp/r2" cand)" = 2
# Too noisy (three samples of sd 50% a run: the runs' medians differ by
# ~35%): the round limit ends it, inconclusive.
cmp_rc repeat_budget_inconclusive 3 ": inconclusive" --repeat "$tmp/r3" \
	--set repeat_max_rounds=3 \
	--base-cmd "sh $tmp/run.sh 10 5 3" --cand-cmd "sh $tmp/run.sh 10 5 3"
t_check "repeat_max_rounds" test "$(nruns "$tmp/r3" base)" = 3
# A second invocation appends to the runs already there.
"$C" --repeat "$tmp/r3" --set repeat_max_rounds=1 --set repeat_min_rounds=1 \
	--base-cmd "sh $tmp/run.sh 10 5 3" --cand-cmd "sh $tmp/run.sh 10 5 3" \
	>"$tmp/r3b.log" 2>&1
t_check "repeat_appends" test -f "$tmp/r3/base-04.json" -a \
	"$(grep -c 'baseline and 4 candidate' "$tmp/r3b.log")" = 1
# A stored baseline and a candidate command only (the bisect case).
cmp_rc repeat_stored_baseline 1 ": regressed" --repeat "$tmp/r4" \
	--base "$tmp/dir_b/b1.json" --cand-cmd "sh $tmp/run.sh 14 0.3 10"
# Under --ktap, progress goes to stderr: stdout is KTAP from its first line.
"$C" --ktap --repeat "$tmp/r7" --base "$tmp/b1.json" \
	--cand-cmd "sh $tmp/run.sh 14 0.3 10" >"$tmp/r7.out" 2>"$tmp/r7.err"
t_check "repeat_ktap" test "$?" = 1 -a "$(head -n 1 "$tmp/r7.out")" = "TAP version 13" -a \
	"$(ktap_result "$tmp/r7.out" gp_throttle_membarrier_idle_latency)" = fail
cmp_rc repeat_command_fails 2 "command failed" --repeat "$tmp/r5" \
	--base "$tmp/b1.json" --cand-cmd "exit 2"
cmp_rc repeat_command_skips 4 "skipped" --repeat "$tmp/r6" \
	--base "$tmp/b1.json" --cand-cmd "exit 4"
# A --repeat directory is written and read as root: a symlink planted in
# it is refused (results loaded, a log written), so is a directory others
# can write; the file a planted log pointed at is untouched.
mkdir -p "$tmp/r8" "$tmp/r9" "$tmp/r10"
echo untouched >"$tmp/victim"
cp "$tmp/b1.json" "$tmp/victim.json"
ln -s "$tmp/victim.json" "$tmp/r8/base-01.json"
bad_input repeat_planted_results_symlink "base-01.json: not a regular file (a symlink?): refused" \
	--repeat "$tmp/r8" --base-cmd "sh $tmp/run.sh 10 0.1 1" --cand-cmd "sh $tmp/run.sh 10 0.1 1"
ln -s "$tmp/victim" "$tmp/r9/cand-01.log"
cmp_rc repeat_planted_log_symlink 2 "command failed" --repeat "$tmp/r9" \
	--base "$tmp/b1.json" --cand-cmd "sh $tmp/run.sh 14 0.3 10"
t_check "repeat_planted_log_symlink: its target untouched" \
	test "$(cat "$tmp/victim")" = untouched
chmod 0777 "$tmp/r10"
bad_input repeat_dir_writable_by_others "not the caller's alone (owner $(id -u), mode 0777)" \
	--repeat "$tmp/r10" --base "$tmp/b1.json" --cand-cmd "sh $tmp/run.sh 14 0.3 10"

# The run is the unit of replication. Healthy runs whose medians are 8 ms
# in some runs and 16 ms in others (gp_throttle's one_busy level): pooled
# samples call the side with more 16 ms runs "regressed" (+100%, p 1e-4
# with 15 samples a run); over the runs' medians the change is not
# significant and far too noisy to exclude: inconclusive, never regressed.
mkdir -p "$tmp/bim/b" "$tmp/bim/c"
for r in "b 1 8" "b 2 16" "b 3 8" "c 1 16" "c 2 8" "c 3 16"; do
	set -- $r
	RCU_PERF_JSON=$tmp/bim/$1/run-$2.json sh "$tmp/run.sh" "$3" 0.05 15
done
cmp_rc runs_bimodal_not_regressed 3 "Welch t over the runs' medians" \
	--base "$tmp/bim/b" --cand "$tmp/bim/c"
t_check "runs_bimodal: one run a side is judged on its samples (8 vs 16 ms: regressed)" eval \
	'"$C" "$tmp/bim/b/run-1.json" -- "$tmp/bim/c/run-1.json" >"$tmp/bim1.log" 2>&1;
	 test $? = 1'
# A shift of every run still is one: 8 -> 12 ms in three runs a side.
mkdir -p "$tmp/shift/b" "$tmp/shift/c"
for i in 1 2 3; do
	RCU_PERF_JSON=$tmp/shift/b/run-$i.json sh "$tmp/run.sh" 8 0.3 15
	RCU_PERF_JSON=$tmp/shift/c/run-$i.json sh "$tmp/run.sh" 12 0.3 15
done
cmp_rc runs_shift_regressed 1 ": regressed" --base "$tmp/shift/b" --cand "$tmp/shift/c"

# A metric its program marks "judged": false (gp_throttle's one_busy) is
# shown with its change and never judged: +50% is no regression, exit 0.
for d in b c; do
	for f in "$tmp/shift/$d"/run-*.json; do
		sed 's/"better": "lower",/"better": "lower", "judged": false,/' "$f" \
			>"$tmp/shift/$d-ro-$(basename "$f")"
	done
	mkdir -p "$tmp/ro/$d"
	mv "$tmp/shift/$d"-ro-*.json "$tmp/ro/$d/"
done
cmp_rc report_only_not_judged 0 "reported only" --base "$tmp/ro/b" --cand "$tmp/ro/c"
t_check "report_only: KTAP SKIP, the change still shown" eval \
	'"$C" --ktap --base "$tmp/ro/b" --cand "$tmp/ro/c" >"$tmp/ro.ktap" 2>&1;
	 test $? = 0 && grep -q "# SKIP reported only" "$tmp/ro.ktap" &&
	 grep -q "change of the median +49" "$tmp/ro.ktap"'

# A latency of two modes whose shares vary between runs (gp_throttle's
# tracer.idle: 16 ms or 24 ms a switch) marked "stat": "p25": the runs'
# medians land on either mode (inconclusive); their 25th percentiles are
# the fast mode in every run (no significant change), and every sample
# 8 ms later moves it (regressed). --stat overrides the metric's own.
# two_modes FILE SLOW SHIFT: 30 samples, SLOW of them in the slow mode.
two_modes() {
	local i v="" x
	for i in $(seq 30); do
		x=$((i <= $2 ? 24 + $3 : 16 + $3))
		v="$v $x.0$((i % 5))"
	done
	awk -f "$AWK_GEN" -v test=gp_throttle -v metrics=tracer.idle.latency \
		-v samples="$v" | sed "s/\"better\": \"lower\",/&${4:+ \"stat\": \"$4\",}/" >"$1"
}
mkdir -p "$tmp/tm/b" "$tmp/tm/c" "$tmp/tm/l" "$tmp/tm/m" "$tmp/tm/n"
for r in "b 1 12" "b 2 16" "b 3 13" "c 1 11" "c 2 15" "c 3 17"; do
	set -- $r
	two_modes "$tmp/tm/$1/run-$2.json" "$3" 0 p25
	two_modes "$tmp/tm/m/$1-$2.json" "$3" 0
	[ "$1" = c ] && two_modes "$tmp/tm/l/run-$2.json" "$3" 8 p25
done
mv "$tmp"/tm/m/c-*.json "$tmp/tm/n/"
cmp_rc two_modes_p25_same 0 "change of the p25 .*: no significant change" \
	--base "$tmp/tm/b" --cand "$tmp/tm/c"
cmp_rc two_modes_median_inconclusive 3 "change of the median" \
	--base "$tmp/tm/m" --cand "$tmp/tm/n"
cmp_rc two_modes_p25_a_jiffy_later 1 "change of the p25 +50.*: regressed" \
	--base "$tmp/tm/b" --cand "$tmp/tm/l"
cmp_rc two_modes_stat_option_overrides 3 "change of the median" \
	--stat median --base "$tmp/tm/b" --cand "$tmp/tm/c"
sed 's/"stat": "p25"/"stat": "p99"/' "$tmp/tm/b/run-1.json" >"$tmp/tm/bad.json"
bad_input bad_metric_stat "\"stat\" is 'p99', not median, mean, p90 or p25" \
	"$tmp/tm/bad.json" -- "$tmp/tm/c/run-1.json"

echo "1..$T_N"
