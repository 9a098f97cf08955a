// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_perf_compare: reading the results files and comparing them. Each
 * metric's samples are merged over all files of a side; each KTAP check
 * is kept per file (for --kcidb). A malformed file ends the program with
 * exit 2 and one line naming it.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"

void die(const char *fmt, ...)
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
	size_t n = strlen(s ? s : "") + 1;

	return memcpy(xrealloc(NULL, n), s ? s : "", n);
}

static struct metric *find_metric(struct compare *cmp, const char *test_name,
				  const char *name)
{
	size_t i, tl = strlen(test_name);
	struct metric *m;

	for (i = 0; i < cmp->nr_metrics; i++) {
		m = &cmp->metrics[i];
		if (!strncmp(m->key, test_name, tl) && m->key[tl] == '.' &&
		    !strcmp(m->key + tl + 1, name))
			return m;
	}
	if (cmp->nr_metrics == cmp->cap_metrics) {
		cmp->cap_metrics = cmp->cap_metrics ? 2 * cmp->cap_metrics : 32;
		cmp->metrics = xrealloc(cmp->metrics, cmp->cap_metrics *
					sizeof(*cmp->metrics));
	}
	m = &cmp->metrics[cmp->nr_metrics++];
	memset(m, 0, sizeof(*m));
	m->key = xrealloc(NULL, tl + strlen(name) + 2);
	sprintf(m->key, "%s.%s", test_name, name);
	m->test = xstrdup(test_name);
	m->name = xstrdup(name);
	return m;
}

static const struct rp_jval *get_typed(const char *path,
				       const struct rp_jval *obj,
				       const char *key, enum rp_jtype type,
				       bool required)
{
	static const char * const tname[] = {
		"null", "a boolean", "a number", "a string", "an array",
		"an object",
	};
	const struct rp_jval *v = rp_json_get(obj, key);

	if (!v || (v->type == RP_JNULL && !required)) {
		if (required)
			die("%s: missing \"%s\"", path, key);
		return NULL;
	}
	if (v->type != type)
		die("%s: \"%s\" is not %s", path, key, tname[type]);
	return v;
}

static void load_metric(struct compare *cmp, const char *path, int side,
			const char *test_name, const struct rp_jval *jm,
			size_t idx)
{
	const struct rp_jval *name, *unit, *better, *judged, *stat, *samples;
	enum rp_cmp_stat st = RP_CMP_MEDIAN;
	struct metric *m;
	size_t i, added = 0;
	bool higher;

	if (jm->type != RP_JOBJ)
		die("%s: metrics[%zu] is not an object", path, idx);
	name = get_typed(path, jm, "name", RP_JSTR, true);
	if (!*name->str || strpbrk(name->str, " \t\n"))
		die("%s: metrics[%zu]: bad name '%s'", path, idx, name->str);
	unit = get_typed(path, jm, "unit", RP_JSTR, false);
	better = get_typed(path, jm, "better", RP_JSTR, false);
	judged = get_typed(path, jm, "judged", RP_JBOOL, false);
	stat = get_typed(path, jm, "stat", RP_JSTR, false);
	if (stat && rp_cmp_stat_parse(stat->str, &st))
		die("%s: metric %s: \"stat\" is '%s', not median, mean, p90 or p25",
		    path, name->str, stat->str);
	samples = get_typed(path, jm, "samples", RP_JARR, true);
	higher = better && !strcmp(better->str, "higher");
	if (better && !higher && strcmp(better->str, "lower"))
		die("%s: metric %s: \"better\" is '%s', not lower/higher", path,
		    name->str, better->str);

	m = find_metric(cmp, test_name, name->str);
	if (judged && !judged->b)
		m->report_only = true;
	if (stat && !m->has_stat) {
		m->has_stat = true;
		m->stat = st;
	}
	if (!m->unit) {
		m->unit = xstrdup(unit ? unit->str : "");
		m->higher_is_better = higher;
	} else if (strcmp(m->unit, unit ? unit->str : "")) {
		die("%s: metric %s in '%s', elsewhere in '%s'", path, m->key,
		    unit ? unit->str : "", m->unit);
	} else if (m->higher_is_better != higher) {
		die("%s: metric %s: \"better\" differs from other files", path,
		    m->key);
	}
	for (i = 0; i < samples->len; i++) {
		const struct rp_jval *s = samples->items[i];

		if (s->type == RP_JNULL)
			continue;	/* could not be measured */
		if (s->type != RP_JNUM || !isfinite(s->num))
			die("%s: metric %s: sample %zu is not a finite number",
			    path, m->key, i);
		if (rp_samples_add(&m->v[side], s->num))
			die("out of memory");
		added++;
	}
	if (added) {
		m->run_n[side] = xrealloc(m->run_n[side], (m->runs[side] + 1) *
					  sizeof(*m->run_n[side]));
		m->run_n[side][m->runs[side]++] = added;
	}
}

static void load_check(struct compare *cmp, const char *path,
		       const char *test_name, const struct rp_jval *jc,
		       size_t idx)
{
	const struct rp_jval *name, *verdict, *measured, *unit;
	struct check *c;
	char *p;

	if (jc->type != RP_JOBJ)
		die("%s: checks[%zu] is not an object", path, idx);
	name = get_typed(path, jc, "name", RP_JSTR, false);
	if (!name)
		return;		/* "the rest was skipped": nothing to report */
	verdict = get_typed(path, jc, "verdict", RP_JSTR, true);
	measured = get_typed(path, jc, "measured", RP_JNUM, false);
	unit = get_typed(path, jc, "unit", RP_JSTR, false);
	if (cmp->nr_checks == cmp->cap_checks) {
		cmp->cap_checks = cmp->cap_checks ? 2 * cmp->cap_checks : 32;
		cmp->checks = xrealloc(cmp->checks, cmp->cap_checks *
				       sizeof(*cmp->checks));
	}
	c = &cmp->checks[cmp->nr_checks++];
	c->test = xstrdup(test_name);
	c->name = xstrdup(name->str);
	/*
	 * Check names have no dots (KCIDB paths split at them); older
	 * results have "membarrier.idle.latency_vs_baseline": today's name.
	 */
	for (p = c->name; (p = strchr(p, '.')); p++)
		*p = '_';
	c->verdict = xstrdup(verdict->str);
	c->unit = unit ? xstrdup(unit->str) : NULL;
	c->measured = measured ? measured->num : NAN;
	c->file = cmp->nr_files_total;
	/* set by load_file() once the file's checks are in */
	c->start_time = NULL;
	c->duration = NAN;
}

/*
 * One results file. A file given by name must be rcu_perf results; in a
 * directory, other JSON (say, a KCIDB file written there) is passed over.
 */
void load_file(struct compare *cmp, const char *path, int side, bool from_dir)
{
	const struct rp_jval *schema, *version, *tname, *arr, *sys, *rel;
	const struct rp_jval *ts, *dur;
	size_t i, first_check;
	struct rp_jval *doc;
	char err[256];

	doc = rp_json_parse_file(path, err, sizeof(err));
	if (!doc)
		die("%s", err);	/* names the file */
	if (doc->type != RP_JOBJ)
		die("%s: not an rcu_perf results file (not a JSON object)", path);
	schema = rp_json_get(doc, "schema");
	if (!schema || schema->type != RP_JSTR ||
	    strcmp(schema->str, RP_RESULTS_SCHEMA)) {
		if (from_dir) {
			rp_json_free(doc);
			return;
		}
		die("%s: not an rcu_perf results file (\"schema\" is not \"%s\")",
		    path, RP_RESULTS_SCHEMA);
	}
	version = get_typed(path, doc, "version", RP_JNUM, true);
	if (version->num != RP_RESULTS_VERSION)
		die("%s: results version %g, this tool reads version %d", path,
		    version->num, RP_RESULTS_VERSION);
	tname = get_typed(path, doc, "test", RP_JSTR, true);
	if (!*tname->str || strpbrk(tname->str, " \t\n./"))
		die("%s: bad test name '%s'", path, tname->str);

	arr = get_typed(path, doc, "metrics", RP_JARR, true);
	for (i = 0; i < arr->len; i++)
		load_metric(cmp, path, side, tname->str, arr->items[i], i);
	arr = get_typed(path, doc, "checks", RP_JARR, false);
	first_check = cmp->nr_checks;
	for (i = 0; arr && i < arr->len; i++)
		load_check(cmp, path, tname->str, arr->items[i], i);
	ts = get_typed(path, doc, "timestamp", RP_JSTR, false);
	dur = get_typed(path, doc, "duration_s", RP_JNUM, false);
	for (i = first_check; i < cmp->nr_checks; i++) {
		cmp->checks[i].start_time = ts ? xstrdup(ts->str) : NULL;
		cmp->checks[i].duration = dur ? dur->num : NAN;
	}

	sys = get_typed(path, doc, "system", RP_JOBJ, false);
	rel = sys ? rp_json_get(sys, "kernel_release") : NULL;
	if (rel && rel->type == RP_JSTR && !cmp->kernel_release[side][0])
		snprintf(cmp->kernel_release[side],
			 sizeof(cmp->kernel_release[side]), "%s", rel->str);
	cmp->nr_files[side]++;
	cmp->nr_files_total++;
	rp_json_free(doc);
}

static int filter_json(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 &&
	       !strcmp(d->d_name + n - 5, ".json");
}

/* Files of a directory matching @prefix*.json, in name order. */
int list_dir(const char *dir, const char *prefix, char ***out)
{
	struct dirent **ents;
	char **paths = NULL;
	int n, i, k = 0;

	n = scandir(dir, &ents, filter_json, alphasort);
	if (n < 0)
		die("%s: %s", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		char *p, why[PATH_MAX + 128];
		struct stat st;
		size_t len;

		if (prefix && strncmp(ents[i]->d_name, prefix, strlen(prefix))) {
			free(ents[i]);
			continue;
		}
		len = strlen(dir) + strlen(ents[i]->d_name) + 2;
		p = xrealloc(NULL, len);
		snprintf(p, len, "%s/%s", dir, ents[i]->d_name);
		/* A trusted directory's files must be so too: no symlink out. */
		if (lstat(p, &st) || !S_ISREG(st.st_mode))
			die("%s: not a regular file (a symlink?): refused", p);
		if (rp_check_trusted(p, -1, why, sizeof(why)))
			die("%s: %s", p, why);
		paths = xrealloc(paths, (k + 1) * sizeof(*paths));
		paths[k++] = p;
		free(ents[i]);
	}
	free(ents);
	*out = paths;
	return k;
}

void load_path(struct compare *cmp, const char *path, int side)
{
	char **files, why[PATH_MAX + 128];
	int n, i, before = cmp->nr_files[side];
	struct stat st;

	if (stat(path, &st))
		die("%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		load_file(cmp, path, side, false);
		return;
	}
	/* Root judges kernels by these files: no one else may plant them. */
	if (rp_check_trusted(path, -1, why, sizeof(why)))
		die("%s: %s", path, why);
	n = list_dir(path, NULL, &files);
	for (i = 0; i < n; i++) {
		load_file(cmp, files[i], side, true);
		free(files[i]);
	}
	free(files);
	if (cmp->nr_files[side] == before)
		die("%s: no rcu_perf results (*.json) in this directory", path);
}

/* --metric: the metrics (and, for --kcidb, the checks) to look at */
bool selected(const struct compare *cmp, const char *key)
{
	int i;

	for (i = 0; i < cmp->o.nr_metric_globs; i++)
		if (!fnmatch(cmp->o.metric_globs[i], key, 0))
			return true;
	return !cmp->o.nr_metric_globs;
}

static double allowed_for(const struct compare *cmp, const char *key)
{
	double pct = cmp->o.allowed_change;
	int i;

	for (i = 0; i < cmp->o.nr_allows; i++)
		if (!fnmatch(cmp->o.allows[i].glob, key, 0))
			pct = cmp->o.allows[i].pct;
	return pct;
}

void compare_all(struct compare *cmp, struct tally *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < cmp->nr_metrics; i++) {
		struct metric *m = &cmp->metrics[i];
		enum rp_cmp_stat st = cmp->o.stat_set || !m->has_stat ?
				      cmp->o.stat : m->stat;

		m->compared = false;
		if (!selected(cmp, m->key) || !m->v[BASE].n)
			continue;
		if (!m->v[CAND].n) {
			t->missing++;
			continue;
		}
		m->allowed = allowed_for(cmp, m->key);
		/* several runs: the run is the unit, not the sample */
		if (m->runs[BASE] + m->runs[CAND] >= 3)
			rp_compare_runs(m->v[BASE].v, m->run_n[BASE],
					m->runs[BASE], m->v[CAND].v,
					m->run_n[CAND], m->runs[CAND],
					st, m->higher_is_better,
					m->allowed, cmp->o.alpha, &m->cmp);
		else
			rp_compare_stat(m->v[BASE].v, m->v[BASE].n,
					m->v[CAND].v, m->v[CAND].n, st,
					m->higher_is_better, m->allowed,
					cmp->o.alpha, &m->cmp);
		m->compared = true;
		if (m->report_only)
			t->reported++;
		else
			t->n[m->cmp.verdict]++;
	}
}

/* What was read and allocated; the options stay. */
void compare_free(struct compare *cmp)
{
	struct compare_opts o;
	size_t i;
	int s;

	for (i = 0; i < cmp->nr_metrics; i++) {
		struct metric *m = &cmp->metrics[i];

		free(m->key);
		free(m->test);
		free(m->name);
		free(m->unit);
		for (s = 0; s < NR_SIDES; s++) {
			rp_samples_free(&m->v[s]);
			free(m->run_n[s]);
		}
	}
	for (i = 0; i < cmp->nr_checks; i++) {
		free(cmp->checks[i].test);
		free(cmp->checks[i].name);
		free(cmp->checks[i].verdict);
		free(cmp->checks[i].unit);
		free(cmp->checks[i].start_time);
	}
	free(cmp->metrics);
	free(cmp->checks);
	o = cmp->o;
	memset(cmp, 0, sizeof(*cmp));
	cmp->o = o;
}
