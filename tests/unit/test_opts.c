// SPDX-License-Identifier: GPL-2.0
/*
 * Options, settings and thresholds (lib/opts.c): precedence of default,
 * config file, environment and command line; config sections; every kind
 * of bad input is refused with a one-line message, values out of a
 * parameter's range and against the program's own rules included; the
 * --quick value of a parameter not set by hand. The library keeps
 * global state and exits on bad input, so each parse runs in a child of
 * the test with its stdout and stderr captured (unit_run); nothing here
 * touches the kernel.
 */
#include <sys/stat.h>

#include "unit.h"

static struct rp_param p_max_ratio = RP_MAX("max_ratio", "ratio", 3.0, "a ceiling");
static struct rp_param p_min_rate = RP_MIN("min_rate", "ops/s", 1000, "a floor");
static struct rp_param p_samples = RP_SETTING("samples", "count", 30, "how many");
static struct rp_param p_use_load = RP_SETTING("use_load", "bool", 1, "a switch");
static struct rp_param p_period =
	RP_SETTING("period", "ms", 2.5, "a fraction is fine");
static struct rp_param p_max_jiffies =
	RP_MAX("max_jiffies", "jiffies", 20, "limits may be fractional");
static struct rp_param p_rounds =
	RP_SETTING("rounds", "count", 8, "fewer with --quick",
		   RP_QUICK(3), RP_RANGE(1, 100));

static int extra_seen;

/* Every value of --name in turn; "bad" is refused with its own reason. */
static const char *name_ok(const char *v)
{
	extra_seen++;
	return strcmp(v, "bad") ? NULL : "is bad";
}

/* Options of the program's own: a flag, a string, a directory. */
static struct rp_param p_flag = RP_FLAG("flag-x", "a flag");
static struct rp_param p_name =
	RP_STRING("name", "NAME", "a string,\nrepeatable", RP_EACH(name_ok));
static struct rp_param p_dir = RP_PATH("dir", "DIR", "a directory", RP_DIR);

static struct rp_param *params[] = {
	&p_max_ratio, &p_min_rate, &p_samples, &p_use_load, &p_flag,
	&p_period, &p_max_jiffies, &p_name, &p_rounds, &p_dir, NULL
};

/* A rule between parameters, seen after every source and --quick. */
static const char *check_params(void)
{
	return p_rounds.value * p_period.value < 5 ?
	       "rounds x period must be at least 5 ms" : NULL;
}

static const struct rp_test test = {
	.name = "unit",
	.summary = "unit test of the options",
	.params = params,
	.check_params = check_params,
	.nr_checks = 1,
	.extra_usage = "Notes: none\n",
};

/* The same, with operands: --name before "--", --dir after. */
static const struct rp_test test_operands = {
	.name = "unit",
	.params = params,
	.operands = &p_name,
	.operands_after = &p_dir,
};

/* Path of a config file in the temp dir with the given content. */
static const char *conf(const char *name, const char *text)
{
	static char path[2][400];
	static int k;
	char *p = path[k++ & 1];

	snprintf(p, 400, "%s/%s", unit_dir, name);
	if (unit_write(p, text))
		fprintf(stderr, "# cannot write %s\n", p);
	return p;
}

/* In the child: rp_opts points into argv, which must outlive the parse. */
static struct unit_args args;

/* Bad input: KSFT_FAIL, as rp_init() exits on it. */
static int do_parse(void *cmd)
{
	unit_split(&args, "unit", cmd);
	return rp_parse(&test, args.argc, args.argv) ? KSFT_FAIL : 0;
}

static int do_parse_operands(void *cmd)
{
	unit_split(&args, "unit", cmd);
	if (rp_parse(&test_operands, args.argc, args.argv))
		return KSFT_FAIL;
	printf("flag=%g name=%s dir=%s extra=%d given=%d\n", p_flag.value,
	       p_name.str ?: "-", p_dir.str ?: "-", extra_seen,
	       rp_opts.nr_given);
	return 0;
}

static int do_init(void *cmd)
{
	unit_split(&args, "unit", cmd);
	rp_init(&test, args.argc, args.argv);
	return 100;	/* not reached for --help and --list */
}

/* rp_init() prints the KTAP preamble: the values not at their default. */
static int do_init_finish(void *cmd)
{
	do_init(cmd);
	rp_finish();
	return 0;
}

/* Parse cmd; on success, print every parameter as "name=value/source". */
static int do_parse_dump(void *cmd)
{
	struct rp_param **pp;

	if (do_parse(cmd))
		return KSFT_FAIL;
	for (pp = params; *pp; pp++)
		printf("%s=%g/%s\n", (*pp)->name, (*pp)->value, (*pp)->source);
	printf("quick=%d verbose=%d json=%s outdir=%s knobs=%d extra=%d\n",
	       rp_opts.quick, rp_opts.verbose,
	       rp_opts.json_path ? rp_opts.json_path : "-",
	       rp_opts.outdir ? rp_opts.outdir : "-", rp_opts.nr_knobs,
	       extra_seen);
	printf("name=%s dir=%s\n", p_name.str ?: "-", p_dir.str ?: "-");
	return 0;
}

FIXTURE(opts) {
};

FIXTURE_SETUP(opts)
{
	ASSERT_EQ(0, unit_setup("rp_test_opts"));
}

FIXTURE_TEARDOWN(opts)
{
	unit_teardown();
	EXPECT_EQ(0, unit_leaks());
}

TEST_F(opts, defaults)
{
	ASSERT_EQ(0, unit_run(do_parse_dump, ""));
	EXPECT_HAS(unit_out, "max_ratio=3/default");
	EXPECT_HAS(unit_out, "min_rate=1000/default");
	EXPECT_HAS(unit_out, "samples=30/default");
	EXPECT_HAS(unit_out, "period=2.5/default");
	EXPECT_HAS(unit_out, "rounds=8/default");
	EXPECT_HAS(unit_out, "quick=0 verbose=0 json=- outdir=- knobs=0");
	EXPECT_STREQ("", unit_err);
}

/* Every layer: a config file, the environment, then the command line. */
static void set_layers(void)
{
	setenv("RCU_PERF_CONFIG",
	       conf("p.conf", "# every layer\nmax_ratio = 4\nmin_rate = 500\nsamples = 10\n"), 1);
	setenv("RCU_PERF_MIN_RATE", "600", 1);
	setenv("RCU_PERF_SAMPLES", "11", 1);
}

/* Each layer overrides the one before for the names it sets. */
TEST_F(opts, precedence_default_config_env_cli)
{
	set_layers();
	ASSERT_EQ(0, unit_run(do_parse_dump, "--set samples=12"));
	EXPECT_HAS(unit_out, "max_ratio=4/config");
	EXPECT_HAS(unit_out, "min_rate=600/env");
	EXPECT_HAS(unit_out, "samples=12/cli");
	EXPECT_HAS(unit_out, "use_load=1/default");
}

/* -s, --set=, and the last --set wins. */
TEST_F(opts, set_forms)
{
	char cmd[200];

	set_layers();
	snprintf(cmd, sizeof(cmd), "%s",
		 "-s samples=1 --set=samples=2 --set max_ratio=0.5 -s max_jiffies=2.5");
	ASSERT_EQ(0, unit_run(do_parse_dump, cmd));
	EXPECT_HAS(unit_out, "samples=2/cli");
	EXPECT_HAS(unit_out, "max_ratio=0.5/cli");
	EXPECT_HAS(unit_out, "max_jiffies=2.5/cli");
}

TEST_F(opts, config_option_beats_env)
{
	char cmd[600];

	set_layers();
	snprintf(cmd, sizeof(cmd), "--config %s",
		 conf("q.conf", "max_ratio = 7\n"));
	ASSERT_EQ(0, unit_run(do_parse_dump, cmd));
	EXPECT_HAS(unit_out, "max_ratio=7/config");
	EXPECT_HAS(unit_out, "min_rate=600/env");
}

/* Config sections scope names to their program. */
TEST_F(opts, sections)
{
	char cmd[600];

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
	ASSERT_EQ(0, unit_run(do_parse_dump, cmd));
	EXPECT_HAS(unit_out, "max_ratio=5/config");
	EXPECT_HAS(unit_out, "samples=40/config");
	EXPECT_HAS(unit_out, "min_rate=500/config");
	EXPECT_STREQ("", unit_err);
}

/* Bad input, one variant each: a config text, arguments, environment. */
FIXTURE(bad) {
};

FIXTURE_VARIANT(bad) {
	const char *conf;	/* config text, or NULL */
	const char *cmd;	/* arguments, or NULL */
	const char *env;	/* NAME=VALUE, or NULL */
	int knobs;		/* that many --knob options */
	const char *msg;	/* expected in the one-line message */
};

FIXTURE_SETUP(bad)
{
	ASSERT_EQ(0, unit_setup("rp_test_opts"));
}

FIXTURE_TEARDOWN(bad)
{
	unit_teardown();
	EXPECT_EQ(0, unit_leaks());
}

FIXTURE_VARIANT_ADD(bad, unknown_global_name) {
	.conf = "nope = 1\n",
	.msg = "c.conf:1: unknown parameter 'nope' (see --list)",
};

FIXTURE_VARIANT_ADD(bad, unknown_name_in_own_section) {
	.conf = "[unit]\n\nnope = 1\n",
	.msg = "c.conf:3: unknown parameter 'nope' (see --list)",
};

FIXTURE_VARIANT_ADD(bad, line_without_equals) {
	.conf = "max_ratio 3\n",
	.msg = "c.conf:1: expected 'name = value'",
};

FIXTURE_VARIANT_ADD(bad, unterminated_section) {
	.conf = "[unit\n",
	.msg = "c.conf:1: malformed section header",
};

FIXTURE_VARIANT_ADD(bad, empty_section) {
	.conf = "[]\n",
	.msg = "malformed section header",
};

FIXTURE_VARIANT_ADD(bad, bad_name) {
	.conf = "Max-Ratio = 3\n",
	.msg = "bad parameter name",
};

FIXTURE_VARIANT_ADD(bad, empty_value) {
	.conf = "max_ratio =\n",
	.msg = "c.conf:1: bad value '' for max_ratio",
};

FIXTURE_VARIANT_ADD(bad, trailing_garbage) {
	.conf = "max_ratio = 3x\n",
	.msg = "bad value '3x' for max_ratio: not a finite decimal number",
};

FIXTURE_VARIANT_ADD(bad, two_values) {
	.conf = "max_ratio = 3 4\n",
	.msg = "bad value '3 4'",
};

FIXTURE_VARIANT_ADD(bad, nan) {
	.conf = "max_ratio = nan\n",
	.msg = "bad value 'nan'",
};

FIXTURE_VARIANT_ADD(bad, infinity) {
	.conf = "max_ratio = inf\n",
	.msg = "bad value 'inf'",
};

FIXTURE_VARIANT_ADD(bad, hex) {
	.conf = "max_ratio = 0x10\n",
	.msg = "bad value '0x10'",
};

FIXTURE_VARIANT_ADD(bad, overflow) {
	.conf = "max_ratio = 1e999\n",
	.msg = "bad value '1e999'",
};

FIXTURE_VARIANT_ADD(bad, negative) {
	.conf = "max_ratio = -1\n",
	.msg = "bad value '-1' for max_ratio: must not be negative",
};

FIXTURE_VARIANT_ADD(bad, fractional_count) {
	.conf = "samples = 2.5\n",
	.msg = "must be a whole number",
};

FIXTURE_VARIANT_ADD(bad, bool_not_0_or_1) {
	.conf = "use_load = 2\n",
	.msg = "must be 0 or 1",
};

FIXTURE_VARIANT_ADD(bad, bad_env_value) {
	.env = "RCU_PERF_MAX_RATIO=abc",
	.msg = "environment RCU_PERF_MAX_RATIO: bad value 'abc' for max_ratio",
};

FIXTURE_VARIANT_ADD(bad, empty_env_value) {
	.env = "RCU_PERF_SAMPLES=",
	.msg = "bad value '' for samples",
};

FIXTURE_VARIANT_ADD(bad, bad_rcu_perf_quick) {
	.env = "RCU_PERF_QUICK=yes",
	.msg = "RCU_PERF_QUICK='yes': expected 0 or 1",
};

FIXTURE_VARIANT_ADD(bad, unknown_set_name) {
	.cmd = "--set nope=1",
	.msg = "--set nope=1: unknown parameter 'nope'",
};

FIXTURE_VARIANT_ADD(bad, set_without_equals) {
	.cmd = "--set max_ratio",
	.msg = "expected NAME=VALUE",
};

FIXTURE_VARIANT_ADD(bad, negative_set) {
	.cmd = "-s min_rate=-5",
	.msg = "must not be negative",
};

FIXTURE_VARIANT_ADD(bad, set_nan) {
	.cmd = "--set min_rate=NaN",
	.msg = "bad value 'NaN'",
};

FIXTURE_VARIANT_ADD(bad, unknown_option) {
	.cmd = "--frobnicate",
	.msg = "unknown option '--frobnicate'",
};

FIXTURE_VARIANT_ADD(bad, stray_argument) {
	.cmd = "oops",
	.msg = "unknown option 'oops'",
};

FIXTURE_VARIANT_ADD(bad, missing_option_value) {
	.cmd = "--json",
	.msg = "option --json needs a value",
};

FIXTURE_VARIANT_ADD(bad, relative_knob_path) {
	.cmd = "--knob sys/x=1",
	.msg = "expected /ABSOLUTE/PATH=VALUE",
};

FIXTURE_VARIANT_ADD(bad, knob_without_value) {
	.cmd = "--knob /sys/x",
	.msg = "expected /ABSOLUTE/PATH=VALUE",
};

FIXTURE_VARIANT_ADD(bad, knob_with_dotdot) {
	.cmd = "--knob /sys/module/rcutree/parameters/../../../../etc/x=1",
	.msg = "not a file rcu_perf may change",
};

FIXTURE_VARIANT_ADD(bad, knob_outside_the_list) {
	.cmd = "--knob /etc/shadow=x",
	.msg = "--knob /etc/shadow=x: not a file rcu_perf may change",
};

FIXTURE_VARIANT_ADD(bad, knob_of_another_tracefs_file) {
	.cmd = "--knob /sys/kernel/tracing/set_event=x",
	.msg = "not a file rcu_perf may change",
};

FIXTURE_VARIANT_ADD(bad, knobs_17) {
	.knobs = 17,
	.msg = "at most 16 knobs",
};

FIXTURE_VARIANT_ADD(bad, missing_config_file) {
	.cmd = "--config /nonexistent/rp.conf",
	.msg = "config /nonexistent/rp.conf: No such file or directory",
};

FIXTURE_VARIANT_ADD(bad, below_range_in_config) {
	.conf = "[unit]\nrounds = 0\n",
	.msg = "c.conf:2: bad value '0' for rounds: must be in 1..100",
};

FIXTURE_VARIANT_ADD(bad, above_range_in_env) {
	.env = "RCU_PERF_ROUNDS=101",
	.msg = "environment RCU_PERF_ROUNDS: bad value '101' for rounds: must be in 1..100",
};

FIXTURE_VARIANT_ADD(bad, above_range_on_cli) {
	.cmd = "--set rounds=500",
	.msg = "--set rounds=500: bad value '500' for rounds: must be in 1..100",
};

/* Within its range, still a whole number. */
FIXTURE_VARIANT_ADD(bad, fraction_in_range) {
	.cmd = "--set rounds=2.5",
	.msg = "bad value '2.5' for rounds: must be a whole number",
};

/* Each value in range, together against the program's rule. */
FIXTURE_VARIANT_ADD(bad, cross_parameter_rule) {
	.cmd = "--set period=0.5",
	.msg = "unit: rounds x period must be at least 5 ms",
};

/* The rule sees the --quick values too. */
FIXTURE_VARIANT_ADD(bad, cross_parameter_rule_with_quick) {
	.cmd = "--quick --set period=1.5",
	.msg = "unit: rounds x period must be at least 5 ms",
};

FIXTURE_VARIANT_ADD(bad, program_option_error) {
	.cmd = "--name ok --name bad",
	.msg = "unit: --name bad: is bad",
};

FIXTURE_VARIANT_ADD(bad, flag_with_value) {
	.cmd = "--flag-x=1",
	.msg = "option --flag-x takes no value",
};

FIXTURE_VARIANT_ADD(bad, string_without_value) {
	.cmd = "--name",
	.msg = "option --name needs a value",
};

FIXTURE_VARIANT_ADD(bad, empty_path) {
	.cmd = "--dir=",
	.msg = "option --dir needs a value",
};

FIXTURE_VARIANT_ADD(bad, path_not_a_directory) {
	.cmd = "--dir /nonexistent",
	.msg = "unit: --dir /nonexistent: not a directory",
};

/* Options are of the command line only: no --set, config or environment. */
FIXTURE_VARIANT_ADD(bad, option_by_set) {
	.cmd = "--set name=x",
	.msg = "unknown parameter 'name'",
};

FIXTURE_VARIANT_ADD(bad, option_abbreviated) {
	.cmd = "--nam x",
	.msg = "unknown option '--nam'",
};

/* Exactly one line, naming the program, and nothing else. */
TEST_F(bad, refused)
{
	char cmd[800] = "", env[64];
	int k;

	if (variant->cmd)
		snprintf(cmd, sizeof(cmd), "%s", variant->cmd);
	for (k = 0; k < variant->knobs; k++)
		strcat(cmd, "--knob /sys/kernel/rcu_normal=1 ");
	if (variant->conf)
		snprintf(cmd, sizeof(cmd), "--config %s %s",
			 conf("c.conf", variant->conf),
			 variant->cmd ? variant->cmd : "");
	if (variant->env) {
		char *eq;

		snprintf(env, sizeof(env), "%s", variant->env);
		eq = strchr(env, '=');
		ASSERT_NE(NULL, eq);
		*eq = '\0';
		setenv(env, eq + 1, 1);
	}
	EXPECT_EQ(KSFT_FAIL, unit_run(do_parse, cmd));
	EXPECT_HAS(unit_err, variant->msg);
	EXPECT_EQ(0, strncmp(unit_err, "unit: ", 6));
	EXPECT_EQ(1, unit_lines(unit_err));
	EXPECT_STREQ("", unit_out);
}

/* rp_init() exits 1 on the same, before the guard or any KTAP. */
TEST_F(opts, init_exits_1_on_bad_input)
{
	EXPECT_EQ(KSFT_FAIL, unit_run(do_init, "--set max_ratio=x"));
	EXPECT_STREQ("", unit_out);
	EXPECT_HAS(unit_err, "bad value 'x'");
}

TEST_F(opts, common_options_from_env)
{
	setenv("RCU_PERF_JSON", "/env.json", 1);
	setenv("RCU_PERF_OUTDIR", "/env_dir", 1);
	setenv("RCU_PERF_QUICK", "1", 1);
	ASSERT_EQ(0, unit_run(do_parse_dump, ""));
	EXPECT_HAS(unit_out, "quick=1 verbose=0 json=/env.json outdir=/env_dir");
}

/* The environment of the test above is overridden by the command line. */
TEST_F(opts, common_and_own_options_on_cli)
{
	char cmd[200];

	setenv("RCU_PERF_JSON", "/env.json", 1);
	setenv("RCU_PERF_OUTDIR", "/env_dir", 1);
	setenv("RCU_PERF_QUICK", "1", 1);
	snprintf(cmd, sizeof(cmd), "%s %s", "-v --json=/cli.json --outdir /cli_dir",
		 "--knob /sys/kernel/rcu_normal=1 --knob /sys/kernel/tracing/current_tracer=x=y --name=a --flag-x --name b --dir / -q");
	ASSERT_EQ(0, unit_run(do_parse_dump, cmd));
	EXPECT_HAS(unit_out, "quick=1 verbose=1 json=/cli.json outdir=/cli_dir knobs=2");
	EXPECT_HAS(unit_out, "extra=2");
	EXPECT_HAS(unit_out, "flag-x=1/cli");
	EXPECT_HAS(unit_out, "name=b dir=/");
	ASSERT_EQ(0, unit_run(do_parse_dump, ""));
	EXPECT_HAS(unit_out, "flag-x=0/default");
	EXPECT_HAS(unit_out, "name=- dir=-");
}

/* Operands go to one option before "--", to another after it. */
TEST_F(opts, operands)
{
	ASSERT_EQ(0, unit_run(do_parse_operands, "a --flag-x - -- /"));
	EXPECT_HAS(unit_out, "flag=1 name=- dir=/ extra=2 given=1");
	/* after "--", an option is an operand */
	EXPECT_EQ(KSFT_FAIL, unit_run(do_parse_operands, "-- / --flag-x"));
	EXPECT_HAS(unit_err, "--dir --flag-x: not a directory");
	/* Without operands in the table, one is bad usage. */
	EXPECT_EQ(KSFT_FAIL, unit_run(do_parse, "--"));
	EXPECT_HAS(unit_err, "unknown option '--'");
}

/* An RCU_PERF_<NAME> of no parameter: one line of warning, not an error. */
TEST_F(opts, unknown_environment_warned)
{
	setenv("RCU_PERF_NOPE", "1", 1);
	setenv("RCU_PERF_NAME", "x", 1);	/* an option: not from here */
	setenv("RCU_PERF_SAMPLES", "3", 1);
	setenv("RCU_PERF_STATE_DIR", "/x", 1);
	ASSERT_EQ(0, unit_run(do_parse_dump, ""));
	EXPECT_HAS(unit_out, "samples=3/env");
	EXPECT_HAS(unit_out, "name=- dir=-");
	EXPECT_HAS(unit_err, "unit: warning: not a parameter here, ignored:");
	EXPECT_HAS(unit_err, " RCU_PERF_NOPE");
	EXPECT_HAS(unit_err, " RCU_PERF_NAME");
	EXPECT_LACKS(unit_err, "SAMPLES");
	EXPECT_LACKS(unit_err, "STATE_DIR");
	EXPECT_EQ(1, unit_lines(unit_err));
	unsetenv("RCU_PERF_NOPE");
	unsetenv("RCU_PERF_NAME");
	unsetenv("RCU_PERF_SAMPLES");
	unsetenv("RCU_PERF_STATE_DIR");
}

static int do_table_bug(void *what)
{
	static struct rp_param a1 = RP_MAX("a", "ms", 1, "x");
	static struct rp_param a2 = RP_MAX("a", "ms", 2, "y");
	static struct rp_param quick = RP_SETTING("quick", "", 1, "x");
	static struct rp_param neg = RP_MAX("a", "ms", -1, "x");
	static struct rp_param out = RP_MAX("a", "ms", 0, "x", RP_RANGE(1, 2));
	static struct rp_param q = RP_SETTING("a", "count", 1, "x",
					      RP_QUICK(0.5));
	static struct rp_param e = RP_MAX("a", "ms", 1, "x", RP_RANGE(2, 1));
	static struct rp_param *dup[] = { &a1, &a2, NULL };
	static struct rp_param *rsv[] = { &quick, NULL };
	static struct rp_param *bad_def[] = { &neg, NULL };
	static struct rp_param *out_of_range[] = { &out, NULL };
	static struct rp_param *bad_quick[] = { &q, NULL };
	static struct rp_param *empty[] = { &e, NULL };
	static const struct {
		const char *what;
		struct rp_param **params;
	} tables[] = {
		{ "dup", dup }, { "rsv", rsv }, { "neg", bad_def },
		{ "out", out_of_range }, { "quick", bad_quick },
		{ "empty", empty },
	};
	struct rp_test t = { .name = "bug", .nr_checks = 1 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tables); i++)
		if (!strcmp(what, tables[i].what))
			t.params = tables[i].params;
	unit_split(&args, "unit", "");
	return rp_parse(&t, args.argc, args.argv) ? KSFT_FAIL : 0;
}

/* Mistakes in a params table are reported. */
TEST_F(opts, table_bugs)
{
	static const char * const bugs[][2] = {
		{ "dup", "bug: parameter 'a' twice" },
		{ "rsv", "'quick' is reserved" },
		{ "neg", "bad default of 'a'" },
		{ "out", "bad default of 'a'" },
		{ "quick", "bad --quick value of 'a'" },
		{ "empty", "empty range of 'a'" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bugs); i++) {
		EXPECT_EQ(KSFT_FAIL, unit_run(do_table_bug, (void *)bugs[i][0]))
			TH_LOG("%s", bugs[i][0]);
		EXPECT_HAS(unit_err, bugs[i][1]);
	}
}

static int do_handles(void *cmd)
{
	if (do_parse(cmd))
		return KSFT_FAIL;
	return p_samples.value == 12 && p_max_ratio.value == 3 &&
	       p_rounds.value == 3 && !strcmp(p_rounds.source, "quick") ? 0 : 3;
}

/* The program reads its handles: no name is looked up. */
TEST_F(opts, handles)
{
	EXPECT_EQ(0, unit_run(do_handles, "-q --set samples=12"));
}

/*
 * --quick (or RCU_PERF_QUICK=1) gives a parameter its --quick value only
 * where no source set it: a value typed by hand is never overridden.
 */
TEST_F(opts, quick_value_unless_set)
{
	ASSERT_EQ(0, unit_run(do_parse_dump, "--set period=1.5"));
	EXPECT_HAS(unit_out, "rounds=8/default");
	ASSERT_EQ(0, unit_run(do_parse_dump, "--quick"));
	EXPECT_HAS(unit_out, "rounds=3/quick");
	EXPECT_HAS(unit_out, "samples=30/default");
	ASSERT_EQ(0, unit_run(do_parse_dump, "-q --set rounds=5"));
	EXPECT_HAS(unit_out, "rounds=5/cli");
	setenv("RCU_PERF_QUICK", "1", 1);
	ASSERT_EQ(0, unit_run(do_parse_dump, ""));
	EXPECT_HAS(unit_out, "rounds=3/quick");
	setenv("RCU_PERF_ROUNDS", "6", 1);
	ASSERT_EQ(0, unit_run(do_parse_dump, ""));
	EXPECT_HAS(unit_out, "rounds=6/env");
	unsetenv("RCU_PERF_ROUNDS");
	setenv("RCU_PERF_CONFIG", conf("r.conf", "rounds = 8\n"), 1);
	ASSERT_EQ(0, unit_run(do_parse_dump, ""));
	EXPECT_HAS(unit_out, "rounds=8/config");
}

/* The KTAP preamble says which values --quick chose. */
TEST_F(opts, quick_value_printed)
{
	ASSERT_EQ(0, unit_run(do_init_finish, "--quick --set samples=4"));
	EXPECT_HAS(unit_out, "# rounds = 3 count (--quick)\n");
	EXPECT_HAS(unit_out, "# samples = 4 count (--set)\n");
	EXPECT_LACKS(unit_out, "# max_ratio");
}

/* --help prints usage and parameters, exits 0. */
TEST_F(opts, help)
{
	ASSERT_EQ(0, unit_run(do_init, "--help --set samples=5"));
	EXPECT_HAS(unit_out, "usage: unit [options]");
	EXPECT_HAS(unit_out, "unit test of the options");
	EXPECT_HAS(unit_out, "Options of unit:\n  --flag-x               a flag\n");
	EXPECT_HAS(unit_out, "  --name NAME            a string,\n"
		   "                         repeatable\n");
	EXPECT_HAS(unit_out, "Notes: none\n");
	EXPECT_HAS(unit_out, "--knob PATH=VALUE");
	EXPECT_HAS(unit_out, "min_rate");
	EXPECT_HAS(unit_out, "Exit: 0 pass, 1 fail or bad usage, 4 skip.");
	EXPECT_LACKS(unit_out, "TAP version");
}

/* --list prints the table, exits 0. */
TEST_F(opts, list)
{
	ASSERT_EQ(0, unit_run(do_init, "--list --set samples=5"));
	EXPECT_HAS(unit_out, "NAME");
	EXPECT_HAS(unit_out, "REASON");
	EXPECT_HAS(unit_out,
		   "NAME        KIND    UNIT    DEFAULT QUICK  RANGE VALUE SOURCE  REASON\n");
	EXPECT_HAS(unit_out,
		   "max_ratio   max     ratio         3     -      -     3 default a ceil");
	EXPECT_HAS(unit_out,
		   "samples     setting count        30     -      -     5 cli     how many\n");
	EXPECT_HAS(unit_out,
		   "rounds      setting count         8     3 1..100     8 default fewer with --quick\n");
	EXPECT_EQ(8, unit_lines(unit_out));
	EXPECT_LACKS(unit_out, "TAP version");
}

/* With --quick, --list shows the values that apply, and why. */
TEST_F(opts, list_quick)
{
	ASSERT_EQ(0, unit_run(do_init, "--list --quick"));
	EXPECT_HAS(unit_out,
		   "rounds      setting count         8     3 1..100     3 quick   fewer");
	EXPECT_HAS(unit_out,
		   "samples     setting count        30     -      -    30 default how many\n");
}

/* --help with bad input: message, usage, exit 1. */
TEST_F(opts, help_with_bad_input)
{
	EXPECT_EQ(KSFT_FAIL, unit_run(do_init, "--help --set samples=x"));
	EXPECT_HAS(unit_err, "bad value 'x'");
	EXPECT_HAS(unit_err, "usage: unit");
}

/* rp_parse_double is strict. */
TEST_F(opts, parse_double)
{
	static const char * const good[] = { "0", "1", "1.5", ".5", "1e3",
		"-2", "+3", "1E-3" };
	static const char * const bad[] = { "", " 1", "1 ", "nan", "inf",
		"-inf", "0x10", "1e999", "1,5", "1..2", "e", "-", "12abc" };
	double v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		EXPECT_EQ(0, rp_parse_double(good[i], &v))
			TH_LOG("refused '%s'", good[i]);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_NE(0, rp_parse_double(bad[i], &v))
			TH_LOG("accepted '%s'", bad[i]);
	}
	ASSERT_EQ(0, rp_parse_double("2.5e1", &v));
	EXPECT_EQ(25, v);
}

/* As root, parameters come only from files no one else can change. */
TEST_F(opts, untrusted_config)
{
	char cmd[600], d[400], c[400];

	if (geteuid())
		SKIP(return, "config writable by others (not root)");
	snprintf(c, sizeof(c), "%s", conf("shared.conf", "samples = 3\n"));
	chmod(c, 0666);
	snprintf(cmd, sizeof(cmd), "--config %s", c);
	EXPECT_EQ(KSFT_FAIL, unit_run(do_parse, cmd));
	EXPECT_HAS(unit_err, "writable by others");
	EXPECT_EQ(1, unit_lines(unit_err));
	chmod(c, 0644);
	EXPECT_EQ(0, unit_run(do_parse, cmd));
	/* A file in a directory others may write (not sticky) neither. */
	snprintf(d, sizeof(d), "%s/shared", unit_dir);
	mkdir(d, 0777);
	chmod(d, 0777);
	snprintf(cmd, sizeof(cmd), "%s/c.conf", d);
	ASSERT_EQ(0, rename(c, cmd));
	snprintf(cmd, sizeof(cmd), "--config %s/c.conf", d);
	EXPECT_EQ(KSFT_FAIL, unit_run(do_parse, cmd));
	EXPECT_HAS(unit_err, "its directory");
}

TEST_HARNESS_MAIN
