// SPDX-License-Identifier: GPL-2.0
/* The JSON results document of a run, for baselines, rcu_perf_compare, CI. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../kselftest.h"
#include "internal.h"

struct info_rec {
	char *key, *val;
};

static struct rp_metric **metrics;
static size_t nr_metrics;
static struct info_rec *infos;
static size_t nr_infos;
static double start_ms;
static time_t start_time;

void rp_report_begin(void)
{
	start_ms = rp_now_ms();
	start_time = time(NULL);
}

struct rp_metric *rp_metric_add(const char *name, const char *unit, const double *v, size_t n)
{
	struct rp_metric *m = rp_xrealloc(NULL, sizeof(*m));

	*m = (struct rp_metric){ .name = rp_xstrdup(name), .unit = rp_xstrdup(unit), .n = n,
		.samples = rp_xrealloc(NULL, n * sizeof(double)) };
	if (n)
		memcpy(m->samples, v, n * sizeof(double));
	rp_summarize(m->samples, n, &m->sum);	/* n = 0: every one NAN */
	metrics = rp_xgrow(metrics, nr_metrics, sizeof(*metrics));
	metrics[nr_metrics++] = m;
	return m;
}

const struct rp_metric *rp_metric_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < nr_metrics; i++)
		if (!strcmp(metrics[i]->name, name))
			return metrics[i];
	return NULL;
}

void rp_info(const char *key, const char *fmt, ...)
{
	va_list ap;
	char *val;
	size_t i;

	va_start(ap, fmt);
	val = rp_vformat_line(fmt, ap);
	va_end(ap);
	printf("# %s: %s\n", key, val);
	for (i = 0; i < nr_infos && strcmp(infos[i].key, key); i++)
		;
	if (i == nr_infos) {
		infos = rp_xgrow(infos, nr_infos++, sizeof(*infos));
		infos[i] = (struct info_rec){ .key = rp_xstrdup(key) };
	}
	free(infos[i].val);
	infos[i].val = val;
}

static void write_metrics(struct rp_jw *w)
{
	static const char * const key[] = { "min", "max", "mean", "stddev",
		"median", "p10", "p90", "mad", "ci_lo", "ci_hi" };
	size_t i, j;

	rp_jw_arr_begin(w, "metrics");
	for (i = 0; i < nr_metrics; i++) {
		const struct rp_metric *m = metrics[i];
		const struct rp_summary *s = &m->sum;
		const double v[] = { s->min, s->max, s->mean, s->stddev, s->median,
				     s->p10, s->p90, s->mad, s->ci_lo, s->ci_hi };

		rp_jw_obj_begin(w, NULL);
		rp_jw_str(w, "name", m->name);
		rp_jw_str(w, "unit", m->unit);
		rp_jw_str(w, "better", m->higher_is_better ? "higher" : "lower");
		if (m->report_only)
			rp_jw_bool(w, "judged", false);
		if (m->stat != RP_CMP_MEDIAN)
			rp_jw_str(w, "stat", rp_cmp_stat_name(m->stat));
		rp_jw_arr_begin(w, "samples");
		for (j = 0; j < m->n; j++)
			rp_jw_num(w, NULL, m->samples[j]);
		rp_jw_arr_end(w);
		rp_jw_obj_begin(w, "summary");
		rp_jw_int(w, "n", s->n);
		for (j = 0; j < ARRAY_SIZE(key); j++)
			rp_jw_num(w, key[j], v[j]);
		rp_jw_obj_end(w);
		rp_jw_obj_end(w);
	}
	rp_jw_arr_end(w);
}

/* null in the document: not measured, or none */
static int results_write(FILE *f, int code)
{
	const struct rp_test *t = rp_current_test;
	struct rp_param * const *pp;
	struct rp_jw w;
	char ts[32];
	struct tm tm;
	int i;

	gmtime_r(&start_time, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);

	rp_jw_init(&w, f);
	rp_jw_obj_begin(&w, NULL);
	rp_jw_str(&w, "schema", RP_RESULTS_SCHEMA);
	rp_jw_int(&w, "version", RP_RESULTS_VERSION);
	rp_jw_int(&w, "suite_version", RP_SUITE_VERSION);
	rp_jw_str(&w, "test", rp_test_name());
	rp_jw_str(&w, "summary", t ? t->summary : NULL);
	rp_jw_str(&w, "timestamp", ts);
	rp_jw_num(&w, "duration_s", (rp_now_ms() - start_ms) / 1e3);
	rp_system_write(&w);

	rp_jw_obj_begin(&w, "options");
	rp_jw_bool(&w, "quick", rp_opts.quick);
	rp_jw_str(&w, "config", rp_opts.config_path);
	rp_jw_str(&w, "baseline", t && t->baseline && *t->baseline ? rp_opts.baseline : NULL);
	rp_jw_arr_begin(&w, "knobs");
	for (i = 0; i < rp_opts.nr_knobs; i++)
		rp_jw_str(&w, NULL, rp_opts.knobs[i]);
	rp_jw_arr_end(&w);
	rp_jw_obj_end(&w);

	rp_jw_arr_begin(&w, "params");
	for (pp = t ? t->params : NULL; pp && *pp; pp++) {
		const struct rp_param *p = *pp;

		rp_jw_obj_begin(&w, NULL);
		rp_jw_str(&w, "name", p->name);
		rp_jw_str(&w, "kind", rp_kind_name(p->kind));
		rp_jw_str(&w, "unit", p->unit);
		rp_jw_num(&w, "default", p->def);
		rp_jw_num(&w, "quick", p->has_quick ? p->quick : NAN);
		rp_jw_num(&w, "min", p->has_range ? p->min : NAN);
		rp_jw_num(&w, "max", p->has_range ? p->max : NAN);
		rp_jw_num(&w, "value", p->source ? p->value : p->def);
		rp_jw_str(&w, "source", p->source ? p->source : "default");
		rp_jw_str(&w, "reason", p->reason);
		rp_jw_obj_end(&w);
	}
	rp_jw_arr_end(&w);

	rp_jw_obj_begin(&w, "info");
	for (i = 0; i < (int)nr_infos; i++)
		rp_jw_str(&w, infos[i].key, infos[i].val);
	rp_jw_obj_end(&w);

	write_metrics(&w);
	rp_ktap_write(&w);
	rp_jw_str(&w, "verdict", code == KSFT_PASS ? "pass" : code == KSFT_SKIP ? "skip" : "fail");
	rp_jw_int(&w, "exit_code", code);
	rp_jw_obj_end(&w);
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}

static int mkdir_parents(const char *path)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (p = strchr(buf + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

/* Write to a temporary file and rename it: readers never see half a file. */
static int write_results_file(const char *path, int code)
{
	int ret = -1, fd, saved;
	char *tmp;
	FILE *f;

	if (mkdir_parents(path) || asprintf(&tmp, "%s.tmp.%d", path, (int)getpid()) < 0)
		return -1;
	/* A new file of ours: never through a symlink planted there. */
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f && fd >= 0)
		close(fd);
	if (f && !results_write(f, code) && !fflush(f) && !fsync(fd))
		ret = 0;
	saved = errno;
	if ((f && fclose(f) && !ret) || (!ret && rename(tmp, path))) {
		ret = -1;
		saved = errno;
	}
	if (ret && fd >= 0)
		unlink(tmp);
	free(tmp);
	errno = saved;
	return ret;
}

int rp_report_save(int code)
{
	char *path = NULL;
	int ret;

	if (rp_opts.json_path)
		path = rp_xstrdup(rp_opts.json_path);
	else if (rp_opts.outdir && asprintf(&path, "%s/%s.json",
					    rp_opts.outdir, rp_test_name()) < 0)
		path = NULL;
	if (!path)
		return 0;
	ret = write_results_file(path, code);
	if (ret)
		printf("# error: cannot write results to %s: %s\n", path, strerror(errno));
	else
		printf("# results: %s\n", path);
	free(path);
	return ret;
}

