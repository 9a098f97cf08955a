// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/stats.c: summaries, the two-sample tests and the
 * before/after verdict, on fixed and synthetic samples. Reference values
 * come from textbook examples (Wikipedia's Welch example, scipy's
 * Mann-Whitney example), closed forms (Student t with 2 degrees of
 * freedom) or exact enumeration in Python (fractions, no scipy).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

/*
 * Agreement to @digits significant digits (absolute near zero); prints
 * what differs.
 */
static bool near(const char *what, double got, double want, int digits)
{
	double d = fabs(got - want);
	double scale = fabs(want) > 1 ? fabs(want) : 1;

	if (d <= pow(10, -digits) * scale || (isnan(got) && isnan(want)) ||
	    (isinf(want) && got == want))
		return true;
	ksft_print_msg("%s: got %.17g want %.17g\n", what, got, want);
	return false;
}

/* Deterministic N(mean, sd) samples: xorshift64 + Box-Muller. */
static unsigned long long rng_state;

static double rng_unit(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return ((rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static void gauss(double *v, size_t n, double mean, double sd,
		  unsigned long long seed)
{
	size_t i;

	rng_state = seed;
	for (i = 0; i < n; i++)
		v[i] = mean + sd * sqrt(-2 * log(rng_unit())) *
		       cos(2 * M_PI * rng_unit());
}

static const double v8[] = { 3, 1, 4, 1, 5, 9, 2, 6 };

FIXTURE(stats) {
};

FIXTURE_SETUP(stats)
{
}

FIXTURE_TEARDOWN(stats)
{
	EXPECT_EQ(0, unit_leaks());
}

TEST_F(stats, samples_add_grows)
{
	struct rp_samples s = { 0 };
	int i;

	for (i = 0; i < 1000; i++)
		EXPECT_TRUE(rp_samples_add(&s, i * 0.5) == 0);
	EXPECT_TRUE(s.n == 1000);
	EXPECT_TRUE(s.cap >= 1000);
	EXPECT_TRUE(s.v[999] == 499.5);
	EXPECT_TRUE(s.v[17] == 8.5);
	rp_samples_free(&s);
	EXPECT_TRUE(!s.v);
	EXPECT_TRUE(!s.n);
	EXPECT_TRUE(!s.cap);
	rp_samples_free(&s);	/* idempotent */
}

TEST_F(stats, percentile_linear_like_numpy)
{
	static const struct { double p, want; } c[] = {
		{ 0, 1 }, { 10, 1 }, { 25, 1.75 }, { 50, 3.5 },
		{ 90, 6.8999999999999995 }, { 100, 9 },
		{ 33.3, 2.3309999999999995 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++)
		EXPECT_TRUE(near("percentile", rp_percentile(v8, 8, c[i].p),
				 c[i].want, 12));
}

TEST_F(stats, percentile_keeps_caller_order)
{
	double v[8];

	memcpy(v, v8, sizeof(v));
	rp_percentile(v, 8, 50);
	EXPECT_TRUE(!memcmp(v, v8, sizeof(v)));
}

TEST_F(stats, percentile_edges)
{
	double one = 42;

	EXPECT_TRUE(isnan(rp_percentile(NULL, 0, 50)));
	EXPECT_TRUE(rp_percentile(&one, 1, 0) == 42);
	EXPECT_TRUE(rp_percentile(&one, 1, 73) == 42);
	EXPECT_TRUE(rp_percentile(v8, 8, -5) == 1);
	EXPECT_TRUE(rp_percentile(v8, 8, 150) == 9);
	EXPECT_TRUE(isnan(rp_percentile(v8, 8, NAN)));
}

TEST_F(stats, summarize_known_values)
{
	struct rp_summary s;

	rp_summarize(v8, 8, &s);
	EXPECT_TRUE(s.n == 8);
	EXPECT_TRUE(s.min == 1);
	EXPECT_TRUE(s.max == 9);
	EXPECT_TRUE(near("mean", s.mean, 3.875, 15));
	EXPECT_TRUE(near("stddev", s.stddev, 2.748376143938713, 14));
	EXPECT_TRUE(near("median", s.median, 3.5, 17));
	EXPECT_TRUE(near("p10", s.p10, 1, 17));
	EXPECT_TRUE(near("p90", s.p90, 6.8999999999999995, 14));
	EXPECT_TRUE(near("mad", s.mad, 2, 17));
	/* n = 8: [x(1), x(8)] is the smallest order-statistic CI >= 95% */
	EXPECT_TRUE(s.ci_lo == 1);
	EXPECT_TRUE(s.ci_hi == 9);
}

TEST_F(stats, summarize_empty_is_nan)
{
	struct rp_summary s;

	memset(&s, 0x55, sizeof(s));
	rp_summarize(NULL, 0, &s);
	EXPECT_TRUE(s.n == 0);
	EXPECT_TRUE(isnan(s.min));
	EXPECT_TRUE(isnan(s.max));
	EXPECT_TRUE(isnan(s.mean));
	EXPECT_TRUE(isnan(s.stddev));
	EXPECT_TRUE(isnan(s.median));
	EXPECT_TRUE(isnan(s.p10));
	EXPECT_TRUE(isnan(s.p90));
	EXPECT_TRUE(isnan(s.mad));
	EXPECT_TRUE(isnan(s.ci_lo));
	EXPECT_TRUE(isnan(s.ci_hi));
}

TEST_F(stats, summarize_single_sample)
{
	struct rp_summary s;
	double x = -2.5;

	rp_summarize(&x, 1, &s);
	EXPECT_TRUE(s.n == 1);
	EXPECT_TRUE(s.min == x);
	EXPECT_TRUE(s.max == x);
	EXPECT_TRUE(s.mean == x);
	EXPECT_TRUE(s.stddev == 0);
	EXPECT_TRUE(s.median == x);
	EXPECT_TRUE(s.p10 == x);
	EXPECT_TRUE(s.p90 == x);
	EXPECT_TRUE(s.mad == 0);
	EXPECT_TRUE(s.ci_lo == x);
	EXPECT_TRUE(s.ci_hi == x);
}

/* Binomial order statistics: n=9 -> (2,8), n=20 -> (6,15), n=100 -> (40,61) */
TEST_F(stats, median_ci_order_statistics)
{
	static const size_t n[] = { 5, 6, 9, 20, 100 };
	static const double lo[] = { 1, 1, 2, 6, 40 };
	static const double hi[] = { 5, 6, 8, 15, 61 };
	double v[100];
	struct rp_summary s;
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(n); i++) {
		/* 1..n in a scrambled order */
		for (k = 0; k < n[i]; k++)
			v[k] = (double)((k * 37) % n[i] + 1);
		rp_summarize(v, n[i], &s);
		EXPECT_TRUE(s.ci_lo == lo[i] && s.ci_hi == hi[i])
			TH_LOG("n=%zu: CI [%g, %g] want [%g, %g]", n[i],
			       s.ci_lo, s.ci_hi, lo[i], hi[i]);
	}
}

/* The median's rank test, as rp_compare_stat() runs it: 5 a side and up */
static struct rp_cmp ranks(const double *a, size_t na, const double *b,
			   size_t nb)
{
	struct rp_cmp c;

	rp_compare_stat(a, na, b, nb, RP_CMP_MEDIAN, false, 5, 0.05, &c);
	return c;
}

/* Mann-Whitney's p; NAN if rp_compare_stat() took another test */
static double mw_p(const double *a, size_t na, const double *b, size_t nb)
{
	struct rp_cmp c = ranks(a, na, b, nb);

	return strcmp(c.test, "Mann-Whitney U") ? NAN : c.p;
}

TEST_F(stats, mann_whitney_exact_7v12)
{
	static const double a7[] = { 1.5, 3.5, 9.5, 11.5, 2.25, 4.75, 6 };
	static const double b12[] = { 2, 5, 7, 8, 10, 12, 13, 14, 15, 0.5,
				      16, 17 };

	EXPECT_TRUE(near("7v12", mw_p(a7, 7, b12, 12), 0.08311502738747321,
			 12));
	EXPECT_TRUE(near("12v7", mw_p(b12, 12, a7, 7), 0.08311502738747321,
			 12));
}

/* The largest exact case: checked against a Python recursion. */
TEST_F(stats, mann_whitney_exact_20v20)
{
	double a[20], b[20];
	int i;

	for (i = 0; i < 20; i++) {
		a[i] = i * 2.0 + 0.5;
		b[i] = i * 2.0 + 7.25;
	}
	EXPECT_TRUE(near("p", mw_p(a, 20, b, 20),
			 0.08591401998569383, 12));
}

TEST_F(stats, mann_whitney_normal_no_ties)
{
	double a[25], b[25];
	int i;

	for (i = 0; i < 25; i++) {
		a[i] = i;
		b[i] = i + 5.5;
	}
	EXPECT_TRUE(near("p", mw_p(a, 25, b, 25),
			 0.017925777357406487, 12));
}

/*
 * Ties force the normal approximation with tie and continuity correction
 * (7 vs 6 of these was scipy's 0.012999854364387314; rp_compare_stat()
 * gives so few ranks Welch's t): the formula in Python's floats.
 */
TEST_F(stats, mann_whitney_ties)
{
	static const double a7[] = { 1, 2, 2, 3, 3, 3, 4 };
	static const double b6[] = { 3, 4, 4, 5, 5, 6 };
	double a[21], b[18];
	int i;

	for (i = 0; i < 21; i++)
		a[i] = a7[i % 7];
	for (i = 0; i < 18; i++)
		b[i] = b6[i % 6];
	EXPECT_TRUE(near("p", mw_p(a, 21, b, 18),
			 0.000005747805151121408, 12));
}

/* Welch's t of the means, as rp_compare_stat() runs it: 2 a side and up */
static struct rp_cmp welch(const double *a, size_t na, const double *b,
			   size_t nb)
{
	struct rp_cmp c;

	rp_compare_stat(a, na, b, nb, RP_CMP_MEAN, false, 5, 0.05, &c);
	return c;
}

/* Its MDE, in the samples' unit */
static double welch_mde(const double *a, size_t na, const double *b,
			size_t nb)
{
	struct rp_cmp c = welch(a, na, b, nb);

	return c.mde_pct * fabs(c.va) / 100;
}

/* Wikipedia "Welch's t-test", example 1: t = -2.46, df = 25.0, p = 0.021 */
TEST_F(stats, welch_wikipedia_example)
{
	static const double a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9,
				    20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7,
				    21.4 };
	static const double b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8,
				    22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5,
				    24.4 };

	EXPECT_TRUE(near("p", welch(a, 15, b, 15).p, 0.02137800146286173,
			 9));
}

TEST_F(stats, welch_small_unequal)
{
	static const double a[] = { 1, 2, 3 }, b[] = { 2, 4, 6, 8 };

	/* t = -2.1213, df = 4.0755 */
	EXPECT_TRUE(near("p", welch(a, 3, b, 4).p, 0.09991286431180957, 9));
}

/* df = 2 has a closed form: p(|t| = 2) = 1 - 2 / sqrt(6) */
TEST_F(stats, welch_t_cdf_closed_form)
{
	double a[] = { 0, 2 };
	double b[] = { 2 * M_SQRT2, 2 + 2 * M_SQRT2 };

	EXPECT_TRUE(near("p", welch(a, 2, b, 2).p, 1 - 2 / sqrt(6), 12));
}

/* One zero-variance side: df = nb - 1 */
TEST_F(stats, welch_one_constant_side)
{
	static const double a[] = { 5, 5, 5 }, b[] = { 4, 6.5, 7, 5.5, 8 };

	EXPECT_TRUE(near("p", welch(a, 3, b, 5).p, 0.15325877700283252, 9));
}

TEST_F(stats, welch_degenerate)
{
	static const double c5[] = { 5, 5, 5 }, c6[] = { 6, 6 };

	EXPECT_TRUE(welch(v8, 8, c5, 0).p == 1);
	EXPECT_TRUE(welch(c5, 3, c5, 2).p == 1);
	EXPECT_TRUE(welch(c5, 3, c6, 2).p == 0);
}

TEST_F(stats, min_detectable_effect)
{
	static const double a[] = { 1, 2, 3 }, b[] = { 2, 4, 6, 8 };

	/*
	 * Student's quantiles at Welch's df = 4.0755 (mpmath): t(.975) =
	 * 2.756285, t(.8) = 0.938948; the normal ones would give 3.962.
	 */
	EXPECT_TRUE(near("a=.05 pw=.8", welch_mde(a, 3, b, 4),
			 5.225847757224544, 8));
}

static bool verdict_is(const char *what, const struct rp_cmp *c,
		       enum rp_cmp_verdict want)
{
	if (c->verdict == want)
		return true;
	ksft_print_msg("%s: %s (change %.3f%% p %.3g mde %.3f%%), want %s\n",
		       what, rp_cmp_verdict_name(c->verdict), c->change_pct,
		       c->p, c->mde_pct, rp_cmp_verdict_name(want));
	return false;
}

/* One side of a comparison: @v, or @n samples of N(@mean, @sd) */
struct side {
	const double *v;
	size_t n;
	double mean, sd;
	unsigned long long seed;
};

#define G(n_, mean_, sd_, seed_) { .n = n_, .mean = mean_, .sd = sd_, .seed = seed_ }
#define V(v_, n_) { .v = v_, .n = n_ }

static const double boot3[] = { 1.2345, 1.2347, 1.2344 };
static const double boot_slow[] = { 1.2345 * 1.03 }, boot_same[] = { 1.2346 };
static const double boots_noisy[] = { 1.20, 1.27, 1.23 };
static const double run3[] = { 1.2345, 1.2346, 1.2344 };
static const double run3_perm[] = { 1.2344, 1.2345, 1.2346 };
static const double run3_slow[] = { 1.2962, 1.2963, 1.2961 };
static const double k2[] = { 2, 2, 2 }, k2_1[] = { 2.1, 2.1, 2.1 };
static const double one100[] = { 100 }, three200[] = { 200, 201, 199 };

/*
 * The verdict on the median. One boot against three earlier ones
 * (boot_marker with a baseline): in an instruction-counted guest boots
 * repeat to ~0.01%, so +3% is far outside the prediction interval, and a
 * repeat is not; with 3% of noise between boots +3% cannot be told, nor
 * excluded. QEMU -icount boots, 3 runs each: 5% slower is a regression.
 */
static const struct cmp_case {
	const char *what;
	struct side a, b;
	bool higher_is_better;
	double allowed;
	enum rp_cmp_verdict want;
	double change, change_below;		/* 0: not checked */
	double p_below, mde_below, mde_above;	/* 0: not checked */
} cmp_cases[] = {
	{ "latency +20%", G(30, 100, 3, 1), G(30, 120, 3, 2), false, 5,
	  .want = RP_CMP_REGRESSED, .p_below = 0.000001 },
	{ "latency -20%", G(30, 100, 3, 3), G(30, 80, 3, 4), false, 5,
	  .want = RP_CMP_IMPROVED },
	{ "throughput +20%", G(30, 100, 3, 3), G(30, 120, 3, 5), true, 5,
	  .want = RP_CMP_IMPROVED },
	{ "throughput -10%", G(20, 1000, 10, 6), G(20, 900, 10, 7), true, 5,
	  .want = RP_CMP_REGRESSED, .change_below = -5 },
	{ "no shift", G(30, 100, 1, 8), G(30, 100, 1, 9), false, 5,
	  .want = RP_CMP_SAME, .mde_below = 5 },
	/* a real but tiny change is not a regression at allowed 5% */
	{ "+1%", G(30, 100, 0.2, 10), G(30, 101, 0.2, 11), false, 5,
	  .want = RP_CMP_SAME, .p_below = 0.05 },
	{ "30% noise", G(6, 100, 30, 12), G(6, 100, 30, 13), false, 5,
	  .want = RP_CMP_INCONCLUSIVE, .mde_above = 5 },
	{ "1 vs 1", V(one100, 1), V(three200, 1), false, 5,
	  .want = RP_CMP_INCONCLUSIVE, .change = 100, .mde_above = DBL_MAX },
	{ "3 vs 0", V(three200, 3), V(one100, 0), false, 5,
	  .want = RP_CMP_INCONCLUSIVE },
	{ "1 boot +3%", V(boot3, 3), V(boot_slow, 1), false, 2,
	  .want = RP_CMP_REGRESSED, .change = 3, .p_below = 0.001 },
	{ "1 boot same", V(boot3, 3), V(boot_same, 1), false, 2,
	  .want = RP_CMP_SAME, .mde_below = 0.1 },
	{ "noisy boots", V(boots_noisy, 3), V(boot_slow, 1), false, 2,
	  .want = RP_CMP_INCONCLUSIVE },
	/* symmetric: one baseline boot against several candidates */
	{ "1 base boot", V(boot_same, 1), V(boot3, 3), false, 2,
	  .want = RP_CMP_SAME },
	{ "3v3 +5%", V(run3, 3), V(run3_slow, 3), false, 2, .want = RP_CMP_REGRESSED,
	  .change = 100 * (1.2962 / 1.2345 - 1) },
	{ "3v3 same", V(run3, 3), V(run3_perm, 3), false, 2, .want = RP_CMP_SAME },
	/* perfectly repeatable: zero variance on both sides */
	{ "constant", V(k2, 3), V(k2, 3), false, 2, .want = RP_CMP_SAME },
	{ "constant +5%", V(k2, 3), V(k2_1, 3), false, 2, .want = RP_CMP_REGRESSED },
};

static const double *side_samples(const struct side *s, double *buf)
{
	if (s->v)
		return s->v;
	gauss(buf, s->n, s->mean, s->sd, s->seed);
	return buf;
}

TEST_F(stats, cmp_verdicts)
{
	const struct cmp_case *k;
	double a[30], b[30];
	struct rp_cmp c;

	for (k = cmp_cases; k < cmp_cases + ARRAY_SIZE(cmp_cases); k++) {
		rp_compare_stat(side_samples(&k->a, a), k->a.n,
				side_samples(&k->b, b), k->b.n, RP_CMP_MEDIAN,
				k->higher_is_better, k->allowed, 0.05, &c);
		EXPECT_TRUE(verdict_is(k->what, &c, k->want));
		EXPECT_TRUE(c.a.n == k->a.n && c.b.n == k->b.n);
		EXPECT_TRUE(k->a.n && k->b.n ?
			    near(k->what, c.change_pct,
				 100 * (c.b.median / c.a.median - 1), 12) :
			    isnan(c.change_pct));
		EXPECT_TRUE(!k->change ||
			    near(k->what, c.change_pct, k->change, 9));
		EXPECT_TRUE(!k->change_below || c.change_pct < k->change_below);
		EXPECT_TRUE(!k->p_below || c.p < k->p_below);
		EXPECT_TRUE(!k->mde_below || c.mde_pct < k->mde_below);
		EXPECT_TRUE(!k->mde_above || c.mde_pct > k->mde_above);
	}
}

/*
 * Latencies quantized to jiffies, like idle GP latencies at HZ=250: most
 * ops take 2 jiffies (8 ms) plus microseconds, some 1, 3 or 4; each run
 * has its own share of slow ops (@slow). @shift whole jiffies are added to
 * the 2-jiffy ops (slower FQS scans).
 */
static void jiffy_run(double *v, size_t n, double slow, int shift,
		      unsigned long long seed)
{
	size_t i;

	rng_state = seed;
	for (i = 0; i < n; i++) {
		double u = rng_unit(), k = 2 + shift;

		if (u < 0.04)
			k = 1;
		else if (u < 0.04 + slow)
			k = 3 + shift;
		else if (u < 0.04 + slow + 0.03)
			k = 4 + shift;
		v[i] = 4 * k + 0.02 * rng_unit();
	}
}

/* Three runs of 50 a side, per-run shares of slow ops in 10..25% */
static void jiffy_side(double *v, int shift, unsigned long long seed)
{
	int r;

	for (r = 0; r < 3; r++) {
		rng_state = seed * 3 + r + 1;
		jiffy_run(v + 50 * r, 50, 0.10 + 0.15 * rng_unit(), shift,
			  seed * 7919 + r);
	}
}

/*
 * Healthy vs healthy, 3 runs a side: "no significant change" every time at
 * the compare tool's default 10% (the variance-based MDE said ~10-13% for
 * such data: inconclusive); one more jiffy per GP (FQS 1 -> 2): regressed.
 */
TEST_F(stats, cmp_jiffy_quantized_conclusive)
{
	double a[150], b[150];
	int t, same = 0, regressed = 0;
	double worst_mde = 0;
	struct rp_cmp c;

	for (t = 0; t < 100; t++) {
		jiffy_side(a, 0, 2 * t + 1);
		jiffy_side(b, 0, 2 * t + 2);
		rp_compare_stat(a, 150, b, 150, RP_CMP_MEDIAN, false, 10, 0.05, &c);
		same += c.verdict == RP_CMP_SAME;
		if (c.mde_pct > worst_mde)
			worst_mde = c.mde_pct;
		jiffy_side(b, 1, 2 * t + 2);
		rp_compare_stat(a, 150, b, 150, RP_CMP_MEDIAN, false, 10, 0.05, &c);
		regressed += c.verdict == RP_CMP_REGRESSED;
	}
	TH_LOG("healthy: %d/100 same (worst MDE %.2f%%); FQS 1 -> 2: %d/100 regressed",
	       same, worst_mde, regressed);
	EXPECT_EQ(100, same);
	EXPECT_EQ(100, regressed);
}

/*
 * The false-alarm rate stays at alpha on tied, quantized data: over 2000
 * pairs of samples from one such distribution, p < 0.05 in at most
 * 5% + 3 standard errors of them, and REGRESSED never (the median does not
 * move by 10% without a real change).
 */
TEST_F(stats, cmp_jiffy_quantized_false_alarms)
{
	double a[60], b[60];
	int t, sig = 0, regressed = 0;
	struct rp_cmp c;

	for (t = 0; t < 2000; t++) {
		jiffy_run(a, 60, 0.15, 0, 4 * t + 1);
		jiffy_run(b, 60, 0.15, 0, 4 * t + 3);
		rp_compare_stat(a, 60, b, 60, RP_CMP_MEDIAN, false, 10, 0.05, &c);
		sig += c.p < 0.05;
		regressed += c.verdict == RP_CMP_REGRESSED;
	}
	TH_LOG("p < 0.05 in %d/2000, regressed %d", sig, regressed);
	EXPECT_TRUE(sig <= 2000 * (0.05 + 3 * sqrt(0.05 * 0.95 / 2000)));
	EXPECT_EQ(0, regressed);
}

/* For continuous normal data the rank MDE is the variance-based one. */
TEST_F(stats, rank_mde_normal_and_degenerate)
{
	double a[200], b[200];
	static const double k[] = { 3, 3, 3, 3, 4 }, k2[] = { 3, 3, 4, 4, 4 };
	struct rp_cmp c;
	double v;

	gauss(a, 200, 100, 5, 21);
	gauss(b, 200, 100, 5, 22);
	c = ranks(a, 200, b, 200);
	v = welch_mde(a, 200, b, 200);
	EXPECT_STREQ("Mann-Whitney U", c.test);
	EXPECT_TRUE(c.mde_pct * c.va / 100 > 0.9 * v &&
		    c.mde_pct * c.va / 100 < 1.2 * v)
		TH_LOG("rank MDE %g %% vs variance MDE %g", c.mde_pct, v);
	/* 5 vs 5 with ties: no shift gives ranks the power; Welch's t */
	EXPECT_STREQ("Welch t", ranks(k, 5, k2, 5).test);
}

/*
 * Boots in virtual time repeat to the microsecond: every sample of a side
 * is the same value. Whichever test decides (Welch's below 5 a side, the
 * rank test from there on, with its MDE from all-tied ranks), the same
 * value on both sides is no change, for sure (p 1, nothing undetectable),
 * and a boot 3% slower or faster in every repeat is a change.
 */
TEST_F(stats, cmp_exact_repeats_every_n)
{
	double a[12], same[12], slow[12], fast[12];
	struct rp_cmp c, d, e;
	char what[64];
	size_t n, i;

	for (i = 0; i < 12; i++) {
		a[i] = 1.570334;
		same[i] = 1.570334;
		slow[i] = 1.570334 * 1.03;
		fast[i] = 1.570334 * 0.97;
	}
	for (n = 2; n <= 12; n++) {
		rp_compare_stat(a, n, same, n, RP_CMP_MEDIAN, false, 2.5, 0.05, &c);
		rp_compare_stat(a, n, slow, n, RP_CMP_MEDIAN, false, 2.5, 0.05, &d);
		rp_compare_stat(a, n, fast, n, RP_CMP_MEDIAN, false, 2.5, 0.05, &e);
		snprintf(what, sizeof(what), "%zu v %zu exact, same", n, n);
		EXPECT_TRUE(verdict_is(what, &c, RP_CMP_SAME));
		EXPECT_TRUE(c.p == 1 && c.change_pct == 0 && c.mde_pct < 0.000001)
			TH_LOG("%s: p %g change %g mde %g", what, c.p,
			       c.change_pct, c.mde_pct);
		snprintf(what, sizeof(what), "%zu v %zu exact, +3%%", n, n);
		EXPECT_TRUE(verdict_is(what, &d, RP_CMP_REGRESSED));
		snprintf(what, sizeof(what), "%zu v %zu exact, -3%%", n, n);
		EXPECT_TRUE(verdict_is(what, &e, RP_CMP_IMPROVED));
	}
}

/*
 * A slow tail: every fifth idle GP of 16 ms waits 48 ms more (a throttled
 * idle CPU). The median cannot move; the mean (+60%) and p90 do.
 */
TEST_F(stats, cmp_stat_tail_moves_mean_and_p90_not_median)
{
	double a[50], b[50];
	struct rp_cmp med, mean, p90;
	int i;

	for (i = 0; i < 50; i++) {
		a[i] = 16 + 0.001 * (i % 3);
		b[i] = a[i] + (i % 5 == 4 ? 48 : 0);
	}
	rp_compare_stat(a, 50, b, 50, RP_CMP_MEDIAN, false, 10, 0.05, &med);
	rp_compare_stat(a, 50, b, 50, RP_CMP_MEAN, false, 10, 0.05, &mean);
	rp_compare_stat(a, 50, b, 50, RP_CMP_P90, false, 10, 0.05, &p90);
	EXPECT_TRUE(verdict_is("median of a slow tail", &med, RP_CMP_SAME));
	EXPECT_TRUE(verdict_is("mean of a slow tail", &mean, RP_CMP_REGRESSED));
	EXPECT_TRUE(verdict_is("p90 of a slow tail", &p90, RP_CMP_REGRESSED));
	EXPECT_TRUE(near("mean change", mean.change_pct, 100 * 9.6 / mean.va, 6));
	EXPECT_TRUE(mean.vb > mean.va && p90.vb > 60);
	EXPECT_TRUE(!strcmp(med.test, "Mann-Whitney U"));
	EXPECT_TRUE(!strcmp(mean.test, "Welch t"));
	EXPECT_TRUE(!strcmp(p90.test, "bootstrap of p90"));
	EXPECT_TRUE(mean.stat == RP_CMP_MEAN && p90.stat == RP_CMP_P90);
}

/* Exact repeats (instruction-counted guests): no spread, no alarm. */
TEST_F(stats, cmp_stat_exact_repeats)
{
	double a[20], late[20];
	struct rp_cmp c, d;
	int i, st;

	for (i = 0; i < 20; i++) {
		a[i] = 16;
		late[i] = 24;
	}
	for (st = RP_CMP_MEDIAN; st <= RP_CMP_P90; st++) {
		rp_compare_stat(a, 20, a, 20, st, false, 10, 0.05, &c);
		rp_compare_stat(a, 20, late, 20, st, false, 10, 0.05, &d);
		EXPECT_TRUE(verdict_is(rp_cmp_stat_name(st), &c, RP_CMP_SAME));
		EXPECT_TRUE(verdict_is(rp_cmp_stat_name(st), &d,
				       RP_CMP_REGRESSED));
		EXPECT_TRUE(near("+50%", d.change_pct, 50, 12));
	}
}

/*
 * Several runs a side: the runs' statistics are the unit. Run medians of
 * 8 or 16 ms by chance (a healthy bimodal level) are no regression, every
 * run 8 -> 12 ms is one, exactly repeating runs are the same.
 */
TEST_F(stats, cmp_runs_unit_of_replication)
{
	static const double lv_a[] = { 8, 16, 8 }, lv_b[] = { 16, 8, 16 };
	double a[45], b[45], s8[45], s12[45];
	size_t r[3] = { 15, 15, 15 };
	struct rp_cmp pooled, runs, shift, same;
	int i;

	for (i = 0; i < 45; i++) {
		a[i] = lv_a[i / 15] + 0.01 * (i % 5);
		b[i] = lv_b[i / 15] + 0.01 * (i % 5);
		s8[i] = 8 + 0.01 * (i % 7) + 0.002 * (i / 15);
		s12[i] = 12 + 0.01 * (i % 7) - 0.002 * (i / 15);
	}
	rp_compare_stat(a, 45, b, 45, RP_CMP_MEDIAN, false, 10, 0.05, &pooled);
	rp_compare_runs(a, r, 3, b, r, 3, RP_CMP_MEDIAN, false, 10, 0.05, &runs);
	rp_compare_runs(s8, r, 3, s12, r, 3, RP_CMP_MEDIAN, false, 10, 0.05,
			&shift);
	rp_compare_runs(s8, r, 3, s8, r, 3, RP_CMP_MEAN, false, 10, 0.05, &same);
	EXPECT_TRUE(verdict_is("pooled bimodal", &pooled, RP_CMP_REGRESSED));
	EXPECT_TRUE(verdict_is("runs bimodal", &runs, RP_CMP_INCONCLUSIVE));
	EXPECT_TRUE(verdict_is("runs 8 -> 12", &shift, RP_CMP_REGRESSED));
	EXPECT_TRUE(verdict_is("runs the same", &same, RP_CMP_SAME));
	EXPECT_TRUE(near("+50%", shift.change_pct, 50, 1));
	EXPECT_EQ(45, (int)runs.a.n);
	EXPECT_TRUE(runs.stat == RP_CMP_MEDIAN &&
		    !strcmp(runs.test, "Welch t over the runs' medians"));
}

/*
 * Three baseline runs whose medians agree exactly, by chance, while their
 * samples spread 5% (a CPU time split sampled by the tick): one more run
 * 7% off is within what sampling gives a run, not a regression; 50% off
 * is one, and a run whose samples also repeat exactly is judged as tight.
 */
TEST_F(stats, cmp_runs_sampling_floor)
{
	static const double base[] = { 0.34, 0.36, 0.36, 0.38, 0.40,
				       0.33, 0.35, 0.36, 0.37, 0.39,
				       0.35, 0.34, 0.36, 0.39, 0.38 };
	static const double near7[] = { 0.35, 0.38, 0.385, 0.39, 0.41 };
	static const double far[] = { 0.50, 0.53, 0.54, 0.56, 0.58 };
	static const double k[] = { 8, 8, 8, 8, 8, 8, 8, 8, 8 };
	static const double k12[] = { 12, 12, 12 };
	size_t r[3] = { 5, 5, 5 }, one = 5, rk[3] = { 3, 3, 3 }, onek = 3;
	struct rp_cmp c, d, e;

	rp_compare_runs(base, r, 3, near7, &one, 1, RP_CMP_MEDIAN, false, 5,
			0.05, &c);
	rp_compare_runs(base, r, 3, far, &one, 1, RP_CMP_MEDIAN, false, 5,
			0.05, &d);
	rp_compare_runs(k, rk, 3, k12, &onek, 1, RP_CMP_MEDIAN, false, 5,
			0.05, &e);
	EXPECT_TRUE(verdict_is("+7% within sampling", &c, RP_CMP_INCONCLUSIVE));
	EXPECT_TRUE(near("+7%", c.change_pct, 6.944, 2));
	EXPECT_TRUE(c.p > 0.05);
	EXPECT_TRUE(verdict_is("+50%", &d, RP_CMP_REGRESSED));
	EXPECT_TRUE(verdict_is("exact 8 -> 12", &e, RP_CMP_REGRESSED));
	EXPECT_TRUE(!strcmp(c.test,
			    "Student t prediction interval over the runs"));
}

/*
 * A latency of two modes, 16 and 24 ms, whose shares vary between runs
 * (a tracer switch's grace periods on ticks): the runs' medians land on
 * either mode, so three runs against three cannot say "same" on the
 * median; their 25th percentiles are the fast mode in every run, which
 * says "same", and moves with every GP a jiffy (4 ms) later.
 */
static void two_modes(double *v, int runs, int per_run, const int *slow,
		      double shift)
{
	int r, i;

	for (r = 0; r < runs; r++)
		for (i = 0; i < per_run; i++)
			v[r * per_run + i] = shift + 0.01 * (i % 5) +
					     (i < slow[r] ? 24 : 16);
}

TEST_F(stats, cmp_runs_p25_two_modes)
{
	static const int sa[] = { 20, 27, 22 }, sb[] = { 19, 26, 30 };
	double a[150], b[150], late[150];
	size_t r[3] = { 50, 50, 50 };
	struct rp_cmp med, p25, reg;

	two_modes(a, 3, 50, sa, 0);
	two_modes(b, 3, 50, sb, 0);
	two_modes(late, 3, 50, sb, 8);
	rp_compare_runs(a, r, 3, b, r, 3, RP_CMP_MEDIAN, false, 10, 0.05, &med);
	rp_compare_runs(a, r, 3, b, r, 3, RP_CMP_P25, false, 10, 0.05, &p25);
	rp_compare_runs(a, r, 3, late, r, 3, RP_CMP_P25, false, 10, 0.05, &reg);
	EXPECT_TRUE(med.verdict != RP_CMP_SAME);
	EXPECT_TRUE(verdict_is("p25 of the same kernel", &p25, RP_CMP_SAME));
	EXPECT_TRUE(verdict_is("p25, a jiffy later", &reg, RP_CMP_REGRESSED));
	EXPECT_TRUE(near("p25 +50%", reg.change_pct, 50, 2));
	EXPECT_TRUE(!strcmp(p25.test, "Welch t over the runs' p25s"));
	EXPECT_TRUE(near("p25 of one run", rp_cmp_stat_of(a, 50, RP_CMP_P25),
			 16.02, 3));
}

/* Two exact boots: the same jiffy-quantized samples are no change. */
TEST_F(stats, cmp_stat_same_samples_same)
{
	double a[50], b[50];
	struct rp_cmp c;
	int i, st;

	for (i = 0; i < 50; i++) {
		a[i] = i % 10 == 9 ? 24 : 16 + 0.001 * (i % 3);
		b[49 - i] = a[i];
	}
	for (st = RP_CMP_MEDIAN; st < RP_CMP_NR; st++) {
		rp_compare_stat(a, 50, b, 50, st, false, 10, 0.05, &c);
		EXPECT_TRUE(verdict_is(rp_cmp_stat_name(st), &c, RP_CMP_SAME));
		EXPECT_EQ(0, c.mde_pct);
	}
}

TEST_F(stats, cmp_stat_one_vs_many_and_names)
{
	double base[] = { 10, 10.01, 9.99 }, slow = 12;
	enum rp_cmp_stat st;
	struct rp_cmp c;

	rp_compare_stat(base, 3, &slow, 1, RP_CMP_P90, false, 5, 0.05, &c);
	EXPECT_TRUE(verdict_is("one slow boot, p90", &c, RP_CMP_REGRESSED));
	EXPECT_TRUE(!strcmp(c.test, "Student t prediction interval"));
	rp_compare_stat(base, 1, &slow, 1, RP_CMP_MEAN, false, 5, 0.05, &c);
	EXPECT_TRUE(verdict_is("1 v 1", &c, RP_CMP_INCONCLUSIVE));
	EXPECT_TRUE(!rp_cmp_stat_parse("mean", &st) && st == RP_CMP_MEAN);
	EXPECT_TRUE(!rp_cmp_stat_parse("p90", &st) && st == RP_CMP_P90);
	EXPECT_TRUE(!rp_cmp_stat_parse("median", &st) && st == RP_CMP_MEDIAN);
	EXPECT_TRUE(!rp_cmp_stat_parse("p25", &st) && st == RP_CMP_P25);
	EXPECT_TRUE(rp_cmp_stat_parse("p99", &st) == -1);
	EXPECT_TRUE(!strcmp(rp_cmp_stat_name(RP_CMP_P90), "p90"));
}

TEST_F(stats, cmp_verdict_names)
{
	EXPECT_TRUE(!strcmp(rp_cmp_verdict_name(RP_CMP_SAME),
			    "no significant change"));
	EXPECT_TRUE(!strcmp(rp_cmp_verdict_name(RP_CMP_IMPROVED), "improved"));
	EXPECT_TRUE(!strcmp(rp_cmp_verdict_name(RP_CMP_REGRESSED), "regressed"));
	EXPECT_TRUE(!strcmp(rp_cmp_verdict_name(RP_CMP_INCONCLUSIVE),
			    "inconclusive"));
}

/* NaNs are not meaningful input, but must neither crash nor hang. */
TEST_F(stats, nan_input_survives)
{
	double v[] = { 1, NAN, 3, NAN, 2 };
	struct rp_summary s;
	struct rp_cmp c;

	rp_summarize(v, 5, &s);
	mw_p(v, 5, v8, 8);
	welch(v, 5, v8, 8);
	rp_compare_stat(v, 5, v8, 8, RP_CMP_MEDIAN, false, 5, 0.05, &c);
	EXPECT_TRUE(s.n == 5);
	EXPECT_TRUE(s.min == 1);
}

/* The block bootstrap: reproducible, honest, and it sees the tail. */
TEST_F(stats, bootstrap_reproducible)
{
	double v[60];
	struct rp_estimate a, b;
	int i;

	for (i = 0; i < 60; i++)
		v[i] = 8 + (i * 7919 % 13) / 10.0;
	rp_bootstrap(v, 60, RP_CMP_MEAN, NULL, 0, 0, RP_BOOT_ONE, 0.9, &a);
	rp_bootstrap(v, 60, RP_CMP_MEAN, NULL, 0, 0, RP_BOOT_ONE, 0.9, &b);
	EXPECT_TRUE(!memcmp(&a, &b, sizeof(a)));
	EXPECT_TRUE(a.lo <= a.value);
	EXPECT_TRUE(a.value <= a.hi);
	EXPECT_TRUE(a.lo < a.hi);
	EXPECT_TRUE(near("mean", a.value, rp_cmp_stat_of(v, 60, RP_CMP_MEAN), 12));
}

TEST_F(stats, bootstrap_constant_is_exact)
{
	double v[] = { 16, 16, 16, 16, 16, 16, 16, 16 };
	struct rp_estimate e;

	EXPECT_TRUE(!rp_bootstrap(v, 8, RP_CMP_P90, v, 8, RP_CMP_P90, RP_BOOT_DIFF, 0.9, &e));
	EXPECT_TRUE(e.value == 0);
	EXPECT_TRUE(e.lo == 0);
	EXPECT_TRUE(e.hi == 0);
}

/* A shift of 5 between two sides: the interval of the difference holds it. */
TEST_F(stats, bootstrap_diff_and_ratio)
{
	double a[40], b[40];
	struct rp_estimate d, r;
	int i;

	for (i = 0; i < 40; i++) {
		b[i] = 10 + (i % 5) * 0.2;
		a[i] = b[i] + 5;
	}
	rp_bootstrap(a, 40, RP_CMP_MEAN, b, 40, RP_CMP_MEAN, RP_BOOT_DIFF, 0.9, &d);
	rp_bootstrap(a, 40, RP_CMP_MEAN, b, 40, RP_CMP_MEAN, RP_BOOT_RATIO, 0.9, &r);
	EXPECT_TRUE(near("diff", d.value, 5, 9));
	EXPECT_TRUE(d.lo < 5);
	EXPECT_TRUE(d.hi > 5);
	EXPECT_TRUE(d.lo > 4.5);
	EXPECT_TRUE(d.hi < 5.5);
	EXPECT_TRUE(near("ratio", r.value, 15.4 / 10.4, 9));
}

/*
 * The regression the median misses: one op in ten 30x slower. The mean
 * and its favourable (lower) bound both stand far above the median.
 */
TEST_F(stats, bootstrap_sees_the_tail)
{
	double v[100];
	struct rp_estimate e;
	struct rp_summary s;
	int i;

	for (i = 0; i < 100; i++)
		v[i] = i % 10 == 3 ? 480 : 16;
	rp_summarize(v, 100, &s);
	rp_bootstrap(v, 100, RP_CMP_MEAN, NULL, 0, 0, RP_BOOT_ONE, 0.9, &e);
	EXPECT_TRUE(s.median == 16);
	EXPECT_TRUE(near("mean", e.value, 62.4, 9));
	EXPECT_TRUE(e.lo > 2 * s.median);
}

TEST_F(stats, bootstrap_refuses_bad_input)
{
	double v[] = { 1, 2, 3 };
	struct rp_estimate e;

	EXPECT_EQ(-EINVAL, rp_bootstrap(v, 1, RP_CMP_MEAN, NULL, 0, 0,
					RP_BOOT_ONE, 0.9, &e));
	EXPECT_TRUE(isnan(e.value));
	EXPECT_EQ(-EINVAL, rp_bootstrap(v, 3, RP_CMP_MEAN, v, 1, RP_CMP_MEAN,
					RP_BOOT_DIFF, 0.9, &e));
	EXPECT_EQ(-EINVAL, rp_bootstrap(v, 3, RP_CMP_MEAN, NULL, 0, 0,
					RP_BOOT_ONE, 1, &e));
}

/* One more run's median: t(0.95, r - 1) * sd * sqrt(1 + 1/r), % of mean. */
TEST(run_spread)
{
	const double drift[] = { 1.16, 1.28, 1.18 };
	const double same[] = { 2, 2, 2, 2 };

	/* t(0.95, 2) = 2.920: 2.920 * 0.0643 * 1.155 / 1.2067 = 17.97% */
	EXPECT_TRUE(fabs(rp_run_spread_pct(drift, 3, 0.05) - 17.97) < 0.05)
		TH_LOG("%g", rp_run_spread_pct(drift, 3, 0.05));
	EXPECT_EQ(0, rp_run_spread_pct(same, 4, 0.05));
	EXPECT_EQ(0, rp_run_spread_pct(drift, 1, 0.05));
	EXPECT_EQ(0, rp_run_spread_pct(drift, 3, 0));
}

TEST_HARNESS_MAIN
