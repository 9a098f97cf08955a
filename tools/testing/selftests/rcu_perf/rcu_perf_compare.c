// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_perf_compare: is the candidate kernel worse than the baseline? Here:
 * main, the options and the report; compare.h lists the other files.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

static struct compare cmp = { .o = {
	.labels = { "baseline", "candidate" },
	.allowed_change = RP_MAX("allowed_change", "%", 10,
		"healthy runs of GP latency differ by ~5%; smaller changes are noise"),
	.alpha = RP_MIN("alpha", "p-value", 0.05,
		"a change is significant below this: 1 false alarm in 20 per metric",
		RP_RANGE(0, 1)),
	.repeat_budget = RP_SETTING("repeat_budget", "s", 600,
		"--repeat stops starting rounds after this much time"),
	.repeat_min_rounds = RP_SETTING("repeat_min_rounds", "count", 2,
		"a single run per side says nothing about run-to-run noise", RP_RANGE(1, INFINITY)),
	.repeat_max_rounds = RP_SETTING("repeat_max_rounds", "count", 10,
		"beyond this the metric is too noisy for the allowed change",
		RP_RANGE(1, INFINITY)),
	.ktap = RP_FLAG("ktap", "KTAP: one result per metric (inconclusive: SKIP)"),
	.table = RP_FLAG("table", "one row per metric: medians, change, verdict"),
	.kcidb = RP_STRING("kcidb", "FILE",
		"KCIDB v5 I/O JSON test objects to FILE ('-': stdout);\n"
		"needs --origin and --build-id"),
	.origin = RP_STRING("origin", "NAME", "KCIDB origin: the submitting CI system's name"),
	.build_id = RP_STRING("build-id", "ORIGIN:ID",
		"KCIDB id of the tested build, as its CI submitted it"),
	.run_id = RP_STRING("run-id", "ID", "unique part of KCIDB test ids (default host-time)"),
	.repeat = RP_STRING("repeat", "DIR",
		"run the commands alternately into\n"
		"DIR/{base,cand}-NN.json until conclusive"),
	.cmd = {
		RP_STRING("base-cmd", "CMD", "shell command producing a baseline run"),
		RP_STRING("cand-cmd", "CMD",
			  "shell command producing a candidate run\n"
			  "(each gets RCU_PERF_JSON=<its results file>)"),
	},
} };

static const char *add(const char **to, int *nr, const char *v, const char *full)
{
	if (*nr >= MAX_ARGS)
		return full;
	to[(*nr)++] = v;
	return NULL;
}

static const char *add_base(const char *v)
{
	return add(cmp.o.paths[BASE], &cmp.o.nr_paths[BASE], v, "too many inputs");
}

static const char *add_cand(const char *v)
{
	return add(cmp.o.paths[CAND], &cmp.o.nr_paths[CAND], v, "too many inputs");
}

static const char *add_metric(const char *v)
{
	return add(cmp.o.metric_globs, &cmp.o.nr_metric_globs, v, "too many --metric options");
}

static const char *add_allow(const char *v)
{
	const char *eq = strrchr(v, '=');
	struct allow *al;
	char *glob;

	if (cmp.o.nr_allows >= MAX_ARGS)
		return "too many --allow options";
	al = &cmp.o.allows[cmp.o.nr_allows];
	if (!eq || eq == v || rp_parse_double(eq + 1, &al->pct) || al->pct < 0)
		return "expected GLOB=PERCENT (a number >= 0)";
	glob = rp_xstrdup(v);
	glob[eq - v] = '\0';
	al->glob = glob;
	cmp.o.nr_allows++;
	return NULL;
}

/* --labels BASE,CAND: short names without blanks, for the table's header */
static const char *set_labels(const char *v)
{
	const char *comma = strchr(v, ',');
	char *b;

	if (!comma || comma == v || !comma[1] || strchr(comma + 1, ',') ||
	    strpbrk(v, " \t\n") || strlen(v) > 40)
		return "expected BASE,CAND (two short names)";
	b = rp_xstrdup(v);
	b[comma - v] = '\0';
	cmp.o.labels[BASE] = b;
	cmp.o.labels[CAND] = b + (comma - v) + 1;
	return NULL;
}

static const char *set_stat(const char *v)
{
	cmp.o.stat_set = true;
	return rp_cmp_stat_parse(v, &cmp.o.stat) ? "median, mean, p90 or p25" : NULL;
}

static struct rp_param p_base =
	RP_STRING("base", "PATH", "a baseline input (repeatable)", RP_EACH(add_base));
static struct rp_param p_cand =
	RP_STRING("cand", "PATH", "a candidate input (repeatable)", RP_EACH(add_cand));
static struct rp_param p_metric =
	RP_STRING("metric", "GLOB",
		  "only <test>.<metric> matching GLOB (repeatable)", RP_EACH(add_metric));
static struct rp_param p_allow =
	RP_STRING("allow", "GLOB=PCT",
		  "allowed change of matching metrics (repeatable,\n"
		  "the last match wins)", RP_EACH(add_allow));
static struct rp_param p_stat =
	RP_STRING("stat", "STAT",
		  "median, mean, p90 or p25 (default: a metric's own\n"
		  "\"stat\", else the median)", RP_EACH(set_stat));
static struct rp_param p_labels =
	RP_STRING("labels", "BASE,CAND", "the sides' names in the table", RP_EACH(set_labels));
static struct rp_param p_machine_key =
	RP_FLAG("machine-key", "print this machine's key, to name its baselines");

static struct rp_param *params[] = {
	&cmp.o.allowed_change, &cmp.o.alpha, &cmp.o.repeat_budget,
	&cmp.o.repeat_min_rounds, &cmp.o.repeat_max_rounds, &p_base, &p_cand,
	&p_metric, &p_allow, &p_stat, &cmp.o.ktap, &cmp.o.table, &p_labels,
	&cmp.o.kcidb, &cmp.o.origin, &cmp.o.build_id, &cmp.o.run_id,
	&p_machine_key, &cmp.o.repeat, &cmp.o.cmd[BASE], &cmp.o.cmd[CAND],
	NULL
};

static const struct rp_test test = {
	.name = PROG,
	.summary = "Before/after comparison of rcu_perf JSON results with statistics.",
	.params = params,
	.operands = &p_base,
	.operands_after = &p_cand,
	.extra_usage = "Inputs (PATH: a results file or a directory of *.json results):\n"
	"  BASE... -- CAND...     baseline and candidate results (or --base, --cand)\n"
	"  Several runs: each run's statistic is one value; else the samples.\n"
	"  Without a candidate, the inputs are summarized (or converted).\n"
	"Exit: 0 no regression, 1 regression, 2 bad usage or input,\n"
	"      3 inconclusive, 4 a --repeat command skipped.\n",
};

/* KCIDB: an origin is [a-z0-9_]+, an id "<origin>:<non-empty local id>" */
static bool kcidb_name(const char *s, bool id)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");

	return n && (id ? s[n] == ':' && s[n + 1] : !s[n]);
}

static void parse_options(int argc, char **argv)
{
	struct compare_opts *o = &cmp.o;

	if (rp_parse(&test, argc, argv))
		exit(EXIT_USAGE);
	if (rp_opts.help || rp_opts.list) {
		(rp_opts.help ? rp_usage : rp_list_params)(stdout);
		exit(0);
	}
	if (p_machine_key.value) {
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
	if (!(o->alpha.value > 0 && o->alpha.value < 1))
		die("alpha %g: must be between 0 and 1", o->alpha.value);
	/* Made-up ids would be records no CI can attach to its build. */
	if (o->kcidb.str && (!o->origin.str || !o->build_id.str))
		die("--kcidb needs --origin NAME and --build-id ORIGIN:ID");
	if (o->origin.str && !kcidb_name(o->origin.str, false))
		die("--origin %s: KCIDB origins are [a-z0-9_]+", o->origin.str);
	if (o->build_id.str && !kcidb_name(o->build_id.str, true))
		die("--build-id %s: KCIDB ids are ORIGIN:ID, ORIGIN [a-z0-9_]+", o->build_id.str);
	if (o->table.value && o->ktap.value)
		die("--table and --ktap: choose one");
	if (o->repeat.str && !o->cmd[BASE].str && !o->cmd[CAND].str)
		die("--repeat needs --base-cmd and/or --cand-cmd");
	if (!o->repeat.str && (o->cmd[BASE].str || o->cmd[CAND].str))
		die("--base-cmd/--cand-cmd need --repeat DIR");
	if (!o->repeat.str && !o->nr_paths[BASE])
		die("no %sinput (BASE... -- CAND..., or --base PATH)",
		    o->nr_paths[CAND] ? "baseline " : "");
}

static const char *verdict_of(const struct rp_rmetric *m)
{
	const struct rp_cmp *c = &m->cmp;

	if (m->report_only)
		return "reported only (it varies between runs by nature)";
	if (c->verdict == RP_CMP_INCONCLUSIVE && !isfinite(c->mde_pct))
		return "inconclusive (too few samples)";
	return rp_cmp_verdict_name(c->verdict);
}

static const char *pfx(void)
{
	return cmp.o.ktap.value ? "# " : "";
}

static void print_summary_row(const char *label, const struct rp_summary *s, int runs)
{
	printf("%s  %-9s %5zu %4d %11.5g +- %-10.4g %11.5g %11.5g %11.5g\n",
	       pfx(), label, s->n, runs, s->mean, s->stddev, s->median, s->min, s->max);
}

static void print_header(const struct rp_rmetric *m)
{
	printf("%s%s [%s, %s is better]\n", pfx(), m->key,
	       *m->unit ? m->unit : "no unit",
	       m->higher_is_better ? "higher" : "lower");
	printf("%s  %-9s %5s %4s %11s    %-10s %11s %11s %11s\n", pfx(), "",
	       "n", "runs", "mean", "stddev", "median", "min", "max");
}

/* --table: one row per metric, the way A/B results are quoted in a mail */
static void print_table_row(const struct rp_rmetric *m, int w)
{
	const struct rp_cmp *c = &m->cmp;
	char n[32];

	snprintf(n, sizeof(n), "%zu/%zu", c->a.n, c->b.n);
	printf("%-*s %-7s %11.5g %11.5g %+7.2f%% %6.4g%% %5s %7.2g  %s\n", w,
	       m->key, *m->unit ? m->unit : "-", c->va, c->vb,
	       c->change_pct, m->allowed, n, c->p, verdict_of(m));
}

static const char *ktap_name(const struct rp_rmetric *m)
{
	static char n[256];
	char *d;

	snprintf(n, sizeof(n), "%s", m->key);
	for (d = n; (d = strchr(d, '.')); d++)
		*d = '_';
	return n;
}

static void print_compared(const struct rp_rmetric *m, int *ktap_nr)
{
	const struct rp_cmp *c = &m->cmp;
	const char *skip = "", *why = "";

	print_header(m);
	print_summary_row("baseline", &c->a, m->runs[BASE]);
	print_summary_row("candidate", &c->b, m->runs[CAND]);
	printf("%s  change of the %s %+.1f %%  p %.2g (%s)  MDE %.1f %%  allowed %.4g %%: %s\n",
	       pfx(), rp_cmp_stat_name(c->stat), c->change_pct, c->p, c->test,
	       c->mde_pct, m->allowed, verdict_of(m));
	if (!cmp.o.ktap.value)
		return;
	/* The same "measured vs limit" line as every other check. */
	printf("# %s: measured %+.1f %% worse vs limit <= %.4g %% (allowed_change);",
	       ktap_name(m), (m->higher_is_better ? -1 : 1) * c->change_pct, m->allowed);
	printf(" p %.2g vs < %.4g (alpha); MDE %.1f %%\n", c->p, cmp.o.alpha.value, c->mde_pct);
	if (m->report_only) {
		skip = " # SKIP reported only: it varies between runs by nature";
	} else if (c->verdict == RP_CMP_INCONCLUSIVE) {
		skip = " # SKIP inconclusive: ";
		why = isfinite(c->mde_pct) ?
		      "the minimum detectable effect exceeds the allowed change" :
		      "fewer than 2 samples on a side";
	}
	printf("%sok %d %s%s%s\n", !m->report_only &&
	       c->verdict == RP_CMP_REGRESSED ? "not " : "", ++*ktap_nr, ktap_name(m), skip, why);
}

static int report_compare(void)
{
	struct tally t;
	int nr, ktap_nr = 0, w = 6;
	size_t i;

	compare_all(&cmp, &t);
	for (i = 0; i < cmp.r.nr_metrics; i++)
		if (selected(&cmp, cmp.r.metrics[i].key) && (int)strlen(cmp.r.metrics[i].key) > w)
			w = strlen(cmp.r.metrics[i].key);
	nr = t.n[0] + t.n[1] + t.n[2] + t.n[3] + t.reported + t.missing;
	if (!nr)
		die("no baseline samples%s", cmp.o.nr_metric_globs ?
		    " of the metrics matching --metric" : "");
	if (cmp.o.ktap.value)
		printf("TAP version 13\n1..%d\n", nr);
	printf("%s%s: %d baseline and %d candidate results files;", pfx(), PROG,
	       cmp.r.nr_files[BASE], cmp.r.nr_files[CAND]);
	printf(" allowed change %.4g %%%s, alpha %.4g, statistic %s%s\n",
	       cmp.o.allowed_change.value,
	       cmp.o.nr_allows ? " (--allow: per metric below)" : "",
	       cmp.o.alpha.value, rp_cmp_stat_name(cmp.o.stat),
	       cmp.o.stat_set ? "" : " (or the metric's own)");
	if (cmp.o.table.value)
		printf("%-*s %-7s %11s %11s %8s %7s %5s %7s  %s\n", w, "metric",
		       "unit", cmp.o.labels[BASE], cmp.o.labels[CAND], "change",
		       "allowed", "n", "p", "verdict");
	for (i = 0; i < cmp.r.nr_metrics; i++) {
		const struct rp_rmetric *m = &cmp.r.metrics[i];

		if (!selected(&cmp, m->key) || (!m->v[BASE].n && !m->v[CAND].n))
			continue;
		if (!m->v[CAND].n) {
			printf("%s%s: no candidate samples\n", pfx(), m->key);
			if (cmp.o.ktap.value)
				printf("ok %d %s # SKIP no candidate samples\n",
				       ++ktap_nr, ktap_name(m));
		} else if (!m->v[BASE].n) {
			printf("%s%s: only in the candidate (not compared)\n", pfx(), m->key);
		} else if (cmp.o.table.value) {
			print_table_row(m, w);
		} else {
			print_compared(m, &ktap_nr);
		}
	}
	printf("%sverdict: %d regressed, %d improved, %d %s, %d inconclusive, %d missing",
	       pfx(), t.n[RP_CMP_REGRESSED], t.n[RP_CMP_IMPROVED],
	       t.n[RP_CMP_SAME], rp_cmp_verdict_name(RP_CMP_SAME),
	       t.n[RP_CMP_INCONCLUSIVE], t.missing);
	if (t.reported)
		printf(", %d reported only", t.reported);
	printf("\n");
	if (cmp.o.ktap.value)
		printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n",
		       t.n[RP_CMP_SAME] + t.n[RP_CMP_IMPROVED],
		       t.n[RP_CMP_REGRESSED], t.n[RP_CMP_INCONCLUSIVE] + t.missing + t.reported);
	if (t.n[RP_CMP_REGRESSED])
		return EXIT_REGRESSED;
	return t.n[RP_CMP_INCONCLUSIVE] || t.missing ? EXIT_INCONCL : 0;
}

/* Without a candidate: the summary of each metric. */
static void report_single(void)
{
	struct rp_summary s;
	size_t i;

	printf("%s: %d results files\n", PROG, cmp.r.nr_files[BASE]);
	for (i = 0; i < cmp.r.nr_metrics; i++) {
		const struct rp_rmetric *m = &cmp.r.metrics[i];

		if (!selected(&cmp, m->key) || !m->v[BASE].n)
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

	rp_oom_exit = EXIT_USAGE;
	parse_options(argc, argv);
	for (side = 0; side < NR_SIDES; side++)
		for (i = 0; i < cmp.o.nr_paths[side]; i++)
			load_path(&cmp, cmp.o.paths[side][i], side);

	if (cmp.o.repeat.str)
		repeat_until_conclusive(&cmp);
	compare = cmp.o.repeat.str || cmp.o.nr_paths[CAND];
	if (compare)
		rc = report_compare();
	else if (!cmp.o.kcidb.str || strcmp(cmp.o.kcidb.str, "-"))
		report_single();
	if (cmp.o.kcidb.str)
		write_kcidb(&cmp, compare);
	return rc;
}
