// SPDX-License-Identifier: GPL-2.0
/*
 * Options, settings and thresholds (lib/opts.c): precedence of default,
 * config file, environment and command line; config sections; every kind
 * of bad input is refused with a one-line message. Each case runs in a
 * child process (the library keeps global state) with its stdout and
 * stderr captured; nothing here touches the kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "rcu_perf.h"

static struct rp_param params[] = {
	RP_MAX("max_ratio", "ratio", 3.0, "a ceiling"),
	RP_MIN("min_rate", "ops/s", 1000, "a floor"),
	RP_SETTING("samples", "count", 30, "how many"),
	RP_SETTING("use_load", "bool", 1, "a switch"),
	RP_SETTING("period", "ms", 2.5, "a fraction is fine"),
	RP_MAX("max_jiffies", "jiffies", 20, "limits may be fractional"),
	{ }
};

static int extra_seen;

/* --pair A B takes two values; --bad is refused with its own message. */
static int extra_opt(int argc, char **argv, int i, int *used)
{
	if (!strcmp(argv[i], "--pair") && i + 2 < argc) {
		extra_seen = atoi(argv[i + 1]) + atoi(argv[i + 2]);
		*used = 3;
		return 1;
	}
	if (!strcmp(argv[i], "--bad")) {
		fprintf(stderr, "unit: --bad is bad\n");
		return -1;
	}
	return 0;
}

static const struct rp_test test = {
	.name = "unit",
	.summary = "unit test of the options",
	.params = params,
	.nr_checks = 1,
	.extra_usage = "Own options:\n  --pair A B   two numbers\n",
	.extra_opt = extra_opt,
};

static char dir[256];
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

/* Path of a config file in the temp dir with the given content. */
static const char *conf(const char *name, const char *text)
{
	static char path[2][400];
	static int k;
	char *p = path[k++ & 1];

	snprintf(p, 400, "%s/%s", dir, name);
	write_file(p, text);
	return p;
}

/*
 * Run fn() in a child with stdout/stderr in out/err; returns the exit
 * status (fn's return value, or what rp_init() exited with).
 */
static int run(int (*fn)(void *), void *arg)
{
	char po[400], pe[400];
	int status;
	pid_t pid;

	snprintf(po, sizeof(po), "%s/stdout", dir);
	snprintf(pe, sizeof(pe), "%s/stderr", dir);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		if (!freopen(po, "w", stdout) || !freopen(pe, "w", stderr))
			_exit(99);
		status = fn(arg);
		fflush(stdout);
		fflush(stderr);
		_exit(status);
	}
	waitpid(pid, &status, 0);
	read_file(po, out, sizeof(out));
	read_file(pe, err, sizeof(err));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* argv from a string of space-separated words (no quoting). */
struct args {
	char buf[1024];
	char *argv[64];
	int argc;
};

static void split(struct args *a, const char *cmd)
{
	char *save, *w;

	snprintf(a->buf, sizeof(a->buf), "unit %s", cmd);
	a->argc = 0;
	for (w = strtok_r(a->buf, " ", &save); w && a->argc < 63;
	     w = strtok_r(NULL, " ", &save))
		a->argv[a->argc++] = w;
	a->argv[a->argc] = NULL;
}

static int do_parse(void *cmd)
{
	static struct args a;	/* rp_opts points into argv */

	split(&a, cmd);
	return rp_parse(&test, a.argc, a.argv) ? 2 : 0;
}

static int do_init(void *cmd)
{
	static struct args a;

	split(&a, cmd);
	rp_init(&test, a.argc, a.argv);
	return 100;	/* not reached for --help and --list */
}

/* Parse cmd; on success, print every parameter as "name=value/source". */
static int do_parse_dump(void *cmd)
{
	struct rp_param *p;

	if (do_parse(cmd))
		return 2;
	for (p = params; p->name; p++)
		printf("%s=%g/%s\n", p->name, p->value, p->source);
	printf("quick=%d verbose=%d json=%s outdir=%s knobs=%d extra=%d\n",
	       rp_opts.quick, rp_opts.verbose,
	       rp_opts.json_path ? rp_opts.json_path : "-",
	       rp_opts.outdir ? rp_opts.outdir : "-", rp_opts.nr_knobs,
	       extra_seen);
	return 0;
}

static bool has(const char *hay, const char *needle)
{
	if (strstr(hay, needle))
		return true;
	ksft_print_msg("missing '%s' in:\n", needle);
	fputs("# | ", stdout);
	for (; *hay; hay++) {
		putchar(*hay);
		if (*hay == '\n' && hay[1])
			fputs("# | ", stdout);
	}
	putchar('\n');
	return false;
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_defaults(void)
{
	int rc = run(do_parse_dump, "");

	ksft_test_result(rc == 0 && has(out, "max_ratio=3/default") &&
			 has(out, "min_rate=1000/default") &&
			 has(out, "samples=30/default") &&
			 has(out, "period=2.5/default") &&
			 has(out, "quick=0 verbose=0 json=- outdir=- knobs=0") &&
			 !*err, "defaults\n");
}

static void test_precedence(void)
{
	char cmd[600];
	int rc;

	/* Each layer overrides the one before for the names it sets. */
	setenv("RCU_PERF_CONFIG",
	       conf("p.conf", "# every layer\nmax_ratio = 4\nmin_rate = 500\nsamples = 10\n"), 1);
	setenv("RCU_PERF_MIN_RATE", "600", 1);
	setenv("RCU_PERF_SAMPLES", "11", 1);
	snprintf(cmd, sizeof(cmd), "--set samples=12");
	rc = run(do_parse_dump, cmd);
	ksft_test_result(rc == 0 && has(out, "max_ratio=4/config") &&
			 has(out, "min_rate=600/env") &&
			 has(out, "samples=12/cli") &&
			 has(out, "use_load=1/default"),
			 "precedence default < config < env < cli\n");

	/* -s, --set=, and the last --set wins. */
	rc = run(do_parse_dump,
		 "-s samples=1 --set=samples=2 --set max_ratio=0.5 -s max_jiffies=2.5");
	ksft_test_result(rc == 0 && has(out, "samples=2/cli") &&
			 has(out, "max_ratio=0.5/cli") &&
			 has(out, "max_jiffies=2.5/cli"), "--set forms\n");

	/* --config on the command line beats RCU_PERF_CONFIG. */
	snprintf(cmd, sizeof(cmd), "--config %s",
		 conf("q.conf", "max_ratio = 7\n"));
	rc = run(do_parse_dump, cmd);
	ksft_test_result(rc == 0 && has(out, "max_ratio=7/config") &&
			 has(out, "min_rate=600/env"),
			 "--config beats RCU_PERF_CONFIG\n");
	unsetenv("RCU_PERF_MIN_RATE");
	unsetenv("RCU_PERF_SAMPLES");
	setenv("RCU_PERF_CONFIG", "", 1);
}

static void test_sections(void)
{
	char cmd[600];
	int rc;

	snprintf(cmd, sizeof(cmd), "--config %s",
		 conf("s.conf",
		      "max_ratio = 5   # global, inline comment\r\n"
		      "\n"
		      "  [other]\n"
		      "no_such_name = -1\n"
		      "max_ratio = 9\n"
		      "[ unit ]\n"
		      "\tsamples=40\n"
		      "[other2]\n"
		      "samples = 41\n"
		      "[unit]\n"
		      "min_rate = 5e2\n"));
	rc = run(do_parse_dump, cmd);
	ksft_test_result(rc == 0 && has(out, "max_ratio=5/config") &&
			 has(out, "samples=40/config") &&
			 has(out, "min_rate=500/config") && !*err,
			 "config sections scope names to their program\n");
}

struct bad {
	const char *what;
	const char *conf;	/* config text, or NULL */
	const char *cmd;	/* arguments */
	const char *env;	/* NAME=VALUE, or NULL */
	const char *msg;	/* expected in the one-line message */
};

static const struct bad bad_inputs[] = {
	{ "unknown global name", "nope = 1\n", "", NULL,
	  "c.conf:1: unknown parameter 'nope' for unit" },
	{ "unknown name in own section", "[unit]\n\nnope = 1\n", "", NULL,
	  "c.conf:3: unknown parameter 'nope' for unit" },
	{ "line without '='", "max_ratio 3\n", "", NULL,
	  "c.conf:1: expected 'name = value'" },
	{ "unterminated section", "[unit\n", "", NULL,
	  "c.conf:1: malformed section header" },
	{ "empty section", "[]\n", "", NULL, "malformed section header" },
	{ "bad name", "Max-Ratio = 3\n", "", NULL, "bad parameter name" },
	{ "empty value", "max_ratio =\n", "", NULL,
	  "c.conf:1: bad value '' for max_ratio" },
	{ "trailing garbage", "max_ratio = 3x\n", "", NULL,
	  "bad value '3x' for max_ratio: not a finite decimal number" },
	{ "two values", "max_ratio = 3 4\n", "", NULL, "bad value '3 4'" },
	{ "NaN", "max_ratio = nan\n", "", NULL, "bad value 'nan'" },
	{ "infinity", "max_ratio = inf\n", "", NULL, "bad value 'inf'" },
	{ "hex", "max_ratio = 0x10\n", "", NULL, "bad value '0x10'" },
	{ "overflow", "max_ratio = 1e999\n", "", NULL, "bad value '1e999'" },
	{ "negative", "max_ratio = -1\n", "", NULL,
	  "bad value '-1' for max_ratio: must not be negative" },
	{ "fractional count", "samples = 2.5\n", "", NULL,
	  "must be a whole number" },
	{ "bool not 0/1", "use_load = 2\n", "", NULL, "must be 0 or 1" },
	{ "bad env value", NULL, "", "RCU_PERF_MAX_RATIO=abc",
	  "environment RCU_PERF_MAX_RATIO: bad value 'abc' for max_ratio" },
	{ "empty env value", NULL, "", "RCU_PERF_SAMPLES=",
	  "bad value '' for samples" },
	{ "bad RCU_PERF_QUICK", NULL, "", "RCU_PERF_QUICK=yes",
	  "RCU_PERF_QUICK='yes': expected 0 or 1" },
	{ "unknown --set name", NULL, "--set nope=1", NULL,
	  "--set nope=1: unknown parameter 'nope'" },
	{ "--set without '='", NULL, "--set max_ratio", NULL,
	  "expected NAME=VALUE" },
	{ "negative --set", NULL, "-s min_rate=-5", NULL,
	  "must not be negative" },
	{ "--set NaN", NULL, "--set min_rate=NaN", NULL, "bad value 'NaN'" },
	{ "unknown option", NULL, "--frobnicate", NULL,
	  "unknown option '--frobnicate'" },
	{ "stray argument", NULL, "oops", NULL, "unknown option 'oops'" },
	{ "missing option value", NULL, "--json", NULL,
	  "option --json needs a value" },
	{ "relative knob path", NULL, "--knob sys/x=1", NULL,
	  "expected /ABSOLUTE/PATH=VALUE" },
	{ "knob without value", NULL, "--knob /sys/x", NULL,
	  "expected /ABSOLUTE/PATH=VALUE" },
	{ "knob with ..", NULL,
	  "--knob /sys/module/rcutree/parameters/../../../../etc/x=1", NULL,
	  "not a file rcu_perf may change" },
	{ "knob outside the list", NULL, "--knob /etc/shadow=x", NULL,
	  "--knob /etc/shadow: not a file rcu_perf may change" },
	{ "knob of another tracefs file", NULL,
	  "--knob /sys/kernel/tracing/set_event=x", NULL,
	  "not a file rcu_perf may change" },
	{ "17 knobs", NULL, "@17knobs", NULL, "at most 16 knobs" },
	{ "missing config file", NULL, "--config /nonexistent/rp.conf", NULL,
	  "config /nonexistent/rp.conf: No such file or directory" },
	{ "program option error", NULL, "--bad", NULL, "unit: --bad is bad" },
};

static void test_bad_inputs(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad_inputs); i++) {
		const struct bad *b = &bad_inputs[i];
		char cmd[800], *eq = NULL, env[64];
		int rc;

		snprintf(cmd, sizeof(cmd), "%s", b->cmd);
		if (!strcmp(b->cmd, "@17knobs")) {
			*cmd = '\0';
			for (int k = 0; k < 17; k++)
				strcat(cmd, "--knob /sys/kernel/rcu_normal=1 ");
		}
		if (b->conf)
			snprintf(cmd, sizeof(cmd), "--config %s %s",
				 conf("c.conf", b->conf), b->cmd);
		if (b->env) {
			snprintf(env, sizeof(env), "%s", b->env);
			eq = strchr(env, '=');
			*eq = '\0';
			setenv(env, eq + 1, 1);
		}
		rc = run(do_parse, cmd);
		if (eq)
			unsetenv(env);
		/* Exactly one line, naming the program, and nothing else. */
		ksft_test_result(rc == 2 && has(err, b->msg) &&
				 (!strncmp(err, "unit: ", 6) ||
				  !strcmp(b->what, "program option error")) &&
				 lines(err) == 1 && !*out,
				 "refused: %s\n", b->what);
	}

	/* rp_init() exits 2 on the same, before the guard or any KTAP. */
	ksft_test_result(run(do_init, "--set max_ratio=x") == 2 && !*out &&
			 has(err, "bad value 'x'"),
			 "rp_init exits 2 on bad input, prints no KTAP\n");
}

static void test_common_options(void)
{
	char cmd[200];
	bool ok;
	int rc;

	setenv("RCU_PERF_JSON", "/env.json", 1);
	setenv("RCU_PERF_OUTDIR", "/env_dir", 1);
	setenv("RCU_PERF_QUICK", "1", 1);
	rc = run(do_parse_dump, "");
	ksft_test_result(rc == 0 &&
			 has(out, "quick=1 verbose=0 json=/env.json outdir=/env_dir"),
			 "common options from the environment\n");
	snprintf(cmd, sizeof(cmd), "%s %s", "-v --json=/cli.json --outdir /cli_dir",
		 "--knob /sys/kernel/rcu_normal=1 --knob /sys/kernel/tracing/current_tracer=x=y --pair 2 3 -q");
	rc = run(do_parse_dump, cmd);
	ok = rc == 0 && has(out, "quick=1 verbose=1 json=/cli.json outdir=/cli_dir knobs=2");
	ksft_test_result(ok && has(out, "extra=5"),
			 "common and program options on the command line\n");
	unsetenv("RCU_PERF_JSON");
	unsetenv("RCU_PERF_OUTDIR");
	unsetenv("RCU_PERF_QUICK");
}

static int do_table_bug(void *what)
{
	static struct rp_param dup[] = {
		RP_MAX("a", "ms", 1, "x"), RP_MAX("a", "ms", 2, "y"), { }
	};
	static struct rp_param rsv[] = { RP_SETTING("quick", "", 1, "x"), { } };
	static struct rp_param neg[] = { RP_MAX("a", "ms", -1, "x"), { } };
	struct rp_test t = { .name = "bug", .nr_checks = 1 };
	static struct args a;

	t.params = !strcmp(what, "dup") ? dup : !strcmp(what, "rsv") ? rsv : neg;
	split(&a, "");
	return rp_parse(&t, a.argc, a.argv) ? 2 : 0;
}

static void test_table_bugs(void)
{
	ksft_test_result(run(do_table_bug, "dup") == 2 &&
			 has(err, "bug: parameter 'a' twice") &&
			 run(do_table_bug, "rsv") == 2 &&
			 has(err, "'quick' is reserved") &&
			 run(do_table_bug, "neg") == 2 &&
			 has(err, "bad default of 'a'"),
			 "mistakes in a params table are reported\n");
}

static int do_lookup(void *arg)
{
	if (do_parse(""))
		return 2;
	if (!rp_param("max_ratio") || rp_param("nope") ||
	    rp_param("max_ratio")->kind != RP_LIMIT_MAX ||
	    rp_val("samples") != 30)
		return 3;
	rp_val("nope");		/* a bug: exits */
	return 0;
}

static void test_lookup(void)
{
	int rc = run(do_lookup, NULL);

	ksft_test_result(rc == 1 && has(err, "unknown parameter 'nope'"),
			 "rp_param, rp_val; rp_val of an unknown name is fatal\n");
}

static void test_help_list(void)
{
	int rc;

	rc = run(do_init, "--help --set samples=5");
	ksft_test_result(rc == 0 && has(out, "usage: unit [options]") &&
			 has(out, "unit test of the options") &&
			 has(out, "--pair A B") && has(out, "--knob PATH=VALUE") &&
			 has(out, "min_rate") && !strstr(out, "TAP version"),
			 "--help prints usage and parameters, exits 0\n");
	rc = run(do_init, "--list --set samples=5");
	ksft_test_result(rc == 0 && has(out, "NAME") && has(out, "REASON") &&
			 has(out, "max_ratio   max     ratio         3     3 default a ceil") &&
			 has(out, "samples     setting count        30     5 cli     how many\n") &&
			 lines(out) == 7 && !strstr(out, "TAP version"),
			 "--list prints the table, exits 0\n");
	rc = run(do_init, "--help --set samples=x");
	ksft_test_result(rc == 2 && has(err, "bad value 'x'") &&
			 has(err, "usage: unit"),
			 "--help with bad input: message, usage, exit 2\n");
}

static void test_parse_double(void)
{
	static const char * const good[] = { "0", "1", "1.5", ".5", "1e3",
		"-2", "+3", "1E-3" };
	static const char * const bad[] = { "", " 1", "1 ", "nan", "inf",
		"-inf", "0x10", "1e999", "1,5", "1..2", "e", "-", "12abc" };
	bool ok = true;
	double v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		if (rp_parse_double(good[i], &v)) {
			ksft_print_msg("refused '%s'\n", good[i]);
			ok = false;
		}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (!rp_parse_double(bad[i], &v)) {
			ksft_print_msg("accepted '%s'\n", bad[i]);
			ok = false;
		}
	ok = ok && !rp_parse_double("2.5e1", &v) && v == 25;
	ksft_test_result(ok, "rp_parse_double is strict\n");
}

/* As root, parameters come only from files no one else can change. */
static void test_untrusted_config(void)
{
	char cmd[600], d[400], c[400];
	bool ok;
	int rc;

	if (geteuid()) {
		ksft_test_result_skip("config writable by others (not root)\n");
		return;
	}
	snprintf(c, sizeof(c), "%s", conf("shared.conf", "samples = 3\n"));
	chmod(c, 0666);
	snprintf(cmd, sizeof(cmd), "--config %s", c);
	rc = run(do_parse, cmd);
	ok = rc == 2 && has(err, "writable by others") && lines(err) == 1;
	chmod(c, 0644);
	ok = ok && run(do_parse, cmd) == 0;
	/* A file in a directory others may write (not sticky) neither. */
	snprintf(d, sizeof(d), "%s/shared", dir);
	mkdir(d, 0777);
	chmod(d, 0777);
	snprintf(cmd, sizeof(cmd), "%s/c.conf", d);
	rename(c, cmd);
	snprintf(cmd, sizeof(cmd), "--config %s/c.conf", d);
	rc = run(do_parse, cmd);
	ok = ok && rc == 2 && has(err, "its directory");
	ksft_test_result(ok, "as root, a config writable by others is refused\n");
}

int main(void)
{
	char tmpl[] = "/tmp/rp_test_opts.XXXXXX";
	char cmd[300];

	if (!mkdtemp(tmpl))
		ksft_exit_fail_msg("mkdtemp: %s\n", strerror(errno));
	snprintf(dir, sizeof(dir), "%s", tmpl);
	/* Only what each case sets: no config beside the binary, no env. */
	setenv("RCU_PERF_CONFIG", "", 1);
	setenv("RCU_PERF_STATE_DIR", dir, 1);
	unsetenv("RCU_PERF_QUICK");
	unsetenv("RCU_PERF_JSON");
	unsetenv("RCU_PERF_OUTDIR");
	unsetenv("KSFT_TAP_LEVEL");
	for (struct rp_param *p = params; p->name; p++) {
		char var[64];
		size_t i;

		snprintf(var, sizeof(var), "RCU_PERF_%s", p->name);
		for (i = 9; var[i]; i++)
			var[i] = var[i] >= 'a' && var[i] <= 'z' ?
				 var[i] - 'a' + 'A' : var[i];
		unsetenv(var);
	}

	ksft_print_header();
	ksft_set_plan(14 + ARRAY_SIZE(bad_inputs) + 1);
	test_defaults();
	test_precedence();
	test_sections();
	test_bad_inputs();
	test_common_options();
	test_table_bugs();
	test_lookup();
	test_help_list();
	test_parse_double();
	test_untrusted_config();

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		ksft_print_msg("could not remove %s\n", dir);
	ksft_finished();
}
