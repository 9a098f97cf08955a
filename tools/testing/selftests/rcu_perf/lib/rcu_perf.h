/* SPDX-License-Identifier: GPL-2.0 */
/* rcu_perf: what the programs use of the library (its own: internal.h). */
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
#define RP_SUITE_VERSION	1	/* bumped when results become incomparable */

/* stats.c */

struct rp_samples {
	double *v;
	size_t n, cap;
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

enum rp_cmp_verdict {
	RP_CMP_SAME, RP_CMP_IMPROVED, RP_CMP_REGRESSED, RP_CMP_INCONCLUSIVE,
};

/* p25: the fast mode of a latency whose median flips between two modes */
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

/* Is b (candidate) worse than a (baseline) by more than allowed_pct? */
void rp_compare_stat(const double *a, size_t na, const double *b, size_t nb,
		     enum rp_cmp_stat stat, bool higher_is_better,
		     double allowed_pct, double alpha, struct rp_cmp *out);
/* The same with the run as the unit: @ra[i] samples in run i. */
void rp_compare_runs(const double *a, const size_t *ra, size_t nra,
		     const double *b, const size_t *rb, size_t nrb,
		     enum rp_cmp_stat stat, bool higher_is_better,
		     double allowed_pct, double alpha, struct rp_cmp *out);
const char *rp_cmp_verdict_name(enum rp_cmp_verdict v);
const char *rp_cmp_stat_name(enum rp_cmp_stat s);
int rp_cmp_stat_parse(const char *name, enum rp_cmp_stat *s);
double rp_cmp_stat_of(const double *v, size_t n, enum rp_cmp_stat s);

enum rp_boot_op { RP_BOOT_ONE, RP_BOOT_DIFF, RP_BOOT_RATIO };

struct rp_estimate {
	double value;		/* the statistic of the samples themselves */
	double lo, hi;		/* its confidence interval */
};

/* Block bootstrap of sa(a), sa(a) - sb(b) or sa(a) / sb(b): 0 or -errno */
int rp_bootstrap(const double *a, size_t na, enum rp_cmp_stat sa,
		 const double *b, size_t nb, enum rp_cmp_stat sb,
		 enum rp_boot_op op, double conf, struct rp_estimate *e);

/* opts.c */

enum rp_param_kind {
	RP_SETTING, RP_LIMIT_MAX, RP_LIMIT_MIN,
	RP_FLAG, RP_STRING, RP_PATH,	/* options of the command line alone */
};

struct rp_param {
	const char *name;	/* [a-z0-9_]+, unique within a program */
	const char *unit;
	double def;
	const char *reason;	/* one line: why this default */
	enum rp_param_kind kind;
	bool has_quick;
	double quick;
	bool has_range;		/* inclusive; else any value >= 0 */
	double min, max;
	const char *(*each)(const char *val);	/* NULL if fine, else why */
	bool dir;
	char letter;		/* an option's short form: -L */
	/* filled in by rp_parse() */
	double value;
	const char *source;	/* "default", "quick", "config", "env", "cli" */
	const char *str;	/* the option's last value, NULL if not given */
	char *origin;		/* where it was set, for "# name = value" */
};

#define RP_PARAM(n, u, d, r, k, ...) \
	{ .name = (n), .unit = (u), .def = (d), .reason = (r), .kind = (k), __VA_ARGS__ }
#define RP_MAX(n, u, d, r, ...)	RP_PARAM(n, u, d, r, RP_LIMIT_MAX, __VA_ARGS__)
#define RP_MIN(n, u, d, r, ...)	RP_PARAM(n, u, d, r, RP_LIMIT_MIN, __VA_ARGS__)
#define RP_SETTING(n, u, d, r, ...) RP_PARAM(n, u, d, r, RP_SETTING, __VA_ARGS__)
#define RP_QUICK(v)		.has_quick = true, .quick = (v)
#define RP_RANGE(lo, hi)	.has_range = true, .min = (lo), .max = (hi)
#define RP_FLAG(n, r, ...)	RP_PARAM(n, NULL, 0, r, RP_FLAG, __VA_ARGS__)
#define RP_STRING(n, u, r, ...)	RP_PARAM(n, u, 0, r, RP_STRING, __VA_ARGS__)
#define RP_PATH(n, u, r, ...)	RP_PARAM(n, u, 0, r, RP_PATH, __VA_ARGS__)
#define RP_EACH(fn)		.each = (fn)
#define RP_DIR			.dir = true
/* The limits of the checks against a baseline; baseline.c finds them by name */
#define RP_BASELINE_CHANGE(pct, why)	RP_MAX("baseline_change", "%", pct, why)
#define RP_BASELINE_ALPHA						\
	RP_MIN("baseline_alpha", "p-value", 0.05,			\
	       "a change is significant below this: 1 false alarm in 20 per metric", \
	       RP_RANGE(0, 1))

struct rp_test {
	const char *name;	/* program name, JSON "test", config section */
	const char *summary;	/* one line for --help */
	struct rp_param * const *params;	/* handles, NULL-terminated */
	const char *(*check_params)(void);	/* NULL, else why not */
	int nr_checks;		/* KTAP plan */
	const char *extra_usage;
	struct rp_param *operands, *operands_after;	/* before/after "--" */
	const char * const *checks;	/* names for unreported checks */
	/* metrics judged against a baseline: "<metric>_vs_baseline" checks */
	const char * const *baseline;
	struct rp_param * const *baseline_limit;	/* NULL: baseline_change */
	bool baseline_per_boot;	/* a boot's files count once */
	bool baseline_shared_drift;	/* metrics whose runs drift together */
	/* a metric no RCU path is in, timed beside the judged ones */
	const char *baseline_control;
	bool reads_only;	/* takes the lock only if free */
};

struct rp_options {
	bool quick, verbose;
	const char *json_path, *outdir, *config_path;
	const char *knobs[16];	/* --knob PATH=VALUE */
	int nr_knobs;
	const char *baseline;	/* NULL: none */
	const char *baseline_from;	/* where that came from */
	bool help, list;
	int nr_given;		/* options on the command line */
};

extern struct rp_options rp_opts;

/* rp_init()'s parsing alone: 0 or -1 (error printed) */
int rp_parse(const struct rp_test *test, int argc, char **argv);
void rp_usage(FILE *f);
void rp_list_params(FILE *f);
__printf(1, 0) int rp_verr(const char *fmt, va_list ap);	/* -1 */
int rp_parse_double(const char *s, double *out);	/* whole, finite: 0 */
/* As root: 0 if path (fd, or -1) and its directory are root's alone. */
int rp_check_trusted(const char *path, int fd, char *why, size_t len);
/* 0 if no other user can change dir or those above it (@own: made, ours) */
int rp_check_dir(const char *path, bool own, char *why, size_t len);

/* guard.c (every change restored on every exit path), util.c, proc.c... */

/* Exit with rp_oom_exit (default KSFT_FAIL) when out of memory */
void *rp_xrealloc(void *p, size_t n);
char *rp_xstrdup(const char *s);	/* NULL is taken as "" */
extern int rp_oom_exit;
/* Room for element @n of an array, for n = 0, 1, 2, ... in turn */
void *rp_xgrow(void *p, size_t n, size_t size);
/* A whole small file, trailing blanks trimmed: its length, or -errno. */
int rp_knob_read(const char *path, char *buf, size_t len);
int rp_knob_write(const char *path, const char *value);
int rp_knob_exists(const char *path);
void rp_guard_restore(void);			/* idempotent */
/* <parent>/<name>.XXXXXX (parent NULL: $TMPDIR or /tmp), removed at exit */
int rp_tmpdir(const char *parent, const char *name, char *buf, size_t len);
void rp_tmpdir_keep(const char *path);		/* unless SIGKILLed */
/* fork(): the child's process group is killed at exit (as root) */
pid_t rp_guard_fork(void);
void rp_guard_child_done(pid_t pid);		/* once waited for */
const char *rp_tracefs(void);	/* mounted (guarded) if needed; or NULL */
int rp_nr_online_cpus(void);
int rp_online_cpus(int *cpus, int max);	/* list of online CPU ids */

/* load.c */

struct rp_load;
/* A spinning SCHED_IDLE thread on each of cpus[0..n); NULL on error. */
struct rp_load *rp_load_start(const int *cpus, int n);
void rp_load_stop(struct rp_load *l);		/* NULL is fine */
int rp_pin_self(int cpu);	/* cpu < 0: all online CPUs */

/* checks.c */

enum rp_verdict { RP_PASS, RP_FAIL, RP_SKIP, RP_ERROR };

enum rp_verdict rp_check(const char *check, double measured, const struct rp_param *limit);

/* A limit derived at run time against an estimate with its interval. */
struct rp_bound {
	struct rp_estimate est;
	double limit;
	bool is_min;		/* limit is a minimum (default: a maximum) */
	const char *unit;
	const struct rp_param *param;	/* the one that tunes the limit */
	const char *how;	/* one line: how the limit was derived */
};

enum rp_verdict rp_check_bound(const char *check, const struct rp_bound *b);
/* A verdict with its reason and no number: a skip, or a failure. */
__printf(3, 4) void rp_check_say(const char *check, enum rp_verdict v, const char *fmt, ...);
#define rp_check_fail(check, ...)	rp_check_say(check, RP_FAIL, __VA_ARGS__)
#define rp_check_skip(check, ...)	rp_check_say(check, RP_SKIP, __VA_ARGS__)

/* report.c */

struct rp_metric {
	char *name;		/* e.g. "membarrier.idle.latency" */
	char *unit;
	double *samples;
	size_t n;
	struct rp_summary sum;
	bool higher_is_better;
	const char *disturbed;	/* why its baseline check SKIPs */
	bool report_only;	/* never judged against other runs */
	bool median_only;	/* judged against a baseline on its stat only */
	enum rp_cmp_stat stat;
	double quantum;		/* the step its ops' times take; 0: none */
	double resolution;	/* the least change a baseline can tell */
};

/* The metric lives until rp_finish(). */
struct rp_metric *rp_metric_add(const char *name, const char *unit, const double *v, size_t n);
/* A fact for the JSON "info" object and a "# key: value" line. */
__printf(2, 3) void rp_info(const char *key, const char *fmt, ...);

/* system.c */

int rp_hz(void);		/* 0 if unknown */
int rp_default_fqs_jiffies(void);	/* as rcu_init_geometry() derives it */
double rp_now_ms(void);	/* CLOCK_MONOTONIC in ms (util.c) */

/* /proc/stat CPU time in seconds; iowait is also counted in idle. */
struct rp_cpu_time {
	double busy, idle, steal, iowait;
};

/* per_cpu[] by CPU id (ids >= max ignored); all: the sum. 0 or -errno. */
int rp_cpu_times(struct rp_cpu_time *per_cpu, int max, struct rp_cpu_time *all);
/* cpus[0..n)'s summed (ids from 1024 on left out); all NAN if unreadable */
void rp_cpu_time_sum(const int *cpus, int n, struct rp_cpu_time *sum);
double rp_cpu_elapsed(const struct rp_cpu_time *t0, const struct rp_cpu_time *t1);
/* The share of @capacity_s that others took: busy (<= @delay_s), stolen */
double rp_cpu_others(const struct rp_cpu_time *t0,
		     const struct rp_cpu_time *t1, double own_s, double delay_s, double capacity_s);

int rp_machine_key(char *buf, size_t len);

/* main.c */

void rp_init(const struct rp_test *test, int argc, char **argv);
__printf(2, 3) __noreturn void rp_leave(bool fatal, const char *fmt, ...);
#define rp_exit_skip(...)	rp_leave(false, __VA_ARGS__)
#define rp_fatal(...)		rp_leave(true, __VA_ARGS__)
int rp_finish(void);	/* JSON, restore, totals: the exit code */

/* json.c */

struct rp_jw {
	FILE *f;
	int depth;
	bool first[32];
	bool is_arr[32];	/* per depth: an array, not an object */
	bool wrapped[32];	/* array holds containers: one item a line */
};

void rp_jw_init(struct rp_jw *w, FILE *f);
void rp_jw_begin(struct rp_jw *w, const char *key, bool arr); /* key NULL in arrays */
void rp_jw_end(struct rp_jw *w, bool arr);
#define rp_jw_obj_begin(w, key)	rp_jw_begin(w, key, false)
#define rp_jw_obj_end(w)	rp_jw_end(w, false)
#define rp_jw_arr_begin(w, key)	rp_jw_begin(w, key, true)
#define rp_jw_arr_end(w)	rp_jw_end(w, true)
void rp_jw_str(struct rp_jw *w, const char *key, const char *v); /* NULL: null */
void rp_jw_num(struct rp_jw *w, const char *key, double v); /* NaN: null */
void rp_jw_int(struct rp_jw *w, const char *key, long long v);
void rp_jw_bool(struct rp_jw *w, const char *key, bool v);

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

/* results.c: reading results files, merged per side */

#define RP_SIDES	2	/* [0] the baseline, [1] the candidate */

/* One metric of one test over the results files read. */
struct rp_rmetric {
	char *key;		/* "<test>.<metric>": a test has no dot */
	char *unit;
	bool higher_is_better;
	struct rp_samples v[RP_SIDES];
	int runs[RP_SIDES];	/* results files that had it */
	size_t *run_n[RP_SIDES];	/* samples of each of those, in order */
	bool report_only;	/* "judged": false in a results file */
	enum rp_cmp_stat stat;	/* a results file's "stat"; RP_CMP_NR: none */
	/* rcu_perf_compare's comparison of the sides */
	double allowed;		/* allowed change, % */
	struct rp_cmp cmp;	/* if both sides have samples */
};

/* One KTAP check of one results file, for --kcidb without a baseline. */
struct rp_rcheck {
	char *key;		/* "<test>.<check>", as --metric matches it */
	char *verdict;		/* "pass", "fail", "skip", "error" */
	char *unit;
	double measured;
	int file;		/* index over all files read */
	char *start_time;	/* the run's "timestamp", or NULL */
	double duration;	/* the run's "duration_s", or NAN */
};

struct rp_results {
	struct rp_rmetric *metrics;
	size_t nr_metrics;
	struct rp_rcheck *checks;
	size_t nr_checks;
	int nr_files[RP_SIDES];		/* results files read per side */
	char kernel_release[RP_SIDES][128];	/* of a side's first file */
};

/* 0 with *doc; else why in @err: -1 not JSON, 1 JSON but not results */
int rp_results_open(const char *path, struct rp_jval **doc, char *err, size_t len);
/* Its metrics and checks into @r on @side: 0, or -1 with why in @err. */
int rp_results_add(struct rp_results *r, const char *path,
		   const struct rp_jval *doc, int side, char *err, size_t len);
void rp_results_free(struct rp_results *r);

/* kmsg.c */

struct rp_marker {
	const char *name;	/* which marker matched */
	double t;		/* seconds since boot */
};

/* 0 found, -1 not found, -2 malformed (err set) */
int rp_find_boot_marker(const char *log, struct rp_marker *m, char *err, size_t errlen);
char *rp_read_kmsg(void);	/* this boot's log; NULL with errno */
char *rp_read_log(const char *path);	/* "-": stdin; NULL with errno */
int rp_log_cmdline(const char *log, char *buf, size_t len);	/* 0 or -1 */
/* The RCU tokens of a command line, space-separated into buf; how many. */
int rp_rcu_params(const char *cmdline, char *buf, size_t len);

/* scaling.c */

#define RP_SWEEP_CPUS	1024
#define RP_SWEEP_POINTS	32
/* The parallel control's limit: the machine runs N at once, or N SKIPs. */
#define RP_PARALLEL_EFFICIENCY_MIN					\
	RP_MIN("parallel_efficiency_min", "ratio", 0.75,		\
	       "private work on N CPUs ~1; SMT siblings ~0.6, a 1-CPU quota 1/N: that N skips")
/* Why a sweep's scaling checks SKIP when it has one count only. */
#define RP_SWEEP_ONE_CPU \
	"1 CPU in the sweep (online, or max_cpus): nothing to scale to"

struct rp_sweep {
	int cpus[RP_SWEEP_CPUS];	/* the online CPUs */
	int nr_online;
	int max;			/* the largest count: max_cpus, else all */
	int pts[RP_SWEEP_POINTS], nr_pts;	/* rp_sweep_points() */
};

/* This machine's sweep, or rp_exit_skip(). */
void rp_sweep_plan(struct rp_sweep *s, double max_cpus);
/* Turns of runs of @n CPUs that take each CPU: turn % it, the first's index */
int rp_sweep_round(const struct rp_sweep *s, int n);
/* The caller on cpus[first..first+n) (n <= 0: unchanged): 0 or -errno. */
int rp_sweep_pin(const struct rp_sweep *s, int first, int n);
/* Scaling efficiency ops(N) / (N * ops(1)): 1 is linear; NAN if invalid. */
double rp_efficiency(double ops_n, double ops_1, int n);
/* Karp-Flatt serial fraction of a speedup on n >= 2 workers. */
double rp_serial_fraction(double speedup, int n);
/* Serial fraction between a parallel (0) and a serial (1) control at n */
double rp_serial_share(int n, double eff, double eff_par, double eff_ser);
/* NULL if n can be judged, else why (n < 2, a control missing or off). */
const char *rp_controls_judge(int n, double eff_par, double eff_ser,
			      double par_min, double ser_min, char *why, size_t len);

/* sampler.c: what the programs' measurement loops share */

/* rp_samples_add() that ends the run (rp_fatal()) when out of memory. */
void rp_sample(struct rp_samples *s, double x);
/* Each of b[0..nr) wholly on one side of its limit: no more samples. */
bool rp_bounds_settled(const struct rp_bound *b, int nr);
/* A reason formatted into @buf, which it returns. */
__printf(3, 4) const char *rp_why(char *buf, size_t len, const char *fmt, ...);
/* rp_tmpdir() or rp_fatal(); rp_workdir_remove() says why it could not. */
void rp_workdir(const char *parent, const char *name, char *buf, size_t len);
void rp_workdir_remove(char *path);	/* path[0] = 0 after */
/* PROG if it has a slash, else the first executable file in $PATH. */
bool rp_find_prog(const char *prog, char *out, size_t len);

#endif /* RCU_PERF_H */
