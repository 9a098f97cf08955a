// SPDX-License-Identifier: GPL-2.0
/*
 * gp_throttle: do idle CPUs delay normal grace periods?
 *
 * After commit c229828ca6bc62d ("rcu: Throttle rcu_try_advance_all_cbs()
 * execution") this loop took 49 s instead of 35 s on an idle 2-CPU machine,
 * while with both CPUs busy it took 20 s on both kernels:
 *
 *	cd /sys/kernel/debug/tracing
 *	for 100 times: for tracer in function nop:
 *		echo $tracer >current_tracer; echo 1 >tracing_on; echo 0 >tracing_on
 *
 * Each tracer switch waits for grace periods. A busy CPU reports its
 * quiescent states from the scheduler tick, so busy CPUs keep GPs short;
 * an idle CPU is only noticed by the GP kthread's force-quiescent-state
 * scans, so the latency of a GP on an idle machine is where a regression in
 * the idle path shows. The same kernel is measured idle and with every CPU
 * busy, and the ratio of the two is judged: it does not depend on how fast
 * the machine is. A generous cap in jiffies on the idle latency catches a
 * slowdown that hits both.
 *
 * Workloads, each a GP-bound operation timed one at a time:
 *   membarrier - membarrier(MEMBARRIER_CMD_GLOBAL), a synchronize_rcu();
 *   tracer     - one tracer switch of the loop above ("function" where it
 *                is allowed, else "blk"), then tracing_on 1 and 0; the
 *                tracer and nop alternate.
 * Load levels: idle, one CPU busy (metrics only), all CPUs busy. Levels are
 * measured in interleaved blocks so that drift hits them alike; an idle
 * block during which other tasks kept the CPUs busy is thrown away (20% of
 * background CPU use already hides a 25x slower idle GP).
 *
 * Checks per workload:
 *   <w>_sound        enough ops at idle (really idle) and all busy;
 *                    otherwise the other two report an error
 *   <w>_idle_penalty median idle latency / median all-busy latency
 *   <w>_idle_cap     median idle latency in jiffies
 * A verdict needs the medians' 95% confidence intervals to put the value
 * clearly on one side of its limit; if they do not, more ops are timed
 * and, when the time budget runs out first, the result is an error.
 * An idle GP here lasts about two FQS intervals: with
 * rcutree.jiffies_till_first_fqs and jiffies_till_next_fqs raised from 1 to
 * 50 idle GPs get ~25x slower while busy ones stay fast, and both checks
 * fail (at 5 the penalty check alone fails, at 3 neither: 2x).
 *
 * Not root: every check is skipped. With one CPU online, one busy CPU is
 * all CPUs busy: that level is not measured, and membarrier() returns
 * without a GP: its checks are skipped. rcu_expedited=1 is turned off for
 * the run (expedited GPs do not wait for FQS scans).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/membarrier.h>

#include "../kselftest.h"
#include "rcu_perf.h"

static struct rp_param params[] = {
	RP_MAX("idle_penalty", "ratio", 3.0,
	       "healthy 1.0 (<= 2 by jiffy rounding); FQS every 3 jiffies: 2, 5: 5, 50: 25"),
	RP_MAX("membarrier_idle_cap", "jiffies", 20,
	       "healthy idle GP: 2 jiffies here (~2 FQS scans); FQS every 5: 10, 50: ~50"),
	RP_MAX("tracer_idle_cap", "jiffies", 30,
	       "a switch waits ~2 GPs: healthy 4 jiffies here; FQS every 5: 20, 50: ~120"),
	RP_MAX("idle_busy_max", "%", 5,
	       "others' CPU use in an idle block: ~1% if quiet; 20% hides 25x slower GPs"),
	RP_SETTING("samples", "count", 50,
		   "ops per load level (half at one busy CPU): ~1 s per level if healthy"),
	RP_SETTING("quick_samples", "count", 15,
		   "ops per load level with --quick: still 10x margins on both checks"),
	RP_MIN("min_samples", "count", 10,
	       "fewer idle or all-busy ops give no usable median: error, not a verdict"),
	RP_SETTING("time_budget", "s", 12,
		   "per workload: with 25x slower idle GPs a run still ends within ~30 s"),
	RP_SETTING("quick_time_budget", "s", 8, "per workload with --quick"),
	RP_SETTING("block", "ms", 300,
		   "of one level before the next: interleaves levels, /proc/stat resolves it"),
	{ }
};

#define NR_CHECKS_PER_WORKLOAD	3

static const struct rp_test test = {
	.name = "gp_throttle",
	.summary = "idle vs all-busy latency of GP-bound operations (idle CPUs must not delay GPs)",
	.params = params,
	.nr_checks = 2 * NR_CHECKS_PER_WORKLOAD,
};

/* ------------------------------------------------------------------ */
/* Workloads                                                           */
/* ------------------------------------------------------------------ */

enum level { L_IDLE, L_ALL, L_ONE, NR_LEVELS };	/* order of measurement */

static const char * const level_name[NR_LEVELS] = {
	[L_IDLE] = "idle", [L_ALL] = "all_busy", [L_ONE] = "one_busy",
};

struct level_data {
	struct rp_samples lat;		/* ms per op */
	struct rp_samples rate;		/* ops/s of each accepted block */
	struct rp_counters ctr;		/* deltas summed over accepted blocks */
	size_t want;			/* samples to collect */
	int blocks, rejected;
	double worst_bg;		/* highest background CPU %, idle only */
	double bg_sum;			/* background CPU % of kept idle blocks */
	const char *skip;		/* why this level is not measured */
};

struct workload {
	const char *name;
	const char *cap_param;
	int (*op)(void);		/* 0 or -errno */
	const char *skip;		/* why it cannot run here */
	char skip_buf[160];
	struct level_data lv[NR_LEVELS];
	struct rp_summary sum[NR_LEVELS];
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
	{ .name = "membarrier", .cap_param = "membarrier_idle_cap",
	  .op = membarrier_op },
	{ .name = "tracer", .cap_param = "tracer_idle_cap", .op = tracer_op },
};

#define NR_WORKLOADS	ARRAY_SIZE(workloads)

static void membarrier_setup(struct workload *w)
{
	long mask = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	/* membarrier_global() skips synchronize_rcu() on a single CPU. */
	if (nr_cpus < 2) {
		w->skip = "1 CPU online: membarrier(MEMBARRIER_CMD_GLOBAL) waits for no GP";
	} else if (mask < 0) {
		snprintf(w->skip_buf, sizeof(w->skip_buf),
			 "membarrier() unavailable: %s", strerror(errno));
		w->skip = w->skip_buf;
	} else if (!(mask & MEMBARRIER_CMD_GLOBAL)) {
		w->skip = "membarrier(MEMBARRIER_CMD_GLOBAL) not supported (nohz_full CPUs?)";
	}
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
 * The seed's function tracer where it is allowed (lockdown or a kernel
 * without dynamic ftrace refuse it), else blk, which also switches
 * through tracing_set_tracer() and its synchronize_rcu() calls.
 */
static void tracer_setup(struct workload *w)
{
	static const char * const prefs[] = { "function", "blk" };
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
		snprintf(w->skip_buf, sizeof(w->skip_buf),
			 "cannot read available_tracers: %s", strerror(-err));
		w->skip = w->skip_buf;
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
		snprintf(w->skip_buf, sizeof(w->skip_buf), "no usable tracer (%s)",
			 refused);
		w->skip = w->skip_buf;
		return;
	}
	err = rp_knob_write(current_tracer, "nop");
	if (err) {
		snprintf(w->skip_buf, sizeof(w->skip_buf),
			 "cannot set current_tracer back to nop: %s", strerror(-err));
		w->skip = w->skip_buf;
		tracer = NULL;
		return;
	}
	rp_info("tracer", "%s<->nop%s%s%s", tracer, refused[0] ? " (" : "",
		refused, refused[0] ? ")" : "");
}

/* ------------------------------------------------------------------ */
/* Measurement                                                         */
/* ------------------------------------------------------------------ */

static struct rp_counters ctr;
static int target, min_samples;
static double block_ms;

/* Busy and total CPU seconds of all CPUs; stolen time counts as busy. */
static int cpu_secs(double *busy, double *total)
{
	struct rp_cpu_time all = { 0 };
	int err = rp_cpu_times(NULL, 0, &all);

	*busy = all.busy + all.steal;
	*total = *busy + all.idle;
	return err;
}

static void add_counters(struct rp_counters *sum, const struct rp_counters *c)
{
	int i;

	for (i = 0; i < RP_CTR_NR; i++) {
		sum->supported[i] = c->supported[i];
		sum->why[i] = c->why[i];
		sum->delta[i] += c->delta[i];
	}
}

/*
 * One block of ops at one load level, until block_ms, the level's target
 * or the deadline. An idle block is kept only if the CPUs were idle but for
 * us: background CPU use = all busy time minus our own task clock.
 */
static int run_block(struct workload *w, int lvl, double deadline)
{
	struct level_data *d = &w->lv[lvl];
	struct rp_samples tmp = { 0 };
	struct rp_load *load = NULL;
	double t0, t1, a, b, busy0, busy1, tot0, tot1;
	int err = 0, stat_err;
	size_t i;

	if (lvl == L_ALL)
		load = rp_load_start(cpus, nr_cpus);
	else if (lvl == L_ONE)
		load = rp_load_start(&cpus[nr_cpus - 1], 1);
	if (lvl != L_IDLE && !load)
		return errno ? -errno : -ENOMEM;

	stat_err = cpu_secs(&busy0, &tot0);
	rp_counters_start(&ctr);
	t0 = rp_now_ms();
	do {
		a = rp_now_ms();
		err = w->op();
		b = rp_now_ms();
		if (err)
			break;
		if (rp_samples_add(&tmp, b - a)) {
			err = -ENOMEM;
			break;
		}
		if (rp_opts.verbose)
			fprintf(stderr, "%s %s %zu %.3f ms\n", w->name,
				level_name[lvl], d->lat.n + tmp.n, b - a);
	} while (b - t0 < block_ms && d->lat.n + tmp.n < d->want &&
		 b < deadline);
	t1 = rp_now_ms();
	rp_counters_stop(&ctr);
	if (!stat_err)
		stat_err = cpu_secs(&busy1, &tot1);
	rp_load_stop(load);
	if (err)
		goto out;

	if (lvl == L_IDLE && !stat_err && tot1 > tot0) {
		double own = 0, bg;

		if (ctr.supported[RP_CTR_TASK_CLOCK])
			own = ctr.delta[RP_CTR_TASK_CLOCK] / 1e9;
		bg = 100.0 * (busy1 - busy0 - own) / (tot1 - tot0);
		if (bg < 0)
			bg = 0;
		if (rp_opts.verbose)
			fprintf(stderr, "%s idle block of %zu ops: background CPU %.1f%%%s\n",
				w->name, tmp.n, bg,
				bg > rp_val("idle_busy_max") ? ", thrown away" : "");
		if (bg > rp_val("idle_busy_max")) {
			d->rejected++;
			if (bg > d->worst_bg)
				d->worst_bg = bg;
			goto out;
		}
		d->bg_sum += bg;
	}
	for (i = 0; i < tmp.n; i++)
		if (rp_samples_add(&d->lat, tmp.v[i])) {
			err = -ENOMEM;
			goto out;
		}
	if (t1 > t0 && rp_samples_add(&d->rate, tmp.n * 1000.0 / (t1 - t0))) {
		err = -ENOMEM;
		goto out;
	}
	add_counters(&d->ctr, &ctr);
	d->blocks++;
out:
	rp_samples_free(&tmp);
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

			if (d->skip || d->lat.n >= d->want)
				continue;
			if (lvl == L_ONE && more)
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

	if (d->skip) {
		printf("# %s %s: not measured: %s\n", w->name, level_name[lvl],
		       d->skip);
		return;
	}
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
	snprintf(name, sizeof(name), "%s.%s.ops_per_s", w->name, level_name[lvl]);
	rp_metric_add(name, "ops/s", d->rate.v, d->rate.n)->higher_is_better = true;
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
	printf("# %s %s: %zu ops, median %.2f ms, p90 %.2f ms, %.1f ops/s%s%s",
	       w->name, level_name[lvl], d->lat.n, m->sum.median, m->sum.p90,
	       d->rate.n ? rp_percentile(d->rate.v, d->rate.n, 50) : 0.0,
	       per_op[0] ? ", per op:" : "", per_op);
	if (lvl == L_IDLE)
		printf(", background CPU %.1f%%", d->blocks ? d->bg_sum / d->blocks : 0);
	if (d->rejected)
		printf(", %d blocks thrown away (up to %.0f%%)", d->rejected,
		       d->worst_bg);
	printf("\n");
}

static void skip_workload(struct workload *w)
{
	static const char * const checks[] = { "sound", "idle_penalty", "idle_cap" };
	char name[64];
	size_t i;

	for (i = 0; i < NR_CHECKS_PER_WORKLOAD; i++) {
		snprintf(name, sizeof(name), "%s_%s", w->name, checks[i]);
		rp_check_skip(name, "%s: %s", w->name, w->skip);
	}
}

/* A median ratio or cap with the range its medians' 95% CIs allow. */
struct judged {
	const char *check, *limit;
	double value, lo, hi;
};

static bool settled(const struct judged *j)
{
	double limit = rp_val(j->limit);

	return j->hi <= limit || j->lo > limit;
}

static void judge(struct workload *w, double jiffy_ms, struct judged *pen,
		  struct judged *cap)
{
	struct rp_summary *idle = &w->sum[L_IDLE], *all = &w->sum[L_ALL];

	rp_summarize(w->lv[L_IDLE].lat.v, w->lv[L_IDLE].lat.n, idle);
	rp_summarize(w->lv[L_ALL].lat.v, w->lv[L_ALL].lat.n, all);
	pen->limit = "idle_penalty";
	pen->value = idle->median / all->median;
	pen->lo = idle->ci_lo / all->ci_hi;
	pen->hi = idle->ci_hi / all->ci_lo;
	cap->limit = w->cap_param;
	cap->value = idle->median / jiffy_ms;
	cap->lo = idle->ci_lo / jiffy_ms;
	cap->hi = idle->ci_hi / jiffy_ms;
}

/* The verdict, or an error when the CI straddles the limit. */
static void report_judged(const struct judged *j, const char *name)
{
	const struct rp_param *p = rp_param(j->limit);

	printf("# %s: median %.4g %s, 95%% CI %.4g..%.4g\n", name, j->value,
	       p->unit, j->lo, j->hi);
	if (settled(j))
		rp_check(name, j->value, j->limit);
	else
		rp_check_error(name, "cannot settle: CI %.4g..%.4g %s straddles %s %g",
			       j->lo, j->hi, p->unit, j->limit, p->value);
}

static void run_workload(struct workload *w, double budget_ms, double jiffy_ms)
{
	struct level_data *idle = &w->lv[L_IDLE], *all = &w->lv[L_ALL];
	struct judged pen = { 0 }, cap = { 0 };
	double deadline, start = rp_now_ms();
	char name[64], why[256] = "";
	size_t n;
	int lvl, err;

	if (w->skip) {
		skip_workload(w);
		return;
	}
	idle->want = target;
	all->want = target;
	w->lv[L_ONE].want = (target + 1) / 2;
	deadline = start + budget_ms;
	/*
	 * Collect; while a verdict cannot be settled yet (the median's CI
	 * straddles a limit) and there is time, take 50% more samples.
	 */
	for (;;) {
		err = collect(w, deadline);
		if (err) {
			snprintf(why, sizeof(why), "%s failed: %s", w->name,
				 strerror(-err));
			break;
		}
		if (idle->lat.n < (size_t)min_samples ||
		    all->lat.n < (size_t)min_samples)
			break;
		judge(w, jiffy_ms, &pen, &cap);
		if ((settled(&pen) && settled(&cap)) || rp_now_ms() >= deadline)
			break;
		idle->want += target / 2;
		all->want += target / 2;
		printf("# %s: not settled after %zu idle ops: more samples\n",
		       w->name, idle->lat.n);
	}
	for (lvl = 0; lvl < NR_LEVELS; lvl++)
		report_level(w, lvl);
	printf("# %s: %.1f s\n", w->name, (rp_now_ms() - start) / 1000);

	n = idle->lat.n < all->lat.n ? idle->lat.n : all->lat.n;
	snprintf(name, sizeof(name), "%s_sound", w->name);
	if (!why[0] && n < (size_t)min_samples) {
		if (idle->lat.n < all->lat.n && idle->rejected)
			snprintf(why, sizeof(why),
				 "%zu idle ops < min_samples %d: %d idle blocks thrown away, background CPU up to %.0f%% > idle_busy_max %g%%",
				 n, min_samples, idle->rejected, idle->worst_bg,
				 rp_val("idle_busy_max"));
		else
			snprintf(why, sizeof(why),
				 "%zu %s ops < min_samples %d in the time budget",
				 n, level_name[idle->lat.n < all->lat.n ? L_IDLE : L_ALL],
				 min_samples);
	}
	if (why[0]) {
		rp_check_error(name, "%s", why);
		snprintf(name, sizeof(name), "%s_idle_penalty", w->name);
		rp_check_error(name, "no verdict: %s_sound", w->name);
		snprintf(name, sizeof(name), "%s_idle_cap", w->name);
		rp_check_error(name, "no verdict: %s_sound", w->name);
		return;
	}
	rp_check(name, n, "min_samples");
	snprintf(name, sizeof(name), "%s_idle_penalty", w->name);
	report_judged(&pen, name);
	snprintf(name, sizeof(name), "%s_idle_cap", w->name);
	report_judged(&cap, name);
}

/* ------------------------------------------------------------------ */
/* Main                                                                */
/* ------------------------------------------------------------------ */

#define RCU_EXPEDITED	"/sys/kernel/rcu_expedited"
#define FQS_FIRST	"/sys/module/rcutree/parameters/jiffies_till_first_fqs"
#define FQS_NEXT	"/sys/module/rcutree/parameters/jiffies_till_next_fqs"

int main(int argc, char **argv)
{
	char first[32] = "?", next[32] = "?", buf[32];
	double budget_ms, jiffy_ms;
	size_t i;
	int hz, err;

	rp_init(&test, argc, argv);

	if (geteuid()) {
		for (i = 0; i < NR_WORKLOADS; i++) {
			workloads[i].skip = "needs root (tracefs, tracepoints, the rcu_perf lock)";
			skip_workload(&workloads[i]);
		}
		return rp_finish();
	}
	nr_cpus = rp_online_cpus(cpus, ARRAY_SIZE(cpus));
	if (nr_cpus <= 0)
		rp_fatal("cannot read the online CPUs: %s", strerror(-nr_cpus));

	target = rp_val(rp_opts.quick ? "quick_samples" : "samples");
	budget_ms = 1000 * rp_val(rp_opts.quick ? "quick_time_budget" : "time_budget");
	min_samples = rp_val("min_samples");
	block_ms = rp_val("block");
	if (target < min_samples)
		target = min_samples;

	hz = rp_hz();
	/* Unknown HZ: the longest jiffy (HZ=100) gives the most generous cap. */
	jiffy_ms = 1000.0 / (hz ? hz : 100);
	rp_info("hz", hz ? "%d" : "unknown, caps assume 100 (generous)", hz);
	rp_knob_read(FQS_FIRST, first, sizeof(first));
	rp_knob_read(FQS_NEXT, next, sizeof(next));
	rp_info("fqs", "jiffies_till_first_fqs=%s jiffies_till_next_fqs=%s",
		first, next);
	rp_info("cpus", "%d online; measuring on CPU %d", nr_cpus, cpus[0]);

	/* Expedited GPs never wait for FQS: measure normal ones. */
	if (rp_knob_read(RCU_EXPEDITED, buf, sizeof(buf)) > 0 && strcmp(buf, "0")) {
		err = rp_knob_write(RCU_EXPEDITED, "0");
		if (err)
			rp_fatal("cannot set %s to 0: %s", RCU_EXPEDITED, strerror(-err));
		printf("# rcu_expedited was %s: 0 for this run\n", buf);
	}

	membarrier_setup(&workloads[0]);
	tracer_setup(&workloads[1]);
	for (i = 0; i < NR_WORKLOADS; i++) {
		if (workloads[i].skip)
			rp_info(workloads[i].name, "skipped: %s", workloads[i].skip);
		if (nr_cpus < 2)
			workloads[i].lv[L_ONE].skip =
				"1 CPU online: one busy CPU is all CPUs busy";
	}

	rp_counters_open(&ctr);
	err = rp_pin_self(cpus[0]);
	if (err)
		rp_fatal("cannot pin to CPU %d: %s", cpus[0], strerror(-err));

	for (i = 0; i < NR_WORKLOADS; i++)
		run_workload(&workloads[i], budget_ms, jiffy_ms);

	rp_counters_close(&ctr);
	return rp_finish();
}
