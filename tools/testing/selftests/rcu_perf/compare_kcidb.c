// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_perf_compare --kcidb FILE: the metrics (without a candidate, also
 * every KTAP check of every results file) as KCIDB test objects.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"

/*
 * KCIDB I/O schema v5 (kcidb-io, kcidb_io/schema/v05_00.py; the fields
 * used here are unchanged up to v05_03.py; nothing may be null). Minor 0:
 * nothing newer is used, so v5.0 receivers take it too.
 */
#define KCIDB_MAJOR	5
#define KCIDB_MINOR	0

/* Time units go out in seconds with a metric prefix, so they scale. */
static void kcidb_number(struct rp_jw *w, double v, const char *unit)
{
	static const char *const tu[] = { "s", "ms", "us", "ns" };
	size_t i = 0;
	bool time;

	if (!isfinite(v))
		return;
	while (unit && i < ARRAY_SIZE(tu) && strcmp(unit, tu[i]))
		i++;
	time = unit && i < ARRAY_SIZE(tu);
	rp_jw_obj_begin(w, "number");
	rp_jw_num(w, "value", time ? v / pow(1000, i) : v);
	if (unit && *unit)
		rp_jw_str(w, "unit", time ? "s" : unit);
	if (time)
		rp_jw_str(w, "prefix", "metric");
	rp_jw_obj_end(w);
}

static void kcidb_num(struct rp_jw *w, const char *key, double v)
{
	if (isfinite(v))
		rp_jw_num(w, key, v);
}

/*
 * The path "rcu_perf.<test>.<name>" of @key "<test>.<name>" (a test has no
 * dot). A dot in the name would be a level of the receiver's tree: it becomes
 * '_' like any character outside [a-zA-Z0-9_-]; an empty name "_". The id
 * keeps the key as is: two names made alike in the path stay two ids.
 */
static void kcidb_test_begin(struct rp_jw *w, const struct compare_opts *o,
			     const char *run_id, const char *idpart,
			     const char *key, const char *status)
{
	size_t pfx = strlen("rcu_perf."), t = strcspn(key, ".");	/* t: the test's length */
	char *id, *p = rp_xrealloc(NULL, strlen(key) + 16), *e;

	sprintf(p, "rcu_perf.%s%s", key, key[t + 1] ? "" : "_");
	for (e = p + pfx; *e; e++)
		if (e != p + pfx + t && !strchr("_-", *e) && !isalnum((unsigned char)*e))
			*e = '_';
	id = rp_xrealloc(NULL, strlen(o->origin.str) + strlen(run_id) + strlen(idpart) +
			 strlen(key) + 2);
	sprintf(id, "%s:%s%s%s", o->origin.str, run_id, idpart, key);
	rp_jw_obj_begin(w, NULL);
	rp_jw_str(w, "id", id);
	rp_jw_str(w, "build_id", o->build_id.str);
	rp_jw_str(w, "origin", o->origin.str);
	rp_jw_str(w, "path", p);
	rp_jw_str(w, "status", status);
	free(id);
	free(p);
}

/* "start_time" is an RFC 3339 date-time, as results files write it. */
static bool kcidb_date_time(const char *s)
{
	static const char form[] = "dddd-dd-ddTdd:dd:dd";
	size_t i, n = strlen(s);

	for (i = 0; i < sizeof(form) - 1; i++)
		if (form[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != form[i])
			return false;
	return s[n - 1] == 'Z' || (n >= 25 && strchr("+-", s[n - 6]) && s[n - 3] == ':');
}

void write_kcidb(const struct compare *cmp, bool compared)
{
	const struct compare_opts *o = &cmp->o;
	char run_id[160], host[64] = "host", buf[512];
	const char *rel = cmp->r.kernel_release[compared ? CAND : BASE];
	struct rp_jw w;
	FILE *f;
	size_t i;

	gethostname(host, sizeof(host) - 1);
	snprintf(run_id, sizeof(run_id), "%s-%lld", host, (long long)time(NULL));
	if (o->run_id.str)
		snprintf(run_id, sizeof(run_id), "%s", o->run_id.str);

	f = strcmp(o->kcidb.str, "-") ? fopen(o->kcidb.str, "w") : stdout;
	if (!f)
		die("%s: %s", o->kcidb.str, strerror(errno));
	rp_jw_init(&w, f);
	rp_jw_obj_begin(&w, NULL);
	rp_jw_obj_begin(&w, "version");
	rp_jw_int(&w, "major", KCIDB_MAJOR);
	rp_jw_int(&w, "minor", KCIDB_MINOR);
	rp_jw_obj_end(&w);
	rp_jw_arr_begin(&w, "tests");
	for (i = 0; i < cmp->r.nr_metrics; i++) {
		const struct rp_rmetric *m = &cmp->r.metrics[i];
		const struct rp_cmp *c = &m->cmp;
		const char *verdict = m->report_only ? "reported only" :
				      rp_cmp_verdict_name(c->verdict);
		struct rp_summary s = c->b;

		if (!selected(cmp, m->key) || !m->v[BASE].n || (compared && !m->v[CAND].n))
			continue;
		/* DONE: measured, but no verdict on the code */
		if (!compared) {
			rp_summarize(m->v[BASE].v, m->v[BASE].n, &s);
			snprintf(buf, sizeof(buf), "median of %zu samples: %.5g %s",
				 s.n, s.median, m->unit);
		} else {
			snprintf(buf, sizeof(buf),
				 "median %.5g %s vs baseline %.5g %s: %+.1f %%, p %.2g: %s",
				 c->b.median, m->unit, c->a.median, m->unit,
				 c->change_pct, c->p, verdict);
		}
		kcidb_test_begin(&w, o, run_id, ".", m->key,
				 !compared || m->report_only ||
				 c->verdict == RP_CMP_INCONCLUSIVE ? "DONE" :
				 c->verdict == RP_CMP_REGRESSED ? "FAIL" : "PASS");
		kcidb_number(&w, s.median, m->unit);
		rp_jw_str(&w, "comment", buf);
		rp_jw_obj_begin(&w, "misc");
		if (compared)
			rp_jw_str(&w, "verdict", verdict);
		rp_jw_str(&w, "unit", m->unit);
		if (!compared) {
			rp_jw_int(&w, "samples", (long long)s.n);
			kcidb_num(&w, "mean", s.mean);
			kcidb_num(&w, "stddev", s.stddev);
			kcidb_num(&w, "min", s.min);
			kcidb_num(&w, "max", s.max);
		} else {
			rp_jw_str(&w, "better", m->higher_is_better ? "higher" : "lower");
			kcidb_num(&w, "baseline_median", c->a.median);
			kcidb_num(&w, "candidate_median", c->b.median);
			rp_jw_int(&w, "baseline_samples", (long long)c->a.n);
			rp_jw_int(&w, "candidate_samples", (long long)c->b.n);
			kcidb_num(&w, "change_pct", c->change_pct);
			kcidb_num(&w, "p_value", c->p);
			kcidb_num(&w, "mde_pct", c->mde_pct);
			kcidb_num(&w, "allowed_change_pct", m->allowed);
			kcidb_num(&w, "alpha", o->alpha.value);
			if (cmp->r.kernel_release[BASE][0])
				rp_jw_str(&w, "baseline_kernel", cmp->r.kernel_release[BASE]);
		}
		if (*rel)
			rp_jw_str(&w, compared ? "candidate_kernel" : "kernel", rel);
		rp_jw_obj_end(&w);
		rp_jw_obj_end(&w);
	}
	for (i = 0; !compared && i < cmp->r.nr_checks; i++) {
		const struct rp_rcheck *c = &cmp->r.checks[i];
		char part[32];

		if (!selected(cmp, c->key))
			continue;
		/* The same check in several runs: one test object each. */
		snprintf(part, sizeof(part), ".%d.", c->file);
		kcidb_test_begin(&w, o, run_id, part, c->key,
				 !strcmp(c->verdict, "pass") ? "PASS" :
				 !strcmp(c->verdict, "fail") ? "FAIL" :
				 !strcmp(c->verdict, "skip") ? "SKIP" : "ERROR");
		if (strcmp(c->verdict, "skip"))
			kcidb_number(&w, c->measured, c->unit);
		if (c->start_time && kcidb_date_time(c->start_time))
			rp_jw_str(&w, "start_time", c->start_time);
		if (isfinite(c->duration) && c->duration >= 0)
			rp_jw_num(&w, "duration", c->duration);
		rp_jw_obj_end(&w);
	}
	rp_jw_arr_end(&w);
	rp_jw_obj_end(&w);
	fputc('\n', f);
	if (f != stdout ? fclose(f) : fflush(f))
		die("%s: write error", o->kcidb.str);
}
