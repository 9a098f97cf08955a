// SPDX-License-Identifier: GPL-2.0
/*
 * Checks against a baseline (lib/baseline.c): a program with one check of
 * its own and one baseline metric, run by unit_run() in children of the
 * test; its baseline is recorded by the same program (three runs, one
 * results file each, as "make baseline" lays them out) in each test's
 * fixture. The samples are synthetic latencies quantized to jiffies: no
 * clock is read, nothing in the kernel touched.
 */
#include <math.h>

#include "unit.h"

static struct rp_param p_max_lat = RP_MAX("max_lat", "ms", 100, "a ceiling");
static struct rp_param p_seed =
	RP_SETTING("seed", "count", 1, "which synthetic run");
static struct rp_param p_shift =
	RP_SETTING("shift", "count", 0, "jiffies added to each op");
static struct rp_param p_skip =
	RP_SETTING("skip", "bool", 0, "1: the whole program skips");
static struct rp_param p_disturb =
	RP_SETTING("disturb", "bool", 0, "1: others kept the CPUs busy");
static struct rp_param p_single =
	RP_SETTING("single", "bool", 0,
		   "1: one sample, the same in every run (an exact repeat)");
static struct rp_param p_scale =
	RP_SETTING("scale", "%", 100,
		   "each op's time, % of itself: a machine that drifts between runs");
static struct rp_param p_tail =
	RP_SETTING("tail", "count", 0, "jiffies added to every fifth op");
static struct rp_param p_median_only =
	RP_SETTING("median_only", "bool", 0, "1: the metrics are median_only");
static struct rp_param p_quantum =
	RP_SETTING("quantum", "ms", 0, "op.latency's step (a jiffy: 4)");
static struct rp_param p_resolution =
	RP_SETTING("resolution", "ms", 0, "op.latency's resolution");
static struct rp_param p_baseline_change =
	RP_BASELINE_CHANGE(10, "the unit test's allowed change");
static struct rp_param p_busy_change =
	RP_MAX("busy_change", "%", 10, "op.busy's own allowed change");
static struct rp_param p_baseline_alpha = RP_BASELINE_ALPHA;
static struct rp_param p_busy_scale =
	RP_SETTING("busy_scale", "%", 100, "op.busy's ops, % of themselves: one metric drifts");
static struct rp_param p_shared =
	RP_SETTING("shared", "bool", 0, "1: baseline_shared_drift");
static struct rp_param p_control =
	RP_SETTING("control", "bool", 0, "1: op.control is the baseline_control");
static struct rp_param p_control_scale =
	RP_SETTING("control_scale", "%", 100, "op.control's ops, % of themselves: the host");

static struct rp_param *params[] = {
	&p_max_lat, &p_seed, &p_shift, &p_skip, &p_disturb, &p_single,
	&p_scale, &p_tail, &p_median_only, &p_quantum, &p_resolution,
	&p_baseline_change,
	&p_busy_change,
	&p_baseline_alpha, &p_busy_scale, &p_shared, &p_control,
	&p_control_scale, NULL
};

static const char * const names[] = { "own", NULL };
/* op.busy: the same samples, judged against its own limit */
static const char * const base_metrics[] = { "op.latency", "op.busy", NULL };
static struct rp_param * const base_limits[] = { NULL, &p_busy_change };

static struct rp_test test = {
	.name = "unit_baseline",
	.summary = "unit test of the baseline checks",
	.params = params,
	.nr_checks = 1,
	.checks = names,
	.baseline = base_metrics,
	.baseline_limit = base_limits,
};

/* The program: 50 ops of 2 jiffies (4 ms), a few of 1, 3 or 4 jiffies. */
static int program(int argc, char **argv)
{
	struct rp_metric *m, *mb;
	unsigned long long s;
	double v[50], vb[50], vc[50];
	int i;

	rp_init(&test, argc, argv);
	test.baseline_shared_drift = p_shared.value;
	test.baseline_control = p_control.value ? "op.control" : NULL;
	if (p_skip.value)
		rp_exit_skip("told to skip");
	if (p_single.value) {
		/*
		 * 11 us, and twice that shifted: the mean of copies of
		 * 0.011 is off from it by a rounding error, as a sum of
		 * real samples can be, and that is no change either.
		 */
		v[0] = 0.011 * (1 + p_shift.value);
		rp_metric_add("op.latency", "ms", v, 1);
		rp_check("own", v[0], &p_max_lat);
		return rp_finish();
	}
	s = 0x9e3779b97f4a7c15ULL * (unsigned long long)p_seed.value;
	for (i = 0; i < 50; i++) {
		double u, k;

		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		u = (s >> 11) / 9007199254740992.0;
		k = u < 0.04 ? 1 : u < 0.2 ? 3 : u < 0.23 ? 4 : 2;
		k += i % 5 == 4 ? p_tail.value : 0;
		v[i] = (4 * (k + p_shift.value) + 0.02 * u) * p_scale.value / 100;
		vb[i] = v[i] * p_busy_scale.value / 100;
		vc[i] = (8 + 0.02 * u) * p_control_scale.value / 100;
	}
	rp_metric_add("op.control", "ms", vc, 50);
	mb = rp_metric_add("op.busy", "ms", vb, 50);
	m = rp_metric_add("op.latency", "ms", v, 50);
	m->median_only = p_median_only.value;
	m->quantum = p_quantum.value;
	m->resolution = p_resolution.value;
	mb->quantum = p_quantum.value;
	mb->median_only = p_median_only.value;
	if (p_disturb.value) {
		m->disturbed = "machine busy: a unit test says so";
		mb->disturbed = m->disturbed;
	}
	rp_check("own", rp_cmp_stat_of(v, 50, RP_CMP_MEAN), &p_max_lat);
	return rp_finish();
}

static int do_program(void *args)
{
	static struct unit_args a;	/* rp_opts points into argv */

	unit_split(&a, "unit_baseline", args);
	return program(a.argc, a.argv);
}

/*
 * Run the program with these arguments, a printf format (the baseline's
 * directory in most); its exit status.
 */
static __printf(1, 2) int run(const char *fmt, ...)
{
	static char args[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	return unit_run(do_program, args);
}

/*
 * Record a baseline in dir as "make baseline" lays it out: three runs of
 * seeds 1 to 3, one results file each, each run's ops scale_step % slower
 * than the one before; 0 if all three passed.
 */
static int record(const char *dir, int scale_step, const char *extra)
{
	int i, rc = 0;

	for (i = 1; i <= 3; i++)
		rc |= run("--json %s/run-%d/unit_baseline.json --set seed=%d --set scale=%d %s",
			  dir, i, i, 100 + scale_step * (i - 1), extra);
	return rc;
}

FIXTURE(baseline) {
	char base[300];
	int record_rc;		/* of the three runs that record it */
};

FIXTURE_SETUP(baseline)
{
	ASSERT_EQ(0, unit_setup("rp_test_baseline"));
	snprintf(self->base, sizeof(self->base), "%s/base", unit_dir);
	self->record_rc = record(self->base, 0, "");
}

FIXTURE_TEARDOWN(baseline)
{
	unit_teardown();
	EXPECT_EQ(0, unit_leaks());
}

TEST_F(baseline, none_omits_the_checks)
{
	EXPECT_EQ(0, self->record_rc);
	EXPECT_HAS(unit_out, "# baseline: none");
	EXPECT_HAS(unit_out, "1..1");
	EXPECT_HAS(unit_out, "ok 1 own");
}

TEST_F(baseline, healthy_passes)
{
	EXPECT_EQ(0, run("--baseline %s --set seed=7", self->base));
	EXPECT_HAS(unit_out, "1..3");
	EXPECT_HAS(unit_out, "3 runs of unit_baseline");
	EXPECT_HAS(unit_out, "ok 2 op_latency_vs_baseline");
}

/* KTAP names without dots (KCIDB paths split at them); metrics keep theirs. */
TEST_F(baseline, check_names_have_no_dots)
{
	static char json[1 << 20];
	char path[400];

	snprintf(path, sizeof(path), "%s/named.json", unit_dir);
	EXPECT_EQ(0, run("--baseline %s --set seed=7 --json %s", self->base,
			 path));
	EXPECT_HAS(unit_out, "ok 3 op_busy_vs_baseline\n");
	EXPECT_LACKS(unit_out, "op.latency_vs_baseline");
	EXPECT_LACKS(unit_out, "op.busy_vs_baseline");
	unit_read(path, json, sizeof(json));
	EXPECT_HAS(json, "\"name\": \"op_latency_vs_baseline\"");
	EXPECT_HAS(json, "\"op.latency\"");
	EXPECT_LACKS(json, "op.latency_vs_baseline");
}

TEST_F(baseline, one_jiffy_more_fails)
{
	EXPECT_EQ(1, run("--baseline %s --set seed=8 --set shift=1",
			 self->base));
	EXPECT_HAS(unit_out, "# op_latency_vs_baseline: measured +49.9");
	EXPECT_HAS(unit_out, "vs limit <= 10 % (baseline_change)");
	EXPECT_HAS(unit_out, "not ok 2 op_latency_vs_baseline");
}

TEST_F(baseline, its_own_limit)
{
	EXPECT_EQ(0, run("--baseline %s --set seed=8 --set shift=1 %s", self->base,
			 "--set baseline_change=60 --set busy_change=60"));
	EXPECT_HAS(unit_out, "ok 2 op_latency_vs_baseline");
}

/* A metric with a limit of its own: the others keep baseline_change. */
TEST_F(baseline, per_metric_limit)
{
	EXPECT_EQ(1, run("--baseline %s --set seed=8 --set shift=1 --set busy_change=60",
			 self->base));
	EXPECT_HAS(unit_out, "not ok 2 op_latency_vs_baseline");
	EXPECT_HAS(unit_out, "vs limit <= 60 % (busy_change)");
	EXPECT_HAS(unit_out, "ok 3 op_busy_vs_baseline\n");
}

/*
 * Every fifth op 12 jiffies late (a throttled idle CPU): the median
 * cannot see it, the mean, what a loop of ops feels, doubles.
 */
TEST_F(baseline, slow_tail_fails_on_the_mean)
{
	EXPECT_EQ(1, run("--baseline %s --set seed=8 --set tail=12",
			 self->base));
	EXPECT_HAS(unit_out, "# op_latency_vs_baseline: measured +");
	EXPECT_HAS(unit_out, "% worse (mean ");
	EXPECT_HAS(unit_out, "not ok 2 op_latency_vs_baseline");
	/* the same samples against the median alone would pass */
	EXPECT_EQ(0, run("--baseline %s --set seed=8 --set tail=0",
			 self->base));
	EXPECT_HAS(unit_out, "% worse (median ");
	/* a median_only metric is judged on its median: the tail passes */
	EXPECT_EQ(0, run("--baseline %s --set seed=8 --set tail=12 --set median_only=1",
			 self->base));
	EXPECT_HAS(unit_out, "% worse (median ");
	EXPECT_HAS(unit_out, "ok 2 op_latency_vs_baseline");
}

/*
 * Every fifth op a jiffy or two late moves the mean by a share of a
 * jiffy, as ops of a healthy kernel fall on the next tick in one run and
 * not in another: with the jiffy as its quantum, the mean's second look
 * lets that pass and still FAILs jiffies more per op.
 */
TEST_F(baseline, mean_within_a_quantum_passes)
{
	EXPECT_EQ(1, run("--baseline %s --set seed=8 --set tail=4",
			 self->base));
	EXPECT_HAS(unit_out, "% worse (mean ");
	EXPECT_EQ(0, run("--baseline %s --set seed=8 --set tail=4 --set quantum=4",
			 self->base));
	EXPECT_LACKS(unit_out, "not ok 2 op_latency_vs_baseline");
	EXPECT_LACKS(unit_out, "% worse (mean ");
	EXPECT_EQ(1, run("--baseline %s --set seed=8 --set tail=12 --set quantum=4",
			 self->base));
	EXPECT_HAS(unit_out, "% worse (mean ");
	EXPECT_HAS(unit_out, "not ok 2 op_latency_vs_baseline");
}

/*
 * Every op a jiffy late moves the median by half of it: past the 10%
 * limit, and within a resolution of 1.5 jiffies (what a host may move an
 * op between sessions), which the line names; not within one of half a
 * jiffy.
 */
TEST_F(baseline, median_within_the_resolution_passes)
{
	run("--baseline %s --set seed=8 --set shift=1 --set median_only=1 --set resolution=6",
	    self->base);
	EXPECT_HAS(unit_out, "ok 2 op_latency_vs_baseline\n");
	EXPECT_LACKS(unit_out, "not ok 2 op_latency_vs_baseline");
	EXPECT_HAS(unit_out, "widened to what the host moves between sessions (resolution)");
	EXPECT_EQ(1, run("--baseline %s --set seed=8 --set shift=1 %s", self->base,
			 "--set median_only=1 --set resolution=2"));
	EXPECT_HAS(unit_out, "not ok 2 op_latency_vs_baseline");
}

TEST_F(baseline, disturbed_run_skips)
{
	EXPECT_EQ(0, run("--baseline %s --set seed=8 --set shift=1 --set disturb=1",
			 self->base));
	EXPECT_HAS(unit_out,
		   "ok 2 op_latency_vs_baseline # SKIP machine busy: a unit test says so");
}

TEST_F(baseline, skip_names_the_check)
{
	EXPECT_EQ(4, run("--baseline %s --set skip=1", self->base));
	EXPECT_HAS(unit_out, "ok 2 op_latency_vs_baseline # SKIP told to skip");
}

/*
 * One sample a run, the same in every run, as boot_marker's boots in an
 * instruction-counted guest: no spread at all in the baseline. A repeat
 * must pass (no infinite or NaN statistic), twice the time must fail.
 */
TEST_F(baseline, exact_repeat_passes)
{
	const char *line;
	char dir[400];
	size_t len;

	snprintf(dir, sizeof(dir), "%s/exact", unit_dir);
	ASSERT_EQ(0, record(dir, 0, "--set single=1"));
	EXPECT_EQ(0, run("--baseline %s --set single=1", dir));
	EXPECT_HAS(unit_out, "3 runs of unit_baseline");
	EXPECT_HAS(unit_out, "# op_latency_vs_baseline: measured 0 % worse");
	EXPECT_HAS(unit_out, "ok 2 op_latency_vs_baseline\n");
	/* finite numbers only on the "measured vs limit" line */
	line = strstr(unit_out, "# op_latency_vs_baseline: ");
	ASSERT_NE(NULL, line);
	len = strcspn(line, "\n");
	EXPECT_EQ(NULL, memmem(line, len, "nan", 3));
	EXPECT_EQ(NULL, memmem(line, len, "inf", 3));
}

TEST_F(baseline, exact_twice_fails)
{
	char dir[400];

	snprintf(dir, sizeof(dir), "%s/exact", unit_dir);
	ASSERT_EQ(0, record(dir, 0, "--set single=1"));
	EXPECT_EQ(1, run("--baseline %s --set single=1 --set shift=1", dir));
	EXPECT_HAS(unit_out, "# op_latency_vs_baseline: measured +100 % worse");
	EXPECT_HAS(unit_out, "not ok 2 op_latency_vs_baseline");
}

/*
 * Runs of a baseline that differ from each other (the machine drifted by
 * 15% between runs): a run within that drift is no regression, the limit
 * widened to the runs' spread says so; far past it still FAILs.
 */
TEST_F(baseline, drift_between_runs_widens_the_limit)
{
	char dir[400];

	snprintf(dir, sizeof(dir), "%s/drift", unit_dir);
	ASSERT_EQ(0, record(dir, 15, ""));
	EXPECT_EQ(0, run("--baseline %s --set seed=7 --set scale=130", dir));
	EXPECT_HAS(unit_out, "widened to the spread of the baseline's runs");
	EXPECT_HAS(unit_out, "ok 2 op_latency_vs_baseline\n");
	/* The same run against steady runs: past 10%, FAIL. */
	EXPECT_EQ(1, run("--baseline %s --set seed=7 --set scale=130",
			 self->base));
	EXPECT_HAS(unit_out, "vs limit <= 10 % (baseline_change)\n");
	EXPECT_HAS(unit_out, "not ok 2 op_latency_vs_baseline");
	/* Far past the drift: FAIL. */
	EXPECT_EQ(1, run("--baseline %s --set seed=7 --set scale=250", dir));
	EXPECT_HAS(unit_out, "not ok 2 op_latency_vs_baseline");
}

/*
 * Runs that drift in op.busy (15% a run) and agree in op.latency: with
 * baseline_shared_drift op.latency's limit widens to op.busy's spread,
 * naming it, and a run 30% slower in both passes; without it op.latency's
 * 10% stands and FAILs it; far past the drift FAILs either way.
 */
TEST_F(baseline, shared_drift_widens_every_limit)
{
	char dir[400];
	int i;

	snprintf(dir, sizeof(dir), "%s/busy-drift", unit_dir);
	for (i = 1; i <= 3; i++)
		ASSERT_EQ(0, run("--json %s/run-%d/unit_baseline.json %s=%d --set busy_scale=%d",
				 dir, i, "--set seed", i, 100 + 15 * (i - 1)));
	EXPECT_EQ(0, run("--baseline %s --set seed=7 --set scale=130 --set shared=1", dir));
	EXPECT_HAS(unit_out, "widened to the spread of the baseline's runs of op.busy)");
	EXPECT_HAS(unit_out, "ok 2 op_latency_vs_baseline\n");
	EXPECT_EQ(1, run("--baseline %s --set seed=7 --set scale=130", dir));
	EXPECT_HAS(unit_out, "not ok 2 op_latency_vs_baseline");
	EXPECT_EQ(1, run("--baseline %s --set seed=7 --set scale=250 --set shared=1", dir));
	EXPECT_HAS(unit_out, "not ok 2 op_latency_vs_baseline");
}

/*
 * baseline_control: a run whose control lost 25% against steady baseline
 * runs widens every limit by 25%: op.latency 30% slower passes, naming the
 * control; without it 10% stands and FAILs it; 60% slower FAILs past the
 * widened limit; a faster control widens nothing.
 */
TEST_F(baseline, control_loss_widens_every_limit)
{
#define RUN7 "--baseline %s --set seed=7 "
	ASSERT_EQ(0, self->record_rc);
	EXPECT_EQ(0, run(RUN7 "--set scale=130 --set control_scale=125 --set control=1",
			 self->base));
	EXPECT_HAS(unit_out, "widened to the 25 % that op.control lost in this run)");
	EXPECT_HAS(unit_out, "ok 2 op_latency_vs_baseline\n");
	EXPECT_EQ(1, run(RUN7 "--set scale=130 --set control_scale=125", self->base));
	EXPECT_HAS(unit_out, "not ok 2 op_latency_vs_baseline");
	EXPECT_EQ(1, run(RUN7 "--set scale=160 --set control_scale=125 --set control=1",
			 self->base));
	EXPECT_HAS(unit_out, "not ok 2 op_latency_vs_baseline");
	EXPECT_EQ(1, run(RUN7 "--set scale=130 --set control_scale=80 --set control=1",
			 self->base));
	EXPECT_HAS(unit_out, "vs limit <= 10 % (baseline_change)\n");
	EXPECT_HAS(unit_out, "not ok 2 op_latency_vs_baseline");
#undef RUN7
}

/* The environment, the config file (relative to it) and "none". */
TEST_F(baseline, from_env)
{
	setenv("RCU_PERF_BASELINE", self->base, 1);
	EXPECT_EQ(0, run("--set seed=9"));
	EXPECT_HAS(unit_out, "(RCU_PERF_BASELINE)");
	EXPECT_HAS(unit_out, "ok 2 op_latency_vs_baseline");
}

/* A config file beside the baseline, which it names relative to itself. */
static int write_conf(void)
{
	char conf[400];

	snprintf(conf, sizeof(conf), "%s/rcu_perf.conf", unit_dir);
	return unit_write(conf, "baseline = base # runs of a good kernel\n");
}

TEST_F(baseline, from_config)
{
	ASSERT_EQ(0, write_conf());
	EXPECT_EQ(0, run("--config %s/rcu_perf.conf --set seed=9", unit_dir));
	EXPECT_HAS(unit_out, "/base (");
	EXPECT_HAS(unit_out, "ok 2 op_latency_vs_baseline");
}

TEST_F(baseline, env_empty_is_none)
{
	ASSERT_EQ(0, write_conf());
	setenv("RCU_PERF_BASELINE", "", 1);
	EXPECT_EQ(0, run("--config %s/rcu_perf.conf --set seed=9", unit_dir));
	EXPECT_HAS(unit_out, "# baseline: none");
	EXPECT_HAS(unit_out, "1..1");
}

TEST_F(baseline, missing_dir_is_bad_usage)
{
	EXPECT_EQ(KSFT_FAIL, run("--baseline %s/nonexistent", unit_dir));
	EXPECT_HAS(unit_err, "nonexistent (--baseline): No such file or directory");
}

/* A baseline of another machine: SKIP, naming the difference. */
TEST_F(baseline, other_machine_skips)
{
	char cmd[900];

	snprintf(cmd, sizeof(cmd),
		 "sed -i 's/\"hz\": [0-9]*/\"hz\": 12345/' %s/run-2/unit_baseline.json",
		 self->base);
	ASSERT_EQ(0, system(cmd));
	EXPECT_EQ(0, run("--baseline %s", self->base));
	EXPECT_HAS(unit_out, "hz 12345, here");
	EXPECT_HAS(unit_out, "ok 2 op_latency_vs_baseline # SKIP baseline not used: ");
}

TEST_F(baseline, malformed_file_is_bad_usage)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/run-2/unit_baseline.json", self->base);
	ASSERT_EQ(0, unit_write(path, "{\"schema\":\n"));
	EXPECT_EQ(KSFT_FAIL, run("--baseline %s", self->base));
	EXPECT_HAS(unit_err, "run-2/unit_baseline.json");
}

/* What must match, on documents written by hand. */
static bool mismatch_says(const char *base_doc, const char *cur,
			  const char *want)
{
	char err[512];
	struct rp_jval *b = rp_json_parse(base_doc, err, sizeof(err));
	struct rp_jval *c = rp_json_parse(cur, err, sizeof(err));
	const char *why = b && c ? rp_baseline_mismatch(b, c, err, sizeof(err)) :
			  "(parse error)";
	bool ok = want ? why && strstr(why, want) : !why;

	if (!ok)
		fprintf(stderr, "# %s vs %s: '%s', want '%s'\n", base_doc, cur,
			why ? why : "(match)", want ? want : "(match)");
	rp_json_free(b);
	rp_json_free(c);
	return ok;
}

#define HEAD "{\"suite_version\": 1, \"system\": {\"machine\": \"x86_64\", "
#define SYS(extra) HEAD "\"cpu_model\": \"Xeon\", \"nr_cpus_online\": 2, \"hz\": 250, " extra "}}"
#define CFG(v) "\"config\": {\"CONFIG_HZ\": \"250\"" v "}"
#define CMD(v) ", \"cmdline_rcu\": [" v "]"

TEST_F(baseline, mismatch_rules)
{
	static const char tunable[] =
		SYS(CFG("") CMD("\"nohz_full=1\", \"rcupdate.rcu_normal=1\""));
	static const char epyc[] = HEAD "\"cpu_model\": \"Epyc\"}}";
	const char *same = SYS(CFG("") CMD("\"nohz_full=1\""));

	EXPECT_TRUE(mismatch_says(same, same, NULL));
	/* RCU's tunables are the kernel under test, not the machine */
	EXPECT_TRUE(mismatch_says(same, tunable, NULL));
	EXPECT_TRUE(mismatch_says(same, SYS(CFG("") CMD("")),
				  "booted with nohz_full=1"));
	EXPECT_TRUE(mismatch_says(same, SYS(CFG(", \"CONFIG_PREEMPT_RT\": \"y\"")
					    CMD("\"nohz_full=1\"")),
				  "CONFIG_PREEMPT_RT=n, here y"));
	EXPECT_TRUE(mismatch_says(SYS(CFG(", \"CONFIG_RCU_LAZY\": \"n\"")),
				  SYS(CFG("")), NULL));
	EXPECT_TRUE(mismatch_says(SYS(CFG("")), SYS("\"config\": {}"),
				  "kernel config unknown here"));
	EXPECT_TRUE(mismatch_says("{\"system\": {}}", same, "older suite"));
	EXPECT_TRUE(mismatch_says(same, epyc,
				  "cpu_model 'Xeon', this machine 'Epyc'"));
}

TEST_HARNESS_MAIN
