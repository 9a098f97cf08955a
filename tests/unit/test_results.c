// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP checks and the JSON results (lib/results.c). Each scenario is a
 * small program run by unit_run() in a child of the test (the library
 * keeps global state, exits, and its KTAP must not mix with the
 * harness's); the test checks its exact output, exit code and results
 * file. The guard's state dir and the only "knob" are temporary files:
 * nothing here touches the kernel.
 */
#include <dirent.h>
#include <math.h>
#include <sys/stat.h>

#include "unit.h"

static struct rp_param p_max_lat = RP_MAX("max_lat", "ms", 10, "a ceiling");
static struct rp_param p_min_rate = RP_MIN("min_rate", "ops/s", 100, "a floor");
static struct rp_param p_samples =
	RP_SETTING("samples", "count", 5, "how many", RP_QUICK(2),
		   RP_RANGE(1, 50));

/* A limit left out of the table: a bug rp_check() reports. */
static struct rp_param p_nope = RP_MAX("nope", "ms", 1, "not in the table");

static struct rp_param *params[] = {
	&p_max_lat, &p_min_rate, &p_samples, NULL
};

static struct rp_test test = {
	.name = "unit_results",
	.summary = "unit test of the results",
	.params = params,
};

static char knob[300], json[512];

/* The program: fn() between rp_init() and rp_finish() (plan < 0: alone). */
struct program {
	void (*fn)(void);
	int plan;
	const char *args;
};

static int do_program(void *arg)
{
	const struct program *p = arg;
	static struct unit_args a;	/* rp_opts points into argv */

	unit_split(&a, "unit_results", p->args);
	test.nr_checks = p->plan;
	if (p->plan >= 0)
		rp_init(&test, a.argc, a.argv);
	p->fn();
	return p->plan < 0 ? 0 : rp_finish();
}

/* Run fn() as a program; its exit status, its output in unit_out. */
static int run(void (*fn)(void), int plan, const char *args)
{
	struct program p = { fn, plan, args };

	return unit_run(do_program, &p);
}

/* The same, its results file written afresh to json. */
static int run_to_json(void (*fn)(void), int plan)
{
	char args[600];

	snprintf(args, sizeof(args), "--json %s", json);
	unlink(json);
	return run(fn, plan, args);
}

/*
 * Well-formed KTAP: header, plan, then only "# " diagnostics and results
 * numbered 1..plan in order, every one of them present, then the totals.
 */
static bool ktap_ok(int plan)
{
	char buf[65536], *line, *save;
	int n = 0, k = 0, num;

	snprintf(buf, sizeof(buf), "%s", unit_out);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), k++) {
		if (k == 0 && !strcmp(line, "TAP version 13"))
			continue;
		if (k == 1 && sscanf(line, "1..%d", &num) == 1 && num == plan)
			continue;
		if (k < 2)
			goto bad;
		if (!strncmp(line, "# ", 2))
			continue;
		if ((sscanf(line, "ok %d", &num) == 1 ||
		     sscanf(line, "not ok %d", &num) == 1) && num == n + 1) {
			n++;
			continue;
		}
bad:
		ksft_print_msg("bad KTAP line %d: %s\n", k + 1, line);
		unit_show("output", unit_out);
		return false;
	}
	if (n != plan) {
		ksft_print_msg("%d results for a plan of %d\n", n, plan);
		return false;
	}
	return true;
}

/* ---- reading the results file ---- */

static const struct rp_jval *path(const struct rp_jval *v, const char *p)
{
	char buf[128], *k, *save;

	snprintf(buf, sizeof(buf), "%s", p);
	for (k = strtok_r(buf, ".", &save); k && v;
	     k = strtok_r(NULL, ".", &save)) {
		if (v->type == RP_JARR) {
			size_t i = strtoul(k, NULL, 10);

			v = i < v->len ? v->items[i] : NULL;
		} else {
			v = rp_json_get(v, k);
		}
	}
	if (!v)
		ksft_print_msg("JSON: no %s\n", p);
	return v;
}

static bool jstr(const struct rp_jval *v, const char *p, const char *want)
{
	v = path(v, p);
	if (v && v->type == RP_JSTR && (!want || !strcmp(v->str, want)))
		return true;
	if (v)
		ksft_print_msg("JSON: %s is not \"%s\"\n", p, want ? want : "");
	return false;
}

static bool jnum(const struct rp_jval *v, const char *p, double want)
{
	v = path(v, p);
	if (v && v->type == RP_JNUM && (isnan(want) || v->num == want))
		return true;
	if (v)
		ksft_print_msg("JSON: %s is not %g\n", p, want);
	return false;
}

static bool jtype(const struct rp_jval *v, const char *p, enum rp_jtype t,
		  size_t len)
{
	v = path(v, p);
	if (v && v->type == t && (t == RP_JNULL || t == RP_JBOOL ||
				  v->len == len))
		return true;
	if (v)
		ksft_print_msg("JSON: %s has the wrong type or length\n", p);
	return false;
}

/* ---- scenarios (run in the child) ---- */

static enum rp_verdict verdicts[16];

static void sc_checks(void)
{
	int i = 0;

	verdicts[i++] = rp_check("lat_ok", 9.5, &p_max_lat);
	verdicts[i++] = rp_check("lat_equal", 10, &p_max_lat);
	verdicts[i++] = rp_check("lat_bad", 10.01, &p_max_lat);
	verdicts[i++] = rp_check("rate_ok", 150, &p_min_rate);
	verdicts[i++] = rp_check("rate_equal", 100, &p_min_rate);
	verdicts[i++] = rp_check("rate_bad", 99.99, &p_min_rate);
	verdicts[i++] = rp_check("lat_nan", NAN, &p_max_lat);
	verdicts[i++] = rp_check("lat_inf", INFINITY, &p_max_lat);
	verdicts[i++] = rp_check("not_a_limit", 1, &p_samples);
	verdicts[i++] = rp_check("unknown_limit", 1, &p_nope);
	verdicts[i++] = rp_check("big", 12345.678, &p_max_lat);
	verdicts[i++] = rp_check("tiny", 0.000015, &p_max_lat);
	printf("# verdicts");
	for (i = 0; i < 12; i++)
		printf(" %d", verdicts[i]);
	printf("\n");
}

static const char checks_out[] =
	"TAP version 13\n"
	"1..12\n"
	"# lat_ok: measured 9.5 ms vs limit <= 10 ms (max_lat)\n"
	"ok 1 lat_ok\n"
	"# lat_equal: measured 10 ms vs limit <= 10 ms (max_lat)\n"
	"ok 2 lat_equal\n"
	"# lat_bad: measured 10.01 ms vs limit <= 10 ms (max_lat)\n"
	"not ok 3 lat_bad\n"
	"# rate_ok: measured 150 ops/s vs limit >= 100 ops/s (min_rate)\n"
	"ok 4 rate_ok\n"
	"# rate_equal: measured 100 ops/s vs limit >= 100 ops/s (min_rate)\n"
	"ok 5 rate_equal\n"
	"# rate_bad: measured 99.99 ops/s vs limit >= 100 ops/s (min_rate)\n"
	"not ok 6 rate_bad\n"
	"# lat_nan: measured nan ms vs limit <= 10 ms (max_lat)\n"
	"ok 7 lat_nan # SKIP no valid measurement\n"
	"# lat_inf: measured inf ms vs limit <= 10 ms (max_lat)\n"
	"ok 8 lat_inf # SKIP no valid measurement\n"
	"not ok 9 not_a_limit # error bug: 'samples' is not a limit parameter\n"
	"not ok 10 unknown_limit # error bug: 'nope' is not a limit parameter\n"
	"# big: measured 12346 ms vs limit <= 10 ms (max_lat)\n"
	"not ok 11 big\n"
	"# tiny: measured 1.5e-05 ms vs limit <= 10 ms (max_lat)\n"
	"ok 12 tiny\n"
	"# verdicts 0 0 1 0 0 1 2 2 3 3 1 0\n"
	"# Totals: pass:5 fail:3 xfail:0 xpass:0 skip:2 error:2\n";

FIXTURE(results) {
};

FIXTURE_SETUP(results)
{
	ASSERT_EQ(0, unit_setup("rp_test_results"));
	snprintf(knob, sizeof(knob), "%s/knob", unit_dir);
	rp_knob_allow_dir(unit_dir);
	snprintf(json, sizeof(json), "%s/fatal.json", unit_dir);
}

FIXTURE_TEARDOWN(results)
{
	unit_teardown();
	EXPECT_EQ(0, unit_leaks());
}

/* The exact KTAP of checks against both kinds of limit. */
TEST_F(results, check_max_min_nan_bad_limits_number_format)
{
	EXPECT_EQ(KSFT_FAIL, run(sc_checks, 12, ""));
	EXPECT_TRUE(ktap_ok(12));
	EXPECT_STREQ(checks_out, unit_out);
}

static void sc_set_limits(void)
{
	rp_check("lat", 11, &p_max_lat);
	rp_check("rate", 60, &p_min_rate);
}

/* Limits set by --set and environment apply, exit 0. */
TEST_F(results, set_limits)
{
	setenv("RCU_PERF_MIN_RATE", "50", 1);
	EXPECT_EQ(KSFT_PASS, run(sc_set_limits, 2, "--set max_lat=12"));
	EXPECT_TRUE(ktap_ok(2));
	EXPECT_HAS(unit_out, "1..2\n"
		   "# max_lat = 12 ms (--set)\n"
		   "# min_rate = 50 ops/s (environment RCU_PERF_MIN_RATE)\n");
	EXPECT_HAS(unit_out, "# lat: measured 11 ms vs limit <= 12 ms (max_lat)\n"
		   "ok 1 lat\n");
	EXPECT_HAS(unit_out, "# rate: measured 60 ops/s vs limit >= 50 ops/s (min_rate)\n"
		   "ok 2 rate\n");
	EXPECT_HAS(unit_out, "# Totals: pass:2 fail:0");
}

static void sc_skips(void)
{
	rp_check_skip("first", "no %s", "root");
	rp_check_fail("second", "cannot\nmeasure %d", 2);
	rp_check("two words", 1, &p_max_lat);
	rp_ktap_fill(RP_SKIP, "too few CPUs");
}

static void sc_all_skip(void)
{
	rp_check_skip("first", "no root");
	rp_ktap_fill(RP_SKIP, "no root");
}

static void sc_pass_skip(void)
{
	rp_check("lat", 1, &p_max_lat);
	rp_ktap_fill(RP_SKIP, "not on this kernel");
}

/* Check skip, fail with a reason (one line), bad name, skip rest. */
TEST_F(results, skip_fail_bad_name_skip_rest)
{
	EXPECT_EQ(KSFT_FAIL, run(sc_skips, 5, ""));
	EXPECT_TRUE(ktap_ok(5));
	EXPECT_HAS(unit_out, "ok 1 first # SKIP no root\n"
		   "# second: cannot measure 2\n"
		   "not ok 2 second\n"
		   "not ok 3 check_3 # error bug: check name 'two words' is not one token\n"
		   "ok 4 check_4 # SKIP too few CPUs\n"
		   "ok 5 check_5 # SKIP too few CPUs\n");
}

TEST_F(results, all_skipped_exit_4)
{
	EXPECT_EQ(KSFT_SKIP, run(sc_all_skip, 3, ""));
	EXPECT_TRUE(ktap_ok(3));
	EXPECT_HAS(unit_out, "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:3 error:0");
}

TEST_F(results, some_passed_rest_skipped_exit_0)
{
	EXPECT_EQ(KSFT_PASS, run(sc_pass_skip, 2, ""));
	EXPECT_TRUE(ktap_ok(2));
}

static void sc_bounds(void)
{
	struct rp_bound b = { .limit = 3, .unit = "jiffies", .param = &p_max_lat,
			      .how = "busy + 3" };
	struct rp_bound m = { .limit = 0.8, .is_min = true, .unit = "ratio" };

	b.est = (struct rp_estimate){ 2, 1, 5 };	/* within, wide */
	rp_check_bound("within", &b);
	b.est = (struct rp_estimate){ 9, 4, 20 };	/* even lo past */
	rp_check_bound("past", &b);
	b.est = (struct rp_estimate){ 4, 2, 6 };	/* past, lo inside */
	rp_check_bound("noisy", &b);
	b.est = (struct rp_estimate){ NAN, NAN, NAN };
	rp_check_bound("nan", &b);
	m.est = (struct rp_estimate){ 0.5, 0.4, 0.6 };
	rp_check_bound("min_past", &m);
	m.est = (struct rp_estimate){ 0.9, 0.6, 1.0 };
	rp_check_bound("min_within", &m);
	printf("# settled %d %d %d\n",
	       rp_bound_settled(&(struct rp_bound){ .est = { 2, 1, 2.9 }, .limit = 3 }),
	       rp_bound_settled(&(struct rp_bound){ .est = { 4, 3.1, 5 }, .limit = 3 }),
	       rp_bound_settled(&(struct rp_bound){ .est = { 2, 1, 5 }, .limit = 3 }));
}

static const char bounds_out[] =
	"# within: measured 2 jiffies (90% CI 1..5) vs limit <= 3 jiffies (busy + 3; max_lat)\n"
	"ok 1 within\n"
	"# past: measured 9 jiffies (90% CI 4..20) vs limit <= 3 jiffies (busy + 3; max_lat)\n"
	"not ok 2 past\n"
	"# noisy: measured 4 jiffies (90% CI 2..6) vs limit <= 3 jiffies (busy + 3; max_lat)\n"
	"ok 3 noisy # SKIP too noisy to judge: 4 jiffies past the limit 3 but its 90% CI 2..6 reaches back: rerun on a quieter machine\n"
	"# nan: measured nan jiffies (90% CI nan..nan) vs limit <= 3 jiffies (busy + 3; max_lat)\n"
	"ok 4 nan # SKIP no valid measurement\n"
	"# min_past: measured 0.5 ratio (90% CI 0.4..0.6) vs limit >= 0.8 ratio ()\n"
	"not ok 5 min_past\n"
	"# min_within: measured 0.9 ratio (90% CI 0.6..1) vs limit >= 0.8 ratio ()\n"
	"ok 6 min_within\n"
	"# settled 1 1 0\n";

/*
 * Derived limits with intervals: one-sided, FAIL only when even the
 * favourable end is past the limit, SKIP when only the estimate is.
 */
TEST_F(results, check_bound)
{
	struct rp_jval *v;
	char e[600];

	EXPECT_EQ(KSFT_FAIL, run_to_json(sc_bounds, 6));
	EXPECT_TRUE(ktap_ok(6));
	EXPECT_HAS(unit_out, bounds_out);
	v = rp_json_parse_file(json, e, sizeof(e));
	ASSERT_NE(NULL, v) TH_LOG("%s", e);
	EXPECT_TRUE(jstr(v, "checks.0.verdict", "pass"));
	EXPECT_TRUE(jnum(v, "checks.1.ci_lo", 4));
	EXPECT_TRUE(jnum(v, "checks.1.ci_hi", 20));
	EXPECT_TRUE(jnum(v, "checks.1.limit", 3));
	EXPECT_TRUE(jstr(v, "checks.1.reason", "busy + 3"));
	EXPECT_TRUE(jstr(v, "checks.2.verdict", "skip"));
	EXPECT_TRUE(jstr(v, "checks.4.op", ">="));
	rp_json_free(v);
}

static void sc_missing(void)
{
	rp_check("lat", 1, &p_max_lat);
}

static void sc_extra(void)
{
	rp_check("lat", 1, &p_max_lat);
	rp_check("lat2", 1, &p_max_lat);
}

/* Unreported checks become errors, the plan holds. */
TEST_F(results, unreported_checks_are_errors)
{
	EXPECT_EQ(KSFT_FAIL, run(sc_missing, 3, ""));
	EXPECT_TRUE(ktap_ok(3));
	EXPECT_HAS(unit_out, "ok 1 lat\n"
		   "# error: 2 planned check(s) not reported\n"
		   "not ok 2 check_2 # error not reported (bug in the test)\n"
		   "not ok 3 check_3 # error not reported (bug in the test)\n");
}

TEST_F(results, checks_beyond_the_plan_fail)
{
	EXPECT_EQ(KSFT_FAIL, run(sc_extra, 1, ""));
	EXPECT_HAS(unit_out, "# error: 1 check(s) reported beyond the plan of 1\n");
}

static void sc_skip_before_init(void)
{
	rp_exit_skip("needs %s", "root");
}

/* Unreported checks take the unused names of test.checks, then check_N. */
static const char * const some_names[] = { "lat", "named", NULL };
static const char * const all_names[] = { "lat", "second", "third", NULL };

static void sc_skip_after_pass(void)
{
	test.checks = some_names;
	rp_check("lat", 1, &p_max_lat);
	rp_exit_skip("no more");
}

static void sc_skip_after_fail(void)
{
	rp_check("lat", 100, &p_max_lat);
	rp_exit_skip("no more");
}

static void sc_fatal(void)
{
	test.checks = all_names;
	rp_check("lat", 1, &p_max_lat);
	rp_fatal("boom %d", 1);
}

/* rp_exit_skip before rp_init: an empty plan, exit 4. */
TEST_F(results, exit_skip_before_init)
{
	EXPECT_EQ(KSFT_SKIP, run(sc_skip_before_init, -1, ""));
	EXPECT_STREQ("TAP version 13\n1..0 # SKIP needs root\n", unit_out);
}

/* rp_exit_skip skips the rest, exit 4. */
TEST_F(results, exit_skip_after_pass)
{
	EXPECT_EQ(KSFT_SKIP, run(sc_skip_after_pass, 3, ""));
	EXPECT_TRUE(ktap_ok(3));
	EXPECT_HAS(unit_out, "ok 1 lat\n"
		   "ok 2 named # SKIP no more\n"
		   "ok 3 check_3 # SKIP no more\n");
}

/* rp_exit_skip after a failure still exits 1. */
TEST_F(results, exit_skip_after_fail)
{
	EXPECT_EQ(KSFT_FAIL, run(sc_skip_after_fail, 2, ""));
	EXPECT_TRUE(ktap_ok(2));
}

/* rp_fatal: the rest skipped, JSON written, exit 4. */
TEST_F(results, fatal)
{
	struct rp_jval *v;
	char e[600];

	EXPECT_EQ(KSFT_SKIP, run_to_json(sc_fatal, 3));
	EXPECT_TRUE(ktap_ok(3));
	EXPECT_HAS(unit_out, "ok 1 lat\n"
		   "# error: boom 1\n"
		   "ok 2 second # SKIP boom 1\n"
		   "ok 3 third # SKIP boom 1\n");
	v = rp_json_parse_file(json, e, sizeof(e));
	ASSERT_NE(NULL, v) TH_LOG("%s", e);
	EXPECT_TRUE(jstr(v, "verdict", "skip"));
	EXPECT_TRUE(jnum(v, "exit_code", 4));
	EXPECT_TRUE(jstr(v, "checks.2.verdict", "skip"));
	EXPECT_TRUE(jstr(v, "checks.2.reason", "boom 1"));
	rp_json_free(v);
}

/* ---- the results file ---- */

static void sc_json(void)
{
	double s[] = { 5, 1, 4, 2, 3 };
	struct rp_metric *m;
	char buf[64];

	/* The --knob is in place while the program runs. */
	if (rp_knob_read(knob, buf, sizeof(buf)) < 0 || strcmp(buf, "42"))
		rp_fatal("knob is '%s' during the run", buf);
	rp_info("answer", "%d", 41);
	rp_info("answer", "%d", 42);
	rp_info("note", "two\nlines");
	m = rp_metric_add("unit.latency", "ms", s, 5);
	m = rp_metric_add("unit.rate", "ops/s", s, 0);
	m->higher_is_better = true;
	rp_check("lat", 3, &p_max_lat);
	rp_check("rate", 10, &p_min_rate);
	rp_check_skip("skipped", "why");
}

static int count_files(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	int n = 0;

	while (dp && (e = readdir(dp)))
		n += e->d_name[0] != '.';
	if (dp)
		closedir(dp);
	return n;
}

/*
 * A run with metrics, info, a knob and one failure, its results file in
 * <sub>/results.json under directories it must create.
 */
static int run_json(char *sub, size_t len)
{
	char args[1200];

	if (unit_write(knob, "orig\n"))
		return -1;
	snprintf(sub, len, "%s/a/b", unit_dir);
	snprintf(json, sizeof(json), "%s/results.json", sub);
	snprintf(args, sizeof(args),
		 "--json %s --knob %s=42 --set samples=7 --quick", json, knob);
	return run(sc_json, 3, args);
}

TEST_F(results, run_with_metrics_info_knob_and_failure)
{
	char sub[400];

	EXPECT_EQ(KSFT_FAIL, run_json(sub, sizeof(sub)));
	EXPECT_TRUE(ktap_ok(3));
	EXPECT_HAS(unit_out, "# answer: 41\n# answer: 42\n# note: two lines\n");
	EXPECT_HAS(unit_out, "# knob ");
	EXPECT_HAS(unit_out, "# quick: shorter runs\n");
}

TEST_F(results, knob_restored_at_the_end)
{
	char sub[400], e[512];

	run_json(sub, sizeof(sub));
	unit_read(knob, e, sizeof(e));
	EXPECT_STREQ("orig\n", e);
}

/* The results file has the documented fields. */
TEST_F(results, results_file_fields)
{
	char sub[400], e[512];
	struct rp_jval *v;

	run_json(sub, sizeof(sub));
	v = rp_json_parse_file(json, e, sizeof(e));
	ASSERT_NE(NULL, v) TH_LOG("%s", e);
	EXPECT_TRUE(jstr(v, "schema", RP_RESULTS_SCHEMA));
	EXPECT_TRUE(jnum(v, "version", RP_RESULTS_VERSION));
	EXPECT_TRUE(jstr(v, "test", "unit_results"));
	EXPECT_TRUE(jstr(v, "summary", "unit test of the results"));
	ASSERT_TRUE(jstr(v, "timestamp", NULL));
	EXPECT_TRUE(strlen(path(v, "timestamp")->str) == 20);
	EXPECT_TRUE(path(v, "timestamp")->str[19] == 'Z');
	ASSERT_TRUE(jnum(v, "duration_s", NAN));
	EXPECT_TRUE(path(v, "duration_s")->num >= 0);
	EXPECT_TRUE(jstr(v, "system.kernel_release", NULL));
	EXPECT_TRUE(jstr(v, "system.machine", NULL));
	ASSERT_TRUE(jnum(v, "system.nr_cpus_online", NAN));
	EXPECT_TRUE(path(v, "system.nr_cpus_online")->num >= 1);
	EXPECT_TRUE(jnum(v, "system.nr_cpus_possible", NAN));
	EXPECT_TRUE(jnum(v, "system.hz", NAN));
	EXPECT_NE(NULL, path(v, "system.config"));
	EXPECT_NE(NULL, path(v, "system.cmdline_rcu"));
	ASSERT_TRUE(jtype(v, "options.quick", RP_JBOOL, 0));
	EXPECT_TRUE(path(v, "options.quick")->b);
	EXPECT_TRUE(jtype(v, "options.knobs", RP_JARR, 1));
	EXPECT_TRUE(jtype(v, "params", RP_JARR, 3));
	EXPECT_TRUE(jstr(v, "params.0.name", "max_lat"));
	EXPECT_TRUE(jstr(v, "params.0.kind", "max"));
	EXPECT_TRUE(jstr(v, "params.0.unit", "ms"));
	EXPECT_TRUE(jnum(v, "params.0.default", 10));
	EXPECT_TRUE(jnum(v, "params.0.value", 10));
	EXPECT_TRUE(jstr(v, "params.0.source", "default"));
	EXPECT_TRUE(jstr(v, "params.0.reason", "a ceiling"));
	EXPECT_TRUE(jtype(v, "params.0.quick", RP_JNULL, 0));
	EXPECT_TRUE(jtype(v, "params.0.min", RP_JNULL, 0));
	EXPECT_TRUE(jtype(v, "params.0.max", RP_JNULL, 0));
	EXPECT_TRUE(jstr(v, "params.1.kind", "min"));
	EXPECT_TRUE(jstr(v, "params.2.kind", "setting"));
	EXPECT_TRUE(jnum(v, "params.2.value", 7));
	EXPECT_TRUE(jstr(v, "params.2.source", "cli"));
	EXPECT_TRUE(jnum(v, "params.2.quick", 2));
	EXPECT_TRUE(jnum(v, "params.2.min", 1));
	EXPECT_TRUE(jnum(v, "params.2.max", 50));
	EXPECT_TRUE(jstr(v, "info.answer", "42"));
	EXPECT_TRUE(jstr(v, "info.note", "two lines"));
	EXPECT_TRUE(jtype(v, "metrics", RP_JARR, 2));
	EXPECT_TRUE(jstr(v, "metrics.0.name", "unit.latency"));
	EXPECT_TRUE(jstr(v, "metrics.0.unit", "ms"));
	EXPECT_TRUE(jstr(v, "metrics.0.better", "lower"));
	EXPECT_TRUE(jtype(v, "metrics.0.samples", RP_JARR, 5));
	EXPECT_TRUE(jnum(v, "metrics.0.samples.0", 5));
	EXPECT_TRUE(jnum(v, "metrics.0.samples.4", 3));
	EXPECT_TRUE(jnum(v, "metrics.0.summary.n", 5));
	EXPECT_TRUE(jnum(v, "metrics.0.summary.min", 1));
	EXPECT_TRUE(jnum(v, "metrics.0.summary.max", 5));
	EXPECT_TRUE(jnum(v, "metrics.0.summary.mean", 3));
	EXPECT_TRUE(jnum(v, "metrics.0.summary.median", 3));
	EXPECT_TRUE(jnum(v, "metrics.0.summary.stddev", NAN));
	EXPECT_TRUE(jnum(v, "metrics.0.summary.p10", NAN));
	EXPECT_TRUE(jnum(v, "metrics.0.summary.p90", NAN));
	EXPECT_TRUE(jnum(v, "metrics.0.summary.mad", 1));
	EXPECT_TRUE(jnum(v, "metrics.0.summary.ci_lo", NAN));
	EXPECT_TRUE(jnum(v, "metrics.0.summary.ci_hi", NAN));
	EXPECT_EQ(NULL, path(v, "metrics.0.counters_per_op"));
	EXPECT_TRUE(jstr(v, "metrics.1.better", "higher"));
	EXPECT_TRUE(jtype(v, "metrics.1.samples", RP_JARR, 0));
	EXPECT_TRUE(jnum(v, "metrics.1.summary.n", 0));
	EXPECT_TRUE(jtype(v, "metrics.1.summary.median", RP_JNULL, 0));
	EXPECT_TRUE(jtype(v, "checks", RP_JARR, 3));
	EXPECT_TRUE(jstr(v, "checks.0.name", "lat"));
	EXPECT_TRUE(jstr(v, "checks.0.verdict", "pass"));
	EXPECT_TRUE(jnum(v, "checks.0.measured", 3));
	EXPECT_TRUE(jstr(v, "checks.0.unit", "ms"));
	EXPECT_TRUE(jstr(v, "checks.0.op", "<="));
	EXPECT_TRUE(jnum(v, "checks.0.limit", 10));
	EXPECT_TRUE(jstr(v, "checks.0.param", "max_lat"));
	EXPECT_TRUE(jtype(v, "checks.0.reason", RP_JNULL, 0));
	EXPECT_TRUE(jstr(v, "checks.1.verdict", "fail"));
	EXPECT_TRUE(jstr(v, "checks.1.op", ">="));
	EXPECT_TRUE(jnum(v, "checks.1.limit", 100));
	EXPECT_TRUE(jstr(v, "checks.2.verdict", "skip"));
	EXPECT_TRUE(jstr(v, "checks.2.reason", "why"));
	EXPECT_TRUE(jtype(v, "checks.2.measured", RP_JNULL, 0));
	EXPECT_TRUE(jnum(v, "totals.planned", 3));
	EXPECT_TRUE(jnum(v, "totals.pass", 1));
	EXPECT_TRUE(jnum(v, "totals.fail", 1));
	EXPECT_TRUE(jnum(v, "totals.skip", 1));
	EXPECT_TRUE(jnum(v, "totals.error", 0));
	EXPECT_TRUE(jstr(v, "verdict", "fail"));
	EXPECT_TRUE(jnum(v, "exit_code", 1));
	if (path(v, "options.knobs.0"))
		TH_LOG("knob recorded: %s", path(v, "options.knobs.0")->str);
	rp_json_free(v);
}

TEST_F(results, directories_created_no_temporary_file_left)
{
	char sub[400];

	run_json(sub, sizeof(sub));
	EXPECT_EQ(1, count_files(sub));
}

static void sc_pass(void)
{
	rp_check("lat", 3, &p_max_lat);
}

/*
 * RCU_PERF_OUTDIR: DIR/<test>.json. A second run replaces the file by
 * rename(): a hard link to the first one still holds the old inode.
 */
TEST_F(results, outdir_replaced_atomically)
{
	char p[400], e[512], od[300], old[300];
	struct stat st1, st2;
	struct rp_jval *v;

	snprintf(od, sizeof(od), "%s/od", unit_dir);
	snprintf(p, sizeof(p), "%s/unit_results.json", od);
	snprintf(old, sizeof(old), "%s/old.json", unit_dir);
	setenv("RCU_PERF_OUTDIR", od, 1);
	EXPECT_EQ(0, run(sc_pass, 1, ""));
	EXPECT_HAS(unit_out, "# results: ");
	ASSERT_EQ(0, link(p, old));
	EXPECT_EQ(0, run(sc_pass, 1, ""));
	v = rp_json_parse_file(p, e, sizeof(e));
	ASSERT_NE(NULL, v) TH_LOG("%s", e);
	EXPECT_TRUE(jstr(v, "verdict", "pass"));
	EXPECT_TRUE(jnum(v, "exit_code", 0));
	rp_json_free(v);
	EXPECT_EQ(1, count_files(od));
	ASSERT_EQ(0, stat(p, &st1));
	ASSERT_EQ(0, stat(old, &st2));
	EXPECT_NE(st1.st_ino, st2.st_ino);
}

/* A file where a directory should be: the run must say so. */
TEST_F(results, unwritable_results_file_fails_the_run)
{
	char args[800], bad[400];

	snprintf(bad, sizeof(bad), "%s/plainfile", unit_dir);
	ASSERT_EQ(0, unit_write(bad, "x\n"));
	snprintf(args, sizeof(args), "--json %s/x.json", bad);
	EXPECT_EQ(KSFT_FAIL, run(sc_pass, 1, args));
	EXPECT_HAS(unit_out, "ok 1 lat\n");
	EXPECT_HAS(unit_out, "# error: cannot write results to ");
}

/* ---- system facts ---- */

static void sc_kconfig(void)
{
	char buf[64];

	printf("# hz=%s\n", rp_kernel_config("CONFIG_HZ", buf, sizeof(buf)) ?
	       "none" : buf);
	if (!rp_kernel_config("CONFIG_RCU_LAZY", buf, sizeof(buf)))
		printf("# lazy=%s\n", buf);
	if (!rp_kernel_config("PREEMPT_RT", buf, sizeof(buf)))
		printf("# rt=%s\n", buf);
	if (!rp_kernel_config("CONFIG_CMDLINE", buf, sizeof(buf)))
		printf("# cmdline=%s\n", buf);
	if (rp_kernel_config("CONFIG_ABSENT", buf, sizeof(buf)))
		printf("# absent\n");
	if (rp_kernel_config("CONFIG_HZ_1", buf, sizeof(buf)))
		printf("# no prefix match\n");
}

static const char kconfig_want[] = "# hz=1000\n# lazy=y\n# rt=n\n# cmdline=a b\n"
				   "# absent\n# no prefix match\n";

/* A kernel config file in the temp dir; its path in cfg. */
static int write_kconfig(char *cfg, size_t len)
{
	snprintf(cfg, len, "%s/kconfig", unit_dir);
	return unit_write(cfg, "#\n# comment\nCONFIG_HZ_1000=y\nCONFIG_HZ=1000\n"
			  "CONFIG_RCU_LAZY=y\n# CONFIG_PREEMPT_RT is not set\n"
			  "CONFIG_CMDLINE=\"a b\"\n");
}

TEST_F(results, kernel_config_from_a_file)
{
	char cfg[400];

	ASSERT_EQ(0, write_kconfig(cfg, sizeof(cfg)));
	setenv("RCU_PERF_KCONFIG", cfg, 1);
	EXPECT_EQ(0, run(sc_kconfig, -1, ""));
	EXPECT_STREQ(kconfig_want, unit_out);
}

TEST_F(results, kernel_config_from_a_gz_file)
{
	char cfg[400], cmd[1000];

	ASSERT_EQ(0, write_kconfig(cfg, sizeof(cfg)));
	snprintf(cmd, sizeof(cmd), "gzip -c '%s' > '%s.gz'", cfg, cfg);
	if (system(cmd))
		SKIP(return, "gzip'ed config (no gzip)");
	strcat(cfg, ".gz");
	setenv("RCU_PERF_KCONFIG", cfg, 1);
	EXPECT_EQ(0, run(sc_kconfig, -1, ""));
	EXPECT_STREQ(kconfig_want, unit_out);
}

TEST_F(results, no_config_symbols_absent)
{
	setenv("RCU_PERF_KCONFIG", "/nonexistent", 1);
	run(sc_kconfig, -1, "");
	EXPECT_HAS(unit_out, "# hz=none\n# absent\n");
}

TEST_HARNESS_MAIN
