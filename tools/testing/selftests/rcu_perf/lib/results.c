// SPDX-License-Identifier: GPL-2.0
/*
 * Reading results files for --baseline DIR and rcu_perf_compare: a metric's
 * samples merged over a side's files, run by run; each check kept per file
 * (--kcidb). A malformed file is one error line: its name and first fault.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The file being read and its first fault. */
struct rd {
	const char *path;
	char *err;
	size_t len;
	bool failed;
};

static __printf(2, 3) int fail(struct rd *rd, const char *fmt, ...)
{
	char why[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (!rd->failed)
		snprintf(rd->err, rd->len, "%s: %s", rd->path, why);
	rd->failed = true;
	return -1;
}

/* @key of @obj if it has @type; NULL if absent (or null, if optional). */
static const struct rp_jval *get(struct rd *rd, const struct rp_jval *obj,
				 const char *key, enum rp_jtype type, bool required)
{
	static const char * const tname[] = {
		"null", "a boolean", "a number", "a string", "an array",
		"an object",
	};
	const struct rp_jval *v = rp_json_get(obj, key);

	if (!v && required)
		fail(rd, "missing \"%s\"", key);
	else if (v && v->type != type && (required || v->type != RP_JNULL))
		fail(rd, "\"%s\" is not %s", key, tname[type]);
	return v && v->type == type ? v : NULL;
}

const struct rp_rmetric *rp_results_find(const struct rp_results *r,
					 const char *test, const char *name)
{
	size_t i, n = strlen(test);

	for (i = 0; i < r->nr_metrics; i++)
		if (!strncmp(r->metrics[i].key, test, n) && r->metrics[i].key[n] == '.' &&
		    !strcmp(r->metrics[i].key + n + 1, name))
			return &r->metrics[i];
	return NULL;
}

static int add_metric(struct rp_results *r, struct rd *rd, int side,
		      const char *test, const struct rp_jval *jm, size_t idx)
{
	const struct rp_jval *name, *unit, *better, *judged, *stat, *samples;
	enum rp_cmp_stat st = RP_CMP_MEDIAN;
	const char *u;
	struct rp_rmetric *m;
	size_t i, added = 0;
	bool higher;

	if (jm->type != RP_JOBJ)
		return fail(rd, "metrics[%zu] is not an object", idx);
	name = get(rd, jm, "name", RP_JSTR, true);
	if (name && (!*name->str || strpbrk(name->str, " \t\n")))
		return fail(rd, "metrics[%zu]: bad name '%s'", idx, name->str);
	unit = get(rd, jm, "unit", RP_JSTR, false);
	better = get(rd, jm, "better", RP_JSTR, false);
	judged = get(rd, jm, "judged", RP_JBOOL, false);
	stat = get(rd, jm, "stat", RP_JSTR, false);
	if (!rd->failed && stat && rp_cmp_stat_parse(stat->str, &st))
		return fail(rd, "metric %s: \"stat\" is '%s', not median, mean, p90 or p25",
			    name->str, stat->str);
	samples = get(rd, jm, "samples", RP_JARR, true);
	if (rd->failed)
		return -1;
	higher = better && !strcmp(better->str, "higher");
	if (better && !higher && strcmp(better->str, "lower"))
		return fail(rd, "metric %s: \"better\" is '%s', not lower/higher",
			    name->str, better->str);

	u = unit ? unit->str : "";
	m = (struct rp_rmetric *)rp_results_find(r, test, name->str);
	if (!m) {	/* its first file sets its unit and direction */
		r->metrics = rp_xgrow(r->metrics, r->nr_metrics, sizeof(*m));
		m = &r->metrics[r->nr_metrics++];
		*m = (struct rp_rmetric){ .stat = RP_CMP_NR, .unit = rp_xstrdup(u),
					  .higher_is_better = higher };
		m->key = rp_xrealloc(NULL, strlen(test) + strlen(name->str) + 2);
		sprintf(m->key, "%s.%s", test, name->str);
	}
	m->report_only |= judged && !judged->b;
	if (stat && m->stat == RP_CMP_NR)
		m->stat = st;
	if (strcmp(m->unit, u))
		return fail(rd, "metric %s in '%s', elsewhere in '%s'", m->key, u, m->unit);
	if (m->higher_is_better != higher)
		return fail(rd, "metric %s: \"better\" differs from other files", m->key);
	for (i = 0; i < samples->len; i++) {
		const struct rp_jval *s = samples->items[i];

		if (s->type == RP_JNULL)
			continue;	/* could not be measured */
		if (s->type != RP_JNUM || !isfinite(s->num))
			return fail(rd, "metric %s: sample %zu is not a finite number", m->key, i);
		if (rp_samples_add(&m->v[side], s->num))
			return fail(rd, "out of memory");
		added++;
	}
	if (added) {
		m->run_n[side] = rp_xgrow(m->run_n[side], m->runs[side], sizeof(*m->run_n[side]));
		m->run_n[side][m->runs[side]++] = added;
	}
	return 0;
}

static int add_check(struct rp_results *r, struct rd *rd, const char *test,
		     const struct rp_jval *jc, size_t idx,
		     const struct rp_jval *ts, const struct rp_jval *dur)
{
	const struct rp_jval *name, *verdict, *measured, *unit;
	struct rp_rcheck *c;
	char *p;

	if (jc->type != RP_JOBJ)
		return fail(rd, "checks[%zu] is not an object", idx);
	name = get(rd, jc, "name", RP_JSTR, false);
	if (!name)
		return -rd->failed;	/* "the rest was skipped": no result */
	verdict = get(rd, jc, "verdict", RP_JSTR, true);
	measured = get(rd, jc, "measured", RP_JNUM, false);
	unit = get(rd, jc, "unit", RP_JSTR, false);
	if (rd->failed)
		return -1;
	r->checks = rp_xgrow(r->checks, r->nr_checks, sizeof(*c));
	c = &r->checks[r->nr_checks++];
	*c = (struct rp_rcheck){ .verdict = rp_xstrdup(verdict->str),
		.unit = unit ? rp_xstrdup(unit->str) : NULL,
		.measured = measured ? measured->num : NAN,
		.file = r->nr_files[0] + r->nr_files[1],
		.start_time = ts ? rp_xstrdup(ts->str) : NULL,
		.duration = dur ? dur->num : NAN };
	c->key = rp_xrealloc(NULL, strlen(test) + strlen(name->str) + 2);
	sprintf(c->key, "%s.%s", test, name->str);
	/*
	 * Check names have no dots (KCIDB paths split at them); older
	 * results have "membarrier.idle.latency_vs_baseline": today's name.
	 */
	for (p = c->key + strlen(test) + 1; (p = strchr(p, '.')); p++)
		*p = '_';
	return 0;
}

int rp_results_open(const char *path, struct rp_jval **doc, char *err, size_t len)
{
	const struct rp_jval *schema;

	*doc = rp_json_parse_file(path, err, len);
	if (!*doc)
		return -1;
	schema = rp_json_get(*doc, "schema");
	if (schema && schema->type == RP_JSTR && !strcmp(schema->str, RP_RESULTS_SCHEMA))
		return 0;
	snprintf(err, len, "%s: not an rcu_perf results file (%s)", path,
		 (*doc)->type == RP_JOBJ ? "\"schema\" is not \"" RP_RESULTS_SCHEMA "\"" :
		 "not a JSON object");
	rp_json_free(*doc);
	*doc = NULL;
	return 1;
}

int rp_results_add(struct rp_results *r, const char *path,
		   const struct rp_jval *doc, int side, char *err, size_t len)
{
	const struct rp_jval *version, *test, *arr, *ts, *dur, *sys, *rel;
	struct rd rd = { .path = path, .err = err, .len = len };
	size_t i;

	version = get(&rd, doc, "version", RP_JNUM, true);
	if (version && version->num != RP_RESULTS_VERSION)
		return fail(&rd, "results version %g, this tool reads version %d",
			    version->num, RP_RESULTS_VERSION);
	test = get(&rd, doc, "test", RP_JSTR, true);
	if (test && (!*test->str || strpbrk(test->str, " \t\n./")))
		return fail(&rd, "bad test name '%s'", test->str);
	ts = get(&rd, doc, "timestamp", RP_JSTR, false);
	dur = get(&rd, doc, "duration_s", RP_JNUM, false);
	sys = get(&rd, doc, "system", RP_JOBJ, false);
	arr = get(&rd, doc, "metrics", RP_JARR, true);
	for (i = 0; !rd.failed && i < arr->len; i++)
		add_metric(r, &rd, side, test->str, arr->items[i], i);
	arr = rd.failed ? NULL : get(&rd, doc, "checks", RP_JARR, false);
	for (i = 0; arr && !rd.failed && i < arr->len; i++)
		add_check(r, &rd, test->str, arr->items[i], i, ts, dur);
	if (rd.failed)
		return -1;
	rel = rp_json_get(sys, "kernel_release");
	if (rel && rel->type == RP_JSTR && !r->kernel_release[side][0])
		snprintf(r->kernel_release[side], sizeof(r->kernel_release[side]), "%s", rel->str);
	r->nr_files[side]++;
	return 0;
}

void rp_results_free(struct rp_results *r)
{
	size_t i;
	int s;

	for (i = 0; i < r->nr_metrics; i++) {
		struct rp_rmetric *m = &r->metrics[i];

		free(m->key);
		free(m->unit);
		for (s = 0; s < RP_SIDES; s++) {
			rp_samples_free(&m->v[s]);
			free(m->run_n[s]);
		}
	}
	for (i = 0; i < r->nr_checks; i++) {
		free(r->checks[i].key);
		free(r->checks[i].verdict);
		free(r->checks[i].unit);
		free(r->checks[i].start_time);
	}
	free(r->metrics);
	free(r->checks);
	memset(r, 0, sizeof(*r));
}
