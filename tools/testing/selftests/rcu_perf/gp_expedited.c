// SPDX-License-Identifier: GPL-2.0
/*
 * gp_expedited: are expedited grace periods still much faster than normal
 * ones on the running kernel?
 *
 * Expediting grace periods during boot (rcupdate.rcu_expedited=1) cut the
 * time to "Write protecting the kernel read-only data" by 18% in a KVM
 * guest; the RCU maintainer asked for before-and-after measurements. The
 * boot itself is measured by boot_marker (this boot) and boot_ab (A/B
 * boots); this program checks the mechanism such a change relies on:
 * membarrier(MEMBARRIER_CMD_GLOBAL) waits for a synchronize_rcu(), which
 * /sys/kernel/rcu_expedited=1 turns into synchronize_rcu_expedited().
 *
 * Both modes are timed in one run, in alternating blocks (ABBA order, one
 * discarded warm-up GP after each switch) so that drift and other load hit
 * both. The expedited median must be a small fraction of the normal one.
 * /sys/kernel/rcu_normal=1 (the PREEMPT_RT default after boot) turns
 * expedited GPs back into normal ones: the ratio goes to ~1 and the check
 * fails, as it should for a kernel whose expedited path no longer
 * expedites. When the ratio's confidence interval straddles the limit the
 * result is an error ("too noisy"), not a verdict.
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

#define EXPEDITED	"/sys/kernel/rcu_expedited"
#define NORMAL		"/sys/kernel/rcu_normal"
#define AFTER_BOOT	"/sys/module/rcupdate/parameters/rcu_normal_after_boot"

static struct rp_param params[] = {
	RP_MAX("expedited_ratio", "ratio", 0.1,
	       "~0.005 here (0.03 vs 8 ms): 20x headroom; rcu_normal=1 (~1) fails 10x over"),
	RP_SETTING("samples", "count", 100,
		   "GPs timed per mode: ~1 s of normal GPs at ~10 ms each"),
	RP_SETTING("quick_samples", "count", 30,
		   "samples with --quick: the median's CI still holds 20x margins"),
	RP_SETTING("block", "count", 10,
		   "GPs per mode before switching: drift hits both modes"),
	RP_SETTING("min_samples", "count", 10,
		   "fewer GPs per mode give no usable confidence interval: error"),
	RP_SETTING("time_budget", "s", 60,
		   "then stop timing (pathologically slow GPs), judge what was measured"),
	{ }
};

static const struct rp_test test = {
	.name = "gp_expedited",
	.summary = "synchronize_rcu() latency, rcu_expedited=1 vs 0: expedited must be faster",
	.params = params,
	.nr_checks = 1,
};

enum mode { NORMAL_GP, EXPEDITED_GP, NR_MODES };

static const char * const mode_name[NR_MODES] = { "normal", "expedited" };

struct mode_data {
	struct rp_samples lat;		/* ms per GP */
	struct rp_counters ctr;		/* deltas summed over the blocks */
};

static long membarrier(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0);
}

static bool knob_given(const char *path)
{
	size_t n = strlen(path);
	int i;

	for (i = 0; i < rp_opts.nr_knobs; i++)
		if (!strncmp(rp_opts.knobs[i], path, n) && rp_opts.knobs[i][n] == '=')
			return true;
	return false;
}

/*
 * A system that disables expedited GPs on purpose (PREEMPT_RT turns
 * rcu_normal on after boot) is not a regression: skip, unless rcu_normal
 * was set for this run (--knob), which is how the failure is injected.
 */
static bool normal_by_config(void)
{
	char buf[4096], rcu[2048], *p;

	if (knob_given(NORMAL) || rp_knob_read(NORMAL, buf, sizeof(buf)) < 0 ||
	    !strcmp(buf, "0"))
		return false;
	if (rp_knob_read(AFTER_BOOT, buf, sizeof(buf)) >= 0 && strcmp(buf, "0"))
		return true;
	if (rp_knob_read("/proc/cmdline", buf, sizeof(buf)) < 0 ||
	    !rp_rcu_params(buf, rcu, sizeof(rcu)))
		return false;
	p = strstr(rcu, "rcupdate.rcu_normal=");
	return p && (p == rcu || p[-1] == ' ') && p[20] != '0';
}

/* Why this program cannot run here, or NULL. */
static const char *cannot_run(void)
{
	static char why[160];
	long cmds = membarrier(MEMBARRIER_CMD_QUERY);

	if (cmds < 0 || !(cmds & MEMBARRIER_CMD_GLOBAL)) {
		snprintf(why, sizeof(why),
			 "membarrier(MEMBARRIER_CMD_GLOBAL) not available: %s",
			 cmds < 0 ? strerror(errno) : "not in the query mask");
		return why;
	}
	if (!rp_knob_exists(EXPEDITED) || !rp_knob_exists(NORMAL))
		return EXPEDITED " or " NORMAL " absent (CONFIG_TINY_RCU?)";
	if (geteuid() != 0)
		return "not root: cannot write " EXPEDITED;
	if (rp_nr_online_cpus() < 2)
		return "one CPU online: synchronize_rcu() returns at once";
	if (normal_by_config())
		return "rcu_normal=1 by configuration (PREEMPT_RT?): --knob " NORMAL "=0 measures";
	return NULL;
}

static void report_setup(void)
{
	char buf[4096], rcu[2048];
	int nr = 0;

	if (rp_knob_read(NORMAL, buf, sizeof(buf)) >= 0)
		rp_info("rcu_normal", "%s%s", buf, strcmp(buf, "0") ?
			" (expedited GPs run as normal ones: expect a failure)" : "");
	if (rp_knob_read(EXPEDITED, buf, sizeof(buf)) >= 0)
		rp_info("rcu_expedited_found", "%s", buf);
	if (rp_knob_read("/proc/cmdline", buf, sizeof(buf)) >= 0)
		nr = rp_rcu_params(buf, rcu, sizeof(rcu));
	rp_info("cmdline_rcu", "%s", nr ? rcu : "none");
}

/* One block of @n timed GPs in mode @m, after a warm-up GP. */
static int run_block(struct mode_data *d, enum mode m, size_t n,
		     struct rp_counters *c)
{
	double t;
	size_t i;
	int err, k;

	err = rp_knob_write(EXPEDITED, m == EXPEDITED_GP ? "1" : "0");
	if (err < 0)
		rp_fatal("cannot write %s: %s", EXPEDITED, strerror(-err));
	/* the first GP after a switch pays for waking the other machinery */
	if (membarrier(MEMBARRIER_CMD_GLOBAL))
		rp_fatal("membarrier: %s", strerror(errno));
	rp_counters_start(c);
	for (i = 0; i < n; i++) {
		t = rp_now_ms();
		if (membarrier(MEMBARRIER_CMD_GLOBAL))
			rp_fatal("membarrier: %s", strerror(errno));
		t = rp_now_ms() - t;
		if (rp_samples_add(&d->lat, t))
			rp_fatal("out of memory");
		if (rp_opts.verbose)
			fprintf(stderr, "%s %.4f ms\n", mode_name[m], t);
	}
	rp_counters_stop(c);
	for (k = 0; k < RP_CTR_NR; k++)
		d->ctr.delta[k] += c->delta[k];
	return 0;
}

static struct rp_metric *report_mode(struct mode_data *d, enum mode m)
{
	struct rp_metric *met;
	char name[64];

	snprintf(name, sizeof(name), "membarrier.%s.latency", mode_name[m]);
	met = rp_metric_add(name, "ms", d->lat.v, d->lat.n);
	rp_metric_counters(met, &d->ctr, d->lat.n);
	printf("# %s GP: n %zu median %.4f ms (CI %.4f..%.4f) p10 %.4f p90 %.4f max %.4f\n",
	       mode_name[m], met->sum.n, met->sum.median, met->sum.ci_lo,
	       met->sum.ci_hi, met->sum.p10, met->sum.p90, met->sum.max);
	return met;
}

int main(int argc, char **argv)
{
	struct mode_data d[NR_MODES] = { 0 };
	struct rp_metric *met[NR_MODES];
	struct rp_counters c = { 0 };
	size_t want, block, k;
	double lo, hi, ratio, limit, deadline;
	int cpus, m;
	const char *why;

	rp_init(&test, argc, argv);
	why = cannot_run();
	if (why)
		rp_exit_skip("%s", why);
	report_setup();

	want = rp_val(rp_opts.quick ? "quick_samples" : "samples");
	block = rp_val("block") >= 1 ? rp_val("block") : 1;
	limit = rp_param("expedited_ratio")->value;
	cpus = rp_nr_online_cpus();
	rp_counters_open(&c);
	for (m = 0; m < NR_MODES; m++)
		memcpy(d[m].ctr.supported, c.supported, sizeof(c.supported));

	/* ABBA: normal, expedited, expedited, normal, ... */
	deadline = rp_now_ms() + rp_val("time_budget") * 1e3;
	for (k = 0; d[NORMAL_GP].lat.n < want || d[EXPEDITED_GP].lat.n < want;
	     k++) {
		enum mode mode = (k % 4 == 1 || k % 4 == 2) ?
				 EXPEDITED_GP : NORMAL_GP;
		size_t left = want - d[mode].lat.n;

		if (d[mode].lat.n >= want)
			continue;
		if (rp_now_ms() > deadline) {
			printf("# time budget of %g s spent: judging what was measured\n",
			       rp_val("time_budget"));
			break;
		}
		run_block(&d[mode], mode, left < block ? left : block, &c);
	}
	rp_guard_restore();	/* rcu_expedited back before anything else */
	rp_counters_close(&c);

	met[NORMAL_GP] = report_mode(&d[NORMAL_GP], NORMAL_GP);
	met[EXPEDITED_GP] = report_mode(&d[EXPEDITED_GP], EXPEDITED_GP);

	if (rp_nr_online_cpus() != cpus) {
		rp_check_error("expedited_gp_ratio",
			       "CPUs went on/offline during the run (%d -> %d)",
			       cpus, rp_nr_online_cpus());
		goto out;
	}
	if (met[NORMAL_GP]->sum.n < rp_val("min_samples") ||
	    met[EXPEDITED_GP]->sum.n < rp_val("min_samples")) {
		rp_check_error("expedited_gp_ratio",
			       "too few GPs timed (%zu normal, %zu expedited; min_samples %g)",
			       met[NORMAL_GP]->sum.n, met[EXPEDITED_GP]->sum.n,
			       rp_val("min_samples"));
		goto out;
	}
	/* the ratio of medians and its bounds from the medians' ~95% CIs */
	ratio = met[EXPEDITED_GP]->sum.median / met[NORMAL_GP]->sum.median;
	lo = met[EXPEDITED_GP]->sum.ci_lo / met[NORMAL_GP]->sum.ci_hi;
	hi = met[EXPEDITED_GP]->sum.ci_hi / met[NORMAL_GP]->sum.ci_lo;
	rp_info("expedited_ratio_ci", "%.4g..%.4g", lo, hi);
	if ((ratio <= limit && !(hi <= limit)) || (ratio > limit && lo <= limit)) {
		rp_check_error("expedited_gp_ratio",
			       "ratio %.4g but its CI %.4g..%.4g straddles the limit %g: too noisy, rerun on a quieter system or with more samples",
			       ratio, lo, hi, limit);
		goto out;
	}
	rp_check("expedited_gp_ratio", ratio, "expedited_ratio");
out:
	for (m = 0; m < NR_MODES; m++)
		rp_samples_free(&d[m].lat);
	return rp_finish();
}
