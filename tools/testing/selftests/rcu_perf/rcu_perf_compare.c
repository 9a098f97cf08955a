// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_perf_compare: is the candidate kernel worse than the baseline?
 *
 * Every RCU performance regression found so far was a before/after
 * comparison judged by hand in a mail: with and without a commit (three
 * runs each), with and without a boot option (one boot each), with and
 * without dcache_rcu (five to eight runs each). This tool makes it one
 * command with a verdict a bot can act on. Each metric ("<test>.<metric>")
 * is judged over all results files of a side: with three or more runs in
 * all by rp_compare_runs() (each run's statistic is one value: runs of one
 * kernel differ by more than their samples say), one run a side on the raw
 * samples by rp_compare_stat() (the verdict shared with boot_ab):
 * regressed only when the change is significant (p < alpha) AND worse than
 * the metric's allowed change; "no significant change" only when the test
 * could have seen the allowed change (minimum detectable effect); else
 * inconclusive.
 *
 *	rcu_perf_compare [options] BASE... -- CAND...
 *	rcu_perf_compare [options] --base PATH... --cand PATH...
 *	rcu_perf_compare --repeat DIR --base-cmd CMD --cand-cmd CMD [options]
 *	rcu_perf_compare --svg DIR [PATH...]	(plots; default input: DIR)
 *	rcu_perf_compare --kcidb FILE [PATH...]	(KCIDB v4 test objects)
 *	rcu_perf_compare --machine-key		(names baselines/<key>/)
 *
 * PATH is a results file or a directory of them (*.json). Exit status:
 * 0 no regression, 1 a regression, 2 bad usage or input, 3 inconclusive
 * (4: a --repeat command skipped).
 *
 * This file: main, the options, the comparison and its report. Reading
 * the results files, --kcidb, --svg and --repeat have a file each
 * (compare.h lists them).
 */
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

/* Shared with compare_*.c through compare.h. */
struct rp_param p_allowed_change =
	RP_MAX("allowed_change", "%", 10,
	       "healthy runs of GP latency differ by ~5%; smaller changes are noise");
struct rp_param p_alpha =
	RP_MIN("alpha", "p-value", 0.05,
	       "a change is significant below this: 1 false alarm in 20 per metric",
	       RP_RANGE(0, 1));
struct rp_param p_repeat_budget =
	RP_SETTING("repeat_budget", "s", 600,
		   "--repeat stops starting rounds after this much time");
struct rp_param p_repeat_min_rounds =
	RP_SETTING("repeat_min_rounds", "count", 2,
		   "a single run per side says nothing about run-to-run noise",
		   RP_RANGE(1, INFINITY));
struct rp_param p_repeat_max_rounds =
	RP_SETTING("repeat_max_rounds", "count", 10,
		   "beyond this the metric is too noisy for the allowed change",
		   RP_RANGE(1, INFINITY));

static struct rp_param *params[] = {
	&p_allowed_change, &p_alpha, &p_repeat_budget, &p_repeat_min_rounds,
	&p_repeat_max_rounds, NULL
};

struct compare_opts opts = {
	.origin = "rcu_perf", .labels = { "baseline", "candidate" },
};

__printf(1, 2) __noreturn void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		die("out of memory");
	return d;
}

/* ------------------------------------------------------------------ */
/* Options                                                             */
/* ------------------------------------------------------------------ */

static const char usage_text[] =
	"Inputs (PATH: a results file or a directory of *.json results):\n"
	"  BASE... -- CAND...     baseline and candidate results\n"
	"  --base PATH            a baseline input (repeatable)\n"
	"  --cand PATH            a candidate input (repeatable)\n"
	"  Three or more runs in all: each run's statistic is one value, compared\n"
	"  by Welch's test (one run against several: Student's prediction\n"
	"  interval); runs differ by more than their samples. One run a side:\n"
	"  its samples are compared.\n"
	"  Without a candidate, the inputs are summarized (or plotted, converted).\n"
	"Selection and limits:\n"
	"  --metric GLOB          only metrics whose <test>.<metric> matches\n"
	"                         (fnmatch, repeatable)\n"
	"  --allow GLOB=PCT       allowed change for matching metrics (overrides\n"
	"                         allowed_change; repeatable, the last match wins)\n"
	"  --stat STAT            the statistic compared: median (default), mean\n"
	"                         (what a loop of operations feels), p90 (the tail)\n"
	"                         or p25; without it, a metric's own \"stat\"\n"
	"                         (gp_throttle's tracer.idle: p25) or the median\n"
	"Output:\n"
	"  --ktap                 KTAP: one result per metric (inconclusive: SKIP)\n"
	"  --table                one row per metric: medians, change, verdict\n"
	"  --labels BASE,CAND     the sides' names in the table (default\n"
	"                         baseline,candidate)\n"
	"  --kcidb FILE           KCIDB v4 I/O JSON test objects to FILE ('-': stdout)\n"
	"  --origin NAME          KCIDB origin (default rcu_perf)\n"
	"  --build-id ID          KCIDB build_id (default <origin>:<kernel release>)\n"
	"  --run-id ID            unique part of KCIDB test ids (default host-time)\n"
	"  --svg DIR              SVG plots into DIR (input DIR if no other input)\n"
	"  --machine-key          print this machine's key (CPU model and count, HZ,\n"
	"                         preemption model): \"make baseline\" records runs\n"
	"                         into baselines/<key>/\n"
	"Repeating until conclusive:\n"
	"  --repeat DIR           run the commands alternately, results in\n"
	"                         DIR/{base,cand}-NN.json (kept, appended to),\n"
	"                         until no metric is inconclusive or the budget ends\n"
	"  --base-cmd CMD         shell command producing a baseline run\n"
	"  --cand-cmd CMD         shell command producing a candidate run\n"
	"                         (each gets RCU_PERF_JSON=<its results file>)\n"
	"Exit: 0 no regression, 1 regression, 2 bad usage or input,\n"
	"      3 inconclusive, 4 a --repeat command skipped.\n";

/* "--opt VALUE" or "--opt=VALUE" at argv[i]; NULL if not @opt. */
static const char *opt_val(int argc, char **argv, int i, const char *opt,
			   int *used)
{
	const char *a = argv[i];
	size_t n = strlen(opt);

	if (!strncmp(a, opt, n) && a[n] == '=') {
		*used = 1;
		return a + n + 1;
	}
	if (strcmp(a, opt))
		return NULL;
	if (i + 1 >= argc)
		die("option %s needs a value", opt);
	*used = 2;
	return argv[i + 1];
}

static void add_path(int side, const char *p)
{
	if (opts.nr_paths[side] >= MAX_ARGS)
		die("too many inputs");
	opts.paths[side][opts.nr_paths[side]++] = p;
}

/* --allow GLOB=PCT */
static void add_allow(const char *v)
{
	const char *eq = strrchr(v, '=');
	struct allow *al;
	char *glob;

	if (opts.nr_allows >= MAX_ARGS)
		die("too many --allow options");
	al = &opts.allows[opts.nr_allows];
	if (!eq || eq == v || rp_parse_double(eq + 1, &al->pct) || al->pct < 0)
		die("--allow %s: expected GLOB=PERCENT (a number >= 0)", v);
	glob = xstrdup(v);
	glob[eq - v] = '\0';
	al->glob = glob;
	opts.nr_allows++;
}

/* --labels BASE,CAND: short names without blanks, for the table's header */
static void set_labels(const char *v)
{
	const char *comma = strchr(v, ',');
	char *b;

	if (!comma || comma == v || !comma[1] || strchr(comma + 1, ',') ||
	    strpbrk(v, " \t\n") || strlen(v) > 40)
		die("--labels %s: expected BASE,CAND (two short names)", v);
	b = xstrdup(v);
	b[comma - v] = '\0';
	opts.labels[BASE] = b;
	opts.labels[CAND] = b + (comma - v) + 1;
}

/* Options with a value, in the order of vopt_name[]. */
enum {
	VO_BASE, VO_CAND, VO_METRIC, VO_ALLOW, VO_KCIDB, VO_ORIGIN,
	VO_BUILD_ID, VO_RUN_ID, VO_SVG, VO_REPEAT, VO_BASE_CMD, VO_CAND_CMD,
	VO_LABELS, VO_STAT, NR_VOPTS,
};

static const char * const vopt_name[NR_VOPTS] = {
	"--base", "--cand", "--metric", "--allow", "--kcidb", "--origin",
	"--build-id", "--run-id", "--svg", "--repeat", "--base-cmd",
	"--cand-cmd", "--labels", "--stat",
};

static int extra_opt(int argc, char **argv, int i, int *used)
{
	const char *a = argv[i], *v = NULL;
	int k;

	*used = 1;
	if (opts.after_dashdash) {
		add_path(CAND, a);
		return 1;
	}
	if (!strcmp(a, "--")) {
		opts.after_dashdash = true;
		return 1;
	}
	if (a[0] != '-' || !a[1]) {
		add_path(BASE, a);
		return 1;
	}
	if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
		opts.help = true;
		return 1;
	}
	if (!strcmp(a, "--list")) {
		opts.list = true;
		return 1;
	}
	if (!strcmp(a, "--machine-key")) {
		opts.machine_key = true;
		return 1;
	}
	if (!strcmp(a, "--ktap")) {
		opts.ktap = true;
		return 1;
	}
	if (!strcmp(a, "--table")) {
		opts.table = true;
		return 1;
	}
	for (k = 0; k < NR_VOPTS; k++) {
		v = opt_val(argc, argv, i, vopt_name[k], used);
		if (v)
			break;
	}
	switch (k) {
	case VO_BASE:
		add_path(BASE, v);
		break;
	case VO_CAND:
		add_path(CAND, v);
		break;
	case VO_METRIC:
		if (opts.nr_metric_globs >= MAX_ARGS)
			die("too many --metric options");
		opts.metric_globs[opts.nr_metric_globs++] = v;
		break;
	case VO_ALLOW:
		add_allow(v);
		break;
	case VO_KCIDB:
		opts.kcidb = v;
		break;
	case VO_ORIGIN:
		opts.origin = v;
		break;
	case VO_BUILD_ID:
		opts.build_id = v;
		break;
	case VO_RUN_ID:
		opts.run_id = v;
		break;
	case VO_SVG:
		opts.svg_dir = v;
		break;
	case VO_REPEAT:
		opts.repeat_dir = v;
		break;
	case VO_BASE_CMD:
		opts.cmd[BASE] = v;
		break;
	case VO_CAND_CMD:
		opts.cmd[CAND] = v;
		break;
	case VO_LABELS:
		set_labels(v);
		break;
	case VO_STAT:
		if (rp_cmp_stat_parse(v, &opts.stat))
			die("--stat %s: median, mean, p90 or p25", v);
		opts.stat_set = true;
		break;
	default:
		return 0;	/* a common option, or unknown */
	}
	return 1;
}

static const struct rp_test test = {
	.name = PROG,
	.summary = "Before/after comparison of rcu_perf JSON results with statistics.",
	.params = params,
	.extra_usage = usage_text,
	.extra_opt = extra_opt,
};

static bool valid_origin(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= '0' && *s <= '9') &&
		    *s != '_')
			return false;
	return true;
}

static void parse_options(int argc, char **argv)
{
	double alpha;

	if (rp_parse(&test, argc, argv))
		exit(EXIT_USAGE);
	if (opts.help) {
		rp_usage(stdout);
		exit(0);
	}
	if (opts.list) {
		rp_list_params(stdout);
		exit(0);
	}
	if (opts.machine_key) {
		char key[256];

		if (rp_machine_key(key, sizeof(key)))
			die("cannot name this machine");
		printf("%s\n", key);
		exit(0);
	}
	if (rp_opts.nr_knobs)
		die("--knob: the comparison changes nothing in the kernel; %s",
		    "give it to the program in --base-cmd/--cand-cmd");
	if (rp_opts.baseline && !strcmp(rp_opts.baseline_from, "--baseline"))
		die("--baseline %s: the baseline's results are inputs here: --base %s",
		    rp_opts.baseline, rp_opts.baseline);
	alpha = p_alpha.value;
	if (!(alpha > 0 && alpha < 1))
		die("alpha %g: must be between 0 and 1", alpha);
	if (!valid_origin(opts.origin))
		die("--origin %s: KCIDB origins are [a-z0-9_]+", opts.origin);
	if (opts.build_id && !strchr(opts.build_id, ':'))
		die("--build-id %s: KCIDB ids are <origin>:<anything>", opts.build_id);
	if (opts.table && opts.ktap)
		die("--table and --ktap: choose one");
	if (opts.repeat_dir && !opts.cmd[BASE] && !opts.cmd[CAND])
		die("--repeat needs --base-cmd and/or --cand-cmd");
	if (!opts.repeat_dir && (opts.cmd[BASE] || opts.cmd[CAND]))
		die("--base-cmd/--cand-cmd need --repeat DIR");
	if (!opts.repeat_dir && !opts.nr_paths[BASE] && !opts.nr_paths[CAND]) {
		if (!opts.svg_dir)
			die("no input (see --help)");
		add_path(BASE, opts.svg_dir);
	}
	if (!opts.repeat_dir && !opts.nr_paths[BASE])
		die("no baseline input (BASE... -- CAND..., or --base PATH)");
}

/* --metric: the metrics (and, for --kcidb, the checks) to look at */
bool selected(const char *key)
{
	int i;

	if (!opts.nr_metric_globs)
		return true;
	for (i = 0; i < opts.nr_metric_globs; i++)
		if (!fnmatch(opts.metric_globs[i], key, 0))
			return true;
	return false;
}

static double allowed_for(const char *key)
{
	double pct = p_allowed_change.value;
	int i;

	for (i = 0; i < opts.nr_allows; i++)
		if (!fnmatch(opts.allows[i].glob, key, 0))
			pct = opts.allows[i].pct;
	return pct;
}

/* ------------------------------------------------------------------ */
/* Comparing and the table                                             */
/* ------------------------------------------------------------------ */

void compare_all(struct tally *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < nr_metrics; i++) {
		struct metric *m = &metrics[i];
		enum rp_cmp_stat st = opts.stat_set || !m->has_stat ?
				      opts.stat : m->stat;

		m->compared = false;
		if (!selected(m->key) || !m->v[BASE].n)
			continue;
		if (!m->v[CAND].n) {
			t->missing++;
			continue;
		}
		m->allowed = allowed_for(m->key);
		/* several runs: the run is the unit, not the sample */
		if (m->runs[BASE] + m->runs[CAND] >= 3)
			rp_compare_runs(m->v[BASE].v, m->run_n[BASE],
					m->runs[BASE], m->v[CAND].v,
					m->run_n[CAND], m->runs[CAND],
					st, m->higher_is_better,
					m->allowed, p_alpha.value, &m->cmp);
		else
			rp_compare_stat(m->v[BASE].v, m->v[BASE].n,
					m->v[CAND].v, m->v[CAND].n, st,
					m->higher_is_better, m->allowed,
					p_alpha.value, &m->cmp);
		m->compared = true;
		if (m->report_only)
			t->reported++;
		else
			t->n[m->cmp.verdict]++;
	}
}

/* What the tool says of a compared metric. */
static const char *verdict_of(const struct metric *m)
{
	const struct rp_cmp *c = &m->cmp;

	if (m->report_only)
		return "reported only (it varies between runs by nature)";
	if (c->verdict == RP_CMP_INCONCLUSIVE && !isfinite(c->mde_pct))
		return "inconclusive (too few samples)";
	return rp_cmp_verdict_name(c->verdict);
}

static int exit_code(const struct tally *t)
{
	if (t->n[RP_CMP_REGRESSED])
		return EXIT_REGRESSED;
	if (t->n[RP_CMP_INCONCLUSIVE] || t->missing)
		return EXIT_INCONCL;
	return 0;
}

const char *pfx(void)
{
	return opts.ktap ? "# " : "";
}

static void print_summary_row(const char *label, const struct rp_summary *s,
			      int runs)
{
	printf("%s  %-9s %5zu %4d %11.5g +- %-10.4g %11.5g %11.5g %11.5g\n",
	       pfx(), label, s->n, runs, s->mean, s->stddev, s->median, s->min,
	       s->max);
}

static void print_header(const struct metric *m)
{
	printf("%s%s [%s, %s is better]\n", pfx(), m->key,
	       *m->unit ? m->unit : "no unit",
	       m->higher_is_better ? "higher" : "lower");
	printf("%s  %-9s %5s %4s %11s    %-10s %11s %11s %11s\n", pfx(), "",
	       "n", "runs", "mean", "stddev", "median", "min", "max");
}

/*
 * --table: one row per metric, the medians of both sides and the change
 * between them, the way A/B results are quoted in a mail.
 */
static int key_width(void)
{
	int w = 6;
	size_t i;

	for (i = 0; i < nr_metrics; i++)
		if (selected(metrics[i].key) && (int)strlen(metrics[i].key) > w)
			w = strlen(metrics[i].key);
	return w;
}

static void print_table_header(int w)
{
	printf("%-*s %-7s %11s %11s %8s %7s %5s %7s  %s\n", w, "metric", "unit",
	       opts.labels[BASE], opts.labels[CAND], "change", "allowed", "n",
	       "p", "verdict");
}

static void print_table_row(const struct metric *m, int w)
{
	const struct rp_cmp *c = &m->cmp;
	char n[32];

	snprintf(n, sizeof(n), "%zu/%zu", c->a.n, c->b.n);
	printf("%-*s %-7s %11.5g %11.5g %+7.2f%% %6.4g%% %5s %7.2g  %s\n", w,
	       m->key, *m->unit ? m->unit : "-", c->va, c->vb,
	       c->change_pct, m->allowed, n, c->p, verdict_of(m));
}

static void print_compared(const struct metric *m, int *ktap_nr)
{
	const struct rp_cmp *c = &m->cmp;

	print_header(m);
	print_summary_row("baseline", &c->a, m->runs[BASE]);
	print_summary_row("candidate", &c->b, m->runs[CAND]);
	printf("%s  change of the %s %+.1f %%  p %.2g (%s)  MDE %.1f %%  allowed %.4g %%: %s\n",
	       pfx(), rp_cmp_stat_name(c->stat), c->change_pct, c->p, c->test,
	       c->mde_pct, m->allowed, verdict_of(m));
	if (!opts.ktap)
		return;
	/* The same "measured vs limit" line as every other check. */
	printf("# %s: measured %+.1f %% worse vs limit <= %.4g %% (allowed_change);",
	       m->key, (m->higher_is_better ? -1 : 1) * c->change_pct,
	       m->allowed);
	printf(" p %.2g vs < %.4g (alpha); MDE %.1f %%\n", c->p, p_alpha.value,
	       c->mde_pct);
	++*ktap_nr;
	if (m->report_only) {
		printf("ok %d %s # SKIP reported only: it varies between runs by nature\n",
		       *ktap_nr, m->key);
		return;
	}
	switch (c->verdict) {
	case RP_CMP_REGRESSED:
		printf("not ok %d %s\n", *ktap_nr, m->key);
		break;
	case RP_CMP_INCONCLUSIVE:
		printf("ok %d %s # SKIP inconclusive: %s\n", *ktap_nr, m->key,
		       isfinite(c->mde_pct) ?
		       "the minimum detectable effect exceeds the allowed change" :
		       "fewer than 2 samples on a side");
		break;
	default:
		printf("ok %d %s\n", *ktap_nr, m->key);
	}
}

int report_compare(void)
{
	struct tally t;
	int nr = 0, ktap_nr = 0, w = key_width();
	size_t i;

	compare_all(&t);
	for (i = 0; i < nr_metrics; i++)
		if (selected(metrics[i].key) && metrics[i].v[BASE].n)
			nr++;
	if (!nr)
		die("no baseline samples%s", opts.nr_metric_globs ?
		    " of the metrics matching --metric" : "");
	if (opts.ktap)
		printf("TAP version 13\n1..%d\n", nr);
	printf("%s%s: %d baseline and %d candidate results files;", pfx(), PROG,
	       nr_files[BASE], nr_files[CAND]);
	printf(" allowed change %.4g %%%s, alpha %.4g, statistic %s%s\n",
	       p_allowed_change.value,
	       opts.nr_allows ? " (--allow: per metric below)" : "",
	       p_alpha.value, rp_cmp_stat_name(opts.stat),
	       opts.stat_set ? "" : " (or the metric's own)");
	if (opts.table)
		print_table_header(w);
	for (i = 0; i < nr_metrics; i++) {
		const struct metric *m = &metrics[i];

		if (!selected(m->key))
			continue;
		if (m->compared && opts.table) {
			print_table_row(m, w);
		} else if (m->compared) {
			print_compared(m, &ktap_nr);
		} else if (m->v[BASE].n) {
			printf("%s%s: no candidate samples\n", pfx(), m->key);
			if (opts.ktap)
				printf("ok %d %s # SKIP no candidate samples\n",
				       ++ktap_nr, m->key);
		} else if (m->v[CAND].n) {
			printf("%s%s: only in the candidate (not compared)\n",
			       pfx(), m->key);
		}
	}
	printf("%sverdict: %d regressed, %d improved, %d %s, %d inconclusive, %d missing",
	       pfx(), t.n[RP_CMP_REGRESSED], t.n[RP_CMP_IMPROVED],
	       t.n[RP_CMP_SAME], rp_cmp_verdict_name(RP_CMP_SAME),
	       t.n[RP_CMP_INCONCLUSIVE], t.missing);
	if (t.reported)
		printf(", %d reported only", t.reported);
	printf("\n");
	if (opts.ktap)
		printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n",
		       t.n[RP_CMP_SAME] + t.n[RP_CMP_IMPROVED],
		       t.n[RP_CMP_REGRESSED],
		       t.n[RP_CMP_INCONCLUSIVE] + t.missing + t.reported);
	return exit_code(&t);
}

/* Without a candidate: the summary of each metric. */
static void report_single(void)
{
	struct rp_summary s;
	size_t i;

	printf("%s: %d results files\n", PROG, nr_files[BASE]);
	for (i = 0; i < nr_metrics; i++) {
		const struct metric *m = &metrics[i];

		if (!selected(m->key) || !m->v[BASE].n)
			continue;
		rp_summarize(m->v[BASE].v, m->v[BASE].n, &s);
		print_header(m);
		print_summary_row("results", &s, m->runs[BASE]);
	}
}

int main(int argc, char **argv)
{
	int side, i, rc = 0;
	bool compare;

	parse_options(argc, argv);
	for (side = 0; side < NR_SIDES; side++)
		for (i = 0; i < opts.nr_paths[side]; i++)
			load_path(opts.paths[side][i], side);

	if (opts.repeat_dir) {
		rc = repeat_until_conclusive();
		compare = true;
	} else {
		compare = opts.nr_paths[CAND] > 0;
		if (compare)
			rc = report_compare();
		else if (!opts.kcidb || strcmp(opts.kcidb, "-"))
			report_single();
	}
	if (opts.kcidb)
		write_kcidb(compare);
	if (opts.svg_dir)
		write_svg(compare ? 2 : 1);
	return rc;
}
