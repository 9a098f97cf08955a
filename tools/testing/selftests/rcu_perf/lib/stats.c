// SPDX-License-Identifier: GPL-2.0
/*
 * Summaries of samples and two-sample tests. No surprise NaN: too few samples
 * give p = 1 and an infinite MDE, no spread p = 1 if equal and 0 if not.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int rp_samples_add(struct rp_samples *s, double x)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		double *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = x;
	return 0;
}

void rp_samples_free(struct rp_samples *s)
{
	free(s->v);
	*s = (struct rp_samples){ 0 };
}

/* A total order even with NaNs (last), so that qsort() stays well defined. */
static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

static double *sorted_copy(const double *v, size_t n)
{
	double *c = n ? rp_xrealloc(NULL, n * sizeof(*c)) : NULL;

	if (c) {
		memcpy(c, v, n * sizeof(*c));
		qsort(c, n, sizeof(*c), cmp_double);
	}
	return c;
}

/* numpy's "linear": rank p/100 * (n - 1), exact at samples and ties */
static double pct_sorted(const double *s, size_t n, double p)
{
	double r = p / 100.0 * (double)(n - 1), f;
	size_t i;

	if (!n || isnan(p))
		return NAN;
	if (p <= 0 || p >= 100)
		return s[p <= 0 ? 0 : n - 1];
	i = (size_t)r;
	f = r - (double)i;
	if (f == 0 || s[i] == s[i + 1])
		return s[i];
	return s[i] + f * (s[i + 1] - s[i]);
}

double rp_percentile(const double *v, size_t n, double p)
{
	double *s = sorted_copy(v, n);
	double r = pct_sorted(s, n, p);

	free(s);
	return r;
}

/*
 * 1-based rank j of the ~95% distribution-free CI [x_(j), x_(n+1-j)] of the
 * median: the largest j with P(Bin(n, 1/2) <= j - 1) <= 0.025; 0 when even
 * [min, max] covers less (n < 6).
 */
static size_t median_ci_rank(size_t n)
{
	double lc = lgamma((double)n + 1) - (double)n * M_LN2;
	double cdf = 0;
	size_t k;

	for (k = 0; k < n / 2; k++) {
		cdf += exp(lc - lgamma((double)k + 1) - lgamma((double)(n - k) + 1));
		if (cdf > 0.025)
			break;	/* P(B <= k - 1) <= 0.025 */
	}
	return k;
}

static double mean_of(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

/* Sample variance (n - 1), two-pass for accuracy; 0 for n < 2. */
static double var_of(const double *v, size_t n, double mean)
{
	double ss = 0;
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return ss / (double)(n - 1);
}

void rp_summarize(const double *v, size_t n, struct rp_summary *s)
{
	double *c = sorted_copy(v, n);
	size_t i, j;

	if (!c) {
		*s = (struct rp_summary){ .min = NAN, .max = NAN, .mean = NAN,
			.stddev = NAN, .median = NAN, .p10 = NAN, .p90 = NAN,
			.mad = NAN, .ci_lo = NAN, .ci_hi = NAN };
		return;
	}
	s->n = n;
	s->min = c[0];
	s->max = c[n - 1];
	s->mean = mean_of(c, n);
	s->stddev = sqrt(var_of(c, n, s->mean));
	s->median = pct_sorted(c, n, 50);
	s->p10 = pct_sorted(c, n, 10);
	s->p90 = pct_sorted(c, n, 90);
	j = median_ci_rank(n);
	s->ci_lo = j ? c[j - 1] : c[0];
	s->ci_hi = j ? c[n - j] : c[n - 1];

	for (i = 0; i < n; i++)
		c[i] = fabs(c[i] - s->median);
	qsort(c, n, sizeof(*c), cmp_double);
	s->mad = pct_sorted(c, n, 50);
	free(c);
}

/* Upper tail of the standard normal, P(Z > z). */
static double norm_sf(double z)
{
	return 0.5 * erfc(z / M_SQRT2);
}

/* Modified Lentz: no denominator is let near zero. */
static double nonzero(double v)
{
	return fabs(v) < DBL_MIN / DBL_EPSILON ? DBL_MIN / DBL_EPSILON : v;
}

/* The continued fraction of I_x(a, b): an even and an odd term per step m */
static double betacf(double a, double b, double x)
{
	double c = 1, d = 1 / nonzero(1 - (a + b) * x / (a + 1)), h = d, aa, del;
	int k, m;

	for (k = 2; k <= 2001; k++) {
		m = k / 2;
		if (k % 2)
			aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		else
			aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 / nonzero(1 + aa * d);
		c = nonzero(1 + aa / c);
		del = d * c;
		h *= del;
		if (k % 2 && fabs(del - 1) < 4 * DBL_EPSILON)
			break;
	}
	return h;
}

/* Regularized incomplete beta function I_x(a, b), a, b > 0. */
static double betai(double a, double b, double x)
{
	double lbt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	/* The fraction converges fast below the mean of the distribution. */
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

/* Two-sided p-value of Student's t with df degrees of freedom (inf: Z) */
static double student_t_p2(double t, double df)
{
	if (isinf(df))
		return 2 * norm_sf(fabs(t));
	return isnan(t) ? 1 : isinf(t) ? 0 : betai(df / 2, 0.5, df / (df + t * t));
}

/* The t with one-sided tail probability @p_one at @df, by bisection. */
static double student_t_quantile(double p_one, double df)
{
	double lo = 0, hi = 1e4, mid;
	int i;

	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (student_t_p2(mid, df) > 2 * p_one)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double rp_run_spread_pct(const double *run_medians, size_t r, double alpha)
{
	double mean, sd;

	if (r < 2 || !(alpha > 0 && alpha < 1))
		return 0;
	mean = mean_of(run_medians, r);
	sd = sqrt(var_of(run_medians, r, mean));
	if (mean == 0 || !isfinite(mean) || !isfinite(sd))
		return 0;
	return 100 * student_t_quantile(alpha, r - 1) * sd * sqrt(1 + 1.0 / r) / fabs(mean);
}

/* The U of (a, b shifted by d), a and b sorted: sum over b of a below */
static double shifted_u(const double *a, size_t na, const double *b, size_t nb, double d)
{
	size_t i, lo = 0, hi = 0;
	double s = 0;

	for (i = 0; i < nb; i++) {
		double y = b[i] + d;

		while (lo < na && cmp_double(&a[lo], &y) < 0)
			lo++;
		if (hi < lo)
			hi = lo;
		while (hi < na && cmp_double(&a[hi], &y) <= 0)
			hi++;
		s += (double)lo + 0.5 * (double)(hi - lo);
	}
	return s;
}

/* The tie correction sum(t^3 - t) over the values of sorted a and b */
static double tie_sum(const double *a, size_t na, const double *b, size_t nb)
{
	size_t i = 0, j = 0;
	double tie = 0;

	while (i < na || j < nb) {
		double v = j == nb || (i < na && cmp_double(&a[i], &b[j]) < 0) ? a[i] : b[j], t = 0;

		for (; i < na && !cmp_double(&a[i], &v); i++)
			t++;
		for (; j < nb && !cmp_double(&b[j], &v); j++)
			t++;
		tie += t * t * t - t;
	}
	return tie;
}

#define MW_EXACT_MAX	20

/*
 * P(U <= u) under H0 for sizes m, n without ties. The number of
 * arrangements with each U is the coefficient of the Gaussian binomial
 * [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i); every
 * intermediate is an integer below C(40, 20) < 2^53, so doubles are exact.
 */
static double mw_exact_cdf(size_t m, size_t n, size_t u)
{
	/* the intermediate product reaches degree m * n + m */
	double f[MW_EXACT_MAX * (MW_EXACT_MAX + 1) + 1] = { 1 };
	double below = 0, total = 0;
	size_t i, k, deg = 0;

	for (i = 1; i <= m; i++) {
		size_t mul = n + i;

		deg += n;
		/* multiply by (1 - q^mul), then divide by (1 - q^i) */
		for (k = deg + i; k >= mul; k--)
			f[k] -= f[k - mul];
		/* exact: what it leaves above deg is 0 */
		for (k = i; k <= deg + i; k++)
			f[k] += f[k - i];
	}
	for (k = 0; k <= m * n; k++) {
		total += f[k];
		if (k <= u)
			below += f[k];
	}
	return below / total;
}

/* Fewer a side get Welch's t: 3 vs 3 ranks give p >= 0.1 (4 vs 4: 0.029) */
#define CMP_MIN_RANK_N	5
#define CMP_POWER	0.8

/* A zero reference makes any non-zero d infinite. */
static double pct_of(double d, double ref)
{
	if (ref == 0)
		return d == 0 ? 0 : copysign(INFINITY, d);
	return 100 * d / fabs(ref);
}

/* t(alpha / 2) + t(1 - power) at @df: the MDE in standard errors */
static double mde_z(double alpha, double df)
{
	return student_t_quantile(alpha / 2, df) + student_t_quantile(1 - CMP_POWER, df);
}

/*
 * Student's t of x - y of standard error @se (no spread: no doubt), and
 * its MDE, % of out->va. Welch's takes Student's quantiles for it: the
 * normal's give df 2-4 too small an MDE.
 */
static void t_test(double x, double y, double se, double df, double alpha,
		   bool welch, struct rp_cmp *out)
{
	double z = se == 0 ? 0 : mde_z(alpha, welch ? df : INFINITY);

	out->p = se == 0 || isnan(se) ? x == y : student_t_p2((x - y) / se, df);
	out->mde_pct = pct_of(z * se, out->va);
}

/* Satterthwaite's df of a sum of two variances with @dfa and @dfb */
static double satterthwaite(double ta, double dfa, double tb, double dfb)
{
	return (ta + tb) * (ta + tb) / ((dfa > 0 ? ta * ta / dfa : 0) +
					(dfb > 0 ? tb * tb / dfb : 0));
}

/* Welch's t of the means, @na and @nb >= 2 */
static void welch_test(const double *a, size_t na, const double *b,
		       size_t nb, double alpha, struct rp_cmp *out)
{
	double ta = var_of(a, na, mean_of(a, na)) / (double)na;
	double tb = var_of(b, nb, mean_of(b, nb)) / (double)nb;

	t_test(mean_of(a, na), mean_of(b, nb), sqrt(ta + tb),
	       satterthwaite(ta, na - 1.0, tb, nb - 1.0), alpha, true, out);
	out->test = "Welch t";
}

/* Subtract the median of sorted v from each value: still sorted. */
static void centre(double *v, size_t n)
{
	double m = pct_sorted(v, n, 50);
	size_t i;

	for (i = 0; i < n; i++)
		v[i] -= m;
}

/*
 * The median's test from CMP_MIN_RANK_N a side: Mann-Whitney's U, and its
 * MDE after Noether (JASA 1987): the shift d of b that moves P(b + d > a),
 * from the samples centred on their medians, by (z(1 - alpha/2) +
 * z(power)) null standard deviations of U / (na nb). For jiffy-quantized
 * latencies a fraction of a jiffy reorders most pairs, which a variance
 * dominated by whole-jiffy outliers calls invisible. False if no shift
 * gives the test that power, which depends on the sample sizes (and
 * ties) only (5 vs 5 with ties): Welch's t then.
 */
static bool rank_test(const double *a, size_t na, const double *b,
		      size_t nb, double alpha, struct rp_cmp *out)
{
	double nn = (double)na * (double)nb, n = (double)(na + nb);
	double *sa = sorted_copy(a, na), *sb = sorted_copy(b, nb);
	double u, mu = nn / 2, tie, v12, need, base, span, mde = NAN;
	int dir, it;

	out->test = "Mann-Whitney U";
	/* U of a: the pairs not counted for b */
	u = nn - shifted_u(sa, na, sb, nb, 0);
	tie = tie_sum(sa, na, sb, nb);
	/* 12 var(U) / (na nb) under H0, with the tie correction */
	v12 = (n + 1) - tie / (n * (n - 1));
	/* U is symmetric about mu: the exact tail nearer to u; var 0: all equal */
	if (!tie && na <= MW_EXACT_MAX && nb <= MW_EXACT_MAX)
		out->p = 2 * mw_exact_cdf(na, nb, (size_t)((u < mu ? u : 2 * mu - u) + 0.5));
	else if (nn / 12 * v12 > 0)
		out->p = 2 * norm_sf(fmax((fabs(u - mu) - 0.5) / sqrt(nn / 12 * v12), 0));
	if (out->p > 1)
		out->p = 1;
	if (!isfinite(sa[0]) || !isfinite(sa[na - 1]) || !isfinite(sb[0]) || !isfinite(sb[nb - 1]))
		goto out;
	/* in standard deviations of U / (na nb) */
	need = mde_z(alpha, INFINITY) * sqrt(v12 / (12 * nn));
	span = fmax(sa[na - 1], sb[nb - 1]) - fmin(sa[0], sb[0]);
	centre(sa, na);
	centre(sb, nb);
	base = shifted_u(sa, na, sb, nb, 0) / nn;
	mde = 0;
	/* Past the whole range the AUC is 0 or 1: no shift does more. */
	for (dir = -1; dir <= 1 && !isinf(mde); dir += 2) {
		double lo = 0, hi = 2 * span + DBL_MIN;

		if (fabs(shifted_u(sa, na, sb, nb, dir * hi) / nn - base) < need)
			hi = INFINITY;	/* nothing to bisect */
		for (it = 0; it < 100 && hi - lo > 4 * DBL_EPSILON * (hi + lo); it++) {
			double mid = (lo + hi) / 2;

			if (fabs(shifted_u(sa, na, sb, nb, dir * mid) / nn - base) >= need)
				hi = mid;
			else
				lo = mid;
		}
		mde = fmax(mde, hi);
	}
out:
	free(sa);
	free(sb);
	out->mde_pct = pct_of(mde, out->va);
	return !isinf(mde);
}

static const struct {
	const char *name, *runs_test;
	double pct;		/* the percentile it is; 0 for the mean */
} stats[RP_CMP_NR] = {
	[RP_CMP_MEDIAN] = { "median", "Welch t over the runs' medians", 50 },
	[RP_CMP_MEAN] = { "mean", "Welch t over the runs' means", 0 },
	[RP_CMP_P90] = { "p90", "Welch t over the runs' p90s", 90 },
	[RP_CMP_P25] = { "p25", "Welch t over the runs' p25s", 25 },
};

double rp_cmp_stat_of(const double *v, size_t n, enum rp_cmp_stat st)
{
	/* no sample: rp_percentile()'s NAN, not the mean's 0 / 0 */
	return st == RP_CMP_MEAN && n ? mean_of(v, n) : rp_percentile(v, n, stats[st].pct);
}

/*
 * One run against several (a boot against earlier boots): Student's
 * prediction interval, for every statistic of a single sample is itself.
 */
static void one_vs_many(const double *a, size_t na, const double *b,
			size_t nb, double alpha, struct rp_cmp *out)
{
	const double *many = na > 1 ? a : b;
	size_t n = na > 1 ? na : nb;
	double x = na > 1 ? b[0] : a[0];
	double m = mean_of(many, n), sd = sqrt(var_of(many, n, m));

	t_test(x, m, sd * sqrt(1 + 1 / (double)n), (double)(n - 1), alpha, false, out);
	out->test = "Student t prediction interval";
}

/* xorshift64*: a fixed seed makes every run's interval reproducible. */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/*
 * One resample of v: whole blocks drawn with replacement, n samples.
 * Blocks of ~n^(1/3) keep most dependence (a slow GP delays the next).
 */
static void resample(const double *v, size_t n, double *out, uint64_t *seed)
{
	size_t l = 1, nb, k = 0, i;

	while ((l + 1) * (l + 1) * (l + 1) <= n)
		l++;
	nb = (n + l - 1) / l;
	while (k < n) {
		size_t start = rng_next(seed) % nb * l;

		for (i = start; i < start + l && i < n && k < n; i++)
			out[k++] = v[i];
	}
}

#define BOOT_ROUNDS	2000

static double combine(double sa, double sb, enum rp_boot_op op)
{
	return op == RP_BOOT_ONE ? sa : op == RP_BOOT_DIFF ? sa - sb : sb ? sa / sb : NAN;
}

/* BOOT_ROUNDS block resamples of sa(a) op sb(b), malloc'd */
static double *boot_rounds(const double *a, size_t na, enum rp_cmp_stat sa,
			   const double *b, size_t nb, enum rp_cmp_stat sb, enum rp_boot_op op)
{
	/* the estimates, then room for one resample of a and one of b */
	double *est = rp_xrealloc(NULL, (BOOT_ROUNDS + na + nb) * sizeof(*est));
	double *ra = est + BOOT_ROUNDS, *rb = ra + na;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	bool two = op != RP_BOOT_ONE;
	size_t r;

	for (r = 0; r < BOOT_ROUNDS; r++) {
		resample(a, na, ra, &seed);
		if (two)
			resample(b, nb, rb, &seed);
		est[r] = combine(rp_cmp_stat_of(ra, na, sa),
				 two ? rp_cmp_stat_of(rb, nb, sb) : 0, op);
	}
	return est;
}

/*
 * A percentile's test: p twice the share of bootstrap differences across
 * zero. Latencies that repeat exactly have no spread: any change counts.
 */
static void quantile_test(const double *a, size_t na, const double *b,
			  size_t nb, enum rp_cmp_stat st, double alpha, struct rp_cmp *out)
{
	double *d = boot_rounds(a, na, st, b, nb, st, RP_BOOT_DIFF);
	double sum = 0, sum2 = 0, var;
	size_t r, le = 0, ge = 0;

	out->test = st == RP_CMP_P90 ? "bootstrap of p90" : "bootstrap of p25";
	for (r = 0; r < BOOT_ROUNDS; r++) {
		le += d[r] <= 0;
		ge += d[r] >= 0;
		sum += d[r];
		sum2 += d[r] * d[r];
	}
	free(d);
	out->p = fmin(2.0 * (le < ge ? le : ge) / BOOT_ROUNDS, 1);
	var = sum2 / BOOT_ROUNDS - (sum / BOOT_ROUNDS) * (sum / BOOT_ROUNDS);
	out->mde_pct = pct_of(mde_z(alpha, INFINITY) * sqrt(var > 0 ? var : 0), out->va);
}

/*
 * What both comparisons report first; true if nothing to test: too few
 * samples (or runs: @ka, @kb), or the same ones (two boots of a kernel in
 * an instruction-counted guest), where a resampling's spread says nothing.
 */
static bool nothing_to_test(const double *a, size_t na, const double *b,
			    size_t nb, size_t ka, size_t kb,
			    enum rp_cmp_stat st, double va, double vb,
			    const char *few, struct rp_cmp *out)
{
	double *sa, *sb;
	bool same;

	*out = (struct rp_cmp){ .stat = st, .va = va, .vb = vb,
		.change_pct = ka && kb ? pct_of(vb - va, va) : NAN, .p = 1,
		.mde_pct = INFINITY, .test = few,
		.verdict = RP_CMP_INCONCLUSIVE };
	rp_summarize(a, na, &out->a);
	rp_summarize(b, nb, &out->b);
	if (!ka || !kb || ka + kb < 3)
		return true;
	if (na != nb || na < 2)
		return false;
	sa = sorted_copy(a, na);
	sb = sorted_copy(b, nb);
	same = !memcmp(sa, sb, na * sizeof(*sa));
	free(sa);
	free(sb);
	if (!same)
		return false;
	out->mde_pct = 0;
	out->test = "none: the same samples";
	out->verdict = RP_CMP_SAME;
	return true;
}

/* The verdicts of Documentation/dev-tools/rcu_perf.rst's table */
static void decide(struct rp_cmp *out, bool higher_is_better, double allowed_pct, double alpha)
{
	double ch = out->change_pct;
	bool sig = out->p < alpha;
	bool worse = higher_is_better ? ch < 0 : ch > 0;

	if (sig && fabs(ch) > allowed_pct)
		out->verdict = worse ? RP_CMP_REGRESSED : RP_CMP_IMPROVED;
	else if (sig || (out->mde_pct <= allowed_pct && fabs(ch) <= allowed_pct))
		out->verdict = RP_CMP_SAME;
	else
		out->verdict = RP_CMP_INCONCLUSIVE;
}

void rp_compare_stat(const double *a, size_t na, const double *b, size_t nb,
		     enum rp_cmp_stat st, bool higher_is_better,
		     double allowed_pct, double alpha, struct rp_cmp *out)
{
	if (nothing_to_test(a, na, b, nb, na, nb, st, rp_cmp_stat_of(a, na, st),
			    rp_cmp_stat_of(b, nb, st), "none: too few samples", out))
		return;
	if (na == 1 || nb == 1)
		one_vs_many(a, na, b, nb, alpha, out);
	else if (st != RP_CMP_MEDIAN && st != RP_CMP_MEAN)
		quantile_test(a, na, b, nb, st, alpha, out);
	else if (st == RP_CMP_MEAN || na < CMP_MIN_RANK_N ||
		 nb < CMP_MIN_RANK_N || !rank_test(a, na, b, nb, alpha, out))
		welch_test(a, na, b, nb, alpha, out);
	decide(out, higher_is_better, allowed_pct, alpha);
}

/* One side of rp_compare_runs(): @nr runs, @r[i] (> 0) samples in run i. */
struct run_side {
	size_t nr, n;		/* runs, samples */
	double mean, var;	/* of the statistic of each run */
	double ss;		/* sum over runs of (n_i - 1) n_i var_i */
	double df_within;	/* sum of n_i - 1 over the runs with var_i */
	double inv_n;		/* mean of 1 / n_i over those runs */
};

/*
 * The variance sampling alone gives statistic @st of @v: sigma^2 / n for
 * the mean, else the exact bootstrap variance of order statistic
 * ceil(n q), P(Bin(n, j / n) >= k) = I_{j/n}(k, n - k + 1): jiffy-quantized
 * latencies whose middle is one value get ~0, as their medians repeat.
 */
static double stat_sampling_var(const double *v, size_t n, enum rp_cmp_stat st)
{
	double q = stats[st].pct / 100, prev = 0, m1 = 0, m2 = 0;
	size_t j, k;
	double *s;

	if (n < 2)
		return NAN;
	if (st == RP_CMP_MEAN)
		return var_of(v, n, mean_of(v, n)) / (double)n;
	s = sorted_copy(v, n);
	k = (size_t)ceil((double)n * q);	/* >= 1: n >= 2, q >= 0.25 */
	for (j = 1; j <= n; j++) {
		double f = betai((double)k, (double)(n - k + 1), (double)j / (double)n);
		double d = s[j - 1] - s[0];	/* shifted: no cancellation */

		m1 += (f - prev) * d;
		m2 += (f - prev) * d * d;
		prev = f;
	}
	free(s);
	return m2 - m1 * m1 > 0 ? m2 - m1 * m1 : 0;
}

static void run_side(const double *v, const size_t *r, size_t nr,
		     enum rp_cmp_stat st, struct run_side *s)
{
	double inv_n = 0, *x = rp_xrealloc(NULL, nr * sizeof(*x));
	size_t i, k = 0, runs = 0;

	*s = (struct run_side){ .nr = nr, .mean = NAN };
	for (i = 0; i < nr; k += r[i], i++) {
		double sv = stat_sampling_var(v + k, r[i], st);

		x[i] = rp_cmp_stat_of(v + k, r[i], st);
		if (isnan(sv))
			continue;
		s->ss += (double)(r[i] - 1) * (double)r[i] * sv;
		s->df_within += (double)(r[i] - 1);
		inv_n += 1 / (double)r[i];
		runs++;
	}
	s->n = k;
	for (i = 1; i < nr && x[i] == x[0]; i++)
		;
	if (nr)		/* all equal: exactly, not to a rounding */
		s->mean = i == nr ? x[0] : mean_of(x, nr);
	s->var = var_of(x, nr, s->mean);
	free(x);
	if (runs)
		s->inv_n = inv_n / (double)runs;
}

/*
 * The variance of one run's statistic on a side, and its df: the runs'
 * own spread; one run alone borrows the other side's, never less than
 * sampling alone gives (*@floored), pooled over both sides as when nothing
 * changed (three baseline runs within 1% made a healthy one look +7.2%).
 */
static double run_var(const struct run_side *s, const struct run_side *o, double *df, bool *floored)
{
	double between = s->nr > 1 ? s->var : o->var;
	double dfw = s->df_within + o->df_within;
	double floor = (dfw > 0 ? (s->ss + o->ss) / dfw : 0) * s->inv_n;

	*floored = s->nr == 1 && floor > between;
	*df = *floored ? dfw : s->nr > 1 ? s->nr - 1.0 : o->nr - 1.0;
	return *floored ? floor : between;
}

void rp_compare_runs(const double *a, const size_t *ra, size_t nra,
		     const double *b, const size_t *rb, size_t nrb,
		     enum rp_cmp_stat st, bool higher_is_better,
		     double allowed_pct, double alpha, struct rp_cmp *out)
{
	struct run_side sa, sb;
	double dfa, dfb, ta, tb, se, df;
	bool fa, fb;

	run_side(a, ra, nra, st, &sa);
	run_side(b, rb, nrb, st, &sb);
	if (nothing_to_test(a, sa.n, b, sb.n, nra, nrb, st, sa.mean, sb.mean,
			    "none: too few runs", out))
		return;
	ta = run_var(&sa, &sb, &dfa, &fa) / (double)nra;
	tb = run_var(&sb, &sa, &dfb, &fb) / (double)nrb;
	se = sqrt(ta + tb);
	/* One estimate in both terms, dfa = dfb: its df (two floors: too few) */
	df = (nra == 1 || nrb == 1) && !fa && !fb ? dfa : satterthwaite(ta, dfa, tb, dfb);
	t_test(sb.mean, sa.mean, se, isfinite(df) && df >= 1 ? df : 1, alpha, false, out);
	out->test = nra > 1 && nrb > 1 ? stats[st].runs_test :
		    "Student t prediction interval over the runs";
	decide(out, higher_is_better, allowed_pct, alpha);
}

const char *rp_cmp_stat_name(enum rp_cmp_stat st)
{
	return st < RP_CMP_NR ? stats[st].name : "unknown";
}

int rp_cmp_stat_parse(const char *name, enum rp_cmp_stat *st)
{
	int i = RP_CMP_MEDIAN;

	while (i < RP_CMP_NR && strcmp(name, stats[i].name))
		i++;
	if (i == RP_CMP_NR)
		return -1;
	*st = i;
	return 0;
}

const char *rp_cmp_verdict_name(enum rp_cmp_verdict v)
{
	static const char * const names[] = {
		[RP_CMP_SAME] = "no significant change",
		[RP_CMP_IMPROVED] = "improved", [RP_CMP_REGRESSED] = "regressed",
		[RP_CMP_INCONCLUSIVE] = "inconclusive",
	};

	return (unsigned int)v < ARRAY_SIZE(names) ? names[v] : "unknown";
}

int rp_bootstrap(const double *a, size_t na, enum rp_cmp_stat sa,
		 const double *b, size_t nb, enum rp_cmp_stat sb,
		 enum rp_boot_op op, double conf, struct rp_estimate *e)
{
	double *est;
	size_t r, k = 0;

	*e = (struct rp_estimate){ .value = NAN, .lo = NAN, .hi = NAN };
	if (na < 2 || (op != RP_BOOT_ONE && nb < 2) || !(conf > 0 && conf < 1))
		return -EINVAL;
	e->value = combine(rp_cmp_stat_of(a, na, sa),
			   op == RP_BOOT_ONE ? 0 : rp_cmp_stat_of(b, nb, sb), op);
	est = boot_rounds(a, na, sa, b, nb, sb, op);
	for (r = 0; r < BOOT_ROUNDS; r++)
		if (isfinite(est[r]))
			est[k++] = est[r];
	if (k >= BOOT_ROUNDS / 2) {
		e->lo = rp_percentile(est, k, 50 * (1 - conf));
		e->hi = rp_percentile(est, k, 100 - 50 * (1 - conf));
	}
	free(est);
	return k >= BOOT_ROUNDS / 2 ? 0 : -EINVAL;
}
