// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_perf_compare: finding the results files, reading them (with
 * lib/results.c: merged per side) and comparing them. A malformed file
 * ends the program with exit 2 and one line naming it.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"

void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	rp_verr(fmt, ap);
	va_end(ap);
	exit(EXIT_USAGE);
}

/*
 * One results file. A file given by name must be rcu_perf results; in a
 * directory, other JSON (say, a KCIDB file written there) is passed over.
 */
void load_file(struct compare *cmp, const char *path, int side, bool from_dir)
{
	char err[PATH_MAX + 256];
	struct rp_jval *doc;
	int ret = rp_results_open(path, &doc, err, sizeof(err));

	if (!ret)
		ret = rp_results_add(&cmp->r, path, doc, side, err, sizeof(err));
	rp_json_free(doc);
	if (ret && !(ret == 1 && from_dir))
		die("%s", err);	/* names the file */
}

/* Files of a directory matching @prefix*.json, in name order. */
int list_dir(const char *dir, const char *prefix, char ***out)
{
	struct dirent **ents;
	char **paths = NULL;
	int n, i, k = 0;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		die("%s: %s", dir, strerror(errno));
	for (i = 0; i < n; free(ents[i++])) {
		const char *e = ents[i]->d_name, *dot = strrchr(e, '.');
		size_t len = strlen(dir) + strlen(e) + 2;
		char *p, why[PATH_MAX + 128];
		struct stat st;

		if (e[0] == '.' || !dot || strcmp(dot, ".json") ||
		    (prefix && strncmp(e, prefix, strlen(prefix))))
			continue;
		p = rp_xrealloc(NULL, len);
		snprintf(p, len, "%s/%s", dir, e);
		/* A trusted directory's files must be so too: no symlink out. */
		if (lstat(p, &st) || !S_ISREG(st.st_mode))
			die("%s: not a regular file (a symlink?): refused", p);
		if (rp_check_trusted(p, -1, why, sizeof(why)))
			die("%s: %s", p, why);
		paths = rp_xgrow(paths, k, sizeof(*paths));
		paths[k++] = p;
	}
	free(ents);
	*out = paths;
	return k;
}

void load_path(struct compare *cmp, const char *path, int side)
{
	char **files, why[PATH_MAX + 128];
	int n, i, before = cmp->r.nr_files[side];
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
	if (cmp->r.nr_files[side] == before)
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

void compare_all(struct compare *cmp, struct tally *t)
{
	double alpha = cmp->o.alpha.value;
	size_t i;
	int k;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < cmp->r.nr_metrics; i++) {
		struct rp_rmetric *m = &cmp->r.metrics[i];
		enum rp_cmp_stat st = cmp->o.stat_set || m->stat == RP_CMP_NR ?
				      cmp->o.stat : m->stat;

		if (!selected(cmp, m->key) || !m->v[BASE].n)
			continue;
		if (!m->v[CAND].n) {
			t->missing++;
			continue;
		}
		m->allowed = cmp->o.allowed_change.value;
		for (k = 0; k < cmp->o.nr_allows; k++)
			if (!fnmatch(cmp->o.allows[k].glob, m->key, 0))
				m->allowed = cmp->o.allows[k].pct;
		/* several runs: the run is the unit, not the sample */
		if (m->runs[BASE] + m->runs[CAND] >= 3)
			rp_compare_runs(m->v[BASE].v, m->run_n[BASE], m->runs[BASE],
					m->v[CAND].v, m->run_n[CAND], m->runs[CAND],
					st, m->higher_is_better, m->allowed, alpha, &m->cmp);
		else
			rp_compare_stat(m->v[BASE].v, m->v[BASE].n, m->v[CAND].v,
					m->v[CAND].n, st, m->higher_is_better,
					m->allowed, alpha, &m->cmp);
		if (m->report_only)
			t->reported++;
		else
			t->n[m->cmp.verdict]++;
	}
}
