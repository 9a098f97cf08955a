/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcu_perf: what the RCU performance selftests share; the library's own
 * declarations are in internal.h.
 *
 * A program declares each parameter once, as a handle with its unit,
 * default and reason, and reads top-down (gp_expedited.c is one):
 *
 *	static struct rp_param p_lat = RP_MAX("lat", "ms", 3, "why");
 *	static struct rp_param *params[] = { &p_lat, NULL };
 *	static const struct rp_test test = { .name = "x", .params = params,
 *					     .nr_checks = 1 };
 *	rp_init(&test, argc, argv);
 *	... rp_metric_add(), rp_check("lat", measured, &p_lat) ...
 *	return rp_finish();
 */
#ifndef RCU_PERF_H
#define RCU_PERF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>

#include "../../kselftest.h"	/* __printf, __noreturn, KSFT_* */

#define RP_RESULTS_SCHEMA	"rcu_perf-results"
#define RP_RESULTS_VERSION	1
/*
 * What the programs measure and how: bumped when a change makes results
 * of earlier versions incomparable (a baseline of another suite version is
 * not used). Results files record it as "suite_version".
 */
#define RP_SUITE_VERSION	1

/* ------------------------------------------------------------------ */
/* stats.c                                                             */
/* ------------------------------------------------------------------ */

struct rp_samples {
	double *v;
	size_t n;
	size_t cap;
};

int rp_samples_add(struct rp_samples *s, double x);	/* 0 or -ENOMEM */
void rp_samples_free(struct rp_samples *s);

struct rp_summary {
	size_t n;
	double min, max, mean, stddev;
	double median, p10, p90;
	double mad;		/* median absolute deviation (unscaled) */
	double ci_lo, ci_hi;	/* ~95% confidence interval of the median */
};

/* Linear-interpolated percentile, p in [0, 100]; v need not be sorted. */
double rp_percentile(const double *v, size_t n, double p);
void rp_summarize(const double *v, size_t n, struct rp_summary *s);
/* Relative spread used by the soundness checks: MAD / median (0 if n < 2). */
double rp_rel_spread(const struct rp_summary *s);

/* Two-sided p-values of two-sample tests on raw samples. */
double rp_mann_whitney_p(const double *a, size_t na,
			 const double *b, size_t nb);
double rp_welch_p(const double *a, size_t na, const double *b, size_t nb);
/*
 * Smallest shift of the mean detectable at these sizes and spreads
 * (two-sided alpha, given power), in the samples' unit.
 */
double rp_min_detectable_effect(const double *a, size_t na,
				const double *b, size_t nb,
				double alpha, double power);
/*
 * The same for the Mann-Whitney test: the smallest shift of b's samples
 * that moves P(b > a) by enough to be seen (Noether's approximation with
 * the samples' own distribution): right for tied and quantized data, where
 * the variance says little about the ranks. INFINITY if no shift is enough.
 */
double rp_rank_min_detectable_effect(const double *a, size_t na,
				     const double *b, size_t nb,
				     double alpha, double power);

/*
 * Before/after verdict on raw samples of one metric, shared by the compare
 * tool, the A/B boot tool and the baseline checks. change_pct is the change
 * of the median from a (baseline) to b (candidate), positive when b is
 * larger. p is from Mann-Whitney, or from Welch's t-test when a side has
 * fewer than 5 samples (ranks of 3 vs 3 never reach p < 0.1), or from
 * Student's prediction interval when one side has a single sample (one
 * boot against earlier boots); mde_pct at power 0.8, for the test used.
 */
enum rp_cmp_verdict {
	RP_CMP_SAME,		/* no significant change, enough power */
	RP_CMP_IMPROVED,
	RP_CMP_REGRESSED,	/* worse by more than allowed_pct, significant */
	RP_CMP_INCONCLUSIVE,	/* too few samples or too noisy to tell */
};

/*
 * The statistic compared: the median (robust, the default), the mean
 * (what a loop of operations feels: Welch's t-test), the 90th percentile
 * (the tail: a bootstrap of the difference) or the 25th (the fast mode
 * of a latency with two modes whose shares vary between runs, where the
 * median lands on either: rp_metric.stat).
 */
enum rp_cmp_stat { RP_CMP_MEDIAN, RP_CMP_MEAN, RP_CMP_P90, RP_CMP_P25,
		   RP_CMP_NR };

struct rp_cmp {
	struct rp_summary a, b;
	enum rp_cmp_stat stat;
	double va, vb;		/* the compared statistic of a and of b */
	double change_pct;	/* of that statistic, % of va */
	double p;		/* two-sided p-value of the two-sample test */
	double mde_pct;		/* minimum detectable effect, % of va */
	const char *test;	/* the test that gave p */
	enum rp_cmp_verdict verdict;
};

void rp_compare(const double *a, size_t na, const double *b, size_t nb,
		bool higher_is_better, double allowed_pct, double alpha,
		struct rp_cmp *out);
void rp_compare_stat(const double *a, size_t na, const double *b, size_t nb,
		     enum rp_cmp_stat stat, bool higher_is_better,
		     double allowed_pct, double alpha, struct rp_cmp *out);
/*
 * The same verdict where the sides are several runs (@ra[i] samples in
 * run i, in order; three runs or more in all): the run is the unit of
 * replication. Each run's statistic @stat, then Welch's test over those
 * (one run against several: Student's prediction interval); va and vb
 * are their means, a and b summarize all the samples. Runs of
 * one kernel differ by more than their samples suggest (a median of 8 ms
 * in one run, 16 ms in the next): pooled samples call that a regression.
 * One run against several is never taken as steadier than its own
 * samples make it (sigma^2 / n for the mean, the exact bootstrap variance
 * for the median and p90): runs that agree by chance say little of the
 * next one.
 */
void rp_compare_runs(const double *a, const size_t *ra, size_t nra,
		     const double *b, const size_t *rb, size_t nrb,
		     enum rp_cmp_stat stat, bool higher_is_better,
		     double allowed_pct, double alpha, struct rp_cmp *out);
const char *rp_cmp_verdict_name(enum rp_cmp_verdict v);
const char *rp_cmp_stat_name(enum rp_cmp_stat s);
/* The statistic @s of @n samples (NAN for none). */
double rp_cmp_stat_of(const double *v, size_t n, enum rp_cmp_stat s);
int rp_cmp_stat_parse(const char *name, enum rp_cmp_stat *s);
/*
 * How far the median of one more run of a known-good kernel may stray
 * from the mean of @r earlier runs' medians, % of that mean: the upper
 * bound of a one-sided (1 - @alpha) prediction interval, Student's t
 * with r - 1 degrees of freedom. Where the machine itself drifts between
 * runs more than the samples of one run spread, that drift is no
 * regression. 0 for fewer than 2 runs.
 */
double rp_run_spread_pct(const double *run_medians, size_t r, double alpha);

/*
 * An estimate with a confidence interval from a block bootstrap: whole
 * runs of consecutive samples are resampled, so that ops that delay each
 * other (a slow GP makes the next one wait) are not taken as independent,
 * and no distribution is assumed: skewed and bimodal latencies get honest
 * intervals. sa(a) alone (RP_BOOT_ONE), sa(a) - sb(b) or sa(a) / sb(b),
 * each side resampled independently. conf is two-sided
 * (0.9: each end is a one-sided 95% bound). Deterministic. 0, or -EINVAL
 * (fewer than 2 samples on a side, conf outside (0, 1)), -ENOMEM.
 */
typedef double (*rp_stat_fn)(const double *v, size_t n);
double rp_stat_mean(const double *v, size_t n);	/* what a loop's time feels */
double rp_stat_median(const double *v, size_t n); /* a robust reference */
double rp_stat_p90(const double *v, size_t n);	/* the tail */
double rp_stat_p25(const double *v, size_t n);	/* the fast mode */

enum rp_boot_op { RP_BOOT_ONE, RP_BOOT_DIFF, RP_BOOT_RATIO };

struct rp_estimate {
	double value;		/* the statistic of the samples themselves */
	double lo, hi;		/* its confidence interval */
};

int rp_bootstrap(const double *a, size_t na, rp_stat_fn sa,
		 const double *b, size_t nb, rp_stat_fn sb,
		 enum rp_boot_op op, double conf, struct rp_estimate *e);

/* ------------------------------------------------------------------ */
/* opts.c: parameters (settings and thresholds)                        */
/* ------------------------------------------------------------------ */

enum rp_param_kind {
	RP_SETTING,		/* a knob of the measurement, not a limit */
	RP_LIMIT_MAX,		/* check passes when measured <= value */
	RP_LIMIT_MIN,		/* check passes when measured >= value */
	/* Options of the command line alone, --NAME [VALUE]: */
	RP_FLAG,		/* --NAME: value 1 */
	RP_STRING,		/* --NAME VALUE or --NAME=VALUE: str */
	RP_PATH,		/* the same, not empty; RP_DIR: a directory */
};

struct rp_param {
	const char *name;	/* [a-z0-9_]+, unique within a program */
	const char *unit;
	double def;
	const char *reason;	/* one line: why this default */
	enum rp_param_kind kind;
	/*
	 * RP_QUICK(): the value with --quick, unless the parameter was set
	 * (config, environment, --set), so that one name serves both.
	 */
	bool has_quick;
	double quick;
	/*
	 * RP_RANGE(): the accepted values, inclusive; without it any
	 * non-negative number. A value from any source outside is bad input.
	 */
	bool has_range;
	double min, max;
	/*
	 * Options (RP_FLAG, RP_STRING, RP_PATH): unit names the value in
	 * --help, name may have '-'; RP_EACH(fn) sees every value in turn
	 * (repeated options, operands): NULL if fine, else why not.
	 */
	const char *(*each)(const char *val);
	bool dir;
	/* filled in by rp_parse() */
	double value;
	const char *source;	/* "default", "quick", "config", "env", "cli" */
	const char *str;	/* the option's last value, NULL if not given */
};

/*
 * Declare a parameter: RP_MAX/RP_MIN (a limit) or RP_SETTING (a knob of
 * the measurement), optionally followed by RP_QUICK(v) and RP_RANGE(lo, hi).
 */
#define RP_PARAM(n, u, d, r, k, ...) \
	{ .name = (n), .unit = (u), .def = (d), .reason = (r), .kind = (k), \
	  __VA_ARGS__ }
#define RP_MAX(n, u, d, r, ...)	RP_PARAM(n, u, d, r, RP_LIMIT_MAX, __VA_ARGS__)
#define RP_MIN(n, u, d, r, ...)	RP_PARAM(n, u, d, r, RP_LIMIT_MIN, __VA_ARGS__)
#define RP_SETTING(n, u, d, r, ...) \
	RP_PARAM(n, u, d, r, RP_SETTING, __VA_ARGS__)
#define RP_QUICK(v)		.has_quick = true, .quick = (v)
#define RP_RANGE(lo, hi)	.has_range = true, .min = (lo), .max = (hi)
#define RP_FLAG(n, r, ...)	RP_PARAM(n, NULL, 0, r, RP_FLAG, __VA_ARGS__)
#define RP_STRING(n, u, r, ...)	RP_PARAM(n, u, 0, r, RP_STRING, __VA_ARGS__)
#define RP_PATH(n, u, r, ...)	RP_PARAM(n, u, 0, r, RP_PATH, __VA_ARGS__)
#define RP_EACH(fn)		.each = (fn)
#define RP_DIR			.dir = true
/*
 * The two limits of the checks against a baseline (rp_test.baseline): how
 * much worse (% of the baseline's median) a metric may get, and the
 * significance level of a change. Their names are part of the results
 * format: the library finds them by name once, when it loads a baseline.
 */
#define RP_BASELINE_CHANGE(pct, why)	RP_MAX("baseline_change", "%", pct, why)
#define RP_BASELINE_ALPHA						\
	RP_MIN("baseline_alpha", "p-value", 0.05,			\
	       "a change is significant below this: 1 false alarm in 20 per metric", \
	       RP_RANGE(0, 1))

struct rp_test {
	const char *name;	/* program name, JSON "test", config section */
	const char *summary;	/* one line for --help */
	struct rp_param * const *params;	/* handles, NULL-terminated */
	/*
	 * Optional: rules between parameters that a range cannot express,
	 * called by rp_parse() once every source is applied. NULL if fine,
	 * else the one-line reason, printed as "<name>: <reason>" (bad usage).
	 */
	const char *(*check_params)(void);
	int nr_checks;		/* KTAP plan */
	/* More --help text, after the options of params. */
	const char *extra_usage;
	/*
	 * Optional options (RP_STRING or RP_PATH, in params) that take the
	 * operands: the arguments that are not options, and all after "--".
	 * Without them, an operand is bad usage.
	 */
	struct rp_param *operands, *operands_after;
	/*
	 * Optional, NULL-terminated: the names of the planned checks. Checks
	 * never reported (rp_skip_rest(), rp_exit_skip(), rp_fatal(), a bug)
	 * get the first unused of these names, else "check_<N>".
	 */
	const char * const *checks;
	/*
	 * Optional, NULL-terminated: the metrics judged against a baseline
	 * (--baseline DIR). With one, each gets a check
	 * "<metric>_vs_baseline" after the program's own, judged by
	 * rp_compare() against the same metric of the baseline's runs with
	 * the limit "baseline_change" and "baseline_alpha" (declare them with
	 * RP_BASELINE_CHANGE and RP_BASELINE_ALPHA, in params). Without a
	 * baseline these checks do not exist.
	 */
	const char * const *baseline;
	/*
	 * Optional, beside baseline: per metric, its own limit (a maximum in
	 * params) where baseline_change does not fit it; NULL entries take
	 * baseline_change.
	 */
	struct rp_param * const *baseline_limit;
	/*
	 * The metrics measure the boot itself (boot_marker): baseline files
	 * of one boot count once, and those of this very boot not at all.
	 */
	bool baseline_per_boot;
	/*
	 * Reads the kernel's state only, measures nothing live (a boot log):
	 * takes the suite's lock only if it is free (to repair what a killed
	 * run left), never waits for it, unless --knob asks for a change.
	 */
	bool reads_only;
};

/* Common options, shared by every program (see rp_usage()). */
struct rp_options {
	bool quick;		/* --quick / RCU_PERF_QUICK=1: shorter runs */
	bool verbose;		/* --verbose: per-sample lines on stderr */
	const char *json_path;	/* --json FILE / RCU_PERF_JSON */
	const char *outdir;	/* --outdir DIR / RCU_PERF_OUTDIR: DIR/<test>.json */
	const char *config_path; /* --config FILE / RCU_PERF_CONFIG / beside exe */
	const char *knobs[16];	/* --knob PATH=VALUE: set through the guard */
	int nr_knobs;
	/* --baseline DIR / RCU_PERF_BASELINE / "baseline = DIR"; NULL: none */
	const char *baseline;
	const char *baseline_from;	/* where that came from */
	bool help, list;	/* --help, --list */
	int nr_given;		/* options on the command line */
};

extern struct rp_options rp_opts;
extern const struct rp_test *rp_current_test;

/* Parse-only part of rp_init() for unit tests: 0 or -1 (error printed). */
int rp_parse(const struct rp_test *test, int argc, char **argv);
void rp_usage(FILE *f);
void rp_list_params(FILE *f);
/* Strict number parsing: whole string, finite. 0 or -1. */
int rp_parse_double(const char *s, double *out);
/*
 * As root: 0 if path (open as fd, or -1) and its directory can be changed
 * by root only, else -1 with the reason in why. Always 0 for other users.
 */
int rp_check_trusted(const char *path, int fd, char *why, size_t len);
/*
 * An output directory (@own: made if missing, the caller's alone) or a
 * tree, and every directory above it: 0 if no other user can change
 * them, else -1 with the reason in why.
 */
int rp_check_dir(const char *path, bool own, char *why, size_t len);

/* ------------------------------------------------------------------ */
/* guard.c: every change restored; proc.c, tracefs.c, cpus.c          */
/* ------------------------------------------------------------------ */

/* A whole small file, trailing blanks trimmed: its length, or -errno. */
int rp_knob_read(const char *path, char *buf, size_t len);
/* "echo VALUE > PATH", the original restored on every exit path. */
int rp_knob_write(const char *path, const char *value);
int rp_knob_exists(const char *path);
void rp_guard_restore(void);			/* idempotent */
/*
 * A private directory <parent>/<name>.XXXXXX (parent NULL: $TMPDIR or
 * /tmp) into buf, removed with its contents by the guard on every exit
 * path and by the next run after a SIGKILL. 0 or -errno.
 */
int rp_tmpdir(const char *parent, const char *name, char *buf, size_t len);
/* Keep it after all (e.g. for a post-mortem), unless killed by SIGKILL. */
void rp_tmpdir_keep(const char *path);
/* Remove it now (also one made without the guard): 0 or -errno. */
int rp_tmpdir_remove(const char *path);
/*
 * fork() whose child leads a new process group (a build, its compilers)
 * that the guard kills with SIGKILL on every exit path of the parent and,
 * after a SIGKILL, the next run does (if its leader is still that child).
 * Without the guard (not root), a plain fork(). The child changes no
 * knobs and does not hold the lock. rp_guard_child_done(pid) once the
 * child has been waited for.
 */
pid_t rp_guard_fork(void);
void rp_guard_child_done(pid_t pid);
/* tracefs mount point, mounting it (guarded) if needed; NULL if absent. */
const char *rp_tracefs(void);
/*
 * For a sweep of CPU counts by hotplug: reorder cpus[0..nr) so that those
 * that cannot go offline (often CPU 0) come first, keeping the order
 * otherwise; returns how many cannot. Then rp_cpus_set_online() puts
 * exactly cpus[0..n) online and the rest of cpus[0..nr) offline.
 */
int rp_cpus_fixed_first(int *cpus, int nr);
int rp_cpus_set_online(const int *cpus, int n, int nr);	/* 0 or -errno */
int rp_nr_online_cpus(void);
int rp_online_cpus(int *cpus, int max);	/* list of online CPU ids */

/* ------------------------------------------------------------------ */
/* load.c: busy threads                                                */
/* ------------------------------------------------------------------ */

struct rp_load;
/*
 * One spinning SCHED_IDLE thread pinned to each of cpus[0..n): the CPUs
 * are never idle, yet never delay a woken task. NULL on error.
 */
struct rp_load *rp_load_start(const int *cpus, int n);
void rp_load_stop(struct rp_load *l);		/* NULL is fine */
/* Pin the calling thread to one CPU (cpu < 0: all online CPUs). */
int rp_pin_self(int cpu);

/* ------------------------------------------------------------------ */
/* counters.c: libperf counters                                        */
/* ------------------------------------------------------------------ */

enum rp_ctr {
	/* per-thread (the thread that called rp_counters_open()) */
	RP_CTR_TASK_CLOCK,	/* ns */
	RP_CTR_CTX_SWITCHES,
	RP_CTR_MIGRATIONS,
	RP_CTR_PAGE_FAULTS,
	RP_CTR_CYCLES,
	RP_CTR_INSTRUCTIONS,
	/* system-wide, summed over the CPUs online at rp_counters_open() */
	RP_CTR_RCU_UTIL,	/* rcu:rcu_utilization */
	RP_CTR_CPU_IDLE,	/* power:cpu_idle */
	RP_CTR_SOFTIRQ,		/* irq:softirq_entry, vec == RCU_SOFTIRQ */
	RP_CTR_SCHED_SWITCH,	/* sched:sched_switch */
	RP_CTR_RCU_GP,		/* rcu:rcu_grace_period "end" (CONFIG_RCU_TRACE) */
	RP_CTR_NR,
};

struct rp_counters {
	bool supported[RP_CTR_NR];
	const char *why[RP_CTR_NR];	/* reason when unsupported (static) */
	__u64 delta[RP_CTR_NR];	/* from the last start/stop pair */
	void *priv;
};

const char *rp_ctr_name(enum rp_ctr c);
/* Open all counters that work here; never fails for an unsupported one. */
int rp_counters_open(struct rp_counters *c);
void rp_counters_start(struct rp_counters *c);
void rp_counters_stop(struct rp_counters *c);	/* fills delta[] */
void rp_counters_close(struct rp_counters *c);

/*
 * Add the deltas of @c (one block of a measurement) to @sum (all blocks of
 * one level so far); @sum takes over which counters @c supports, and why.
 */
static inline void rp_counters_add(struct rp_counters *sum,
				   const struct rp_counters *c)
{
	int i;

	for (i = 0; i < RP_CTR_NR; i++) {
		sum->supported[i] = c->supported[i];
		sum->why[i] = c->why[i];
		sum->delta[i] += c->delta[i];
	}
}

/* ------------------------------------------------------------------ */
/* checks.c: KTAP checks, "measured vs limit"                          */
/* ------------------------------------------------------------------ */

enum rp_verdict { RP_PASS, RP_FAIL, RP_SKIP, RP_ERROR };

/*
 * What a verdict means, for the CI bots that count them:
 *   ok          measured, within the limit;
 *   not ok      measured, and this kernel is past the limit: a regression;
 *   ok # SKIP   not judged (not root, feature missing, machine busy, too
 *               noisy, an emulator too slow...): the reason says what to
 *               change, the numbers are still in the JSON.
 * "not ok # error" is left for bugs of the test itself (a wrong plan, a
 * malformed check name), never for a machine that cannot judge.
 *
 * rp_check() compares measured against the limit parameter @limit
 * (RP_LIMIT_MAX/MIN, in the program's table), prints "# check: measured X
 * unit vs limit <= Y unit (param)" and the KTAP result, and records it in
 * the JSON.
 */
enum rp_verdict rp_check(const char *check, double measured,
			 const struct rp_param *limit);

/*
 * A limit derived at run time (from a control measured in the same run,
 * the kernel's own parameters, or a baseline) and an estimate with its
 * confidence interval. Questions are one-sided: with a maximum, FAIL when
 * even the favourable end (lo) is past the limit, PASS when the estimate
 * is within it, SKIP ("too noisy") when the estimate is past the limit but
 * its interval reaches back inside. A minimum is the mirror image.
 */
struct rp_bound {
	struct rp_estimate est;
	double limit;
	bool is_min;		/* limit is a minimum (default: a maximum) */
	const char *unit;
	const struct rp_param *param;	/* the one that tunes the limit */
	const char *how;	/* one line: how the limit was derived */
};

/* The interval lies wholly on one side of the limit. */
bool rp_bound_settled(const struct rp_bound *b);
enum rp_verdict rp_check_bound(const char *check, const struct rp_bound *b);
/* A regression without a number to set against a limit (a GP that hung). */
__printf(2, 3) void rp_check_fail(const char *check, const char *fmt, ...);
/* Not judged, with the reason. */
__printf(2, 3) void rp_check_skip(const char *check, const char *fmt, ...);
/* Skip every check not reported yet (e.g. the whole test cannot run). */
__printf(1, 2) void rp_skip_rest(const char *fmt, ...);

/* ------------------------------------------------------------------ */
/* report.c: the JSON results document                                 */
/* ------------------------------------------------------------------ */

struct rp_metric {
	char *name;		/* e.g. "membarrier.idle.latency" */
	char *unit;
	double *samples;
	size_t n;
	struct rp_summary sum;
	double per_op[RP_CTR_NR];	/* counters per op; NAN = none */
	bool has_counters;
	bool higher_is_better;	/* throughput-like; default: lower is better */
	/*
	 * Why the samples may not show the kernel (other tasks kept the CPUs
	 * busy meanwhile): the check against a baseline SKIPs with it.
	 */
	const char *disturbed;
	/*
	 * Shown, never judged against other runs: the metric's run-to-run
	 * spread is its nature (JSON "judged": false).
	 */
	bool report_only;
	/*
	 * Judged against a baseline on its median (or its stat) only: rare
	 * long ops that the host causes, not the kernel, move its mean by
	 * chance; the program judges that mean within the run.
	 */
	bool median_only;
	/*
	 * The statistic its runs are compared on (JSON "stat"; default the
	 * median): one stable from run to run where the median is not.
	 */
	enum rp_cmp_stat stat;
	/*
	 * The step its ops' times take, in its unit (a GP ends on a tick:
	 * a jiffy per GP); 0: none. A mean of whole steps moves by a share
	 * of one as ops fall on the next step or not, from run to run: its
	 * second look against a baseline allows one step per op.
	 */
	double quantum;
	/*
	 * The least change of its statistic that a baseline recorded in
	 * another session can tell from the host, in its unit; 0: none.
	 * Where an op is a few wake-ups of other CPUs, the host moves it by
	 * a share of one from session to session, whatever the kernel.
	 */
	double resolution;
};

/* Copy samples, summarise; the metric lives until rp_finish(). */
struct rp_metric *rp_metric_add(const char *name, const char *unit,
				const double *v, size_t n);
void rp_metric_counters(struct rp_metric *m, const struct rp_counters *c,
			double ops);
/* Free-form facts for the JSON "info" object and a "# key: value" line. */
__printf(2, 3) void rp_info(const char *key, const char *fmt, ...);

/* ------------------------------------------------------------------ */
/* system.c: facts of the machine and the kernel                       */
/* ------------------------------------------------------------------ */

/*
 * The facts every results file records ("system"), and those the programs
 * derive their limits from.
 */
/*
 * The tick rate: the resolution of CLOCK_MONOTONIC_COARSE is one jiffy
 * (TICK_NSEC) on every kernel, no config file needed; CONFIG_HZ where that
 * clock is missing; 0 when unknown.
 */
int rp_hz(void);
/*
 * The kernel's default FQS interval in jiffies, as rcu_init_geometry()
 * derives it when rcutree.jiffies_till_{first,next}_fqs are not given:
 * 1 + (HZ > 250) + (HZ > 500) + nr_cpu_ids / 256. 0 if HZ is unknown.
 */
int rp_default_fqs_jiffies(void);
double rp_now_ms(void);	/* CLOCK_MONOTONIC in ms */

/*
 * CPU time from /proc/stat, in seconds: busy (user, nice, system, irq,
 * softirq), idle (idle, iowait; iowait also on its own) and stolen by the
 * hypervisor. Two readings
 * around a measurement tell how much of it other work took. per_cpu[] is
 * indexed by CPU id (ids >= max are ignored, absent ones left as they
 * were); all, if not NULL, gets the sum over all CPUs. 0 or -errno.
 */
struct rp_cpu_time {
	double busy, idle, steal, iowait;
};

int rp_cpu_times(struct rp_cpu_time *per_cpu, int max,
		 struct rp_cpu_time *all);
/* Add @t to @sum: the time of a set of CPUs. */
void rp_cpu_time_add(struct rp_cpu_time *sum, const struct rp_cpu_time *t);
/* CPU seconds that passed between two readings: busy, idle and stolen. */
double rp_cpu_elapsed(const struct rp_cpu_time *t0,
		      const struct rp_cpu_time *t1);
/*
 * How disturbed was a sample: the share of @capacity_s CPU seconds that
 * other tasks and the hypervisor took between two readings @t0, @t1 of
 * the same CPUs. Other tasks: the CPUs' busy time less @own_s (what the
 * measured work used itself, or could not use), 0 at least, and at most
 * @delay_s when the work's run delay is known (NAN if not): other tasks
 * may use a CPU while the work sleeps on a lock, and work throttled by a
 * CPU quota waits with its CPU idle; both are what is being measured, so
 * only what delayed the work counts. Stolen time always counts. NAN if a
 * reading is.
 */
double rp_cpu_others(const struct rp_cpu_time *t0,
		     const struct rp_cpu_time *t1, double own_s,
		     double delay_s, double capacity_s);

int rp_machine_key(char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* main.c: start-up and exit                                           */
/* ------------------------------------------------------------------ */

/*
 * Parse options, environment and config (precedence cli > env > config >
 * default), initialise the guard (repairing leftovers of a killed run),
 * apply --knob settings, print the KTAP header and plan. Exits KSFT_FAIL
 * with a one-line error on bad input; exits 0 after --help or --list.
 */
void rp_init(const struct rp_test *test, int argc, char **argv);
/* Whole-program skip: restore, write JSON, exit KSFT_SKIP (4). */
__printf(1, 2) __noreturn void rp_exit_skip(const char *fmt, ...);
/*
 * Cannot go on (a file that cannot be created, out of memory): prints
 * "# error: <reason>", skips every check not reported yet with it,
 * restores, writes the JSON and exits: KSFT_SKIP, or KSFT_FAIL when a
 * check already failed.
 */
__printf(1, 2) __noreturn void rp_fatal(const char *fmt, ...);
/* Write JSON, restore knobs, print totals; returns the exit code. */
int rp_finish(void);

/* ------------------------------------------------------------------ */
/* json.c: a small writer and a strict reader                          */
/* ------------------------------------------------------------------ */

struct rp_jw {			/* writer state */
	FILE *f;
	int depth;
	bool first[32];
	bool after_key;
	bool is_arr[32];	/* per depth: an array, not an object */
	bool wrapped[32];	/* array holds containers: one item a line */
};

void rp_jw_init(struct rp_jw *w, FILE *f);
void rp_jw_obj_begin(struct rp_jw *w, const char *key);	/* key NULL in arrays */
void rp_jw_obj_end(struct rp_jw *w);
void rp_jw_arr_begin(struct rp_jw *w, const char *key);
void rp_jw_arr_end(struct rp_jw *w);
void rp_jw_str(struct rp_jw *w, const char *key, const char *v);
void rp_jw_num(struct rp_jw *w, const char *key, double v); /* NaN: null */
void rp_jw_int(struct rp_jw *w, const char *key, long long v);
void rp_jw_bool(struct rp_jw *w, const char *key, bool v);
void rp_jw_null(struct rp_jw *w, const char *key);

enum rp_jtype { RP_JNULL, RP_JBOOL, RP_JNUM, RP_JSTR, RP_JARR, RP_JOBJ };

struct rp_jval {
	enum rp_jtype type;
	bool b;
	double num;
	char *str;			/* RP_JSTR */
	char **keys;			/* RP_JOBJ: keys[i] names items[i] */
	struct rp_jval **items;		/* RP_JARR, RP_JOBJ */
	size_t len;
};

/*
 * Parse a whole document. NULL on error with a one-line message in err
 * ("line L col C: what").
 */
struct rp_jval *rp_json_parse(const char *text, char *err, size_t errlen);
struct rp_jval *rp_json_parse_file(const char *path, char *err, size_t errlen);
void rp_json_free(struct rp_jval *v);
struct rp_jval *rp_json_get(const struct rp_jval *obj, const char *key);

/* ------------------------------------------------------------------ */
/* kmsg.c: the kernel log                                              */
/* ------------------------------------------------------------------ */

struct rp_marker {
	const char *name;	/* which marker matched */
	double t;		/* seconds since boot */
};

/*
 * Find the time to user space in a kernel log (dmesg text, /dev/kmsg
 * records or a serial console capture). Markers are tried in order of
 * preference; the first one present wins. 0 found, -1 not found,
 * -2 malformed (errmsg set).
 */
int rp_find_boot_marker(const char *log, struct rp_marker *m,
			char *err, size_t errlen);
/* Read this boot's log from /dev/kmsg (non-blocking); malloc'd text. */
char *rp_read_kmsg(void);
/*
 * Read a saved log or serial capture ("-": stdin) as text, NUL bytes
 * turned into blanks; malloc'd, NULL with errno (EFBIG over RP_LOG_MAX).
 */
#define RP_LOG_MAX	(256 << 20)
char *rp_read_log(const char *path);
/* The "Kernel command line: " a log records: 0, or -1 if none. */
int rp_log_cmdline(const char *log, char *buf, size_t len);
/* Those tokens of a command line, space-separated into buf; how many. */
int rp_rcu_params(const char *cmdline, char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* scaling.c: CPU-count sweeps, efficiency, GNU time reports           */
/* ------------------------------------------------------------------ */

/* CPU counts 1, 2, 4, ... below max, then max itself; returns how many. */
int rp_sweep_points(int max, int *pts, int cap);
/* Scaling efficiency ops(N) / (N * ops(1)): 1 is linear; NAN if invalid. */
double rp_efficiency(double ops_n, double ops_1, int n);

/*
 * Karp-Flatt serial fraction of a speedup on n >= 2 workers:
 * (1/speedup - 1/n) / (1 - 1/n). 0 = linear, 1 = one at a time, above 1
 * slower than one at a time; Amdahl's serial share at every n. NAN if
 * invalid.
 */
double rp_serial_fraction(double speedup, int n);
/*
 * Scaling judged against two controls measured at the same n: a parallel
 * one (no shared state: how well this machine runs n workers at once) and
 * a serial one (one global lock around each op). eff, eff_par, eff_ser
 * are efficiencies ops(n) / (n * ops(1)). The serial share is the
 * workload's serial fraction, with its speedup taken relative to the
 * parallel control, over the serial control's: 0 = as parallel as the
 * parallel control, 1 = as serialized as the serial control. NAN if
 * invalid.
 */
double rp_serial_share(int n, double eff, double eff_par, double eff_ser);
/* The efficiency at which a workload's serial share is @share (its limit). */
double rp_serial_share_eff(int n, double share, double eff_par,
			   double eff_ser);
/*
 * Can n be judged? NULL if so, else why (into why): n < 2, a control
 * missing (NAN), the parallel control below par_min (the machine cannot
 * run n workers at once), or the serial control's serial fraction below
 * ser_min (the harness is not measuring parallel work).
 */
const char *rp_controls_judge(int n, double eff_par, double eff_ser,
			      double par_min, double ser_min, char *why,
			      size_t len);

/* One run as GNU time (/usr/bin/time) reports it, or an average of runs. */
struct rp_time {
	double elapsed, user, sys;	/* s */
	double cpu_pct;		/* GNU time's %P; NAN when not reported */
	int status;		/* exit status (128 + signal); 0 if not reported */
};

/*
 * Parse GNU time output in its default, -p or -v format (also the shell
 * keyword's "real 0m1.5s"). 0, or -1 with a one-line message in err.
 */
int rp_time_parse(const char *text, struct rp_time *t, char *err,
		  size_t errlen);
/* Mean of n runs; cpu_pct is the mean of the runs' %P, as the seed did. */
void rp_time_average(const struct rp_time *runs, int n, struct rp_time *avg);
/* "Elapsed: 19.622s User: 193.366s System: 42.498s CPU: 1201.6%" */
int rp_time_format(char *buf, size_t len, const struct rp_time *avg);
/* One run: "real 19.62s user 193.37s sys 42.50s CPU 1201%" */
int rp_time_format_run(char *buf, size_t len, const struct rp_time *t);
/* System share of the CPU time: sys / (user + sys); NAN if no CPU time. */
double rp_time_system_share(const struct rp_time *t);

#endif /* RCU_PERF_H */
