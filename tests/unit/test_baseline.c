// SPDX-License-Identifier: GPL-2.0
/*
 * Checks against a baseline (lib/baseline.c): a program with one check of
 * its own and one baseline metric, run in child processes; its baseline is
 * recorded by the same program (three runs, one results file each, as
 * "make baseline" lays them out). The samples are synthetic latencies
 * quantized to jiffies: no clock is read, nothing in the kernel touched.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "rcu_perf.h"

static struct rp_param params[] = {
	RP_MAX("max_lat", "ms", 100, "a ceiling"),
	RP_SETTING("seed", "count", 1, "which synthetic run"),
	RP_SETTING("shift", "count", 0, "jiffies added to each op"),
	RP_SETTING("skip", "bool", 0, "1: the whole program skips"),
	RP_SETTING("disturb", "bool", 0, "1: others kept the CPUs busy"),
	RP_SETTING("single", "bool", 0,
		   "1: one sample, the same in every run (an exact repeat)"),
	RP_BASELINE_CHANGE(10, "the unit test's allowed change"),
	RP_BASELINE_ALPHA,
	{ }
};

static const char * const names[] = { "own", NULL };
static const char * const base_metrics[] = { "op.latency", NULL };

static const struct rp_test test = {
	.name = "unit_baseline",
	.summary = "unit test of the baseline checks",
	.params = params,
	.nr_checks = 1,
	.checks = names,
	.baseline = base_metrics,
};

static char dir[256], base[300], out[65536], err[8192];

/* The program: 50 ops of 2 jiffies (4 ms), a few of 1, 3 or 4 jiffies. */
static int program(int argc, char **argv)
{
	struct rp_metric *m;
	unsigned long long s;
	double v[50];
	int i;

	rp_init(&test, argc, argv);
	if (rp_val("skip"))
		rp_exit_skip("told to skip");
	if (rp_val("single")) {
		/*
		 * 11 us, and twice that shifted: the mean of copies of
		 * 0.011 is off from it by a rounding error, as a sum of
		 * real samples can be, and that is no change either.
		 */
		v[0] = 0.011 * (1 + rp_val("shift"));
		rp_metric_add("op.latency", "ms", v, 1);
		rp_check("own", v[0], "max_lat");
		return rp_finish();
	}
	s = 0x9e3779b97f4a7c15ULL * (unsigned long long)rp_val("seed");
	for (i = 0; i < 50; i++) {
		double u, k;

		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		u = (s >> 11) / 9007199254740992.0;
		k = u < 0.04 ? 1 : u < 0.2 ? 3 : u < 0.23 ? 4 : 2;
		v[i] = 4 * (k + rp_val("shift")) + 0.02 * u;
	}
	m = rp_metric_add("op.latency", "ms", v, 50);
	if (rp_val("disturb"))
		m->disturbed = "machine busy: a unit test says so";
	rp_check("own", rp_stat_mean(v, 50), "max_lat");
	return rp_finish();
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

/* Run the program with these arguments; its exit status. */
static int run(const char *args)
{
	char buf[1024], po[300], pe[300], *argv[32], *save, *w;
	int status, argc = 0;
	pid_t pid;

	snprintf(po, sizeof(po), "%s/stdout", dir);
	snprintf(pe, sizeof(pe), "%s/stderr", dir);
	snprintf(buf, sizeof(buf), "unit_baseline %s", args);
	for (w = strtok_r(buf, " ", &save); w && argc < 31;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		if (!freopen(po, "w", stdout) || !freopen(pe, "w", stderr))
			_exit(99);
		exit(program(argc, argv));
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	read_file(po, out, sizeof(out));
	read_file(pe, err, sizeof(err));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Every needle in the output (stdout, or stderr for a leading '!'). */
static bool expect(const char *what, int rc, int want_rc, ...)
{
	const char *needle;
	bool ok = rc == want_rc;
	va_list ap;

	va_start(ap, want_rc);
	while ((needle = va_arg(ap, const char *)))
		if (!strstr(*needle == '!' ? err : out,
			    *needle == '!' ? needle + 1 : needle)) {
			ksft_print_msg("%s: missing: %s\n", what, needle);
			ok = false;
		}
	va_end(ap);
	if (rc != want_rc)
		ksft_print_msg("%s: exit %d, want %d\n", what, rc, want_rc);
	if (!ok)
		ksft_print_msg("stdout:\n%s\nstderr:\n%s\n", out, err);
	ksft_test_result(ok, "baseline_%s\n", what);
	return ok;
}

static void record_baseline(void)
{
	char args[600];
	int i, rc = 0;

	for (i = 1; i <= 3; i++) {
		snprintf(args, sizeof(args),
			 "--json %s/run-%d/unit_baseline.json --set seed=%d",
			 base, i, i);
		rc |= run(args);
	}
	expect("none_omits_the_checks", rc, 0, "# baseline: none", "1..1",
	       "ok 1 own", NULL);
}

static void healthy_and_regressed(void)
{
	char args[600];

	snprintf(args, sizeof(args), "--baseline %s --set seed=7", base);
	expect("healthy_passes", run(args), 0, "1..2", "3 runs of unit_baseline",
	       "ok 2 op.latency_vs_baseline", NULL);
	snprintf(args, sizeof(args), "--baseline %s --set seed=8 --set shift=1",
		 base);
	expect("one_jiffy_more_fails", run(args), 1,
	       "# op.latency_vs_baseline: measured +49.9",
	       "vs limit <= 10 % (baseline_change)",
	       "not ok 2 op.latency_vs_baseline", NULL);
	snprintf(args, sizeof(args),
		 "--baseline %s --set seed=8 --set shift=1 --set baseline_change=60",
		 base);
	expect("its_own_limit", run(args), 0, "ok 2 op.latency_vs_baseline",
	       NULL);
	snprintf(args, sizeof(args),
		 "--baseline %s --set seed=8 --set shift=1 --set disturb=1", base);
	expect("disturbed_run_skips", run(args), 0,
	       "ok 2 op.latency_vs_baseline # SKIP machine busy: a unit test says so",
	       NULL);
	snprintf(args, sizeof(args), "--baseline %s --set skip=1", base);
	expect("skip_names_the_check", run(args), 4,
	       "ok 2 op.latency_vs_baseline # SKIP told to skip", NULL);
}

/*
 * One sample a run, the same in every run, as boot_marker's boots in an
 * instruction-counted guest: no spread at all in the baseline. A repeat
 * must pass (no infinite or NaN statistic), twice the time must fail.
 */
static void exact_repeats(void)
{
	char args[600];
	const char *line;
	int i, rc = 0;
	bool finite;
	size_t len;

	for (i = 1; i <= 3; i++) {
		snprintf(args, sizeof(args),
			 "--json %s/exact/run-%d/unit_baseline.json --set single=1",
			 dir, i);
		rc |= run(args);
	}
	snprintf(args, sizeof(args), "--baseline %s/exact --set single=1", dir);
	rc |= run(args);
	expect("exact_repeat_passes", rc, 0, "3 runs of unit_baseline",
	       "# op.latency_vs_baseline: measured 0 % worse",
	       "ok 2 op.latency_vs_baseline\n", NULL);
	line = strstr(out, "# op.latency_vs_baseline: ");
	len = line ? strcspn(line, "\n") : 0;
	finite = line && !memmem(line, len, "nan", 3) &&
		 !memmem(line, len, "inf", 3);
	if (!finite)
		ksft_print_msg("exact repeat: no finite comparison in:\n%s\n",
			       out);
	ksft_test_result(finite, "baseline_exact_repeat_finite\n");
	snprintf(args, sizeof(args),
		 "--baseline %s/exact --set single=1 --set shift=1", dir);
	expect("exact_twice_fails", run(args), 1,
	       "# op.latency_vs_baseline: measured +100 % worse",
	       "not ok 2 op.latency_vs_baseline", NULL);
}

/* The environment, the config file (relative to it) and "none". */
static void where_from(void)
{
	char conf[400], args[600];
	FILE *f;

	setenv("RCU_PERF_BASELINE", base, 1);
	expect("from_env", run("--set seed=9"), 0, "(RCU_PERF_BASELINE)",
	       "ok 2 op.latency_vs_baseline", NULL);
	unsetenv("RCU_PERF_BASELINE");
	snprintf(conf, sizeof(conf), "%s/rcu_perf.conf", dir);
	f = fopen(conf, "w");
	if (!f)
		ksft_exit_fail_msg("%s: %s\n", conf, strerror(errno));
	fprintf(f, "baseline = base # runs of a good kernel\n");
	fclose(f);
	snprintf(args, sizeof(args), "--config %s --set seed=9", conf);
	expect("from_config", run(args), 0, "/base (", "ok 2 op.latency_vs_baseline",
	       NULL);
	setenv("RCU_PERF_BASELINE", "", 1);
	expect("env_empty_is_none", run(args), 0, "# baseline: none", "1..1",
	       NULL);
	unsetenv("RCU_PERF_BASELINE");
	snprintf(args, sizeof(args), "--baseline %s/nonexistent", dir);
	expect("missing_dir_is_bad_usage", run(args), 2,
	       "!nonexistent (--baseline): No such file or directory", NULL);
}

/* A baseline of another machine: SKIP, naming the difference. */
static void mismatch(void)
{
	char path[400], args[600], cmd[900];

	snprintf(path, sizeof(path), "%s/run-2/unit_baseline.json", base);
	snprintf(cmd, sizeof(cmd),
		 "sed -i 's/\"hz\": [0-9]*/\"hz\": 12345/' %s", path);
	if (system(cmd))
		ksft_exit_fail_msg("%s failed\n", cmd);
	snprintf(args, sizeof(args), "--baseline %s", base);
	expect("other_machine_skips", run(args), 0, "hz 12345, here",
	       "ok 2 op.latency_vs_baseline # SKIP baseline not used: ", NULL);
	snprintf(cmd, sizeof(cmd), "echo '{\"schema\": ' > %s", path);
	if (system(cmd))
		ksft_exit_fail_msg("%s failed\n", cmd);
	expect("malformed_file_is_bad_usage", run(args), 2,
	       "!run-2/unit_baseline.json", NULL);
}

/* What must match, on documents written by hand. */
static bool mismatch_says(const char *base_doc, const char *cur,
			  const char *want)
{
	struct rp_jval *b = rp_json_parse(base_doc, err, sizeof(err));
	struct rp_jval *c = rp_json_parse(cur, err, sizeof(err));
	const char *why = b && c ? rp_baseline_mismatch(b, c, err, sizeof(err)) :
			  "(parse error)";
	bool ok = want ? why && strstr(why, want) : !why;

	if (!ok)
		ksft_print_msg("%s vs %s: '%s', want '%s'\n", base_doc, cur,
			       why ? why : "(match)", want ? want : "(match)");
	rp_json_free(b);
	rp_json_free(c);
	return ok;
}

#define HEAD "{\"suite_version\": 1, \"system\": {\"machine\": \"x86_64\", "
#define SYS(extra) HEAD "\"cpu_model\": \"Xeon\", \"nr_cpus_online\": 2, \"hz\": 250, " extra "}}"
#define CFG(v) "\"config\": {\"CONFIG_HZ\": \"250\"" v "}"
#define CMD(v) ", \"cmdline_rcu\": [" v "]"

static void mismatch_rules(void)
{
	static const char tunable[] =
		SYS(CFG("") CMD("\"nohz_full=1\", \"rcupdate.rcu_normal=1\""));
	static const char epyc[] = HEAD "\"cpu_model\": \"Epyc\"}}";
	const char *same = SYS(CFG("") CMD("\"nohz_full=1\""));
	bool ok = true;

	ok &= mismatch_says(same, same, NULL);
	/* RCU's tunables are the kernel under test, not the machine */
	ok &= mismatch_says(same, tunable, NULL);
	ok &= mismatch_says(same, SYS(CFG("") CMD("")),
			    "booted with nohz_full=1");
	ok &= mismatch_says(same, SYS(CFG(", \"CONFIG_PREEMPT_RT\": \"y\"")
				      CMD("\"nohz_full=1\"")),
			    "CONFIG_PREEMPT_RT=n, here y");
	ok &= mismatch_says(SYS(CFG(", \"CONFIG_RCU_LAZY\": \"n\"")), SYS(CFG("")),
			    NULL);
	ok &= mismatch_says(SYS(CFG("")), SYS("\"config\": {}"),
			    "kernel config unknown here");
	ok &= mismatch_says("{\"system\": {}}", same, "older suite");
	ok &= mismatch_says(same, epyc, "cpu_model 'Xeon', this machine 'Epyc'");
	ksft_test_result(ok, "baseline_mismatch_rules\n");
}

int main(void)
{
	char tmpl[] = "/tmp/rp_test_baseline.XXXXXX", cmd[300];

	if (!mkdtemp(tmpl))
		ksft_exit_fail_msg("mkdtemp: %s\n", strerror(errno));
	snprintf(dir, sizeof(dir), "%s", tmpl);
	snprintf(base, sizeof(base), "%s/base", dir);
	setenv("RCU_PERF_CONFIG", "", 1);
	setenv("RCU_PERF_STATE_DIR", dir, 1);
	unsetenv("RCU_PERF_BASELINE");
	unsetenv("RCU_PERF_QUICK");
	unsetenv("RCU_PERF_JSON");
	unsetenv("RCU_PERF_OUTDIR");

	ksft_print_header();
	ksft_set_plan(16);
	record_baseline();
	healthy_and_regressed();
	exact_repeats();
	where_from();
	mismatch();
	mismatch_rules();

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		ksft_print_msg("could not remove %s\n", dir);
	ksft_finished();
}
