// SPDX-License-Identifier: GPL-2.0
/*
 * gp_throttle: do idle CPUs delay normal grace periods?
 *
 * After commit c229828ca6bc62d ("rcu: Throttle rcu_try_advance_all_cbs()
 * execution") a loop of ftrace tracer switches took 49 s instead of 35 s
 * on an idle 2-CPU machine, and 20 s on both kernels with both CPUs busy:
 * a busy CPU reports its quiescent states from its tick, an idle one is
 * only noticed by the FQS scans. So grace-period-bound operations are
 * timed with no CPU, one CPU and all CPUs busy, and what idle adds over
 * the all-busy median (its mean, what a loop feels, and its p90), and the
 * idle pace, are judged against the kernel's default FQS interval.
 *
 * Checks and settings: Documentation/dev-tools/rcu_perf.rst; each limit
 * with its reason: --list.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/membarrier.h>

#include "../kselftest.h"
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
static struct rp_param p_op_timeout =
	RP_SETTING("op_timeout", "s", 10,
		   "one op that has not returned by then (~1000 healthy GPs) is a FAIL");
static struct rp_param p_confidence =
	RP_SETTING("confidence", "ratio", 0.9,
		   "two-sided interval: each end is a one-sided 95% bound");
static struct rp_param p_baseline_change =
	RP_BASELINE_CHANGE(10,
			   "FQS 1 -> 2 jiffies makes idle GPs +50%; healthy runs move <1%");
static struct rp_param p_baseline_busy_change =
	RP_MAX("baseline_busy_change", "%", 10,
	       "all-busy GPs repeat to 0.1% run to run; icount2 guests, whose hogs any code change reshuffles, set 50");
static struct rp_param p_baseline_alpha = RP_BASELINE_ALPHA;

static struct rp_param *params[] = {
	&p_mean_slack, &p_fqs_slack, &p_pace_slack, &p_idle_busy_max, &p_samples,
	&p_min_samples, &p_time_budget, &p_block, &p_op_timeout, &p_confidence,
	&p_baseline_change, &p_baseline_busy_change, &p_baseline_alpha, NULL
};

/* Per workload: idle minus busy (mean, tail); membarrier also its pace. */
enum { C_MEAN, C_TAIL, C_PACE, NR_KINDS };

static const char * const check_names[] = {
	"membarrier_idle_mean", "membarrier_idle_tail", "membarrier_idle_pace",
	"tracer_idle_mean", "tracer_idle_tail", NULL
};

/* With --baseline: the latencies, and what the loop of the seed feels. */
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
	struct rp_counters ctr;		/* deltas summed over accepted blocks */
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
	const char *skip;		/* why it cannot run here */
	char skip_buf[200];
	char busy_why[160];		/* its metrics' rp_metric.disturbed */
	struct level_data lv[NR_LEVELS];
};

static int membarrier_op(void)
{
	return syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) ? -errno : 0;
}

static int cpus[1024], nr_cpus;	/* online CPUs; we run on the first */
static char current_tracer[600], tracing_on[600];
static const char *tracer;	/* the tracer that alternates with nop */
static bool tracer_set;		/* current_tracer is @tracer, not nop */

static int tracer_op(void)
{
	int err;

	err = rp_knob_write(current_tracer, tracer_set ? "nop" : tracer);
	if (err)
		return err;
	tracer_set = !tracer_set;
	err = rp_knob_write(tracing_on, "1");
	return err ? err : rp_knob_write(tracing_on, "0");
}

static struct workload workloads[] = {
	{ .name = "membarrier", .gps_per_op = 1, .nr_checks = NR_KINDS,
	  .checks = &check_names[0], .op = membarrier_op },
	{ .name = "tracer", .gps_per_op = 2, .nr_checks = C_PACE,
	  .checks = &check_names[NR_KINDS], .op = tracer_op },
};

#define NR_WORKLOADS	ARRAY_SIZE(workloads)

static void membarrier_setup(struct workload *w)
{
	long mask = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	if (mask < 0)
		w->skip = rp_why(w->skip_buf, sizeof(w->skip_buf),
				 "membarrier() unavailable: %s", strerror(errno));
	else if (!(mask & MEMBARRIER_CMD_GLOBAL))
		w->skip = "membarrier(MEMBARRIER_CMD_GLOBAL) not supported (nohz_full CPUs?)";
}

/* Is @word one of the space-separated words of @list? */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
		p += n;
	}
	return false;
}

/*
 * blk first: it switches through tracing_set_tracer() and its GP waits
 * like the seed's function tracer, without patching kernel text (which
 * costs seconds of CPU per switch under an emulator and races with the
 * tracepoint counters' own text changes). Whether the op is GP-bound is
 * judged from what it measured (unjudgeable()).
 */
static void tracer_setup(struct workload *w)
{
	static const char * const prefs[] = { "blk", "function" };
	char avail[4096], refused[200] = "";
	const char *tfs = rp_tracefs();
	size_t i;
	int err;

	if (!tfs) {
		w->skip = "no tracefs";
		return;
	}
	snprintf(current_tracer, sizeof(current_tracer), "%s/current_tracer", tfs);
	snprintf(tracing_on, sizeof(tracing_on), "%s/tracing_on", tfs);
	snprintf(avail, sizeof(avail), "%s/available_tracers", tfs);
	err = rp_knob_read(avail, avail, sizeof(avail));
	if (err < 0) {
		w->skip = rp_why(w->skip_buf, sizeof(w->skip_buf),
				 "cannot read available_tracers: %s", strerror(-err));
		return;
	}
	for (i = 0; i < ARRAY_SIZE(prefs) && !tracer; i++) {
		size_t n = strlen(refused);

		if (!has_word(avail, prefs[i])) {
			snprintf(refused + n, sizeof(refused) - n, "%s%s not built in",
				 n ? ", " : "", prefs[i]);
			continue;
		}
		err = rp_knob_write(current_tracer, prefs[i]);
		if (err) {
			snprintf(refused + n, sizeof(refused) - n, "%s%s refused: %s",
				 n ? ", " : "", prefs[i], strerror(-err));
			continue;
		}
		tracer = prefs[i];
	}
	if (!tracer) {
		w->skip = rp_why(w->skip_buf, sizeof(w->skip_buf),
				 "no usable tracer (%s)", refused);
		return;
	}
	err = rp_knob_write(current_tracer, "nop");
	if (err) {
		w->skip = rp_why(w->skip_buf, sizeof(w->skip_buf),
				 "cannot set current_tracer back to nop: %s",
				 strerror(-err));
		tracer = NULL;
		return;
	}
	rp_info("tracer", "%s<->nop%s%s%s", tracer, refused[0] ? " (" : "",
		refused, refused[0] ? ")" : "");
}

/*
 * A synchronize_rcu() sleeps uninterruptibly: no signal gets the
 * measuring thread out of it. A second thread watches the op in flight;
 * when it has run for op_timeout, the program reports the FAIL, restores
 * what it changed and exits (the exit completes once the op returns).
 */
static struct {
	pthread_mutex_t lock;
	struct workload *w;		/* in flight, or NULL */
	int lvl;
	double since;			/* rp_now_ms() at its start */
	double timeout_ms;
} watch = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void watch_op(struct workload *w, int lvl)
{
	pthread_mutex_lock(&watch.lock);
	watch.w = w;
	watch.lvl = lvl;
	watch.since = rp_now_ms();
	pthread_mutex_unlock(&watch.lock);
}

static void *watchdog(void *arg)
{
	/* Every 0.5 s, or a quarter of a shorter timeout: it must see one. */
	double tick_ms = watch.timeout_ms / 4 < 500 ? watch.timeout_ms / 4 : 500;
	struct timespec tick = {
		.tv_sec = 0, .tv_nsec = (long)(tick_ms * 1e6) + 1,
	};
	struct workload *w;
	double ran;
	int i, lvl;

	for (;;) {
		nanosleep(&tick, NULL);
		pthread_mutex_lock(&watch.lock);
		w = watch.w;
		lvl = watch.lvl;
		ran = rp_now_ms() - watch.since;
		if (!w || ran < watch.timeout_ms) {
			pthread_mutex_unlock(&watch.lock);
			continue;
		}
		/* keeps the lock: nothing else is timed from here on */
		printf("# %s: one op at %s has not returned after %.1f s\n",
		       w->name, level_name[lvl], ran / 1000);
		for (i = 0; i < w->nr_checks; i++)
			rp_check_fail(w->checks[i],
				      "one %s op (%s) took more than %.1f s (op_timeout): a GP that takes seconds",
				      w->name, level_name[lvl], ran / 1000);
		rp_skip_rest("not run: the %s op before it did not return", w->name);
		exit(rp_finish());
	}
	return arg;
}

static struct rp_counters ctr;
static int target, min_samples;
static double block_ms, idle_busy_max, jiffy;	/* jiffy: in ms */
static int fqs;			/* the default FQS interval, in jiffies */

/*
 * The timer control: how late this machine wakes a task that sleeps one
 * jiffy, in jiffies, from the idle blocks kept. An idle GP waits on a
 * timer that a busy one does not (the FQS scan's), so an emulator or a
 * host that delivers timers late makes idle slower than busy with no
 * kernel at fault: each GP's allowance grows by that lateness (its mean
 * for the mean, its p90 for the tail). The sleep is no RCU, so a slow
 * RCU path does not widen it. A quiet VM: ~0.05 jiffy.
 */
static struct rp_samples timer_late[NR_LEVELS];
#define TIMER_PROBES	5	/* per idle block: ~7% of its 300 ms at HZ=250 */

static void timer_probe(struct rp_samples *late)
{
	struct timespec ts = { .tv_nsec = (long)(jiffy * 1e6) };
	double a = rp_now_ms(), b;

	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	b = rp_now_ms();
	rp_sample(late, (b - a - jiffy) / jiffy);
}

/* The control's mean or p90 at @lvl (0 when nothing was kept), >= 0. */
static double timer_lateness(int lvl, bool tail)
{
	struct rp_samples *s = &timer_late[lvl];
	double v;

	if (!s->n)
		return 0;
	v = rp_cmp_stat_of(s->v, s->n, tail ? RP_CMP_P90 : RP_CMP_MEAN);
	return v > 0 ? v : 0;
}

/*
 * Idle blocks mostly thrown away: other tasks keep CPUs busy. What the
 * machine still offers is judged: the one-busy level, whose idle CPUs
 * still wait for FQS scans (the seed measured its regression so too: 45 s
 * instead of 31 s with one CPU busy).
 */
static bool idle_starved(const struct workload *w)
{
	const struct level_data *d = &w->lv[L_IDLE];

	return d->rejected >= 3 && d->rejected > 2 * d->blocks;
}

/* The level the idle checks judge: idle, or one busy CPU if starved. */
static int judged_level(const struct workload *w)
{
	return idle_starved(w) ? L_ONE : L_IDLE;
}

/*
 * One block of ops at one load level, until block_ms, the level's target
 * or the deadline. An idle block is kept only if the CPUs were idle but for
 * us: background CPU use = all busy time minus our own task clock.
 */
static int run_block(struct workload *w, int lvl, double deadline)
{
	struct level_data *d = &w->lv[lvl];
	struct rp_samples tmp = { 0 }, late = { 0 };
	struct rp_load *load = NULL;
	struct rp_cpu_time all0 = { 0 }, all1 = { 0 };
	double t0, a, b;
	int err = 0, stat_err;
	size_t i;

	if (lvl == L_ALL)
		load = rp_load_start(cpus, nr_cpus);
	else if (lvl == L_ONE)
		load = rp_load_start(&cpus[nr_cpus - 1], 1);
	if (lvl != L_IDLE && !load)
		return errno ? -errno : -ENOMEM;

	/*
	 * The timer control, a few probes per idle block (interleaved too),
	 * before the block's CPU times and counters: no op pays for them.
	 */
	for (i = 0; lvl != L_ALL && i < TIMER_PROBES; i++)
		timer_probe(&late);
	stat_err = rp_cpu_times(NULL, 0, &all0);
	rp_counters_start(&ctr);
	t0 = rp_now_ms();
	do {
		watch_op(w, lvl);
		a = rp_now_ms();
		err = w->op();
		b = rp_now_ms();
		watch_op(NULL, 0);
		if (err)
			break;
		rp_sample(&tmp, b - a);
		if (rp_opts.verbose)
			fprintf(stderr, "%s %s %zu %.3f ms\n", w->name,
				level_name[lvl], d->lat.n + tmp.n, b - a);
	} while (b - t0 < block_ms && d->lat.n + tmp.n < d->want &&
		 b < deadline);
	rp_counters_stop(&ctr);
	if (!stat_err)
		stat_err = rp_cpu_times(NULL, 0, &all1);
	rp_load_stop(load);
	if (err)
		goto out;

	if (lvl == L_IDLE && !stat_err && rp_cpu_elapsed(&all0, &all1) > 0) {
		double own = 0, bg;

		if (ctr.supported[RP_CTR_TASK_CLOCK])
			own = ctr.delta[RP_CTR_TASK_CLOCK] / 1e9;
		bg = 100 * rp_cpu_others(&all0, &all1, own, NAN,
					 rp_cpu_elapsed(&all0, &all1));
		if (rp_opts.verbose)
			fprintf(stderr, "%s idle block of %zu ops: background CPU %.1f%%%s\n",
				w->name, tmp.n, bg,
				bg > idle_busy_max ? ", thrown away" : "");
		if (bg > idle_busy_max) {
			d->rejected++;
			if (bg > d->worst_bg)
				d->worst_bg = bg;
			goto out;
		}
		d->bg_sum += bg;
	}
	for (i = 0; i < tmp.n; i++)
		rp_sample(&d->lat, tmp.v[i]);
	for (i = 0; i < late.n; i++)
		rp_sample(&timer_late[lvl], late.v[i]);
	rp_counters_add(&d->ctr, &ctr);
	d->blocks++;
out:
	rp_samples_free(&tmp);
	rp_samples_free(&late);
	return err;
}

/*
 * Interleave blocks of the judged levels until each has what it wants or
 * the deadline passes. One busy CPU is only informative: it gets the time
 * that is left.
 */
static int collect(struct workload *w, double deadline)
{
	bool more = true;
	int lvl, err;

	while (more && rp_now_ms() < deadline) {
		more = false;
		for (lvl = 0; lvl < NR_LEVELS && rp_now_ms() < deadline; lvl++) {
			struct level_data *d = &w->lv[lvl];

			if (d->lat.n >= d->want)
				continue;
			if (lvl == L_ONE && more && !idle_starved(w))
				continue;	/* the judged levels first */
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
	static const enum rp_ctr shown[] = {
		RP_CTR_TASK_CLOCK, RP_CTR_CTX_SWITCHES, RP_CTR_CPU_IDLE,
		RP_CTR_SOFTIRQ,
	};
	struct level_data *d = &w->lv[lvl];
	struct rp_metric *m;
	char name[64], per_op[256] = "";
	size_t i, n = 0;

	if (!d->lat.n) {
		if (d->rejected)
			printf("# %s %s: no samples: %d blocks too busy (up to %.0f%% CPU)\n",
			       w->name, level_name[lvl], d->rejected, d->worst_bg);
		else
			printf("# %s %s: no samples within the time budget\n",
			       w->name, level_name[lvl]);
		return;
	}
	snprintf(name, sizeof(name), "%s.%s.latency", w->name, level_name[lvl]);
	m = rp_metric_add(name, "ms", d->lat.v, d->lat.n);
	rp_metric_counters(m, &d->ctr, d->lat.n);
	/*
	 * One CPU busy: a healthy run's median is 2 jiffies in some runs and
	 * 4 in others (six runs here: 8.0-16.0 ms, means 9.9-15.1), a spread
	 * between runs no kernel change explains: shown, never compared.
	 */
	m->report_only = lvl == L_ONE;
	/*
	 * Every CPU busy: a vCPU the host preempts delays an op by a jiffy
	 * or more at random (a healthy run's mean +14% with its median at
	 * 8.00 ms, p 0.018 against three runs): the median is judged. The
	 * tracer at idle: its mean moves with the share of its slow mode
	 * (16.4-19.6 ms over 13 healthy runs in a row; 3 of 10 FAILed
	 * against three early ones): its p25 is judged (below), its mean by
	 * tracer_idle_mean in the run. membarrier at idle keeps the mean's
	 * second look: the kernels whose idle CPUs delay some GPs (the
	 * c229828ca6bc62d class) move its mean 2.5x and not its median,
	 * where the in-run checks, against a busy reference a loaded
	 * emulator inflates, are too noisy to judge.
	 */
	m->median_only = lvl == L_ALL || (w->op == tracer_op && lvl == L_IDLE);
	/*
	 * A tracer switch at idle takes 4 jiffies or 6 (16 or 24 ms here):
	 * how its grace periods fall on ticks. The share of each varies
	 * between runs and the median lands on either (13 healthy runs:
	 * 12 at 16.0 ms, one at 21.7). The 25th percentile is the fast
	 * mode: 16.0 ms in all 13 (cv 0.1%), 24.0 with FQS first 1 -> 2.
	 * Its runs are compared on that, by rcu_perf_compare and against a
	 * baseline.
	 */
	if (w->op == tracer_op && lvl == L_IDLE)
		m->stat = RP_CMP_P25;
	/* GPs end on ticks: a mean is a mix of whole jiffies per GP. */
	m->quantum = w->gps_per_op * jiffy;
	/*
	 * Idle blocks thrown away: other tasks used the CPUs during this
	 * workload, and the busy levels' ops interleaved with them waited
	 * for host CPUs too. The checks against a baseline must not take
	 * that for the kernel. The idle ops kept are from quiet blocks:
	 * what was thrown away was the disturbance, not the metric.
	 */
	if (w->lv[L_IDLE].rejected && lvl != L_IDLE) {
		snprintf(w->busy_why, sizeof(w->busy_why),
			 "machine busy: %d idle blocks of %s thrown away (others used up to %.0f%% CPU)",
			 w->lv[L_IDLE].rejected, w->name, w->lv[L_IDLE].worst_bg);
		m->disturbed = w->busy_why;
	}
	for (i = 0; i < ARRAY_SIZE(shown); i++) {
		double v = m->per_op[shown[i]];

		if (isnan(v))
			continue;
		if (shown[i] == RP_CTR_TASK_CLOCK)
			n += snprintf(per_op + n, sizeof(per_op) - n, " cpu %.3f ms", v / 1e6);
		else
			n += snprintf(per_op + n, sizeof(per_op) - n, " %s %.2f",
				      rp_ctr_name(shown[i]), v);
		if (n >= sizeof(per_op))
			break;
	}
	printf("# %s %s: %zu ops, ms: median %.2f mean %.2f p90 %.2f max %.2f, %.1f ops/s%s%s",
	       w->name, level_name[lvl], d->lat.n, m->sum.median, m->sum.mean,
	       m->sum.p90, m->sum.max, 1000.0 / m->sum.mean,
	       per_op[0] ? ", per op:" : "", per_op);
	if (lvl == L_IDLE)
		printf(", background CPU %.1f%%", d->blocks ? d->bg_sum / d->blocks : 0);
	if (d->rejected)
		printf(", %d blocks thrown away (up to %.0f%%)", d->rejected,
		       d->worst_bg);
	printf("\n");
	/* Tell a kernel that is slow only sometimes from one that is slow. */
	if (lvl == L_IDLE && m->sum.p90 > 3 * m->sum.median &&
	    m->sum.mean > 1.5 * m->sum.median)
		printf("# %s idle: wide distribution: the mean is %.1fx the median, p90 %.1fx\n",
		       w->name, m->sum.mean / m->sum.median,
		       m->sum.p90 / m->sum.median);
}

static void skip_workload(struct workload *w, const char *why)
{
	int i;

	for (i = 0; i < w->nr_checks; i++)
		rp_check_skip(w->checks[i], "%s: %s",
			      w->name, why);
}

/*
 * The pace of one idle GP that the kernel is built for, in jiffies: the
 * first FQS scan's timer, plus one because the timer wheel rounds a
 * timeout up to the next tick; and where synchronize_rcu() waits for a
 * callback (rcu_normal_wake_from_gp 0 or absent), a tick for its CPU to
 * start the GP and one to invoke the callback after it ends. Healthy:
 * 2 jiffies on 6.18 (the GP kthread wakes the waiter), 4 on 6.12.
 */
static bool wake_from_gp;

static int idle_gp_pace(void)
{
	return fqs + 1 + (wake_from_gp ? 0 : 2);
}

/*
 * Each check's limit per op, in jiffies: see the header. At one busy CPU,
 * the GP kthread's wake-ups share that CPU with the hog and wait for its
 * tick: one jiffy more per GP, and the mean gets the tail's half a jiffy
 * between whole ones.
 */
static double allowance(const struct workload *w, int lvl, int kind)
{
	bool one = lvl == L_ONE;
	double gp;

	if (kind == C_PACE)
		gp = idle_gp_pace() + one + p_pace_slack.value;
	else if (one)
		gp = fqs + 1 + p_fqs_slack.value;
	else if (kind == C_MEAN)
		gp = fqs + p_mean_slack.value;
	else
		gp = 2.0 * fqs + p_fqs_slack.value;
	return w->gps_per_op * (gp + timer_lateness(lvl, kind == C_TAIL));
}

/*
 * The mean and the tail of idle latency minus the all-busy median, in
 * jiffies. The median of the busy ops is the reference: where busy CPUs
 * compete for too few host CPUs (an overcommitted or loaded VM) the busy
 * tail swells, and a reference that swells with it would hide a slow idle
 * path. The pace: the idle p25 itself.
 */
static void estimate(struct workload *w, struct rp_bound *b)
{
	static const struct rp_param * const param[NR_KINDS] = {
		&p_mean_slack, &p_fqs_slack, &p_pace_slack,
	};
	static const enum rp_cmp_stat stat[NR_KINDS] = {
		RP_CMP_MEAN, RP_CMP_P90, RP_CMP_P25,
	};
	int lvl = judged_level(w), i;
	struct rp_samples *idle = &w->lv[lvl].lat, *all = &w->lv[L_ALL].lat;

	for (i = 0; i < w->nr_checks; i++) {
		struct rp_estimate *e = &b[i].est;

		if (i == C_PACE)
			rp_bootstrap(idle->v, idle->n, stat[i], NULL, 0, 0,
				     RP_BOOT_ONE, p_confidence.value, e);
		else
			rp_bootstrap(idle->v, idle->n, stat[i], all->v, all->n,
				     RP_CMP_MEDIAN, RP_BOOT_DIFF,
				     p_confidence.value, e);
		e->value /= jiffy;
		e->lo /= jiffy;
		e->hi /= jiffy;
		b[i].limit = allowance(w, lvl, i);
		b[i].unit = "jiffies";
		/* at one busy CPU the mean has the tail's slack */
		b[i].param = lvl == L_ONE && i == C_MEAN ? &p_fqs_slack : param[i];
	}
}

/*
 * Too few ops for an interval: a regression still shows when every idle
 * op took longer than the fastest busy one plus the tail's allowance (the
 * wider one: no interval says how far the mean might be).
 */
static void judge_few(struct workload *w, double allow, const char *why)
{
	struct rp_samples *idle = &w->lv[L_IDLE].lat, *all = &w->lv[L_ALL].lat;
	struct rp_summary si, sa;
	double excess;
	int i;

	if (!idle->n) {
		skip_workload(w, why);
		return;
	}
	rp_summarize(idle->v, idle->n, &si);
	rp_summarize(all->v, all->n, &sa);
	excess = (si.min - (all->n ? sa.min : 0)) / jiffy;
	if (excess <= allow) {
		skip_workload(w, why);
		return;
	}
	for (i = 0; i < w->nr_checks; i++)
		rp_check_fail(w->checks[i],
			      "all %zu idle ops took %.4g jiffies or more over the fastest all-busy op, limit %.4g: GPs that take %.1f s",
			      idle->n, excess, allow, si.min / 1000);
}

/* Why this workload cannot be judged from what it measured, or NULL. */
static const char *unjudgeable(struct workload *w, char *buf, size_t len)
{
	struct level_data *idle = &w->lv[judged_level(w)], *all = &w->lv[L_ALL];
	double cpu_ms, mean;

	if (idle_starved(w) && idle->lat.n < (size_t)min_samples)
		return rp_why(buf, len,
			      "machine busy: %d idle blocks thrown away (background CPU up to %.0f%% > idle_busy_max %g%%) and %zu one-busy ops < min_samples %d",
			      w->lv[L_IDLE].rejected, w->lv[L_IDLE].worst_bg,
			      idle_busy_max, idle->lat.n, min_samples);
	if (idle->lat.n < (size_t)min_samples && idle->rejected)
		return rp_why(buf, len,
			      "machine busy: %zu quiet idle ops < min_samples %d; %d idle blocks thrown away, background CPU up to %.0f%% > idle_busy_max %g%%",
			      idle->lat.n, min_samples, idle->rejected,
			      idle->worst_bg, idle_busy_max);
	if (idle->lat.n < (size_t)min_samples || all->lat.n < (size_t)min_samples)
		return rp_why(buf, len,
			      "%zu idle and %zu all-busy ops in the time budget, min_samples %d",
			      idle->lat.n, all->lat.n, min_samples);
	/* An op that burns CPU for most of its latency measures that CPU. */
	if (idle->ctr.supported[RP_CTR_TASK_CLOCK]) {
		cpu_ms = idle->ctr.delta[RP_CTR_TASK_CLOCK] / 1e6 / idle->lat.n;
		mean = rp_cmp_stat_of(idle->lat.v, idle->lat.n, RP_CMP_MEAN);
		if (cpu_ms > mean / 2)
			return rp_why(buf, len,
				      "not GP-bound here: %.3g ms of CPU per op of %.3g ms",
				      cpu_ms, mean);
	}
	return NULL;
}

static void run_workload(struct workload *w)
{
	struct level_data *idle = &w->lv[L_IDLE], *all = &w->lv[L_ALL];
	struct level_data *one = &w->lv[L_ONE], *jd;
	struct rp_bound b[NR_KINDS] = { 0 };
	double deadline, start = rp_now_ms(), allow;
	char why[300] = "", how[NR_KINDS][200];
	const char *bad;
	int lvl, jl, err, i;

	if (w->skip) {
		skip_workload(w, w->skip);
		return;
	}
	idle->want = target;
	all->want = target;
	w->lv[L_ONE].want = (target + 1) / 2;
	deadline = start + 1000 * p_time_budget.value;
	/* While an interval straddles its limit and time is left: more ops. */
	for (;;) {
		err = collect(w, deadline);
		if (err) {
			snprintf(why, sizeof(why), "%s failed: %s", w->name,
				 strerror(-err));
			break;
		}
		jd = &w->lv[judged_level(w)];
		if (jd->lat.n < (size_t)min_samples ||
		    all->lat.n < (size_t)min_samples)
			break;
		estimate(w, b);
		if (rp_bounds_settled(b, w->nr_checks) || rp_now_ms() >= deadline)
			break;
		idle->want += target / 2;
		all->want += target / 2;
		one->want += target / 2;
		printf("# %s: not settled after %zu %s ops: more samples\n",
		       w->name, jd->lat.n, level_name[judged_level(w)]);
	}
	for (lvl = 0; lvl < NR_LEVELS; lvl++)
		report_level(w, lvl);
	printf("# %s: %.1f s\n", w->name, (rp_now_ms() - start) / 1000);

	if (why[0]) {
		skip_workload(w, why);
		return;
	}
	jl = judged_level(w);
	allow = allowance(w, jl, C_TAIL);
	bad = unjudgeable(w, why, sizeof(why));
	if (bad && idle->lat.n < (size_t)min_samples && !idle->rejected) {
		judge_few(w, allow, bad);
		return;
	}
	if (bad) {
		skip_workload(w, bad);
		return;
	}
	if (jl == L_ONE)
		printf("# %s: machine busy, %d/%d idle blocks dropped: judged at one busy CPU\n",
		       w->name, idle->rejected, idle->rejected + idle->blocks);
	printf("# timer control: %zu one-jiffy sleeps at %s, late by mean %.3f, p90 %.3f jiffies\n",
	       timer_late[jl].n, level_name[jl], timer_lateness(jl, false),
	       timer_lateness(jl, true));
	snprintf(how[0], sizeof(how[0]),
		 "%s - all-busy median; %d GP%s x (default FQS %d%s + slack %g + timer %.3f) jiffies",
		 level_name[jl], w->gps_per_op, w->gps_per_op > 1 ? "s" : "",
		 fqs, jl == L_ONE ? " + busy CPU's tick 1" : "",
		 jl == L_ONE ? p_fqs_slack.value : p_mean_slack.value,
		 timer_lateness(jl, false));
	snprintf(how[1], sizeof(how[1]),
		 "%s - all-busy median; %d GP%s x (%s %d%s + slack %g + timer %.3f) jiffies",
		 level_name[jl], w->gps_per_op, w->gps_per_op > 1 ? "s" : "",
		 jl == L_ONE ? "default FQS" : "2 x default FQS", fqs,
		 jl == L_ONE ? " + busy CPU's tick 1" : "", p_fqs_slack.value,
		 timer_lateness(jl, true));
	snprintf(how[C_PACE], sizeof(how[C_PACE]),
		 "%s p25; default FQS %d + the wheel's round-up 1%s%s + slack %g + timer %.3f jiffies",
		 level_name[jl], fqs,
		 wake_from_gp ? "" : " + ticks to start and to invoke the callback 2",
		 jl == L_ONE ? " + busy CPU's tick 1" : "", p_pace_slack.value,
		 timer_lateness(jl, false));
	for (i = 0; i < w->nr_checks; i++) {
		b[i].how = how[i];
		rp_check_bound(w->checks[i], &b[i]);
	}
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
	pthread_t wd;
	int hz, err;
	size_t i;

	rp_init(&test, argc, argv);

	if (geteuid())
		skip_all("needs root (tracefs, tracepoints, the rcu_perf lock)");
	nr_cpus = rp_online_cpus(cpus, ARRAY_SIZE(cpus));
	if (nr_cpus <= 0)
		rp_fatal("cannot read the online CPUs: %s", strerror(-nr_cpus));
	/* rcu_blocking_is_gp(): with one CPU a GP needs no waiting. */
	if (nr_cpus < 2)
		skip_all("1 CPU online: synchronize_rcu() waits for no GP");

	target = p_samples.value;
	min_samples = p_min_samples.value;
	block_ms = p_block.value;
	idle_busy_max = p_idle_busy_max.value;
	watch.timeout_ms = 1000 * p_op_timeout.value;
	if (target < min_samples)
		target = min_samples;

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
	rp_info("wake_from_gp", "%s: the idle GP's pace is %d jiffies",
		wake_from_gp ? "the GP kthread wakes synchronize_rcu()" :
		"synchronize_rcu() waits for a callback", idle_gp_pace());

	/* Expedited GPs never wait for FQS: measure normal ones. */
	if (rp_knob_read(RCU_EXPEDITED, buf, sizeof(buf)) > 0 && strcmp(buf, "0")) {
		err = rp_knob_write(RCU_EXPEDITED, "0");
		if (err)
			skip_all("cannot turn rcu_expedited off for the run");
		printf("# rcu_expedited was %s: 0 for this run\n", buf);
	}

	membarrier_setup(&workloads[0]);
	tracer_setup(&workloads[1]);
	for (i = 0; i < NR_WORKLOADS; i++)
		if (workloads[i].skip)
			rp_info(workloads[i].name, "skipped: %s", workloads[i].skip);

	rp_counters_open(&ctr);
	err = rp_pin_self(cpus[0]);
	if (err)
		rp_fatal("cannot pin to CPU %d: %s", cpus[0], strerror(-err));
	err = pthread_create(&wd, NULL, watchdog, NULL);
	if (err)
		rp_fatal("cannot start the watchdog: %s", strerror(err));

	for (i = 0; i < NR_WORKLOADS; i++)
		run_workload(&workloads[i]);
	rp_info("timer_control",
		"%zu one-jiffy sleeps at idle, late by mean %.3f, p90 %.3f jiffies",
		timer_late[L_IDLE].n, timer_lateness(L_IDLE, false),
		timer_lateness(L_IDLE, true));

	rp_counters_close(&ctr);
	return rp_finish();
}
