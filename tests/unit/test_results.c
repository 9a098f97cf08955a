// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP checks and the JSON results (lib/results.c). Each scenario is a
 * small program run in a child process (the library keeps global state and
 * the child's KTAP must not mix with ours); the parent checks its exact
 * output, exit code and results file. The guard's state dir and the only
 * "knob" are temporary files: nothing here touches the kernel.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "rcu_perf.h"

static struct rp_param params[] = {
	RP_MAX("max_lat", "ms", 10, "a ceiling"),
	RP_MIN("min_rate", "ops/s", 100, "a floor"),
	RP_SETTING("samples", "count", 5, "how many"),
	{ }
};

static struct rp_test test = {
	.name = "unit_results",
	.summary = "unit test of the results",
	.params = params,
};

static char dir[256], knob[300], json[512];
static char out[65536], err[65536];

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f)
		ksft_exit_fail_msg("cannot write %s: %s\n", path,
				   strerror(errno));
	fputs(s, f);
	fclose(f);
}

static void read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

static void show(const char *what, const char *s)
{
	ksft_print_msg("%s:\n", what);
	fputs("# | ", stdout);
	for (; *s; s++) {
		putchar(*s);
		if (*s == '\n' && s[1])
			fputs("# | ", stdout);
	}
	putchar('\n');
}

/*
 * Run fn() as a program with the given arguments and plan in a child;
 * stdout/stderr in out/err; returns the exit status.
 */
static int run(void (*fn)(void), int plan, const char *args)
{
	char po[400], pe[400], buf[1024], *argv[32], *save, *w;
	int status, argc = 0;
	pid_t pid;

	snprintf(po, sizeof(po), "%s/stdout", dir);
	snprintf(pe, sizeof(pe), "%s/stderr", dir);
	snprintf(buf, sizeof(buf), "unit_results %s", args);
	for (w = strtok_r(buf, " ", &save); w && argc < 31;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		if (!freopen(po, "w", stdout) || !freopen(pe, "w", stderr))
			_exit(99);
		test.nr_checks = plan;
		if (plan >= 0)
			rp_init(&test, argc, argv);
		fn();
		exit(plan < 0 ? 0 : rp_finish());
	}
	waitpid(pid, &status, 0);
	read_file(po, out, sizeof(out));
	read_file(pe, err, sizeof(err));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static bool has(const char *needle)
{
	if (strstr(out, needle))
		return true;
	ksft_print_msg("missing in the output: %s\n", needle);
	show("output", out);
	return false;
}

/*
 * Well-formed KTAP: header, plan, then only "# " diagnostics and results
 * numbered 1..plan in order, every one of them present, then the totals.
 */
static bool ktap_ok(int plan)
{
	char buf[65536], *line, *save;
	int n = 0, k = 0, num;

	snprintf(buf, sizeof(buf), "%s", out);
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
		show("output", out);
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

	verdicts[i++] = rp_check("lat_ok", 9.5, "max_lat");
	verdicts[i++] = rp_check("lat_equal", 10, "max_lat");
	verdicts[i++] = rp_check("lat_bad", 10.01, "max_lat");
	verdicts[i++] = rp_check("rate_ok", 150, "min_rate");
	verdicts[i++] = rp_check("rate_equal", 100, "min_rate");
	verdicts[i++] = rp_check("rate_bad", 99.99, "min_rate");
	verdicts[i++] = rp_check("lat_nan", NAN, "max_lat");
	verdicts[i++] = rp_check("lat_inf", INFINITY, "max_lat");
	verdicts[i++] = rp_check("not_a_limit", 1, "samples");
	verdicts[i++] = rp_check("unknown_limit", 1, "nope");
	verdicts[i++] = rp_check("big", 12345.678, "max_lat");
	verdicts[i++] = rp_check("tiny", 0.000015, "max_lat");
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

/* The exact KTAP of checks against both kinds of limit. */
static void test_checks(void)
{
	int rc = run(sc_checks, 12, "");
	bool ok = rc == KSFT_FAIL && ktap_ok(12) && !strcmp(out, checks_out);

	if (!ok)
		show("output", out);
	ksft_test_result(ok, "rp_check on max and min limits, NaN, bad limits, number format\n");
}

static void sc_set_limits(void)
{
	rp_check("lat", 11, "max_lat");
	rp_check("rate", 60, "min_rate");
}

static void test_set_limits(void)
{
	bool ok;
	int rc;

	setenv("RCU_PERF_MIN_RATE", "50", 1);
	rc = run(sc_set_limits, 2, "--set max_lat=12");
	unsetenv("RCU_PERF_MIN_RATE");
	ok = rc == KSFT_PASS && ktap_ok(2) &&
	     has("1..2\n"
		 "# max_lat = 12 ms (--set)\n"
		 "# min_rate = 50 ops/s (environment RCU_PERF_MIN_RATE)\n") &&
	     has("# lat: measured 11 ms vs limit <= 12 ms (max_lat)\n"
		 "ok 1 lat\n") &&
	     has("# rate: measured 60 ops/s vs limit >= 50 ops/s (min_rate)\n"
		 "ok 2 rate\n") &&
	     has("# Totals: pass:2 fail:0");
	ksft_test_result(ok, "limits set by --set and environment apply, exit 0\n");
}

static void sc_skips(void)
{
	rp_check_skip("first", "no %s", "root");
	rp_check_fail("second", "cannot\nmeasure %d", 2);
	rp_check("two words", 1, "max_lat");
	rp_skip_rest("too few CPUs");
}

static void sc_all_skip(void)
{
	rp_check_skip("first", "no root");
	rp_skip_rest("no root");
}

static void sc_pass_skip(void)
{
	rp_check("lat", 1, "max_lat");
	rp_skip_rest("not on this kernel");
}

static void test_skips(void)
{
	bool ok;
	int rc;

	rc = run(sc_skips, 5, "");
	ok = rc == KSFT_FAIL && ktap_ok(5) &&
	     has("ok 1 first # SKIP no root\n"
		 "# second: cannot measure 2\n"
		 "not ok 2 second\n"
		 "not ok 3 check_3 # error bug: check name 'two words' is not one token\n"
		 "ok 4 check_4 # SKIP too few CPUs\n"
		 "ok 5 check_5 # SKIP too few CPUs\n");
	ksft_test_result(ok, "check skip, fail with a reason (one line), bad name, skip rest\n");
	rc = run(sc_all_skip, 3, "");
	ok = rc == KSFT_SKIP && ktap_ok(3) &&
	     has("# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:3 error:0");
	ksft_test_result(ok, "all checks skipped: exit 4\n");
	rc = run(sc_pass_skip, 2, "");
	ok = rc == KSFT_PASS && ktap_ok(2);
	ksft_test_result(ok, "some passed, the rest skipped: exit 0\n");
}

static void sc_bounds(void)
{
	struct rp_bound b = { .limit = 3, .unit = "jiffies", .param = "max_lat",
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
static void test_bounds(void)
{
	struct rp_jval *v;
	char e[600];
	bool ok;
	int rc;

	snprintf(e, sizeof(e), "--json %s", json);
	unlink(json);
	rc = run(sc_bounds, 6, e);
	v = rp_json_parse_file(json, e, sizeof(e));
	ok = rc == KSFT_FAIL && ktap_ok(6) && has(bounds_out) && v &&
	     jstr(v, "checks.0.verdict", "pass") &&
	     jnum(v, "checks.1.ci_lo", 4) && jnum(v, "checks.1.ci_hi", 20) &&
	     jnum(v, "checks.1.limit", 3) && jstr(v, "checks.1.reason", "busy + 3") &&
	     jstr(v, "checks.2.verdict", "skip") && jstr(v, "checks.4.op", ">=");
	ksft_test_result(ok, "rp_check_bound: pass, fail, too noisy, nan, minimum; JSON\n");
	rp_json_free(v);
}

static void sc_missing(void)
{
	rp_check("lat", 1, "max_lat");
}

static void sc_extra(void)
{
	rp_check("lat", 1, "max_lat");
	rp_check("lat2", 1, "max_lat");
}

static void test_plan_mismatch(void)
{
	bool ok;
	int rc;

	rc = run(sc_missing, 3, "");
	ok = rc == KSFT_FAIL && ktap_ok(3) &&
	     has("ok 1 lat\n"
		 "# error: 2 planned check(s) not reported\n"
		 "not ok 2 check_2 # error not reported (bug in the test)\n"
		 "not ok 3 check_3 # error not reported (bug in the test)\n");
	ksft_test_result(ok, "unreported checks become errors, the plan holds\n");
	rc = run(sc_extra, 1, "");
	ok = rc == KSFT_FAIL &&
	     has("# error: 1 check(s) reported beyond the plan of 1\n");
	ksft_test_result(ok, "checks beyond the plan fail the run\n");
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
	rp_check("lat", 1, "max_lat");
	rp_exit_skip("no more");
}

static void sc_skip_after_fail(void)
{
	rp_check("lat", 100, "max_lat");
	rp_exit_skip("no more");
}

static void sc_fatal(void)
{
	test.checks = all_names;
	rp_check("lat", 1, "max_lat");
	rp_fatal("boom %d", 1);
}

static void test_exits(void)
{
	char e[600];
	struct rp_jval *v;
	bool ok;
	int rc;

	rc = run(sc_skip_before_init, -1, "");
	ksft_test_result(rc == KSFT_SKIP &&
			 !strcmp(out, "TAP version 13\n1..0 # SKIP needs root\n"),
			 "rp_exit_skip before rp_init: an empty plan, exit 4\n");
	if (rc != KSFT_SKIP)
		show("output", out);

	rc = run(sc_skip_after_pass, 3, "");
	ok = rc == KSFT_SKIP && ktap_ok(3) &&
	     has("ok 1 lat\n"
		 "ok 2 named # SKIP no more\n"
		 "ok 3 check_3 # SKIP no more\n");
	ksft_test_result(ok, "rp_exit_skip skips the rest, exit 4\n");

	rc = run(sc_skip_after_fail, 2, "");
	ok = rc == KSFT_FAIL && ktap_ok(2);
	ksft_test_result(ok, "rp_exit_skip after a failure still exits 1\n");

	snprintf(e, sizeof(e), "--json %s", json);
	unlink(json);
	rc = run(sc_fatal, 3, e);
	v = rp_json_parse_file(json, e, sizeof(e));
	ok = rc == KSFT_SKIP && ktap_ok(3) &&
	     has("ok 1 lat\n"
		 "# error: boom 1\n"
		 "ok 2 second # SKIP boom 1\n"
		 "ok 3 third # SKIP boom 1\n") &&
	     v && jstr(v, "verdict", "skip") && jnum(v, "exit_code", 4) &&
	     jstr(v, "checks.2.verdict", "skip") &&
	     jstr(v, "checks.2.reason", "boom 1");
	if (!ok)
		show("output", out);
	ksft_test_result(ok, "rp_fatal: the rest skipped, JSON written, exit 4\n");
	rp_json_free(v);
}

/* ---- the results file ---- */

static void sc_json(void)
{
	double s[] = { 5, 1, 4, 2, 3 };
	struct rp_counters c;
	struct rp_metric *m;
	char buf[64];

	/* The --knob is in place while the program runs. */
	if (rp_knob_read(knob, buf, sizeof(buf)) < 0 || strcmp(buf, "42"))
		rp_fatal("knob is '%s' during the run", buf);
	rp_info("answer", "%d", 41);
	rp_info("answer", "%d", 42);
	rp_info("note", "two\nlines");
	m = rp_metric_add("unit.latency", "ms", s, 5);
	memset(&c, 0, sizeof(c));
	c.supported[RP_CTR_CTX_SWITCHES] = true;
	c.delta[RP_CTR_CTX_SWITCHES] = 10;
	c.delta[RP_CTR_MIGRATIONS] = 7;	/* unsupported: not reported */
	rp_metric_counters(m, &c, 5);
	m = rp_metric_add("unit.rate", "ops/s", s, 0);
	m->higher_is_better = true;
	rp_check("lat", 3, "max_lat");
	rp_check("rate", 10, "min_rate");
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

static void test_json(void)
{
	char args[1200], e[512], sub[400], ctx[128];
	struct rp_jval *v;
	bool ok;
	int rc;

	write_file(knob, "orig\n");
	snprintf(sub, sizeof(sub), "%s/a/b", dir);
	snprintf(json, sizeof(json), "%s/results.json", sub);
	snprintf(args, sizeof(args),
		 "--json %s --knob %s=42 --set samples=7 --quick", json, knob);
	rc = run(sc_json, 3, args);
	ok = rc == KSFT_FAIL && ktap_ok(3) &&
	     has("# answer: 41\n# answer: 42\n# note: two lines\n") &&
	     has("# knob ") && has("# quick: shorter runs\n");
	ksft_test_result(ok, "a run with metrics, info, a knob and one failure\n");
	read_file(knob, e, sizeof(e));
	ksft_test_result(!strcmp(e, "orig\n"), "--knob restored at the end\n");

	v = rp_json_parse_file(json, e, sizeof(e));
	if (!v)
		ksft_print_msg("%s\n", e);
	snprintf(ctx, sizeof(ctx), "metrics.0.counters_per_op.%s",
		 rp_ctr_name(RP_CTR_CTX_SWITCHES));
	ok = v &&
		jstr(v, "schema", RP_RESULTS_SCHEMA) &&
		jnum(v, "version", RP_RESULTS_VERSION) &&
		jstr(v, "test", "unit_results") &&
		jstr(v, "summary", "unit test of the results") &&
		jstr(v, "timestamp", NULL) &&
		strlen(path(v, "timestamp")->str) == 20 &&
		path(v, "timestamp")->str[19] == 'Z' &&
		jnum(v, "duration_s", NAN) && path(v, "duration_s")->num >= 0 &&
		jstr(v, "system.kernel_release", NULL) &&
		jstr(v, "system.machine", NULL) &&
		jnum(v, "system.nr_cpus_online", NAN) &&
		path(v, "system.nr_cpus_online")->num >= 1 &&
		jnum(v, "system.nr_cpus_possible", NAN) &&
		jnum(v, "system.hz", NAN) &&
		path(v, "system.config") && path(v, "system.cmdline_rcu") &&
		jtype(v, "options.quick", RP_JBOOL, 0) &&
		path(v, "options.quick")->b &&
		jtype(v, "options.knobs", RP_JARR, 1) &&
		jtype(v, "params", RP_JARR, 3) &&
		jstr(v, "params.0.name", "max_lat") &&
		jstr(v, "params.0.kind", "max") &&
		jstr(v, "params.0.unit", "ms") &&
		jnum(v, "params.0.default", 10) &&
		jnum(v, "params.0.value", 10) &&
		jstr(v, "params.0.source", "default") &&
		jstr(v, "params.0.reason", "a ceiling") &&
		jstr(v, "params.1.kind", "min") &&
		jstr(v, "params.2.kind", "setting") &&
		jnum(v, "params.2.value", 7) &&
		jstr(v, "params.2.source", "cli") &&
		jstr(v, "info.answer", "42") &&
		jstr(v, "info.note", "two lines") &&
		jtype(v, "metrics", RP_JARR, 2) &&
		jstr(v, "metrics.0.name", "unit.latency") &&
		jstr(v, "metrics.0.unit", "ms") &&
		jstr(v, "metrics.0.better", "lower") &&
		jtype(v, "metrics.0.samples", RP_JARR, 5) &&
		jnum(v, "metrics.0.samples.0", 5) &&
		jnum(v, "metrics.0.samples.4", 3) &&
		jnum(v, "metrics.0.summary.n", 5) &&
		jnum(v, "metrics.0.summary.min", 1) &&
		jnum(v, "metrics.0.summary.max", 5) &&
		jnum(v, "metrics.0.summary.mean", 3) &&
		jnum(v, "metrics.0.summary.median", 3) &&
		jnum(v, "metrics.0.summary.stddev", NAN) &&
		jnum(v, "metrics.0.summary.p10", NAN) &&
		jnum(v, "metrics.0.summary.p90", NAN) &&
		jnum(v, "metrics.0.summary.mad", 1) &&
		jnum(v, "metrics.0.summary.ci_lo", NAN) &&
		jnum(v, "metrics.0.summary.ci_hi", NAN) &&
		jtype(v, "metrics.0.counters_per_op", RP_JOBJ, 1) &&
		jnum(v, ctx, 2) &&
		jstr(v, "metrics.1.better", "higher") &&
		jtype(v, "metrics.1.samples", RP_JARR, 0) &&
		jnum(v, "metrics.1.summary.n", 0) &&
		jtype(v, "metrics.1.summary.median", RP_JNULL, 0) &&
		jtype(v, "checks", RP_JARR, 3) &&
		jstr(v, "checks.0.name", "lat") &&
		jstr(v, "checks.0.verdict", "pass") &&
		jnum(v, "checks.0.measured", 3) &&
		jstr(v, "checks.0.unit", "ms") &&
		jstr(v, "checks.0.op", "<=") &&
		jnum(v, "checks.0.limit", 10) &&
		jstr(v, "checks.0.param", "max_lat") &&
		jtype(v, "checks.0.reason", RP_JNULL, 0) &&
		jstr(v, "checks.1.verdict", "fail") &&
		jstr(v, "checks.1.op", ">=") &&
		jnum(v, "checks.1.limit", 100) &&
		jstr(v, "checks.2.verdict", "skip") &&
		jstr(v, "checks.2.reason", "why") &&
		jtype(v, "checks.2.measured", RP_JNULL, 0) &&
		jnum(v, "totals.planned", 3) && jnum(v, "totals.pass", 1) &&
		jnum(v, "totals.fail", 1) && jnum(v, "totals.skip", 1) &&
		jnum(v, "totals.error", 0) &&
		jstr(v, "verdict", "fail") && jnum(v, "exit_code", 1);
	ksft_test_result(ok, "the results file has the documented fields\n");
	if (v && path(v, "options.knobs.0"))
		ksft_print_msg("knob recorded: %s\n",
			       path(v, "options.knobs.0")->str);
	rp_json_free(v);
	ksft_test_result(count_files(sub) == 1,
			 "directories created, no temporary file left\n");
}

static void sc_pass(void)
{
	rp_check("lat", 3, "max_lat");
}

static void test_json_places(void)
{
	char args[800], p[400], e[512], bad[400], od[300], old[300];
	struct stat st1, st2;
	struct rp_jval *v;
	bool ok;
	int rc;

	/*
	 * RCU_PERF_OUTDIR: DIR/<test>.json. A second run replaces the file by
	 * rename(): a hard link to the first one still holds the old inode.
	 */
	snprintf(od, sizeof(od), "%s/od", dir);
	snprintf(p, sizeof(p), "%s/unit_results.json", od);
	snprintf(old, sizeof(old), "%s/old.json", dir);
	setenv("RCU_PERF_OUTDIR", od, 1);
	rc = run(sc_pass, 1, "");
	ok = rc == 0 && has("# results: ") && !link(p, old);
	rc = run(sc_pass, 1, "");
	unsetenv("RCU_PERF_OUTDIR");
	v = rp_json_parse_file(p, e, sizeof(e));
	ok = ok && rc == 0 && v && jstr(v, "verdict", "pass") &&
	     jnum(v, "exit_code", 0) && count_files(od) == 1 &&
	     !stat(p, &st1) && !stat(old, &st2) && st1.st_ino != st2.st_ino;
	ksft_test_result(ok, "RCU_PERF_OUTDIR/<test>.json, replaced atomically\n");
	rp_json_free(v);

	/* A file where a directory should be: the run must say so. */
	snprintf(bad, sizeof(bad), "%s/plainfile", dir);
	write_file(bad, "x\n");
	snprintf(args, sizeof(args), "--json %s/x.json", bad);
	rc = run(sc_pass, 1, args);
	ksft_test_result(rc == KSFT_FAIL && has("ok 1 lat\n") &&
			 has("# error: cannot write results to "),
			 "an unwritable results file fails the run\n");
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

static void test_kconfig(void)
{
	char cfg[400], cmd[1000];
	const char *want = "# hz=1000\n# lazy=y\n# rt=n\n# cmdline=a b\n"
			   "# absent\n# no prefix match\n";
	int rc;

	snprintf(cfg, sizeof(cfg), "%s/kconfig", dir);
	write_file(cfg, "#\n# comment\nCONFIG_HZ_1000=y\nCONFIG_HZ=1000\n"
		   "CONFIG_RCU_LAZY=y\n# CONFIG_PREEMPT_RT is not set\n"
		   "CONFIG_CMDLINE=\"a b\"\n");
	setenv("RCU_PERF_KCONFIG", cfg, 1);
	rc = run(sc_kconfig, -1, "");
	ksft_test_result(rc == 0 && !strcmp(out, want),
			 "rp_kernel_config from a config file\n");
	if (strcmp(out, want))
		show("output", out);

	snprintf(cmd, sizeof(cmd), "gzip -c '%s' > '%s.gz'", cfg, cfg);
	strcat(cfg, ".gz");
	setenv("RCU_PERF_KCONFIG", cfg, 1);
	if (system(cmd)) {
		ksft_test_result_skip("gzip'ed config (no gzip)\n");
	} else {
		rc = run(sc_kconfig, -1, "");
		ksft_test_result(rc == 0 && !strcmp(out, want),
				 "rp_kernel_config from a .gz config\n");
	}
	setenv("RCU_PERF_KCONFIG", "/nonexistent", 1);
	rc = run(sc_kconfig, -1, "");
	ksft_test_result(has("# hz=none\n# absent\n"),
			 "no config: symbols absent\n");
	unsetenv("RCU_PERF_KCONFIG");
}

int main(void)
{
	char tmpl[] = "/tmp/rp_test_results.XXXXXX";
	char cmd[300];

	if (!mkdtemp(tmpl))
		ksft_exit_fail_msg("mkdtemp: %s\n", strerror(errno));
	snprintf(dir, sizeof(dir), "%s", tmpl);
	snprintf(knob, sizeof(knob), "%s/knob", dir);
	rp_knob_allow_dir(dir);
	snprintf(json, sizeof(json), "%s/fatal.json", dir);
	setenv("RCU_PERF_CONFIG", "", 1);
	setenv("RCU_PERF_STATE_DIR", dir, 1);
	unsetenv("RCU_PERF_QUICK");
	unsetenv("RCU_PERF_JSON");
	unsetenv("RCU_PERF_OUTDIR");
	unsetenv("RCU_PERF_MAX_LAT");
	unsetenv("RCU_PERF_MIN_RATE");
	unsetenv("RCU_PERF_SAMPLES");
	unsetenv("KSFT_TAP_LEVEL");

	ksft_print_header();
	ksft_set_plan(21);
	test_checks();
	test_bounds();
	test_set_limits();
	test_skips();
	test_plan_mismatch();
	test_exits();
	test_json();
	test_json_places();
	test_kconfig();

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		ksft_print_msg("could not remove %s\n", dir);
	ksft_finished();
}
