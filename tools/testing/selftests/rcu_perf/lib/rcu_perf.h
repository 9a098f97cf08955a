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
/* Bumped when results of earlier versions become incomparable. */
#define RP_SUITE_VERSION	1

/* stats.c: summaries, two-sample tests, verdicts, the bootstrap */

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

void rp_summarize(const double *v, size_t n, struct rp_summary *s);
double rp_rel_spread(const struct rp_summary *s);	/* MAD / median */

enum rp_cmp_verdict {
	RP_CMP_SAME,		/* no significant change, enough power */
	RP_CMP_IMPROVED,
	RP_CMP_REGRESSED,	/* worse by more than allowed_pct, significant */
	RP_CMP_INCONCLUSIVE,	/* too few samples or too noisy to tell */
};

/*
 * The statistic compared: the median (the default), the mean (what a loop
 * of ops feels), the p90 (the tail) or the p25 (the fast mode of a
 * two-mode latency whose median lands on either mode from run to run).
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

/*
 * Is b (candidate) worse than a (baseline) by more than allowed_pct?
 * Mann-Whitney; Welch below 5 samples a side (ranks of 3 vs 3 never reach
 * p < 0.1); Student's prediction interval for one sample against several.
 */
void rp_compare(const double *a, size_t na, const double *b, size_t nb,
		bool higher_is_better, double allowed_pct, double alpha,
		struct rp_cmp *out);
void rp_compare_stat(const double *a, size_t na, const double *b, size_t nb,
		     enum rp_cmp_stat stat, bool higher_is_better,
		     double allowed_pct, double alpha, struct rp_cmp *out);
/*
 * The same with the run as the unit (@ra[i] samples in run i, three runs
 * or more in all): runs of one kernel differ by more than their samples
 * suggest (a median of 8 ms in one run, 16 ms in the next).
 */
void rp_compare_runs(const double *a, const size_t *ra, size_t nra,
		     const double *b, const size_t *rb, size_t nrb,
		     enum rp_cmp_stat stat, bool higher_is_better,
		     double allowed_pct, double alpha, struct rp_cmp *out);
const char *rp_cmp_verdict_name(enum rp_cmp_verdict v);
const char *rp_cmp_stat_name(enum rp_cmp_stat s);
int rp_cmp_stat_parse(const char *name, enum rp_cmp_stat *s);
/*
 * Block bootstrap (whole runs of consecutive samples resampled, as a slow
 * GP delays the next): sa(a), sa(a) - sb(b) or sa(a) / sb(b) with a
 * two-sided @conf interval. Deterministic. 0, -EINVAL or -ENOMEM.
 */
typedef double (*rp_stat_fn)(const double *v, size_t n);
double rp_stat_mean(const double *v, size_t n);
double rp_stat_median(const double *v, size_t n);
double rp_stat_p90(const double *v, size_t n);
double rp_stat_p25(const double *v, size_t n);

enum rp_boot_op { RP_BOOT_ONE, RP_BOOT_DIFF, RP_BOOT_RATIO };

struct rp_estimate {
	double value;		/* the statistic of the samples themselves */
	double lo, hi;		/* its confidence interval */
};

int rp_bootstrap(const double *a, size_t na, rp_stat_fn sa,
		 const double *b, size_t nb, rp_stat_fn sb,
		 enum rp_boot_op op, double conf, struct rp_estimate *e);

/* opts.c: parameters (settings and thresholds) */

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
	const char *unit;	/* an option's: names its value in --help */
	double def;
	const char *reason;	/* one line: why this default */
	enum rp_param_kind kind;
	bool has_quick;		/* RP_QUICK(): the value with --quick, if unset */
	double quick;
	bool has_range;		/* RP_RANGE(): inclusive; else any value >= 0 */
	double min, max;
	/* Options: RP_EACH(fn) checks each value: NULL if fine, else why not */
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
	/* Rules between parameters, once all are set: NULL, else why not */
	const char *(*check_params)(void);
	int nr_checks;		/* KTAP plan */
	const char *extra_usage;	/* more --help text */
	/* Options that take the operands (before/after "--"); else bad usage */
	struct rp_param *operands, *operands_after;
	/* NULL-terminated check names: unreported ones get theirs, in order */
	const char * const *checks;
	/*
	 * Optional, NULL-terminated: the metrics judged against a baseline
	 * (--baseline DIR). With one, each gets a check
	 * "<metric>_vs_baseline" (its dots as '_': KTAP names have none)
	 * after the program's own, judged by rp_compare() against the same
	 * metric of the baseline's runs with the limit "baseline_change"
	 * and "baseline_alpha" (declare them with
	 * RP_BASELINE_CHANGE and RP_BASELINE_ALPHA, in params). Without a
	 * baseline these checks do not exist.
	 */
	const char * const *baseline;
	/* Per baseline metric, its own maximum; NULL: baseline_change */
	struct rp_param * const *baseline_limit;
	/* Metrics of the boot: a boot's files count once, this boot's never */
	bool baseline_per_boot;
	/* Reads state only: takes the lock if free; waits only for a --knob */
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
/* guard.c: every change restored; util.c, proc.c, tracefs.c, cpus.c */

/* A whole small file, trailing blanks trimmed: its length, or -errno. */
int rp_knob_read(const char *path, char *buf, size_t len);
/* "echo VALUE > PATH", the original restored on every exit path. */
int rp_knob_write(const char *path, const char *value);
int rp_knob_exists(const char *path);
void rp_guard_restore(void);			/* idempotent */
/*
 * A private directory <parent>/<name>.XXXXXX (parent NULL: $TMPDIR or
 * /tmp), removed on every exit path, and by the next run after a SIGKILL.
 */
int rp_tmpdir(const char *parent, const char *name, char *buf, size_t len);
void rp_tmpdir_keep(const char *path);		/* unless SIGKILLed */
int rp_tmpdir_remove(const char *path);		/* now: 0 or -errno */
/*
 * fork() whose child leads a process group that the guard kills on every
 * exit path (after a SIGKILL: the next run). Not root: a plain fork().
 * rp_guard_child_done(pid) once the child has been waited for.
 */
pid_t rp_guard_fork(void);
void rp_guard_child_done(pid_t pid);
/* tracefs mount point, mounting it (guarded) if needed; NULL if absent. */
const char *rp_tracefs(void);
/*
 * For a hotplug sweep: move the CPUs that cannot go offline to the front,
 * returning how many; rp_cpus_set_online() then puts exactly cpus[0..n)
 * online and the rest of cpus[0..nr) offline.
 */
int rp_cpus_fixed_first(int *cpus, int nr);
int rp_cpus_set_online(const int *cpus, int n, int nr);	/* 0 or -errno */
int rp_nr_online_cpus(void);
int rp_online_cpus(int *cpus, int max);	/* list of online CPU ids */

/* load.c: busy threads */

struct rp_load;
/*
 * A spinning SCHED_IDLE thread on each of cpus[0..n): the CPUs are never
 * idle, yet never delay a woken task. NULL on error.
 */
struct rp_load *rp_load_start(const int *cpus, int n);
void rp_load_stop(struct rp_load *l);		/* NULL is fine */
int rp_pin_self(int cpu);	/* cpu < 0: all online CPUs */

/* counters.c: libperf counters */

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
/* Opens every counter that works here; never fails for a missing one. */
int rp_counters_open(struct rp_counters *c);
void rp_counters_start(struct rp_counters *c);
void rp_counters_stop(struct rp_counters *c);	/* fills delta[] */
void rp_counters_close(struct rp_counters *c);

/* Add one block's deltas @c to @sum, which takes over what @c supports. */
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

/* checks.c: KTAP checks, "measured vs limit" */

/*
 * ok: within the limit; not ok: past it, a regression; ok # SKIP: not
 * judged (not root, feature missing, too noisy...), the reason says what
 * to change. "not ok # error" is for bugs of the test itself only.
 */
enum rp_verdict { RP_PASS, RP_FAIL, RP_SKIP, RP_ERROR };

/* measured against @limit (RP_LIMIT_MAX/MIN): printed and recorded. */
enum rp_verdict rp_check(const char *check, double measured,
			 const struct rp_param *limit);

/*
 * A limit derived at run time and an estimate with its interval. With a
 * maximum: FAIL when even lo is past the limit, PASS when the estimate is
 * within it, else SKIP ("too noisy"). A minimum is the mirror image.
 */
struct rp_bound {
	struct rp_estimate est;
	double limit;
	bool is_min;		/* limit is a minimum (default: a maximum) */
	const char *unit;
	const struct rp_param *param;	/* the one that tunes the limit */
	const char *how;	/* one line: how the limit was derived */
};

bool rp_bound_settled(const struct rp_bound *b); /* wholly on one side */
enum rp_verdict rp_check_bound(const char *check, const struct rp_bound *b);
/* A regression without a number to set against a limit (a GP that hung). */
__printf(2, 3) void rp_check_fail(const char *check, const char *fmt, ...);
__printf(2, 3) void rp_check_skip(const char *check, const char *fmt, ...);
/* Skip every check not reported yet (e.g. the whole test cannot run). */
__printf(1, 2) void rp_skip_rest(const char *fmt, ...);

/* report.c: the JSON results document */

struct rp_metric {
	char *name;		/* e.g. "membarrier.idle.latency" */
	char *unit;
	double *samples;
	size_t n;
	struct rp_summary sum;
	double per_op[RP_CTR_NR];	/* counters per op; NAN = none */
	bool has_counters;
	bool higher_is_better;	/* throughput-like; default: lower is better */
	/* Why other tasks kept the CPUs busy: its baseline check SKIPs. */
	const char *disturbed;
	/* Shown, never judged against other runs (JSON "judged": false). */
	bool report_only;
	/*
	 * Judged against a baseline on its stat only: rare long ops that the
	 * host causes move its mean by chance (the program judges the mean).
	 */
	bool median_only;
	enum rp_cmp_stat stat;	/* compared on (JSON "stat"); median default */
	/*
	 * The step its ops' times take (a GP ends on a tick: a jiffy); 0:
	 * none. Its mean's second look against a baseline allows one step.
	 */
	double quantum;
	/*
	 * The least change a baseline of another session can tell from the
	 * host (an op of a few wake-ups moves by a share of one); 0: none.
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

/* system.c: facts of the machine and the kernel */

/* The tick rate, from CLOCK_MONOTONIC_COARSE's resolution; 0 if unknown. */
int rp_hz(void);
/* The default FQS interval in jiffies as rcu_init_geometry() derives it. */
int rp_default_fqs_jiffies(void);
double rp_now_ms(void);	/* CLOCK_MONOTONIC in ms (util.c) */

/* /proc/stat CPU time in seconds; iowait is also counted in idle. */
struct rp_cpu_time {
	double busy, idle, steal, iowait;
};

/* per_cpu[] by CPU id (ids >= max ignored); all: the sum. 0 or -errno. */
int rp_cpu_times(struct rp_cpu_time *per_cpu, int max,
		 struct rp_cpu_time *all);
void rp_cpu_time_add(struct rp_cpu_time *sum, const struct rp_cpu_time *t);
/* CPU seconds that passed between two readings: busy, idle and stolen. */
double rp_cpu_elapsed(const struct rp_cpu_time *t0,
		      const struct rp_cpu_time *t1);
/*
 * The share of @capacity_s CPU seconds that others took between @t0 and
 * @t1: busy time less @own_s, capped at the work's run delay @delay_s
 * (NAN: unknown), plus stolen time. A CPU busy while the work sleeps on a
 * lock, or idle while a quota throttles it, is what is being measured.
 */
double rp_cpu_others(const struct rp_cpu_time *t0,
		     const struct rp_cpu_time *t1, double own_s,
		     double delay_s, double capacity_s);

int rp_machine_key(char *buf, size_t len);

/* main.c: start-up and exit */

/*
 * Parse options (cli > env > config > default), take the guard (repairing
 * what a killed run left), apply --knob, print the KTAP header and plan.
 * Exits KSFT_FAIL on bad input, 0 after --help or --list.
 */
void rp_init(const struct rp_test *test, int argc, char **argv);
/* Whole-program skip: restore, write JSON, exit KSFT_SKIP (4). */
__printf(1, 2) __noreturn void rp_exit_skip(const char *fmt, ...);
/*
 * Cannot go on: "# error: <reason>", the rest skipped with it, restore,
 * JSON; exits KSFT_SKIP, or KSFT_FAIL when a check already failed.
 */
__printf(1, 2) __noreturn void rp_fatal(const char *fmt, ...);
int rp_finish(void);	/* JSON, restore, totals: the exit code */

/* json.c: a small writer and a strict reader */

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

/* A whole document; NULL with "line L col C: what" in err. */
struct rp_jval *rp_json_parse(const char *text, char *err, size_t errlen);
struct rp_jval *rp_json_parse_file(const char *path, char *err, size_t errlen);
void rp_json_free(struct rp_jval *v);
struct rp_jval *rp_json_get(const struct rp_jval *obj, const char *key);

/* kmsg.c: the kernel log */

struct rp_marker {
	const char *name;	/* which marker matched */
	double t;		/* seconds since boot */
};

/*
 * The time to user space in a kernel log (dmesg, /dev/kmsg records or a
 * serial capture): 0 found, -1 not found, -2 malformed (err set).
 */
int rp_find_boot_marker(const char *log, struct rp_marker *m,
			char *err, size_t errlen);
char *rp_read_kmsg(void);	/* this boot's log, non-blocking; malloc'd */
/* A saved log ("-": stdin), NULs as blanks; NULL with errno (EFBIG). */
#define RP_LOG_MAX	(256 << 20)
char *rp_read_log(const char *path);
/* The "Kernel command line: " a log records: 0, or -1 if none. */
int rp_log_cmdline(const char *log, char *buf, size_t len);
/* Those tokens of a command line, space-separated into buf; how many. */
int rp_rcu_params(const char *cmdline, char *buf, size_t len);

/* scaling.c: CPU-count sweeps, efficiency, GNU time reports */

/* CPU counts 1, 2, 4, ... below max, then max itself; returns how many. */
int rp_sweep_points(int max, int *pts, int cap);
/* Scaling efficiency ops(N) / (N * ops(1)): 1 is linear; NAN if invalid. */
double rp_efficiency(double ops_n, double ops_1, int n);
/* Karp-Flatt serial fraction of a speedup on n >= 2 workers. */
double rp_serial_fraction(double speedup, int n);
/*
 * The workload's serial fraction between a parallel control (0) and a
 * serial one (1, a global lock around each op), measured at the same n.
 */
double rp_serial_share(int n, double eff, double eff_par, double eff_ser);
/* The efficiency at which a workload's serial share is @share (its limit). */
double rp_serial_share_eff(int n, double share, double eff_par,
			   double eff_ser);
/* NULL if n can be judged, else why (n < 2, a control missing or off). */
const char *rp_controls_judge(int n, double eff_par, double eff_ser,
			      double par_min, double ser_min, char *why,
			      size_t len);

/* One run as GNU time (/usr/bin/time) reports it, or an average of runs. */
struct rp_time {
	double elapsed, user, sys;	/* s */
	double cpu_pct;		/* GNU time's %P; NAN when not reported */
	int status;		/* exit status (128 + signal); 0 if not reported */
};

/* GNU time's default, -p or -v output, or the shell's "real 0m1.5s". */
int rp_time_parse(const char *text, struct rp_time *t, char *err,
		  size_t errlen);
void rp_time_average(const struct rp_time *runs, int n, struct rp_time *avg);
/* "Elapsed: 19.622s User: 193.366s System: 42.498s CPU: 1201.6%" */
int rp_time_format(char *buf, size_t len, const struct rp_time *avg);
/* One run: "real 19.62s user 193.37s sys 42.50s CPU 1201%" */
int rp_time_format_run(char *buf, size_t len, const struct rp_time *t);
double rp_time_system_share(const struct rp_time *t); /* sys/(user+sys) */

#endif /* RCU_PERF_H */
