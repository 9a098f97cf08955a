// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP checks, and their part of the results document. kselftest.h's counters
 * are per translation unit: every KTAP line that counts is printed here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kselftest.h"
#include "internal.h"

struct rp_check_rec {
	char *name;
	enum rp_verdict verdict;
	double measured, ci_lo, ci_hi, limit;	/* NAN when unknown */
	const char *unit, *op, *param;
	char *reason;
};

static struct rp_check_rec *checks;
static size_t nr_checks;
static char **more;		/* checks planned beside the program's own */
static size_t nr_more;
static unsigned int totals[4];	/* by enum rp_verdict */

#define NUM_LEN	64

/* ~4 significant digits, no exponent for everyday magnitudes, and @unit */
static char *num(char buf[NUM_LEN], double v, const char *unit)
{
	double a = fabs(v);
	int n;

	if (isnan(v))
		n = snprintf(buf, NUM_LEN, "nan");
	else if (a >= 1e4 && a < 1e9)
		n = snprintf(buf, NUM_LEN, "%.0f", v);
	else
		n = snprintf(buf, NUM_LEN, "%.4g", v);
	if (unit && *unit)
		snprintf(buf + n, NUM_LEN - n, " %s", unit);
	return buf;
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

/* A check's record and its KTAP line (@reason shown with a SKIP or error) */
static struct rp_check_rec *record(const char *name, enum rp_verdict v, char *reason)
{
	static void (* const inc[])(void) = { ksft_inc_pass_cnt,
		ksft_inc_fail_cnt, ksft_inc_xskip_cnt, ksft_inc_error_cnt };
	static const char * const ok[] = { "ok", "not ok", "ok", "not ok" };
	static const char * const dir[] = { "", "", " # SKIP ", " # error " };
	struct rp_check_rec *c;

	checks = rp_xrealloc(checks, (nr_checks + 1) * sizeof(*checks));
	c = &checks[nr_checks++];
	*c = (struct rp_check_rec){ .name = rp_xstrdup(name), .verdict = v,
		.measured = NAN, .ci_lo = NAN, .ci_hi = NAN, .limit = NAN,
		.reason = reason };
	totals[v]++;
	inc[v]();
	printf("%s %u %s%s%s\n", ok[v], ksft_test_num(), name, dir[v],
	       v >= RP_SKIP && reason ? reason : "");
	return c;
}

/* A check name is one token, or the KTAP line would not parse. */
static bool bad_name(const char *check)
{
	static const char token[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-";
	char buf[32];

	if (check && *check && !check[strspn(check, token)])
		return false;
	snprintf(buf, sizeof(buf), "check_%u", ksft_test_num() + 1);
	record(buf, RP_ERROR,
	       format_line("bug: check name '%s' is not one token", check ? check : "(null)"));
	return true;
}

static enum rp_verdict judged(struct rp_check_rec *c, double measured,
			      double limit, const char *unit, const char *op, const char *param)
{
	c->measured = measured;
	c->limit = limit;
	c->unit = unit;
	c->op = op;
	c->param = param;
	return c->verdict;
}

/*
 * Is @p not a limit (@max: a maximum) of this program, in its table? A
 * handle left out of the table would keep a value no option can change.
 */
static bool bad_param(const char *check, const struct rp_param *p, bool max)
{
	struct rp_param * const *pp;

	for (pp = rp_current_test ? rp_current_test->params : NULL; p && pp && *pp; pp++)
		if (*pp == p && (max ? p->kind == RP_LIMIT_MAX : p->kind != RP_SETTING))
			return false;
	record(check, RP_ERROR, format_line("bug: '%s' is not %s",
					    p ? p->name : "(null)", max ?
					    "a maximum" : "a limit parameter"));
	return true;
}

enum rp_verdict rp_check(const char *check, double measured, const struct rp_param *p)
{
	char m[NUM_LEN], l[NUM_LEN];
	const char *unit, *op;
	enum rp_verdict v;

	if (bad_name(check) || bad_param(check, p, false))
		return RP_ERROR;
	unit = p->unit ? p->unit : "";
	op = p->kind == RP_LIMIT_MAX ? "<=" : ">=";
	printf("# %s: measured %s vs limit %s %s (%s)\n", check,
	       num(m, measured, unit), op, num(l, p->value, unit), p->name);
	/* not finite: written as null, like NAN */
	v = !isfinite(measured) ? RP_SKIP : (p->kind == RP_LIMIT_MAX ?
	    measured <= p->value : measured >= p->value) ? RP_PASS : RP_FAIL;
	return judged(record(check, v, v == RP_SKIP ?
			     rp_xstrdup("no valid measurement") : NULL),
		      measured, p->value, unit, op, p->name);
}

void rp_check_say(const char *check, enum rp_verdict v, const char *fmt, ...)
{
	va_list ap;
	char *r;

	if (bad_name(check))
		return;
	va_start(ap, fmt);
	r = rp_vformat_line(fmt, ap);
	va_end(ap);
	if (v == RP_FAIL)
		printf("# %s: %s\n", check, r);
	record(check, v, r);
}

/* How far past the limit, signed so that positive is the bad side. */
static double past(const struct rp_bound *b, double x)
{
	return b->is_min ? b->limit - x : x - b->limit;
}

static enum rp_verdict bound_verdict(const struct rp_bound *b)
{
	const struct rp_estimate *e = &b->est;
	double favourable = b->is_min ? e->hi : e->lo;

	if (!isfinite(e->value) || !isfinite(b->limit))
		return RP_SKIP;
	if (past(b, e->value) <= 0)
		return RP_PASS;
	return isfinite(favourable) && past(b, favourable) > 0 ? RP_FAIL : RP_SKIP;
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
	char m[NUM_LEN], lo[NUM_LEN], hi[NUM_LEN], l[NUM_LEN];
	enum rp_verdict v = bound_verdict(b);
	struct rp_check_rec *c;

	if (bad_name(check))
		return RP_ERROR;
	printf("# %s: measured %s (90%% CI %s..%s) vs limit %s %s (%s%s%s)\n",
	       check, num(m, b->est.value, unit), num(lo, b->est.lo, NULL),
	       num(hi, b->est.hi, NULL), op, num(l, b->limit, unit),
	       b->how ? b->how : "", b->how && b->param ? "; " : "",
	       b->param ? b->param->name : "");
	if (v == RP_SKIP && !isfinite(b->est.value))
		c = record(check, v, rp_xstrdup("no valid measurement"));
	else if (v == RP_SKIP)
		c = record(check, v, format_line(NOISY, num(m, b->est.value, NULL),
						 unit, num(l, b->limit, NULL), lo, hi));
	else
		c = record(check, v, b->how ? rp_xstrdup(b->how) : NULL);
	c->ci_lo = b->est.lo;
	c->ci_hi = b->est.hi;
	return judged(c, b->est.value, b->limit, unit, op, b->param ? b->param->name : NULL);
}

static int planned(void)
{
	return (rp_current_test && rp_current_test->nr_checks > 0 ?
		rp_current_test->nr_checks : 0) + (int)nr_more;
}

void rp_ktap_plan_check(const char *name)
{
	more = rp_xrealloc(more, (nr_more + 1) * sizeof(*more));
	more[nr_more++] = rp_xstrdup(name);
}

void rp_ktap_plan(void)
{
	ksft_set_plan(planned());
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
	"# %s: measured %s%s %% worse (%s %s vs %s of %s; p %s, MDE %s %%) vs limit <= %s %% (%s%s%s)\n"
#define CMP_NOISY \
	"too noisy to compare with %s: a change of %s %% could be missed, the limit is %s %%; more runs in the baseline or a quieter machine"

enum rp_verdict rp_check_cmp(const char *check, const struct rp_cmp *c,
			     const struct rp_metric *m, const struct rp_param *p,
			     double limit, const char *widened, const char *vs)
{
	double worse = m->higher_is_better ? -c->change_pct : c->change_pct;
	char pct[NUM_LEN], l[NUM_LEN], ma[NUM_LEN], mb[NUM_LEN], mde[NUM_LEN], pv[32];
	const char *w;
	struct rp_check_rec *rec;

	if (bad_name(check) || bad_param(check, p, true))
		return RP_ERROR;
	w = limit > p->value ? widened : NULL;	/* what widened it */
	snprintf(pv, sizeof(pv), "%.2g", c->p);
	printf(CMP_LINE, check, worse > 0 ? "+" : "", num(pct, worse, NULL),
	       rp_cmp_stat_name(c->stat), num(mb, c->vb, m->unit), num(ma, c->va, m->unit),
	       vs, pv, num(mde, c->mde_pct, NULL), num(l, limit, NULL), p->name,
	       w ? ", widened to " : "", w ? w : "");
	if (c->verdict == RP_CMP_REGRESSED)
		rec = record(check, RP_FAIL, format_line("regressed against %s (p %s)", vs, pv));
	else if (c->verdict != RP_CMP_INCONCLUSIVE)
		rec = record(check, RP_PASS, rp_xstrdup(rp_cmp_verdict_name(c->verdict)));
	else if (!c->a.n || !c->b.n)
		rec = record(check, RP_SKIP, format_line("no samples %s", c->b.n ?
				"in the baseline" : "in this run"));
	else
		rec = record(check, RP_SKIP, format_line(CMP_NOISY, vs, mde, l));
	return judged(rec, worse, limit, "%", "<=", p->name);
}

/*
 * Under the program's check names, the first not yet reported, then the
 * baseline's: KTAP parsers look results up by name.
 */
bool rp_ktap_fill(enum rp_verdict v, const char *reason)
{
	const char * const *names = rp_current_test ? rp_current_test->checks : NULL;
	bool any = (int)ksft_test_num() < planned();
	char buf[32];
	size_t i;

	while ((int)ksft_test_num() < planned()) {
		const char *name = NULL;

		for (i = 0; names && names[i] && !name; i++)
			name = rp_check_reported(names[i]) ? NULL : names[i];
		for (i = 0; i < nr_more && !name; i++)
			name = rp_check_reported(more[i]) ? NULL : more[i];
		if (!name) {
			snprintf(buf, sizeof(buf), "check_%u", ksft_test_num() + 1);
			name = buf;
		}
		record(name, v, rp_xstrdup(reason));
	}
	return any;
}

void rp_ktap_close(void)
{
	int extra = (int)ksft_test_num() - planned();

	if (extra < 0) {
		printf("# error: %d planned check(s) not reported\n", -extra);
		rp_ktap_fill(RP_ERROR, "not reported (bug in the test)");
	} else if (extra > 0) {
		/* The plan is wrong: make it fail so that it gets fixed. */
		printf("# error: %d check(s) reported beyond the plan of %d\n", extra, planned());
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

void rp_ktap_write(struct rp_jw *w)
{
	static const char * const verdicts[] = { "pass", "fail", "skip", "error" };
	size_t i;

	rp_jw_arr_begin(w, "checks");
	for (i = 0; i < nr_checks; i++) {
		const struct rp_check_rec *c = &checks[i];

		rp_jw_obj_begin(w, NULL);
		rp_jw_str(w, "name", c->name);
		rp_jw_str(w, "verdict", verdicts[c->verdict]);
		rp_jw_num(w, "measured", c->measured);
		rp_jw_num(w, "ci_lo", c->ci_lo);
		rp_jw_num(w, "ci_hi", c->ci_hi);
		rp_jw_str(w, "unit", c->unit);
		rp_jw_str(w, "op", c->op);
		rp_jw_num(w, "limit", c->limit);
		rp_jw_str(w, "param", c->param);
		rp_jw_str(w, "reason", c->reason);
		rp_jw_obj_end(w);
	}
	rp_jw_arr_end(w);
	rp_jw_obj_begin(w, "totals");
	rp_jw_int(w, "planned", planned());
	for (i = RP_PASS; i <= RP_ERROR; i++)
		rp_jw_int(w, verdicts[i], totals[i]);
	rp_jw_obj_end(w);
}
