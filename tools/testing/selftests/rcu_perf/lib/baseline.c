// SPDX-License-Identifier: GPL-2.0
/*
 * Checks against earlier results of known-good kernels on the same machine:
 * a limit that must hold on every machine has room in which a regression of
 * a few percent hides; earlier runs of this machine leave it none.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../kselftest.h"
#include "internal.h"

static struct {
	char **check;		/* of rp_test.baseline[i]: "<it>_vs_baseline" */
	size_t nr;
	struct rp_results res;	/* this program's results files: side 0 */
	char **boots;		/* their boot ids, with baseline_per_boot */
	size_t nr_boots;
	int same_boot;		/* files passed over: a boot already seen */
	char *why;		/* not usable: why; NULL if usable */
	char first[32], last[32];	/* timestamps of the runs */
	const struct rp_param *change, *alpha;	/* RP_BASELINE_*, by name */
	double drift;		/* baseline_shared_drift: the largest spread */
	char drift_why[96];	/* and whose */
	double host;		/* baseline_control: % it lost in this run */
} bl;

/* The first reason the baseline cannot be used wins. */
static __printf(1, 2) void unusable(const char *fmt, ...)
{
	va_list ap;

	if (bl.why)
		return;
	va_start(ap, fmt);
	bl.why = rp_vformat_line(fmt, ap);
	va_end(ap);
}

static const char *jstr(const struct rp_jval *obj, const char *key)
{
	const struct rp_jval *v = rp_json_get(obj, key);

	return v && v->type == RP_JSTR ? v->str : NULL;
}

static double jnum(const struct rp_jval *obj, const char *key)
{
	const struct rp_jval *v = rp_json_get(obj, key);

	return v && v->type == RP_JNUM ? v->num : NAN;
}

/* A machine-shaping boot parameter of @a missing from @b, or NULL. */
static const char *cmdline_extra(const struct rp_jval *a, const struct rp_jval *b)
{
	size_t i, j;

	for (i = 0; a && a->type == RP_JARR && i < a->len; i++) {
		const char *t = a->items[i]->type == RP_JSTR ? a->items[i]->str : NULL;
		bool found = false;

		/* RCU's own parameters are the behaviour under test */
		if (!t || !strncmp(t, "rcupdate.", 9) ||
		    !strncmp(t, "rcutree.", 8) || !strncmp(t, "srcutree.", 9))
			continue;
		for (j = 0; b && b->type == RP_JARR && j < b->len && !found; j++)
			found = b->items[j]->type == RP_JSTR && !strcmp(b->items[j]->str, t);
		if (!found)
			return t;
	}
	return NULL;
}

/* A config symbol of @a whose value differs in @b (absent: "n"), or NULL. */
static const char *config_diff(const struct rp_jval *a,
			       const struct rp_jval *b, const char **va, const char **vb)
{
	size_t i;

	for (i = 0; a && a->type == RP_JOBJ && i < a->len; i++) {
		const char *x = a->items[i]->type == RP_JSTR ? a->items[i]->str : "?";
		const char *y = jstr(b, a->keys[i]);

		if (strcmp(x, y ? y : "n")) {
			*va = x;
			*vb = y ? y : "n";
			return a->keys[i];
		}
	}
	return NULL;
}

static bool config_known(const struct rp_jval *c)
{
	return c && c->type == RP_JOBJ && c->len;
}

const char *rp_baseline_mismatch(const struct rp_jval *base_doc,
				 const struct rp_jval *cur, char *why, size_t len)
{
	static const char * const strs[] = { "machine", "cpu_model" };
	static const char * const nums[] = { "nr_cpus_online", "hz" };
	const struct rp_jval *bs = rp_json_get(base_doc, "system");
	const struct rp_jval *cs = rp_json_get(cur, "system");
	const struct rp_jval *bc = rp_json_get(bs, "config");
	const struct rp_jval *cc = rp_json_get(cs, "config");
	const char *sym, *va, *vb, *t;
	double bv = jnum(base_doc, "suite_version");
	double cv = jnum(cur, "suite_version");
	size_t i;

	if (bv != cv && isnan(bv))
		return rp_why(why, len, "recorded by an older suite (this is version %g)", cv);
	if (bv != cv)
		return rp_why(why, len, "suite_version %g, this is %g", bv, cv);
	if (!bs || bs->type != RP_JOBJ)
		return rp_why(why, len, "no \"system\" facts recorded");
	for (i = 0; i < ARRAY_SIZE(strs); i++) {
		const char *x = jstr(bs, strs[i]), *y = jstr(cs, strs[i]);

		if (!x || !y || strcmp(x, y))
			return rp_why(why, len, "%s '%s', this machine '%s'",
				      strs[i], x ? x : "(none)", y ? y : "(none)");
	}
	for (i = 0; i < ARRAY_SIZE(nums); i++) {
		bv = jnum(bs, nums[i]);
		cv = jnum(cs, nums[i]);
		if (!(bv == cv) || !bv)
			return rp_why(why, len, "%s %g, here %g", nums[i], bv, cv);
	}
	if (config_known(bc) != config_known(cc))
		return rp_why(why, len, "kernel config unknown %s",
			      config_known(bc) ? "here" : "in the baseline");
	sym = config_diff(bc, cc, &va, &vb);
	if (!sym)
		sym = config_diff(cc, bc, &vb, &va);
	if (sym)
		return rp_why(why, len, "%s=%s, here %s", sym, va, vb);
	t = cmdline_extra(rp_json_get(bs, "cmdline_rcu"), rp_json_get(cs, "cmdline_rcu"));
	if (t)
		return rp_why(why, len, "booted with %s, this kernel without", t);
	t = cmdline_extra(rp_json_get(cs, "cmdline_rcu"), rp_json_get(bs, "cmdline_rcu"));
	return t ? rp_why(why, len, "booted without %s, this kernel with", t) : NULL;
}

/* Has this boot been seen, or is it this one? Remembers it if not. */
static bool boot_seen(const struct rp_jval *doc, const struct rp_jval *cur)
{
	const char *id = jstr(rp_json_get(doc, "system"), "boot_id");
	const char *me = jstr(rp_json_get(cur, "system"), "boot_id");
	size_t i;

	if (!rp_current_test->baseline_per_boot || !id)
		return false;
	if (me && !strcmp(id, me))
		return true;
	for (i = 0; i < bl.nr_boots; i++)
		if (!strcmp(bl.boots[i], id))
			return true;
	bl.boots = rp_xgrow(bl.boots, bl.nr_boots, sizeof(*bl.boots));
	bl.boots[bl.nr_boots++] = rp_xstrdup(id);
	return false;
}

static int load_run(const char *path, const struct rp_jval *cur)
{
	char err[PATH_MAX + 256];
	struct rp_jval *doc;
	int ret = rp_results_open(path, &doc, err, sizeof(err));
	const char *test = jstr(doc, "test"), *ts = jstr(doc, "timestamp");

	if (ret)	/* other JSON is passed over */
		return ret < 0 ? rp_err("baseline: %s", err) : 0;
	if (!test || strcmp(test, rp_current_test->name)) {
		/* and so are other programs' results */
	} else if (jnum(doc, "version") != RP_RESULTS_VERSION) {
		unusable("%s: results version %g, not %d", path,
			 jnum(doc, "version"), RP_RESULTS_VERSION);
	} else if (boot_seen(doc, cur)) {
		bl.same_boot++;
	} else {
		if (rp_baseline_mismatch(doc, cur, err, sizeof(err)))
			unusable("%s: %s", path, err);
		if (ts && (!*bl.first || strcmp(ts, bl.first) < 0))
			snprintf(bl.first, sizeof(bl.first), "%s", ts);
		if (ts && strcmp(ts, bl.last) > 0)
			snprintf(bl.last, sizeof(bl.last), "%s", ts);
		if (rp_results_add(&bl.res, path, doc, 0, err, sizeof(err)))
			ret = rp_err("baseline: %s", err);
	}
	rp_json_free(doc);
	return ret;
}

/* The *.json files of @dir and of its subdirectories, in name order; no dot files. */
static int load_dir(const char *dir, int depth, const struct rp_jval *cur)
{
	char path[PATH_MAX], why[PATH_MAX + 128];
	struct dirent **ents;
	int n, i, ret = 0;
	struct stat st;

	if (rp_check_trusted(dir, -1, why, sizeof(why)))
		return rp_err("baseline %s: %s", dir, why);
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return rp_err("baseline %s: %s", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;
		size_t len = strlen(e);

		if (!ret && *e != '.' &&
		    snprintf(path, sizeof(path), "%s/%s", dir, e) < (int)sizeof(path) &&
		    !stat(path, &st)) {
			if (S_ISDIR(st.st_mode) && depth == 0)
				ret = load_dir(path, 1, cur);
			else if (S_ISREG(st.st_mode) && len > 5 && !strcmp(e + len - 5, ".json"))
				ret = load_run(path, cur);
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

int rp_baseline_load(void)
{
	const struct rp_test *t = rp_current_test;
	const char *dir = rp_opts.baseline;
	struct rp_param * const *pp;
	struct rp_jval *cur;
	struct stat st;
	size_t i, j;
	char *p;
	const char *e;
	int ret;

	if (!t || !t->baseline || !dir)
		return 0;
	for (pp = t->params; pp && *pp; pp++) {
		if (!strcmp((*pp)->name, "baseline_change"))
			bl.change = *pp;
		else if (!strcmp((*pp)->name, "baseline_alpha"))
			bl.alpha = *pp;
	}
	if (!bl.change || bl.change->kind != RP_LIMIT_MAX || !bl.alpha)
		return rp_err("bug: rp_test.baseline without its limits");
	if (!(bl.alpha->value > 0 && bl.alpha->value < 1))
		return rp_err("baseline_alpha %g: must be between 0 and 1", bl.alpha->value);
	e = stat(dir, &st) ? strerror(errno) : S_ISDIR(st.st_mode) ? NULL : "not a directory";
	if (e)
		return rp_err("baseline %s (%s): %s", dir, rp_opts.baseline_from, e);
	for (i = 0; t->baseline[i]; i++) {
		bl.check = rp_xgrow(bl.check, i, sizeof(*bl.check));
		bl.check[i] = rp_xrealloc(NULL, strlen(t->baseline[i]) + sizeof("_vs_baseline"));
		sprintf(bl.check[bl.nr++], "%s_vs_baseline", t->baseline[i]);
		/* KTAP names without dots: KCIDB paths split at them. */
		for (p = bl.check[i]; (p = strchr(p, '.')); p++)
			*p = '_';
		for (j = 0; j < i; j++)
			if (!strcmp(bl.check[j], bl.check[i]))
				return rp_err("bug: %s and %s are both %s",
					      t->baseline[j], t->baseline[i], bl.check[i]);
		rp_ktap_plan_check(bl.check[i]);
	}
	cur = rp_system_facts();
	if (!cur)
		return rp_err("cannot gather this machine's facts");
	ret = load_dir(dir, 0, cur);
	rp_json_free(cur);
	if (!ret && !bl.res.nr_files[0] && bl.same_boot)
		unusable("its %d %s results are of this boot or repeat one: %s",
			 bl.same_boot, t->name, "a boot baseline needs other boots");
	else if (!ret && !bl.res.nr_files[0])
		unusable("no %s results in %s", t->name, dir);
	return ret;
}

void rp_baseline_describe(void)
{
	const struct rp_test *t = rp_current_test;
	const char *kernel = bl.res.kernel_release[0];
	int files = bl.res.nr_files[0];

	if (!t || !t->baseline)
		return;
	if (!rp_opts.baseline)
		printf("# baseline: none\n");
	else if (bl.why)
		printf("# baseline: %s not used: %s; its %zu check(s) SKIP\n",
		       rp_opts.baseline, bl.why, bl.nr);
	else
		printf("# baseline: %s (%s): %d run%s of %s, kernel %s, %s .. %s\n",
		       rp_opts.baseline, rp_opts.baseline_from, files,
		       files == 1 ? "" : "s", t->name,
		       *kernel ? kernel : "?", bl.first, bl.last);
}

/* How far the baseline's runs spread in statistic @st (%), *@sum theirs */
static double spread_of(const struct rp_rmetric *b, enum rp_cmp_stat st, double *sum)
{
	size_t i, k = 0, n = b->runs[0];
	double *v = rp_xrealloc(NULL, (n ? n : 1) * sizeof(*v)), spread;

	*sum = 0;
	for (i = 0; i < n; k += b->run_n[0][i], i++) {
		v[i] = rp_cmp_stat_of(b->v[0].v + k, b->run_n[0][i], st);
		*sum += v[i];
	}
	spread = rp_run_spread_pct(v, n, bl.alpha->value);
	free(v);
	return spread;
}

struct look {
	struct rp_cmp c;
	double limit;
	const char *widened;	/* what widened the limit */
	char buf[256];
};

static void widen(struct look *l, double limit, const char *why)
{
	if (limit > l->limit) {
		l->limit = limit;
		l->widened = why;
	}
}

/*
 * One comparison in statistic @st, the run as the unit: @lim widened to the
 * spread of the baseline's runs in @st (a change within the machine's drift
 * from run to run is no regression), to another metric's (bl.drift), or to
 * @step as a share of their mean @st (@why).
 */
static void look(struct look *l, const struct rp_rmetric *b,
		 const struct rp_metric *m, enum rp_cmp_stat st, double lim,
		 double step, const char *why, double alpha)
{
	size_t n = b->runs[0];
	double sum;

	*l = (struct look){ .limit = lim };
	widen(l, spread_of(b, st, &sum), "the spread of the baseline's runs");
	widen(l, bl.drift, bl.drift_why);
	if (step > 0 && n && sum > 0)
		widen(l, 100 * step * n / sum, why);
	/* On top of the rest: the host took that much from every metric. */
	if (bl.host > 0) {
		snprintf(l->buf, sizeof(l->buf), "%s%s%.3g %% that %s lost in this run",
			 l->limit > lim ? l->widened : "",
			 l->limit > lim ? " + the " : "the ", bl.host,
			 rp_current_test->baseline_control);
		l->limit += bl.host;
		l->widened = l->buf;
	}
	rp_compare_runs(b->v[0].v, b->run_n[0], n, m->samples, &m->n, 1, st,
			m->higher_is_better, l->limit, alpha, &l->c);
}

/* The check of metric @i, its baseline @b and its samples of this run @m. */
static void judge(size_t i, const struct rp_rmetric *b, const struct rp_metric *m, const char *vs)
{
	const struct rp_param *lim = bl.change;
	struct look own, mean, *l = &own;

	if (rp_current_test->baseline_limit && rp_current_test->baseline_limit[i])
		lim = rp_current_test->baseline_limit[i];
	look(&own, b, m, m->stat, lim->value, m->resolution,
	     "what the host moves between sessions (resolution)", bl.alpha->value);
	/*
	 * A second look, on the mean: a regression of some ops (a throttled
	 * idle CPU delays one GP in five) moves the mean, not the median. A
	 * mean moves with a run's few longest ops, which three runs
	 * underestimate (idle: 8.5-10.3 ms over 13 runs; one at +21%, p 0.012,
	 * against three tight ones): a tenth of alpha, and at least one quantum
	 * per op past the baseline's (healthy idle GP means moved +16..21%, a
	 * fifth of a jiffy; the c229828ca6bc62d class adds jiffies: +150%).
	 */
	if (own.c.verdict != RP_CMP_REGRESSED && !m->median_only && b->runs[0] >= 2) {
		look(&mean, b, m, RP_CMP_MEAN, lim->value, m->quantum,
		     "one quantum per op", bl.alpha->value / 10);
		if (mean.c.verdict == RP_CMP_REGRESSED)
			l = &mean;
	}
	rp_check_cmp(bl.check[i], &l->c, m, lim, l->limit, l->widened, vs);
}

/*
 * A host that slows one metric's runs slows the others', by amounts of their
 * own: three runs that happened to agree in one metric say less of that drift
 * than another metric's spread.
 */
static void shared_drift(void)
{
	const struct rp_test *t = rp_current_test;
	double sum, x;
	size_t i;

	for (i = 0; t->baseline_shared_drift && !bl.why && i < bl.nr; i++) {
		const struct rp_metric *m = rp_metric_find(t->baseline[i]);
		const struct rp_rmetric *b = rp_results_find(&bl.res, t->name, t->baseline[i]);

		if (!m || !b || !b->v[0].n)
			continue;
		x = spread_of(b, m->stat, &sum);
		if (x > bl.drift) {
			bl.drift = x;
			snprintf(bl.drift_why, sizeof(bl.drift_why),
				 "the spread of the baseline's runs of %s", t->baseline[i]);
		}
	}
}

/*
 * What baseline_control lost against its baseline runs, in its own statistic,
 * widens every limit: a host that gives the run less (a busy core under one
 * vCPU, which steal time does not show) slows it and the judged metrics alike.
 */
static void host_loss(void)
{
	const char *name = rp_current_test->baseline_control;
	const struct rp_metric *m = name ? rp_metric_find(name) : NULL;
	const struct rp_rmetric *b = m && m->n ?
		rp_results_find(&bl.res, rp_current_test->name, name) : NULL;
	double sum, base, now;

	if (bl.why || !b || !b->runs[0])
		return;
	spread_of(b, m->stat, &sum);
	base = sum / b->runs[0];
	now = rp_cmp_stat_of(m->samples, m->n, m->stat);
	if (base > 0 && (m->higher_is_better ? now < base : now > base))
		bl.host = 100 * fabs(now - base) / base;
}

void rp_baseline_report(void)
{
	char vs[64];
	size_t i;

	snprintf(vs, sizeof(vs), "%d baseline run%s", bl.res.nr_files[0],
		 bl.res.nr_files[0] == 1 ? "" : "s");
	shared_drift();
	host_loss();
	for (i = 0; i < bl.nr; i++) {
		const char *name = rp_current_test->baseline[i], *check = bl.check[i];
		const struct rp_metric *m = rp_metric_find(name);
		const struct rp_rmetric *b = rp_results_find(&bl.res, rp_current_test->name, name);

		if (rp_check_reported(check))
			continue;
		else if (bl.why)
			rp_check_skip(check, "baseline not used: %s", bl.why);
		else if (!m || !m->n)
			rp_check_skip(check, "%s not measured in this run", name);
		else if (!b || !b->v[0].n)
			rp_check_skip(check, "%s not in the baseline", name);
		else if (m->disturbed)
			rp_check_skip(check, "%s", m->disturbed);
		else
			judge(i, b, m, vs);
	}
}
