// SPDX-License-Identifier: GPL-2.0
/*
 * gp_throttle: do idle CPUs delay normal grace periods? A busy CPU reports
 * its quiescent states from its tick, an idle one is noticed only by the
 * FQS scans: after commit c229828ca6bc62d a loop of tracer switches took
 * 49 s instead of 35 s idle, 20 s on both kernels busy. Grace-period-bound
 * operations are timed idle and with CPUs busy, and what idle adds is
 * judged against the kernel's default FQS interval.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/membarrier.h>

#include "rcu_perf.h"

static struct rp_param p_mean_slack =
	RP_SETTING("mean_slack", "jiffies", 0,
		   "added to one default FQS per GP for the mean, which is FQS - 1/2 jiffy healthy (busy CPUs wait 1/2 for a tick)");
static struct rp_param p_fqs_slack =
	RP_SETTING("fqs_slack", "jiffies", 0.5,
		   "added to first + next FQS per GP for the tail: whole jiffies, as GPs end on ticks; 1/2 splits them");
static struct rp_param p_pace_slack =
	RP_SETTING("pace_slack", "jiffies", 0.5,
		   "added to the idle GP's own pace (FQS timer + ticks it waits for): whole jiffies, 1/2 splits them");
static struct rp_param p_idle_busy_max =
	RP_SETTING("idle_busy_max", "%", 5,
		   "others' CPU use in an idle block: ~1% if quiet; 20% hides 25x slower GPs");
static struct rp_param p_samples =
	RP_SETTING("samples", "count", 50,
		   "ops per load level (half at one busy CPU): ~1 s per level if healthy",
		   RP_QUICK(20));
static struct rp_param p_min_samples =
	RP_SETTING("min_samples", "count", 10,
		   "fewer idle or all-busy ops give no usable interval: SKIP, unless all failed");
static struct rp_param p_time_budget =
	RP_SETTING("time_budget", "s", 12,
		   "per workload: with 25x slower idle GPs a run still ends within ~30 s",
		   RP_QUICK(8));
static struct rp_param p_block =
	RP_SETTING("block", "ms", 300,
		   "of one level before the next: interleaves levels, /proc/stat resolves it");
static struct rp_param p_confidence =
	RP_SETTING("confidence", "ratio", 0.9,
		   "two-sided interval: each end is a one-sided 95% bound");
static struct rp_param p_baseline_change =
	RP_BASELINE_CHANGE(10, "FQS 1 -> 2 jiffies makes idle GPs +50%; healthy runs move <1%");
static struct rp_param p_baseline_busy_change =
	RP_MAX("baseline_busy_change", "%", 10,
	       "all-busy GPs repeat to 0.1% run to run; icount2 guests, whose hogs any code change reshuffles, set 50");
static struct rp_param p_baseline_alpha = RP_BASELINE_ALPHA;

static struct rp_param *params[] = {
	&p_mean_slack, &p_fqs_slack, &p_pace_slack, &p_idle_busy_max, &p_samples,
	&p_min_samples, &p_time_budget, &p_block, &p_confidence,
	&p_baseline_change, &p_baseline_busy_change, &p_baseline_alpha, NULL
};

/* Per workload: idle minus busy (mean, tail); membarrier also its pace. */
enum { C_MEAN, C_TAIL, C_PACE, NR_KINDS };
static struct rp_param * const slack_param[NR_KINDS] = {
	&p_mean_slack, &p_fqs_slack, &p_pace_slack,
};

static const char * const check_names[] = {
	"membarrier_idle_mean", "membarrier_idle_tail", "membarrier_idle_pace",
	"tracer_idle_mean", "tracer_idle_tail", NULL
};

static const char * const baseline_metrics[] = {
	"membarrier.idle.latency", "membarrier.all_busy.latency",
	"tracer.idle.latency", "tracer.all_busy.latency", NULL
};

static struct rp_param * const baseline_limits[] = {
	NULL, &p_baseline_busy_change, NULL, &p_baseline_busy_change,
};

static const struct rp_test test = {
	.name = "gp_throttle",
	.baseline = baseline_metrics,
	.baseline_limit = baseline_limits,
	.summary = "idle vs all-busy latency of GP-bound operations (idle CPUs must not delay GPs)",
	.params = params,
	.nr_checks = ARRAY_SIZE(check_names) - 1,
	.checks = check_names,
};

enum level { L_IDLE, L_ALL, L_ONE, NR_LEVELS };	/* order of measurement */

static const char * const level_name[NR_LEVELS] = {
	[L_IDLE] = "idle", [L_ALL] = "all_busy", [L_ONE] = "one_busy",
};

struct level_data {
	struct rp_samples lat;		/* ms per op, in the order timed */
	double cpu_s;			/* our thread's CPU time in kept blocks */
	size_t want;			/* samples to collect */
	int blocks, rejected;
	double worst_bg;		/* highest background CPU %, idle only */
	double bg_sum;			/* background CPU % of kept idle blocks */
};

struct workload {
	const char *name;
	int gps_per_op;			/* GPs one op waits for */
	int nr_checks;			/* C_PACE only where an op is one GP */
	const char * const *checks;	/* its nr_checks in check_names[] */
	int (*op)(void);		/* 0 or -errno */
	const char *(*setup)(char *why, size_t len);	/* NULL, or why not */
	const char *skip;		/* why it cannot run here */
	char skip_buf[200];
	char busy_why[160];		/* its metrics' rp_metric.disturbed */
	char how[NR_KINDS][200];	/* how each limit was derived */
	struct level_data lv[NR_LEVELS];
};

static int cpus[1024], nr_cpus;	/* online CPUs; we run on the first */
static char current_tracer[600], tracing_on[600];
static const char *tracer;	/* the tracer that alternates with nop */
static bool tracer_set;		/* current_tracer is @tracer, not nop */

static int membarrier_op(void)
{
	return syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) ? -errno : 0;
}

static const char *membarrier_setup(char *why, size_t len)
{
	long mask = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	if (mask < 0)
		return rp_why(why, len, "membarrier() unavailable: %s", strerror(errno));
	return mask & MEMBARRIER_CMD_GLOBAL ? NULL :
	       "membarrier(MEMBARRIER_CMD_GLOBAL) not supported (nohz_full CPUs?)";
}

static int tracer_op(void)
{
	int err = rp_knob_write(current_tracer, tracer_set ? "nop" : tracer);

	if (err)
		return err;
	tracer_set = !tracer_set;
	return rp_knob_write(tracing_on, "1") ?: rp_knob_write(tracing_on, "0");
}

/*
 * blk first: its switch waits for GPs as the seed's function tracer's
 * does, without patching kernel text (seconds of CPU per switch under an
 * emulator).
 */
static const char *tracer_setup(char *why, size_t len)
{
	static const char * const prefs[] = { "blk", "function" };
	char path[600], avail[4096] = " ", refused[200] = "", word[16];
	const char *tfs = rp_tracefs();
	size_t i, n;
	int err;

	if (!tfs)
		return "no tracefs";
	snprintf(current_tracer, sizeof(current_tracer), "%s/current_tracer", tfs);
	snprintf(tracing_on, sizeof(tracing_on), "%s/tracing_on", tfs);
	snprintf(path, sizeof(path), "%s/available_tracers", tfs);
	err = rp_knob_read(path, avail + 1, sizeof(avail) - 2);
	if (err < 0)
		return rp_why(why, len, "cannot read available_tracers: %s", strerror(-err));
	strcat(avail, " ");	/* each name between blanks */
	for (i = 0; i < ARRAY_SIZE(prefs) && !tracer; i++) {
		snprintf(word, sizeof(word), " %s ", prefs[i]);
		err = strstr(avail, word) ? rp_knob_write(current_tracer, prefs[i]) : 1;
		n = strlen(refused);
		if (!err)
			tracer = prefs[i];
		else
			snprintf(refused + n, sizeof(refused) - n, "%s%s %s%s",
				 n ? ", " : "", prefs[i],
				 err > 0 ? "not built in" : "refused: ",
				 err > 0 ? "" : strerror(-err));
	}
	if (!tracer)
		return rp_why(why, len, "no usable tracer (%s)", refused);
	err = rp_knob_write(current_tracer, "nop");
	if (err)
		return rp_why(why, len, "cannot set current_tracer back to nop: %s",
			      strerror(-err));
	rp_info("tracer", "%s<->nop%s%s%s", tracer, refused[0] ? " (" : "",
		refused, refused[0] ? ")" : "");
	return NULL;
}

static struct workload workloads[] = {
	{ .name = "membarrier", .gps_per_op = 1, .nr_checks = NR_KINDS,
	  .checks = &check_names[0], .op = membarrier_op,
	  .setup = membarrier_setup },
	{ .name = "tracer", .gps_per_op = 2, .nr_checks = C_PACE,
	  .checks = &check_names[NR_KINDS], .op = tracer_op,
	  .setup = tracer_setup },
};

#define NR_WORKLOADS	ARRAY_SIZE(workloads)

static size_t target, min_n;	/* samples, min_samples */
static double jiffy;		/* in ms */
static int fqs;			/* the default FQS interval, in jiffies */

/*
 * The timer control: how late a one-jiffy sleep wakes, in jiffies (a quiet
 * VM: ~0.05), in the blocks kept. Idle GPs wait for the FQS timer: its mean
 * widens the mean's limit per GP, its p90 the tail's.
 */
static struct rp_samples timer_late[NR_LEVELS];
#define TIMER_PROBES	5	/* per idle block: ~7% of its 300 ms at HZ=250 */

/* The control's mean or p90 at @lvl, >= 0 (NAN, nothing kept: 0). */
static double timer_lateness(int lvl, bool tail)
{
	struct rp_samples *s = &timer_late[lvl];
	double v = rp_cmp_stat_of(s->v, s->n, tail ? RP_CMP_P90 : RP_CMP_MEAN);

	return v > 0 ? v : 0;
}

/*
 * Idle blocks mostly thrown away: the idle checks judge one busy CPU, as
 * the other CPUs still wait for FQS scans (the seed: 45 s instead of 31).
 */
static int judged_level(const struct workload *w)
{
	const struct level_data *d = &w->lv[L_IDLE];

	return d->rejected >= 3 && d->rejected > 2 * d->blocks ? L_ONE : L_IDLE;
}

/* This thread's CPU time in s: its sum_exec_runtime, as perf's task-clock */
static double own_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* An idle block is kept only if the CPUs were idle but for our thread. */
static int run_block(struct workload *w, int lvl, double deadline)
{
	struct level_data *d = &w->lv[lvl];
	struct rp_samples *late = &timer_late[lvl];
	struct timespec one = { .tv_nsec = (long)(jiffy * 1e6) };
	size_t n0 = d->lat.n, late0 = late->n, i;
	struct rp_cpu_time all0 = { 0 }, all1 = { 0 };
	struct rp_load *load = NULL;
	double t0, a, b, bg, own;
	int err = 0, stat_err;
	bool keep;

	if (lvl != L_IDLE) {
		load = lvl == L_ALL ? rp_load_start(cpus, nr_cpus) :
		       rp_load_start(&cpus[nr_cpus - 1], 1);
		if (!load)
			return errno ? -errno : -ENOMEM;
	}
	/* The timer control, before the CPU times: no op pays. */
	for (i = 0; lvl != L_ALL && i < TIMER_PROBES; i++) {
		a = rp_now_ms();
		clock_nanosleep(CLOCK_MONOTONIC, 0, &one, NULL);
		b = rp_now_ms();
		rp_sample(late, (b - a - jiffy) / jiffy);
	}
	stat_err = rp_cpu_times(NULL, 0, &all0);
	own = own_cpu_s();
	t0 = rp_now_ms();
	do {
		a = rp_now_ms();
		err = w->op();
		b = rp_now_ms();
		if (err)
			break;
		rp_sample(&d->lat, b - a);
		if (rp_opts.verbose)
			fprintf(stderr, "%s %s %zu %.3f ms\n", w->name,
				level_name[lvl], d->lat.n, b - a);
	} while (b - t0 < p_block.value && d->lat.n < d->want && b < deadline);
	own = own_cpu_s() - own;
	stat_err = stat_err ?: rp_cpu_times(NULL, 0, &all1);
	rp_load_stop(load);

	keep = !err;
	if (keep && lvl == L_IDLE && !stat_err && rp_cpu_elapsed(&all0, &all1) > 0) {
		bg = 100 * rp_cpu_others(&all0, &all1, own, NAN, rp_cpu_elapsed(&all0, &all1));
		keep = !(bg > p_idle_busy_max.value);
		if (rp_opts.verbose)
			fprintf(stderr, "%s idle block of %zu ops: background CPU %.1f%%%s\n",
				w->name, d->lat.n - n0, bg, keep ? "" : ", thrown away");
		d->bg_sum += keep ? bg : 0;
		d->rejected += !keep;
		d->worst_bg = fmax(d->worst_bg, bg);	/* kept ones are lower */
	}
	if (!keep) {
		d->lat.n = n0;
		late->n = late0;
		return err;
	}
	d->cpu_s += own;
	d->blocks++;
	return 0;
}

/* Levels interleaved; one busy CPU, unless judged, only gets the time left. */
static int collect(struct workload *w, double deadline)
{
	bool more = true;
	int lvl, err;

	while (more && rp_now_ms() < deadline) {
		more = false;
		for (lvl = 0; lvl < NR_LEVELS && rp_now_ms() < deadline; lvl++) {
			if (w->lv[lvl].lat.n >= w->lv[lvl].want ||
			    (lvl == L_ONE && more && judged_level(w) != L_ONE))
				continue;
			err = run_block(w, lvl, deadline);
			if (err)
				return err;
			more = true;
		}
	}
	return 0;
}

static void report_level(struct workload *w, int lvl)
{
	struct level_data *d = &w->lv[lvl], *idle = &w->lv[L_IDLE];
	bool tracer_idle = w->op == tracer_op && lvl == L_IDLE;
	char name[64];
	struct rp_metric *m;

	if (!d->lat.n) {
		printf("# %s %s: no samples in the budget, %d blocks too busy (up to %.0f%% CPU)\n",
		       w->name, level_name[lvl], d->rejected, d->worst_bg);
		return;
	}
	snprintf(name, sizeof(name), "%s.%s.latency", w->name, level_name[lvl]);
	m = rp_metric_add(name, "ms", d->lat.v, d->lat.n);
	/* one CPU busy: healthy medians of 2 or 4 jiffies, run to run */
	m->report_only = lvl == L_ONE;
	/*
	 * Against a baseline, all busy: the median (a vCPU the host preempts
	 * moved a healthy mean +14%). The tracer at idle: its p25, the fast
	 * one of its two modes (a p25 of 16.0 ms in 13 healthy runs, means
	 * 16.4-19.6). membarrier at idle also its mean: the c229828ca6bc62d
	 * class moves it 2.5x and not the median.
	 */
	m->median_only = lvl == L_ALL || tracer_idle;
	if (tracer_idle)
		m->stat = RP_CMP_P25;
	m->quantum = w->gps_per_op * jiffy;	/* GPs end on ticks */
	/* the busy levels' ops waited for host CPUs too: not the kernel */
	if (idle->rejected && lvl != L_IDLE) {
		snprintf(w->busy_why, sizeof(w->busy_why),
			 "machine busy: %d idle blocks of %s thrown away (others used up to %.0f%% CPU)",
			 idle->rejected, w->name, idle->worst_bg);
		m->disturbed = w->busy_why;
	}
	printf("# %s %s: %zu ops, ms: median %.2f mean %.2f p90 %.2f max %.2f, %.1f ops/s",
	       w->name, level_name[lvl], d->lat.n, m->sum.median, m->sum.mean,
	       m->sum.p90, m->sum.max, 1000.0 / m->sum.mean);
	if (lvl == L_IDLE)
		printf(", background CPU %.1f%%", d->blocks ? d->bg_sum / d->blocks : 0);
	if (d->rejected)
		printf(", %d blocks thrown away (up to %.0f%%)", d->rejected, d->worst_bg);
	printf("\n");
}

static void skip_workload(struct workload *w, const char *why)
{
	int i;

	for (i = 0; i < w->nr_checks; i++)
		rp_check_skip(w->checks[i], "%s: %s", w->name, why);
}

/*
 * The idle GP's pace, in jiffies: the first FQS timer, +1 as the timer
 * wheel rounds up, +2 ticks where synchronize_rcu() waits for a callback
 * (to start the GP, to invoke it). Healthy: 2 on 6.18, 4 on 6.12.
 */
static bool wake_from_gp;
static int idle_gp_pace;

/*
 * Each check's limit per op in jiffies, how it was derived into @how. At
 * one busy CPU the GP kthread's wake-ups wait for the hog's tick: one
 * jiffy more per GP, and the mean gets the tail's slack.
 */
static double allowance(const struct workload *w, int lvl, int kind, char *how, size_t len)
{
	bool one = lvl == L_ONE, pace = kind == C_PACE, tail = kind == C_TAIL;
	const char *tick = one ? " + busy CPU's tick 1" : "";
	double slack = slack_param[one && kind == C_MEAN ? C_TAIL : kind]->value;
	double timer = timer_lateness(lvl, tail);
	int gp = (pace ? idle_gp_pace : tail && !one ? 2 * fqs : fqs) + one;

	if (how && pace)
		snprintf(how, len,
			 "%s p25; default FQS %d + the wheel's round-up 1%s%s + slack %g + timer %.3f jiffies",
			 level_name[lvl], fqs,
			 wake_from_gp ? "" : " + ticks to start and to invoke the callback 2",
			 tick, slack, timer);
	else if (how)
		snprintf(how, len,
			 "%s - all-busy median; %d GP%s x (%sdefault FQS %d%s + slack %g + timer %.3f) jiffies",
			 level_name[lvl], w->gps_per_op,
			 w->gps_per_op > 1 ? "s" : "", tail && !one ? "2 x " : "",
			 fqs, tick, slack, timer);
	return w->gps_per_op * (gp + slack + timer);
}

/* Against the all-busy median: a busy tail swells on an overcommitted host. */
static void estimate(struct workload *w, struct rp_bound *b)
{
	static const enum rp_cmp_stat stat[NR_KINDS] = {
		RP_CMP_MEAN, RP_CMP_P90, RP_CMP_P25,
	};
	int lvl = judged_level(w), i;
	struct rp_samples *idle = &w->lv[lvl].lat, *all = &w->lv[L_ALL].lat;

	for (i = 0; i < w->nr_checks; i++) {
		struct rp_estimate *e = &b[i].est;

		rp_bootstrap(idle->v, idle->n, stat[i], all->v, all->n,
			     RP_CMP_MEDIAN, i == C_PACE ? RP_BOOT_ONE :
			     RP_BOOT_DIFF, p_confidence.value, e);
		e->value /= jiffy;
		e->lo /= jiffy;
		e->hi /= jiffy;
		b[i].limit = allowance(w, lvl, i, w->how[i], sizeof(w->how[i]));
		b[i].how = w->how[i];
		b[i].unit = "jiffies";
		b[i].param = slack_param[lvl == L_ONE && i == C_MEAN ? C_TAIL : i];
	}
}

/*
 * Too few idle ops for an interval, none thrown away: FAIL when each took
 * longer than the fastest busy op plus the tail's (the wider) allowance.
 */
static bool all_slow(struct workload *w)
{
	struct rp_samples *idle = &w->lv[L_IDLE].lat, *all = &w->lv[L_ALL].lat;
	double allow = allowance(w, L_IDLE, C_TAIL, NULL, 0), excess;
	struct rp_summary si, sa = { 0 };
	int i;

	if (!idle->n || idle->n >= min_n || w->lv[L_IDLE].rejected)
		return false;
	rp_summarize(idle->v, idle->n, &si);
	if (all->n)
		rp_summarize(all->v, all->n, &sa);
	excess = (si.min - sa.min) / jiffy;
	if (excess <= allow)
		return false;
	for (i = 0; i < w->nr_checks; i++)
		rp_check_fail(w->checks[i],
			      "all %zu idle ops took %.4g jiffies or more over the fastest all-busy op, limit %.4g: GPs that take %.1f s",
			      idle->n, excess, allow, si.min / 1000);
	return true;
}

/* Why this workload cannot be judged (@err: its op failed), or NULL. */
static const char *unjudgeable(struct workload *w, int err, char *buf, size_t len)
{
	struct level_data *idle = &w->lv[judged_level(w)], *all = &w->lv[L_ALL];
	double cpu_ms, mean;

	if (err)
		return rp_why(buf, len, "%s failed: %s", w->name, strerror(-err));
	if (judged_level(w) == L_ONE && idle->lat.n < min_n)
		return rp_why(buf, len,
			      "machine busy: %d idle blocks thrown away (background CPU up to %.0f%% > idle_busy_max %g%%) and %zu one-busy ops < min_samples %zu",
			      w->lv[L_IDLE].rejected, w->lv[L_IDLE].worst_bg,
			      p_idle_busy_max.value, idle->lat.n, min_n);
	if (idle->lat.n < min_n && idle->rejected)
		return rp_why(buf, len,
			      "machine busy: %zu quiet idle ops < min_samples %zu; %d idle blocks thrown away, background CPU up to %.0f%% > idle_busy_max %g%%",
			      idle->lat.n, min_n, idle->rejected,
			      idle->worst_bg, p_idle_busy_max.value);
	if (idle->lat.n < min_n || all->lat.n < min_n)
		return rp_why(buf, len,
			      "%zu idle and %zu all-busy ops in the time budget, min_samples %zu",
			      idle->lat.n, all->lat.n, min_n);
	/* An op that burns CPU for most of its latency measures that CPU. */
	cpu_ms = 1e3 * idle->cpu_s / idle->lat.n;
	mean = rp_cmp_stat_of(idle->lat.v, idle->lat.n, RP_CMP_MEAN);
	if (cpu_ms > mean / 2)
		return rp_why(buf, len,
			      "not GP-bound here: %.3g ms of CPU per op of %.3g ms", cpu_ms, mean);
	return NULL;
}

static void run_workload(struct workload *w)
{
	struct level_data *idle = &w->lv[L_IDLE], *all = &w->lv[L_ALL];
	struct rp_bound b[NR_KINDS] = { 0 };
	double start = rp_now_ms();
	double deadline = start + 1000 * p_time_budget.value;
	char why[300];
	int lvl, jl, err, i;

	if (w->skip) {
		skip_workload(w, w->skip);
		return;
	}
	for (lvl = 0; lvl < NR_LEVELS; lvl++)
		w->lv[lvl].want = lvl == L_ONE ? (target + 1) / 2 : target;
	/* While an interval straddles its limit and time is left: more ops. */
	for (;;) {
		err = collect(w, deadline);
		jl = judged_level(w);
		if (err || w->lv[jl].lat.n < min_n || all->lat.n < min_n)
			break;
		estimate(w, b);
		if (rp_bounds_settled(b, w->nr_checks) || rp_now_ms() >= deadline)
			break;
		for (lvl = 0; lvl < NR_LEVELS; lvl++)
			w->lv[lvl].want += target / 2;
		printf("# %s: not settled after %zu %s ops: more samples\n",
		       w->name, w->lv[jl].lat.n, level_name[jl]);
	}
	for (lvl = 0; lvl < NR_LEVELS; lvl++)
		report_level(w, lvl);
	printf("# %s: %.1f s\n", w->name, (rp_now_ms() - start) / 1000);

	if (unjudgeable(w, err, why, sizeof(why))) {
		if (err || !all_slow(w))
			skip_workload(w, why);
		return;
	}
	if (jl == L_ONE)
		printf("# %s: machine busy, %d/%d idle blocks dropped: judged at one busy CPU\n",
		       w->name, idle->rejected, idle->rejected + idle->blocks);
	printf("# timer control: %zu one-jiffy sleeps at %s, late by mean %.3f, p90 %.3f jiffies\n",
	       timer_late[jl].n, level_name[jl], timer_lateness(jl, false),
	       timer_lateness(jl, true));
	for (i = 0; i < w->nr_checks; i++)
		rp_check_bound(w->checks[i], &b[i]);
}

#define RCU_EXPEDITED	"/sys/kernel/rcu_expedited"
#define FQS_FIRST	"/sys/module/rcutree/parameters/jiffies_till_first_fqs"
#define FQS_NEXT	"/sys/module/rcutree/parameters/jiffies_till_next_fqs"
#define WAKE_FROM_GP	"/sys/module/rcutree/parameters/rcu_normal_wake_from_gp"

static void skip_all(const char *why)
{
	size_t i;

	for (i = 0; i < NR_WORKLOADS; i++)
		skip_workload(&workloads[i], why);
	exit(rp_finish());
}

int main(int argc, char **argv)
{
	char first[32] = "?", next[32] = "?", buf[32];
	struct workload *w;
	int hz, err;

	rp_init(&test, argc, argv);
	if (geteuid())
		skip_all("needs root (tracefs, tracepoints, the rcu_perf lock)");
	nr_cpus = rp_online_cpus(cpus, ARRAY_SIZE(cpus));
	if (nr_cpus <= 0)
		rp_fatal("cannot read the online CPUs: %s", strerror(-nr_cpus));
	/* rcu_blocking_is_gp(): with one CPU a GP needs no waiting. */
	if (nr_cpus < 2)
		skip_all("1 CPU online: synchronize_rcu() waits for no GP");

	min_n = p_min_samples.value;
	target = fmax(p_samples.value, min_n);

	hz = rp_hz();
	fqs = rp_default_fqs_jiffies();
	if (!hz || !fqs)
		skip_all("the tick rate (HZ) is unknown: no limit can be derived");
	jiffy = 1000.0 / hz;
	rp_info("hz", "%d", hz);
	rp_knob_read(FQS_FIRST, first, sizeof(first));
	rp_knob_read(FQS_NEXT, next, sizeof(next));
	rp_info("fqs", "jiffies_till_first_fqs=%s jiffies_till_next_fqs=%s (default %d)",
		first, next, fqs);
	rp_info("cpus", "%d online; measuring on CPU %d", nr_cpus, cpus[0]);
	/* 6.9+: the GP kthread may wake synchronize_rcu() itself. */
	if (rp_knob_read(WAKE_FROM_GP, buf, sizeof(buf)) > 0)
		wake_from_gp = strcmp(buf, "0");
	idle_gp_pace = fqs + 1 + (wake_from_gp ? 0 : 2);
	rp_info("wake_from_gp", "%s: the idle GP's pace is %d jiffies",
		wake_from_gp ? "the GP kthread wakes synchronize_rcu()" :
		"synchronize_rcu() waits for a callback", idle_gp_pace);

	/* Expedited GPs never wait for FQS: measure normal ones. */
	if (rp_knob_read(RCU_EXPEDITED, buf, sizeof(buf)) > 0 && strcmp(buf, "0")) {
		if (rp_knob_write(RCU_EXPEDITED, "0"))
			skip_all("cannot turn rcu_expedited off for the run");
		printf("# rcu_expedited was %s: 0 for this run\n", buf);
	}

	for (w = workloads; w < workloads + NR_WORKLOADS; w++)
		w->skip = w->setup(w->skip_buf, sizeof(w->skip_buf));
	for (w = workloads; w < workloads + NR_WORKLOADS; w++)
		if (w->skip)
			rp_info(w->name, "skipped: %s", w->skip);

	err = rp_pin_self(cpus[0]);
	if (err)
		rp_fatal("cannot pin to CPU %d: %s", cpus[0], strerror(-err));

	for (w = workloads; w < workloads + NR_WORKLOADS; w++)
		run_workload(w);
	rp_info("timer_control",
		"%zu one-jiffy sleeps at idle, late by mean %.3f, p90 %.3f jiffies",
		timer_late[L_IDLE].n, timer_lateness(L_IDLE, false), timer_lateness(L_IDLE, true));

	return rp_finish();
}
