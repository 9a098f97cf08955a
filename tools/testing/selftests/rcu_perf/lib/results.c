// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP checks and the JSON results file.
 *
 * kselftest.h keeps its counters per translation unit, so every KTAP line
 * of a program (plan, results, totals) is printed from this file.
 *
 * KTAP, per check:
 *	# <check>: measured <v> <unit> vs limit <=|>= <limit> <unit> (<param>)
 *	ok <N> <check>			passed
 *	not ok <N> <check>		failed (measured beyond the limit)
 *	ok <N> <check> # SKIP <reason>	not judged here
 *	not ok <N> <check> # error <reason>	a bug of the test itself
 * A derived limit prints "measured X unit (90% CI lo..hi) vs limit <= Y unit
 * (how it was derived; param)". Checks never reported (rp_skip_rest(),
 * rp_exit_skip(), rp_fatal(), a bug) are named after rp_test.checks, else
 * "check_<N>". Exit code: 1 if anything failed or errored, else 4 if
 * everything was skipped (or rp_exit_skip()), else 0. Before the plan,
 * rp_exit_skip() prints kselftest's "1..0 # SKIP <reason>".
 *
 * Results document (schema "rcu_perf-results", version 1; readers must
 * ignore unknown keys, numbers that could not be measured are null):
 * {
 *   "schema": "rcu_perf-results", "version": 1,
 *   "suite_version": 1,			RP_SUITE_VERSION (absent: older)
 *   "test": "gp_throttle", "summary": "...",
 *   "timestamp": "2025-01-31T12:00:00Z",	start of the run, UTC
 *   "duration_s": 12.3,
 *   "system": {
 *     "kernel_release": "6.18.0", "kernel_version": "#1 SMP ...",
 *     "machine": "x86_64", "cpu_model": "Intel(R) Xeon(R) ...",
 *     "nr_cpus_online": 2, "nr_cpus_possible": 2,
 *     "boot_id": "5a1c...",			this boot's random id
 *     "hz": 250,					0: unknown
 *     "config": { "CONFIG_HZ": "250", "CONFIG_RCU_LAZY": "y",
 *		   "CONFIG_PREEMPT_RT": "n", ... },	RCU-relevant symbols
 *     "cmdline_rcu": [ "rcupdate.rcu_expedited=1", ... ],
 *     "rcu_sysfs": { "/sys/kernel/rcu_expedited": "0", ... }
 *					at the start, after --knob
 *   },
 *   "options": { "quick": false, "config": "path" | null,
 *		  "baseline": "dir" | null,		with baseline checks
 *		  "knobs": [ "/sys/...=50" ] },
 *   "params": [ { "name", "kind": "max"|"min"|"setting", "unit",
 *		   "default", "value", "source", "reason" } ],
 *   "info": { "key": "value" },			strings
 *   "metrics": [ { "name", "unit", "better": "lower"|"higher",
 *		    "samples": [ ... ],
 *		    "summary": { "n", "min", "max", "mean", "stddev", "median",
 *				 "p10", "p90", "mad", "ci_lo", "ci_hi" },
 *		    "counters_per_op": { "ctx_switches": 1.5, ... } } ],
 *						(supported counters only)
 *   "checks": [ { "name", "verdict": "pass"|"fail"|"skip"|"error",
 *		   "measured", "ci_lo", "ci_hi", "unit", "op": "<="|">=",
 *		   "limit", "param", "reason" } ],	unknown fields are null
 *   "totals": { "planned", "pass", "fail", "skip", "error" },
 *   "verdict": "pass"|"fail"|"skip",
 *   "exit_code": 0|1|4
 * }
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../../kselftest.h"
#include "internal.h"

struct info_rec {
	char *key, *val;
};

static struct rp_metric **metrics;
static size_t nr_metrics;
static struct rp_check_rec *checks;
static size_t nr_checks;
static struct info_rec *infos;
static size_t nr_infos;
static unsigned int totals[4];	/* by enum rp_verdict */
static bool started;
static double start_ms;
static time_t start_time;

double rp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void rp_report_begin(void)
{
	start_ms = rp_now_ms();
	start_time = time(NULL);
	started = true;
}

/* ~4 significant digits, without exponents for everyday magnitudes. */
static void fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "nan");
	else if (a >= 1e4 && a < 1e9)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

/* A KTAP description/directive must stay on one line. */
char *rp_vformat_line(const char *fmt, va_list ap)
{
	char *s = NULL, *p;

	if (vasprintf(&s, fmt, ap) < 0 || !s)
		return rp_xstrdup("(out of memory)");
	for (p = s; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	while (p > s && p[-1] == ' ')
		*--p = '\0';
	return s;
}

static char *format_line(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = rp_vformat_line(fmt, ap);
	va_end(ap);
	return s;
}

static struct rp_check_rec *record(const char *name, enum rp_verdict v,
				   char *reason)
{
	struct rp_check_rec *c;

	checks = rp_xrealloc(checks, (nr_checks + 1) * sizeof(*checks));
	c = &checks[nr_checks++];
	memset(c, 0, sizeof(*c));
	c->name = rp_xstrdup(name);
	c->verdict = v;
	c->measured = NAN;
	c->ci_lo = NAN;
	c->ci_hi = NAN;
	c->limit = NAN;
	c->reason = reason;
	return c;
}

/* The KTAP result line; the counters live in this file's kselftest copy. */
static void ktap_result(const char *name, enum rp_verdict v,
			const char *reason)
{
	totals[v]++;
	switch (v) {
	case RP_PASS:
		ksft_inc_pass_cnt();
		printf("ok %u %s\n", ksft_test_num(), name);
		break;
	case RP_FAIL:
		ksft_inc_fail_cnt();
		printf("not ok %u %s\n", ksft_test_num(), name);
		break;
	case RP_SKIP:
		ksft_inc_xskip_cnt();
		printf("ok %u %s # SKIP %s\n", ksft_test_num(), name,
		       reason ? reason : "");
		break;
	case RP_ERROR:
		ksft_inc_error_cnt();
		printf("not ok %u %s # error %s\n", ksft_test_num(), name,
		       reason ? reason : "");
		break;
	}
}

static void check_error(const char *check, char *reason)
{
	record(check, RP_ERROR, reason);
	ktap_result(check, RP_ERROR, reason);
}

/* A check name is one token, or the KTAP line would not parse. */
static bool bad_name(const char *check)
{
	const char *p;
	char buf[32];

	for (p = check; p && *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.:-", *p))
			break;
	if (check && *check && !*p)
		return false;
	snprintf(buf, sizeof(buf), "check_%u", ksft_test_num() + 1);
	check_error(buf, format_line("bug: check name '%s' is not one token",
				     check ? check : "(null)"));
	return true;
}

/* The limit a check was judged against, and its KTAP result. */
static enum rp_verdict judged(struct rp_check_rec *c, double limit,
			      const char *unit, const char *op,
			      const char *param)
{
	c->limit = limit;
	c->unit = unit;
	c->op = op;
	c->param = param;
	ktap_result(c->name, c->verdict, c->reason);
	return c->verdict;
}

enum rp_verdict rp_check(const char *check, double measured,
			 const char *limit)
{
	struct rp_param *p = rp_param(limit);
	char m[32], l[32];
	const char *unit, *op;
	struct rp_check_rec *c;
	enum rp_verdict v;

	if (bad_name(check))
		return RP_ERROR;
	if (!p || p->kind == RP_SETTING) {
		check_error(check, format_line("bug: '%s' is not a limit parameter",
					       limit ? limit : "(null)"));
		return RP_ERROR;
	}
	unit = p->unit ? p->unit : "";
	op = p->kind == RP_LIMIT_MAX ? "<=" : ">=";
	fmt_num(m, sizeof(m), measured);
	fmt_num(l, sizeof(l), p->value);
	printf("# %s: measured %s%s%s vs limit %s %s%s%s (%s)\n", check,
	       m, *unit ? " " : "", unit, op, l, *unit ? " " : "", unit,
	       p->name);
	if (!isfinite(measured)) {
		v = RP_SKIP;
		c = record(check, v, rp_xstrdup("no valid measurement"));
	} else {
		if (p->kind == RP_LIMIT_MAX)
			v = measured <= p->value ? RP_PASS : RP_FAIL;
		else
			v = measured >= p->value ? RP_PASS : RP_FAIL;
		c = record(check, v, NULL);
		c->measured = measured;
	}
	return judged(c, p->value, unit, op, p->name);
}

void rp_check_skip(const char *check, const char *fmt, ...)
{
	va_list ap;
	char *r;

	if (bad_name(check))
		return;
	va_start(ap, fmt);
	r = rp_vformat_line(fmt, ap);
	va_end(ap);
	record(check, RP_SKIP, r);
	ktap_result(check, RP_SKIP, r);
}

void rp_check_fail(const char *check, const char *fmt, ...)
{
	va_list ap;
	char *r;

	if (bad_name(check))
		return;
	va_start(ap, fmt);
	r = rp_vformat_line(fmt, ap);
	va_end(ap);
	printf("# %s: %s\n", check, r);
	record(check, RP_FAIL, r);
	ktap_result(check, RP_FAIL, NULL);
}

/* How far past the limit, signed so that positive is the bad side. */
static double past(const struct rp_bound *b, double x)
{
	return b->is_min ? b->limit - x : x - b->limit;
}

enum rp_verdict rp_bound_verdict(const struct rp_bound *b)
{
	const struct rp_estimate *e = &b->est;
	double favourable = b->is_min ? e->hi : e->lo;

	if (!isfinite(e->value) || !isfinite(b->limit))
		return RP_SKIP;
	if (past(b, e->value) <= 0)
		return RP_PASS;
	return isfinite(favourable) && past(b, favourable) > 0 ?
	       RP_FAIL : RP_SKIP;
}

bool rp_bound_settled(const struct rp_bound *b)
{
	const struct rp_estimate *e = &b->est;

	if (!isfinite(e->lo) || !isfinite(e->hi) || !isfinite(b->limit))
		return false;
	return (past(b, e->lo) > 0) == (past(b, e->hi) > 0);
}

#define NOISY	"too noisy to judge: %s %s past the limit %s but its 90%% CI %s..%s reaches back: rerun on a quieter machine"

enum rp_verdict rp_check_bound(const char *check, const struct rp_bound *b)
{
	const char *unit = b->unit ? b->unit : "", *op = b->is_min ? ">=" : "<=";
	char m[32], lo[32], hi[32], l[32];
	enum rp_verdict v;
	struct rp_check_rec *c;

	if (bad_name(check))
		return RP_ERROR;
	fmt_num(m, sizeof(m), b->est.value);
	fmt_num(lo, sizeof(lo), b->est.lo);
	fmt_num(hi, sizeof(hi), b->est.hi);
	fmt_num(l, sizeof(l), b->limit);
	printf("# %s: measured %s%s%s (90%% CI %s..%s) vs limit %s %s%s%s (%s%s%s)\n",
	       check, m, *unit ? " " : "", unit, lo, hi, op, l,
	       *unit ? " " : "", unit, b->how ? b->how : "",
	       b->how && b->param ? "; " : "", b->param ? b->param : "");
	v = rp_bound_verdict(b);
	if (v == RP_SKIP && !isfinite(b->est.value))
		c = record(check, v, rp_xstrdup("no valid measurement"));
	else if (v == RP_SKIP)
		c = record(check, v, format_line(NOISY, m, unit, l, lo, hi));
	else
		c = record(check, v, b->how ? rp_xstrdup(b->how) : NULL);
	c->measured = b->est.value;
	c->ci_lo = b->est.lo;
	c->ci_hi = b->est.hi;
	return judged(c, b->limit, unit, op, b->param);
}

/* The program's checks, then those against a baseline (when given). */
static int planned(void)
{
	return (rp_current_test && rp_current_test->nr_checks > 0 ?
		rp_current_test->nr_checks : 0) +
	       (int)rp_baseline_nr_checks();
}

void rp_ktap_plan(void)
{
	ksft_set_plan(planned());
}

int rp_ktap_planned(void)
{
	return planned();
}

bool rp_ktap_all_reported(void)
{
	return (int)ksft_test_num() >= planned();
}

bool rp_check_reported(const char *name)
{
	size_t i;

	for (i = 0; i < nr_checks; i++)
		if (checks[i].name && !strcmp(checks[i].name, name))
			return true;
	return false;
}

#define CMP_LINE \
	"# %s: measured %s%s %% worse (median %s%s%s vs %s%s%s of %s; p %s, MDE %s %%) vs limit <= %s %% (%s)\n"
#define CMP_NOISY \
	"too noisy to compare with %s: a change of %s %% could be missed, the limit is %s %%; more runs in the baseline or a quieter machine"

enum rp_verdict rp_check_cmp(const char *check, const struct rp_cmp *c,
			     bool higher_is_better, const char *unit,
			     const char *limit, const char *vs)
{
	struct rp_param *p = rp_param(limit);
	double worse = higher_is_better ? -c->change_pct : c->change_pct;
	char m[32], l[32], ma[32], mb[32], mde[32], pv[32];
	const char *sp;
	struct rp_check_rec *rec;
	enum rp_verdict v;

	if (bad_name(check))
		return RP_ERROR;
	if (!p || p->kind != RP_LIMIT_MAX) {
		check_error(check, format_line("bug: '%s' is not a maximum",
					       limit ? limit : "(null)"));
		return RP_ERROR;
	}
	unit = unit ? unit : "";
	sp = *unit ? " " : "";
	fmt_num(m, sizeof(m), worse);
	fmt_num(l, sizeof(l), p->value);
	fmt_num(ma, sizeof(ma), c->a.median);
	fmt_num(mb, sizeof(mb), c->b.median);
	fmt_num(mde, sizeof(mde), c->mde_pct);
	snprintf(pv, sizeof(pv), "%.2g", c->p);
	printf(CMP_LINE, check, worse > 0 ? "+" : "", m, mb, sp, unit, ma, sp, unit, vs,
	       pv, mde, l, p->name);
	switch (c->verdict) {
	case RP_CMP_REGRESSED:
		v = RP_FAIL;
		rec = record(check, v, format_line("regressed against %s (p %s)",
						   vs, pv));
		break;
	case RP_CMP_INCONCLUSIVE:
		v = RP_SKIP;
		if (!c->a.n || !c->b.n)
			rec = record(check, v, format_line("no samples %s",
							   c->b.n ? "in the baseline" :
							   "in this run"));
		else
			rec = record(check, v, format_line(CMP_NOISY, vs, mde,
							   l));
		break;
	default:
		v = RP_PASS;
		rec = record(check, v, rp_xstrdup(rp_cmp_verdict_name(c->verdict)));
	}
	rec->measured = worse;
	return judged(rec, p->value, "%", "<=", p->name);
}

/*
 * Report every planned but unreported check as @v with @reason, under the
 * program's own check names when it listed them: KTAP parsers and scripts
 * look results up by name.
 */
void rp_ktap_fill(enum rp_verdict v, const char *reason)
{
	const char * const *names = rp_current_test ?
				    rp_current_test->checks : NULL;
	size_t b = 0;
	char buf[32];

	while ((int)ksft_test_num() < planned()) {
		const char *name = NULL;

		while (names && *names && !name) {
			if (!rp_check_reported(*names))
				name = *names;
			names++;
		}
		while (!name && b < rp_baseline_nr_checks()) {
			if (!rp_check_reported(rp_baseline_check_name(b)))
				name = rp_baseline_check_name(b);
			b++;
		}
		if (!name) {
			snprintf(buf, sizeof(buf), "check_%u",
				 ksft_test_num() + 1);
			name = buf;
		}
		record(name, v, rp_xstrdup(reason));
		ktap_result(name, v, reason);
	}
}

void rp_skip_rest(const char *fmt, ...)
{
	va_list ap;
	char *r;

	va_start(ap, fmt);
	r = rp_vformat_line(fmt, ap);
	va_end(ap);
	rp_ktap_fill(RP_SKIP, r);
	free(r);
}

void rp_ktap_close(void)
{
	int extra = (int)ksft_test_num() - planned();

	if (extra < 0) {
		printf("# error: %d planned check(s) not reported\n", -extra);
		rp_ktap_fill(RP_ERROR, "not reported (bug in the test)");
	} else if (extra > 0) {
		/* The plan is wrong: make it fail so that it gets fixed. */
		printf("# error: %d check(s) reported beyond the plan of %d\n",
		       extra, planned());
		totals[RP_ERROR]++;
	}
}

void rp_ktap_count_error(void)
{
	totals[RP_ERROR]++;
}

unsigned int rp_ktap_total(enum rp_verdict v)
{
	return totals[v];
}

void rp_ktap_print_totals(void)
{
	ksft_print_cnts();
}

const struct rp_check_rec *rp_check_records(size_t *n)
{
	*n = nr_checks;
	return checks;
}

struct rp_metric *rp_metric_add(const char *name, const char *unit,
				const double *v, size_t n)
{
	struct rp_metric *m = rp_xrealloc(NULL, sizeof(*m));
	int i;

	memset(m, 0, sizeof(*m));
	m->name = rp_xstrdup(name);
	m->unit = rp_xstrdup(unit);
	m->samples = rp_xrealloc(NULL, n * sizeof(double));
	if (n)
		memcpy(m->samples, v, n * sizeof(double));
	m->n = n;
	if (n) {
		rp_summarize(m->samples, n, &m->sum);
	} else {
		/* Nothing measured: every statistic is unknown (null). */
		m->sum = (struct rp_summary){ .min = NAN, .max = NAN,
			.mean = NAN, .stddev = NAN, .median = NAN, .p10 = NAN,
			.p90 = NAN, .mad = NAN, .ci_lo = NAN, .ci_hi = NAN };
	}
	for (i = 0; i < RP_CTR_NR; i++)
		m->per_op[i] = NAN;
	metrics = rp_xrealloc(metrics, (nr_metrics + 1) * sizeof(*metrics));
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

void rp_metric_counters(struct rp_metric *m, const struct rp_counters *c,
			double ops)
{
	int i;

	if (!m || !c)
		return;
	for (i = 0; i < RP_CTR_NR; i++)
		m->per_op[i] = c->supported[i] && ops > 0 ?
			(double)c->delta[i] / ops : NAN;
	m->has_counters = true;
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
	for (i = 0; i < nr_infos; i++) {
		if (!strcmp(infos[i].key, key)) {
			free(infos[i].val);
			infos[i].val = val;
			return;
		}
	}
	infos = rp_xrealloc(infos, (nr_infos + 1) * sizeof(*infos));
	infos[nr_infos].key = rp_xstrdup(key);
	infos[nr_infos++].val = val;
}

/* ---- system facts ---- */

static char *kconfig;		/* the whole config text, or NULL */
static bool kconfig_read;

static char *read_stream(FILE *f)
{
	size_t len = 0, cap = 0;
	char *s = NULL;
	size_t n;

	do {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 65536;
			s = rp_xrealloc(s, cap);
		}
		n = fread(s + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	s[len] = '\0';
	return s;
}

static char *read_text_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s;

	if (!f)
		return NULL;
	s = read_stream(f);
	fclose(f);
	return s;
}

static char *read_gz(const char *path)
{
	char cmd[4200];
	char *s;
	FILE *f;

	/* No zlib dependency: gzip is everywhere a kernel builds. */
	if (access(path, R_OK) || strchr(path, '\''))
		return NULL;
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s' 2>/dev/null", path);
	f = popen(cmd, "r");
	if (!f)
		return NULL;
	s = read_stream(f);
	if (pclose(f) != 0 || !*s) {
		free(s);
		return NULL;
	}
	return s;
}

/*
 * The running kernel's config: /proc/config.gz, else
 * /boot/config-$(uname -r). RCU_PERF_KCONFIG=FILE names another file
 * (plain or .gz) for tests and for configs kept elsewhere.
 */
static const char *kernel_config(void)
{
	const char *env = getenv("RCU_PERF_KCONFIG");
	struct utsname u;
	char path[512];

	if (kconfig_read)
		return kconfig;
	kconfig_read = true;
	if (env && *env) {
		size_t n = strlen(env);

		if (n > 3 && !strcmp(env + n - 3, ".gz"))
			kconfig = read_gz(env);
		else
			kconfig = read_text_file(env);
		return kconfig;
	}
	kconfig = read_gz("/proc/config.gz");
	if (!kconfig && !uname(&u)) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		kconfig = read_text_file(path);
	}
	return kconfig;
}

/*
 * Next config entry after *pos: "CONFIG_X=v" or "# CONFIG_X is not set"
 * (value "n"). 0 at the end.
 */
static int next_config(const char **pos, char *sym, size_t slen, char *val,
		       size_t vlen)
{
	const char *s = *pos;

	while (s && *s) {
		const char *eol = strchr(s, '\n');
		size_t n = eol ? (size_t)(eol - s) : strlen(s);
		const char *e;

		*pos = eol ? eol + 1 : s + n;
		e = strncmp(s, "CONFIG_", 7) ? NULL : memchr(s, '=', n);
		if (e) {
			const char *v = e + 1;
			size_t vn = s + n - v;

			if (vn >= 2 && v[0] == '"' && v[vn - 1] == '"') {
				v++;
				vn -= 2;
			}
			snprintf(sym, slen, "%.*s", (int)(e - s), s);
			snprintf(val, vlen, "%.*s", (int)vn, v);
			return 1;
		}
		if (!strncmp(s, "# CONFIG_", 9) && n > 13 &&
		    !strncmp(s + n - 11, " is not set", 11)) {
			snprintf(sym, slen, "%.*s", (int)(n - 13), s + 2);
			snprintf(val, vlen, "n");
			return 1;
		}
		s = *pos;
	}
	return 0;
}

int rp_kernel_config(const char *sym, char *buf, size_t len)
{
	const char *pos = kernel_config();
	char s[128], v[256], want[128];

	if (!pos || !sym || !len)
		return -1;
	snprintf(want, sizeof(want), "%s%s",
		 strncmp(sym, "CONFIG_", 7) ? "CONFIG_" : "", sym);
	while (next_config(&pos, s, sizeof(s), v, sizeof(v)))
		if (!strcmp(s, want)) {
			snprintf(buf, len, "%s", v);
			return 0;
		}
	return -1;
}

int rp_hz(void)
{
	struct timespec res;
	char buf[32];
	double hz;

	/* LOW_RES_NSEC: TICK_NSEC, (NSEC_PER_SEC + HZ / 2) / HZ */
	if (!clock_getres(CLOCK_MONOTONIC_COARSE, &res) && !res.tv_sec &&
	    res.tv_nsec >= 100000 && res.tv_nsec <= 100000000)
		return (int)(1e9 / res.tv_nsec + 0.5);
	if (rp_kernel_config("CONFIG_HZ", buf, sizeof(buf)) ||
	    rp_parse_double(buf, &hz) || hz < 1 || hz > 100000)
		return 0;
	return (int)hz;
}

static int count_cpu_list(const char *path);

int rp_default_fqs_jiffies(void)
{
	int hz = rp_hz();
	int ids = count_cpu_list("/sys/devices/system/cpu/possible");

	if (!hz)
		return 0;
	/* RCU_JIFFIES_TILL_FORCE_QS + nr_cpu_ids / RCU_JIFFIES_FQS_DIV */
	return 1 + (hz > 250) + (hz > 500) + (ids > 0 ? ids : 1) / 256;
}

/* Config symbols that shape RCU performance. */
static bool config_relevant(const char *sym)
{
	static const char * const pfx[] = {
		"CONFIG_HZ", "CONFIG_PREEMPT", "CONFIG_NO_HZ", "CONFIG_RCU",
		"CONFIG_TREE_RCU", "CONFIG_TINY_RCU", "CONFIG_TASKS_",
		"CONFIG_SRCU", "CONFIG_TREE_SRCU", "CONFIG_NR_CPUS",
		"CONFIG_SMP", "CONFIG_HOTPLUG_CPU", "CONFIG_PROVE_",
		"CONFIG_DEBUG_LOCK_ALLOC", "CONFIG_LOCKDEP", "CONFIG_KASAN",
		"CONFIG_KCSAN", "CONFIG_DEBUG_OBJECTS_RCU_HEAD",
		"CONFIG_CONTEXT_TRACKING", "CONFIG_VIRT_CPU_ACCOUNTING",
		"CONFIG_IRQ_FORCED_THREADING", "CONFIG_CPU_ISOLATION",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pfx); i++)
		if (!strncmp(sym, pfx[i], strlen(pfx[i])))
			return true;
	return false;
}

static int count_cpu_list(const char *path)
{
	char *s = read_text_file(path), *p;
	int n = 0;

	if (!s)
		return 0;
	for (p = s; *p && *p != '\n';) {
		char *e;
		long a = strtol(p, &e, 10), b = a;

		if (e == p)
			break;
		if (*e == '-')
			b = strtol(e + 1, &e, 10);
		if (b >= a)
			n += b - a + 1;
		p = *e == ',' ? e + 1 : e;
		if (*e != ',')
			break;
	}
	free(s);
	return n;
}

/* RCU runtime knobs, as the run started (after --knob). */
static const char * const rcu_sysfs[] = {
	"/sys/kernel/rcu_expedited",
	"/sys/kernel/rcu_normal",
	"/sys/module/rcutree/parameters/jiffies_till_first_fqs",
	"/sys/module/rcutree/parameters/jiffies_till_next_fqs",
	"/sys/module/rcutree/parameters/jiffies_till_sched_qs",
	"/sys/module/rcutree/parameters/rcu_kick_kthreads",
	"/sys/module/rcupdate/parameters/rcu_expedited",
	"/sys/module/rcupdate/parameters/rcu_normal",
};

static char *rcu_sysfs_val[ARRAY_SIZE(rcu_sysfs)];
static bool frozen;	/* by rp_system_snapshot() */

static void snapshot_rcu_sysfs(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rcu_sysfs); i++) {
		free(rcu_sysfs_val[i]);
		rcu_sysfs_val[i] = read_text_file(rcu_sysfs[i]);
		if (rcu_sysfs_val[i])
			rcu_sysfs_val[i][strcspn(rcu_sysfs_val[i], "\n")] = '\0';
	}
}

void rp_system_snapshot(void)
{
	snapshot_rcu_sysfs();
	frozen = true;
}

/*
 * The CPU's model as /proc/cpuinfo names it: "model name" (x86), "cpu
 * model" (MIPS), "Processor"/"Model" (Arm), "cpu" (POWER), "uarch"
 * (RISC-V); NULL if none. Malloc'd.
 */
static char *cpu_model(void)
{
	static const char * const keys[] = {
		"model name", "cpu model", "Processor", "Model", "cpu", "uarch",
	};
	char *text = read_text_file("/proc/cpuinfo"), *found = NULL;
	size_t k;

	for (k = 0; text && !found && k < ARRAY_SIZE(keys); k++) {
		size_t n = strlen(keys[k]);
		char *line, *next;

		for (line = text; line && !found; line = next) {
			char *colon, *end = strchr(line, '\n');

			next = end ? end + 1 : NULL;
			if (strncmp(line, keys[k], n) ||
			    (line[n] != '\t' && line[n] != ' ' && line[n] != ':'))
				continue;
			colon = strchr(line, ':');
			if (!colon || (end && colon > end))
				continue;
			for (colon++; *colon == ' ' || *colon == '\t'; colon++)
				;
			if (end && end > colon)
				found = strndup(colon, end - colon);
			else if (!end && *colon)
				found = strdup(colon);
		}
	}
	free(text);
	return found;
}

void rp_system_write(struct rp_jw *w)
{
	char sym[128], val[256];
	const char *pos;
	struct utsname u;
	char *cmd, *tok, *save, *cpu;
	size_t i;

	rp_jw_obj_begin(w, "system");
	if (!uname(&u)) {
		rp_jw_str(w, "kernel_release", u.release);
		rp_jw_str(w, "kernel_version", u.version);
		rp_jw_str(w, "machine", u.machine);
	}
	cpu = cpu_model();
	if (cpu)
		rp_jw_str(w, "cpu_model", cpu);
	free(cpu);
	cpu = read_text_file("/proc/sys/kernel/random/boot_id");
	if (cpu) {
		cpu[strcspn(cpu, "\n")] = '\0';
		rp_jw_str(w, "boot_id", cpu);
	}
	free(cpu);
	rp_jw_int(w, "nr_cpus_online", sysconf(_SC_NPROCESSORS_ONLN));
	rp_jw_int(w, "nr_cpus_possible",
		  count_cpu_list("/sys/devices/system/cpu/possible"));
	rp_jw_int(w, "hz", rp_hz());

	rp_jw_obj_begin(w, "config");
	pos = kernel_config();
	while (pos && next_config(&pos, sym, sizeof(sym), val, sizeof(val)))
		if (config_relevant(sym))
			rp_jw_str(w, sym, val);
	rp_jw_obj_end(w);

	rp_jw_arr_begin(w, "cmdline_rcu");
	cmd = read_text_file("/proc/cmdline");
	for (tok = cmd ? strtok_r(cmd, " \t\n", &save) : NULL; tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (!strcmp(tok, "--"))	/* the rest is for init */
			break;
		if (rp_rcu_param(tok, strlen(tok)))
			rp_jw_str(w, NULL, tok);
	}
	free(cmd);
	rp_jw_arr_end(w);

	/* Programs restore their own changes early: use the snapshot. */
	if (!frozen)
		snapshot_rcu_sysfs();
	rp_jw_obj_begin(w, "rcu_sysfs");
	for (i = 0; i < ARRAY_SIZE(rcu_sysfs); i++)
		if (rcu_sysfs_val[i])
			rp_jw_str(w, rcu_sysfs[i], rcu_sysfs_val[i]);
	rp_jw_obj_end(w);
	rp_jw_obj_end(w);
}

struct rp_jval *rp_system_facts(void)
{
	struct rp_jval *doc = NULL;
	char *text = NULL, err[128];
	size_t len = 0;
	struct rp_jw w;
	FILE *f;

	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	rp_jw_init(&w, f);
	rp_jw_obj_begin(&w, NULL);
	rp_jw_int(&w, "suite_version", RP_SUITE_VERSION);
	rp_system_write(&w);
	rp_jw_obj_end(&w);
	if (!fclose(f))
		doc = rp_json_parse(text, err, sizeof(err));
	free(text);
	return doc;
}

static bool config_yes(const char *sym)
{
	char v[8];

	return !rp_kernel_config(sym, v, sizeof(v)) && !strcmp(v, "y");
}

/* The preemption model: the boot's preempt= choice, or the config's. */
static const char *preempt_model(void)
{
	static char mode[32];
	char *cmd = read_text_file("/proc/cmdline"), *p;

	p = cmd ? strstr(cmd, "preempt=") : NULL;
	if (p && (p == cmd || p[-1] == ' ') &&
	    config_yes("CONFIG_PREEMPT_DYNAMIC")) {
		snprintf(mode, sizeof(mode), "%.*s", (int)strcspn(p + 8, " \t\n"),
			 p + 8);
		free(cmd);
		return mode;
	}
	free(cmd);
	if (config_yes("CONFIG_PREEMPT_RT"))
		return "rt";
	if (config_yes("CONFIG_PREEMPT"))
		return "full";
	if (config_yes("CONFIG_PREEMPT_VOLUNTARY"))
		return "voluntary";
	if (config_yes("CONFIG_PREEMPT_NONE"))
		return "none";
	return "unknown";
}

int rp_machine_key(char *buf, size_t len)
{
	char *cpu = cpu_model(), *s, slug[64] = "";
	struct utsname u;
	size_t n = 0;

	/* the model's words in lower case, joined by '-': a path component */
	for (s = cpu; s && *s && n + 1 < sizeof(slug); s++) {
		if (isalnum((unsigned char)*s))
			slug[n++] = tolower((unsigned char)*s);
		else if (n && slug[n - 1] != '-')
			slug[n++] = '-';
	}
	while (n && slug[n - 1] == '-')
		n--;
	slug[n] = '\0';
	free(cpu);
	if (uname(&u))
		snprintf(u.machine, sizeof(u.machine), "unknown");
	n = snprintf(buf, len, "%s-%s-%ldcpu-%dhz-%s", u.machine,
		     *slug ? slug : "unknown-cpu", sysconf(_SC_NPROCESSORS_ONLN),
		     rp_hz(), preempt_model());
	return n < len ? 0 : -1;
}

/* ---- the results document ---- */

static const char *verdict_name(enum rp_verdict v)
{
	static const char * const names[] = { "pass", "fail", "skip", "error" };

	return names[v];
}

static const char *overall(int code)
{
	return code == KSFT_PASS ? "pass" : code == KSFT_SKIP ? "skip" : "fail";
}

static void write_summary(struct rp_jw *w, const struct rp_summary *s)
{
	rp_jw_obj_begin(w, "summary");
	rp_jw_int(w, "n", s->n);
	rp_jw_num(w, "min", s->min);
	rp_jw_num(w, "max", s->max);
	rp_jw_num(w, "mean", s->mean);
	rp_jw_num(w, "stddev", s->stddev);
	rp_jw_num(w, "median", s->median);
	rp_jw_num(w, "p10", s->p10);
	rp_jw_num(w, "p90", s->p90);
	rp_jw_num(w, "mad", s->mad);
	rp_jw_num(w, "ci_lo", s->ci_lo);
	rp_jw_num(w, "ci_hi", s->ci_hi);
	rp_jw_obj_end(w);
}

static void write_metrics(struct rp_jw *w)
{
	size_t i, j;
	int c;

	rp_jw_arr_begin(w, "metrics");
	for (i = 0; i < nr_metrics; i++) {
		const struct rp_metric *m = metrics[i];

		rp_jw_obj_begin(w, NULL);
		rp_jw_str(w, "name", m->name);
		rp_jw_str(w, "unit", m->unit);
		rp_jw_str(w, "better", m->higher_is_better ? "higher" : "lower");
		rp_jw_arr_begin(w, "samples");
		for (j = 0; j < m->n; j++)
			rp_jw_num(w, NULL, m->samples[j]);
		rp_jw_arr_end(w);
		write_summary(w, &m->sum);
		rp_jw_obj_begin(w, "counters_per_op");
		for (c = 0; c < RP_CTR_NR; c++)
			if (!isnan(m->per_op[c]))
				rp_jw_num(w, rp_ctr_name(c), m->per_op[c]);
		rp_jw_obj_end(w);
		rp_jw_obj_end(w);
	}
	rp_jw_arr_end(w);
}

static void jw_str_or_null(struct rp_jw *w, const char *key, const char *v)
{
	if (v)
		rp_jw_str(w, key, v);
	else
		rp_jw_null(w, key);
}

static void write_checks(struct rp_jw *w)
{
	size_t i;

	rp_jw_arr_begin(w, "checks");
	for (i = 0; i < nr_checks; i++) {
		const struct rp_check_rec *c = &checks[i];

		rp_jw_obj_begin(w, NULL);
		rp_jw_str(w, "name", c->name);
		rp_jw_str(w, "verdict", verdict_name(c->verdict));
		rp_jw_num(w, "measured", c->measured);
		rp_jw_num(w, "ci_lo", c->ci_lo);
		rp_jw_num(w, "ci_hi", c->ci_hi);
		jw_str_or_null(w, "unit", c->unit);
		jw_str_or_null(w, "op", c->op);
		rp_jw_num(w, "limit", c->limit);
		jw_str_or_null(w, "param", c->param);
		jw_str_or_null(w, "reason", c->reason);
		rp_jw_obj_end(w);
	}
	rp_jw_arr_end(w);
}

int rp_results_write(FILE *f)
{
	const struct rp_test *t = rp_current_test;
	struct rp_param *p;
	struct rp_jw w;
	char ts[32];
	struct tm tm;
	time_t now = start_time ? start_time : time(NULL);
	int i, code = rp_exit_code();

	gmtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);

	rp_jw_init(&w, f);
	rp_jw_obj_begin(&w, NULL);
	rp_jw_str(&w, "schema", RP_RESULTS_SCHEMA);
	rp_jw_int(&w, "version", RP_RESULTS_VERSION);
	rp_jw_int(&w, "suite_version", RP_SUITE_VERSION);
	rp_jw_str(&w, "test", rp_test_name());
	jw_str_or_null(&w, "summary", t ? t->summary : NULL);
	rp_jw_str(&w, "timestamp", ts);
	rp_jw_num(&w, "duration_s", started ? (rp_now_ms() - start_ms) / 1e3 : 0);
	rp_system_write(&w);

	rp_jw_obj_begin(&w, "options");
	rp_jw_bool(&w, "quick", rp_opts.quick);
	jw_str_or_null(&w, "config", rp_opts.config_path);
	jw_str_or_null(&w, "baseline", rp_baseline_nr_checks() ?
		       rp_opts.baseline : NULL);
	rp_jw_arr_begin(&w, "knobs");
	for (i = 0; i < rp_opts.nr_knobs; i++)
		rp_jw_str(&w, NULL, rp_opts.knobs[i]);
	rp_jw_arr_end(&w);
	rp_jw_obj_end(&w);

	rp_jw_arr_begin(&w, "params");
	for (p = t ? t->params : NULL; p && p->name; p++) {
		rp_jw_obj_begin(&w, NULL);
		rp_jw_str(&w, "name", p->name);
		rp_jw_str(&w, "kind", p->kind == RP_LIMIT_MAX ? "max" :
			  p->kind == RP_LIMIT_MIN ? "min" : "setting");
		jw_str_or_null(&w, "unit", p->unit);
		rp_jw_num(&w, "default", p->def);
		rp_jw_num(&w, "value", p->source ? p->value : p->def);
		rp_jw_str(&w, "source", p->source ? p->source : "default");
		jw_str_or_null(&w, "reason", p->reason);
		rp_jw_obj_end(&w);
	}
	rp_jw_arr_end(&w);

	rp_jw_obj_begin(&w, "info");
	for (i = 0; i < (int)nr_infos; i++)
		rp_jw_str(&w, infos[i].key, infos[i].val);
	rp_jw_obj_end(&w);

	write_metrics(&w);
	write_checks(&w);

	rp_jw_obj_begin(&w, "totals");
	rp_jw_int(&w, "planned", planned());
	rp_jw_int(&w, "pass", totals[RP_PASS]);
	rp_jw_int(&w, "fail", totals[RP_FAIL]);
	rp_jw_int(&w, "skip", totals[RP_SKIP]);
	rp_jw_int(&w, "error", totals[RP_ERROR]);
	rp_jw_obj_end(&w);
	rp_jw_str(&w, "verdict", overall(code));
	rp_jw_int(&w, "exit_code", code);
	rp_jw_obj_end(&w);
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}

static int mkdir_p(const char *dir)
{
	char buf[4096];
	char *p, c;

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return -1;
	for (p = buf + 1; ; p++) {
		if (*p != '/' && *p)
			continue;
		c = *p;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = c;
		if (!c)
			return 0;
	}
}

/* Write to a temporary file and rename it: readers never see half a file. */
static int write_results_file(const char *path)
{
	char *tmp = NULL, *dir = rp_xstrdup(path), *slash;
	int ret = -1, fd, saved;
	FILE *f;

	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir_p(dir))
			goto out;
	}
	if (asprintf(&tmp, "%s.tmp.%d", path, (int)getpid()) < 0) {
		tmp = NULL;
		goto out;
	}
	/* A new file of ours: never through a symlink planted there. */
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0)
		goto out;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		goto out_unlink;
	}
	if (rp_results_write(f) || fflush(f) || fsync(fd)) {
		saved = errno;
		fclose(f);
		errno = saved;
		goto out_unlink;
	}
	if (fclose(f))
		goto out_unlink;
	if (rename(tmp, path))
		goto out_unlink;
	ret = 0;
	goto out;
out_unlink:
	saved = errno;
	unlink(tmp);
	errno = saved;
out:
	saved = errno;
	free(tmp);
	free(dir);
	errno = saved;
	return ret;
}

int rp_report_save(void)
{
	char *path = NULL;
	int ret = 0;

	if (rp_opts.json_path)
		path = rp_xstrdup(rp_opts.json_path);
	else if (rp_opts.outdir && asprintf(&path, "%s/%s.json",
					    rp_opts.outdir, rp_test_name()) < 0)
		path = NULL;
	if (!path)
		return 0;
	if (write_results_file(path)) {
		printf("# error: cannot write results to %s: %s\n", path,
		       strerror(errno));
		ret = -1;
	} else {
		printf("# results: %s\n", path);
	}
	free(path);
	return ret;
}
