// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread counters through libperf; system-wide tracepoints through
 * perf_event_open(2), one fd per online CPU, as two need a filter that
 * libperf's API cannot set. A counter that cannot be opened here is
 * unsupported, with a reason, never an error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>

#include "rcu_perf.h"

static const struct {
	const char *name;
	__u32 type;		/* PERF_TYPE_*; TRACEPOINT: sys/event below */
	__u64 config;
	const char *tp;		/* "sys/event" */
	const char *filter;	/* tracepoint filter, NULL for none */
} ctr_def[RP_CTR_NR] = {
#define SW(n, c)	{ .name = (n), .type = PERF_TYPE_SOFTWARE, .config = (c) }
#define HW(n, c)	{ .name = (n), .type = PERF_TYPE_HARDWARE, .config = (c) }
#define CTR_TP(n, tp_, f) \
	{ .name = (n), .type = PERF_TYPE_TRACEPOINT, .tp = (tp_), .filter = (f) }
	[RP_CTR_TASK_CLOCK] = SW("task_clock", PERF_COUNT_SW_TASK_CLOCK),
	[RP_CTR_CTX_SWITCHES] = SW("context_switches", PERF_COUNT_SW_CONTEXT_SWITCHES),
	[RP_CTR_MIGRATIONS] = SW("cpu_migrations", PERF_COUNT_SW_CPU_MIGRATIONS),
	[RP_CTR_PAGE_FAULTS] = SW("page_faults", PERF_COUNT_SW_PAGE_FAULTS),
	[RP_CTR_CYCLES] = HW("cycles", PERF_COUNT_HW_CPU_CYCLES),
	[RP_CTR_INSTRUCTIONS] = HW("instructions", PERF_COUNT_HW_INSTRUCTIONS),
	[RP_CTR_RCU_UTIL] = CTR_TP("rcu_utilization", "rcu/rcu_utilization", NULL),
	[RP_CTR_CPU_IDLE] = CTR_TP("cpu_idle", "power/cpu_idle", NULL),
	/* RCU_SOFTIRQ (enum softirq_vec, stable since 2.6.33) runs callbacks */
	[RP_CTR_SOFTIRQ] = CTR_TP("rcu_softirq", "irq/softirq_entry", "vec == 9"),
	[RP_CTR_SCHED_SWITCH] = CTR_TP("sched_switch", "sched/sched_switch", NULL),
	/* one "end" event per completed grace period (CONFIG_RCU_TRACE) */
	[RP_CTR_RCU_GP] = CTR_TP("rcu_gp", "rcu/rcu_grace_period",
				 "gpevent == \"end\""),
};

struct ctr_priv {
	struct perf_evsel *ev[RP_CTR_NR];	/* per-thread, libperf */
	int *tp_fd[RP_CTR_NR];	/* tracepoint: one fd per all_cpus entry */
	__u64 start[RP_CTR_NR];
	struct perf_cpu_map *all_cpus;
	struct perf_thread_map *self;	/* the calling thread, on any CPU */
};

const char *rp_ctr_name(enum rp_ctr c)
{
	return (unsigned int)c < RP_CTR_NR ? ctr_def[c].name : "unknown";
}

/* libperf's own debug and warning output would break the KTAP stream. */
static int quiet(enum libperf_print_level level, const char *fmt,
		 va_list ap)
{
	return 0;
}

static const char *why_errno(int err, bool hw)
{
	if (err == EACCES || err == EPERM)
		return "permission denied (needs root or a lower perf_event_paranoid)";
	if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV || err == EINVAL)
		return hw ? "not supported (no hardware PMU here, e.g. a VM)" :
			    "not supported by this kernel";
	if (err == EMFILE || err == ENFILE)
		return "too many open files";
	return "perf_event_open failed";
}

static void tp_close(struct ctr_priv *p, int i)
{
	int idx;

	for (idx = 0; p->tp_fd[i] && idx < perf_cpu_map__nr(p->all_cpus); idx++)
		if (p->tp_fd[i][idx] >= 0)
			close(p->tp_fd[i][idx]);
	free(p->tp_fd[i]);
	p->tp_fd[i] = NULL;
}

/*
 * Tracepoint i on every CPU of all_cpus, for every task, counting only (the
 * period never triggers a sample): NULL, or why not.
 */
static const char *tp_open(struct ctr_priv *p, int i,
			   struct perf_event_attr *attr)
{
	const char *tp_env = getenv("RCU_PERF_TRACEPOINTS"), *tracefs, *why = NULL;
	char path[512], buf[32];
	int n, idx, fd;

	/* Patching tracepoint call sites can crash multi-threaded TCG. */
	if (tp_env && !strcmp(tp_env, "0"))
		return "turned off (RCU_PERF_TRACEPOINTS=0)";
	tracefs = rp_tracefs();
	if (!tracefs)
		return geteuid() ? "no tracefs (not root)" :
				   "no tracefs on this system";
	snprintf(path, sizeof(path), "%s/events/%s/id", tracefs, ctr_def[i].tp);
	n = rp_knob_read(path, buf, sizeof(buf));
	if (n <= 0)
		return n == -EACCES || n == -EPERM ?
		       "tracefs not readable (not root)" :
		       "tracepoint not in this kernel";
	attr->config = strtoull(buf, NULL, 10);
	attr->sample_period = 1;
	if (!p->all_cpus)
		return "cannot read the online CPUs";
	n = perf_cpu_map__nr(p->all_cpus);
	p->tp_fd[i] = rp_xrealloc(NULL, n * sizeof(*p->tp_fd[i]));
	memset(p->tp_fd[i], -1, n * sizeof(*p->tp_fd[i]));
	for (idx = 0; idx < n && !why; idx++) {
		fd = syscall(__NR_perf_event_open, attr, -1,
			     perf_cpu_map__cpu(p->all_cpus, idx).cpu, -1, 0);
		p->tp_fd[i][idx] = fd;
		/* Better unsupported than counting the wrong thing. */
		if (fd < 0)
			why = why_errno(errno, false);
		else if (ctr_def[i].filter &&
			 ioctl(fd, PERF_EVENT_IOC_SET_FILTER, ctr_def[i].filter))
			why = "tracepoint filter rejected by this kernel";
	}
	if (why)
		tp_close(p, i);
	return why;
}

/* Counter @i, into @p: NULL, or why not. */
static const char *open_one(struct ctr_priv *p, int i)
{
	/* libperf copies its (newer uapi's) sizeof(attr): room for it, 0 */
	union {
		struct perf_event_attr attr;
		char room[512];
	} u = {
		.attr = {
			.size = sizeof(struct perf_event_attr),
			.type = ctr_def[i].type,
			.config = ctr_def[i].config,
			.disabled = 1,
		},
	};
	struct perf_event_attr *attr = &u.attr;
	struct perf_evsel *ev;
	int err;

	if (ctr_def[i].type == PERF_TYPE_TRACEPOINT)
		return tp_open(p, i, attr);
	ev = perf_evsel__new(attr);
	err = ev ? perf_evsel__open(ev, NULL, p->self) : 0;
	/* Switches and migrations would count 0 with exclude_kernel. */
	if (ev && (err == -EACCES || err == -EPERM) &&
	    i != RP_CTR_CTX_SWITCHES && i != RP_CTR_MIGRATIONS) {
		/* Unprivileged: user space only, as the perf tool does. */
		perf_evsel__delete(ev);
		attr->exclude_kernel = 1;
		attr->exclude_hv = 1;
		ev = perf_evsel__new(attr);
		err = ev ? perf_evsel__open(ev, NULL, p->self) : 0;
	}
	if (!ev)	/* newer libperf's delete reads the event first */
		return "out of memory";
	if (err) {
		perf_evsel__delete(ev);
		return why_errno(-err, ctr_def[i].type == PERF_TYPE_HARDWARE);
	}
	p->ev[i] = ev;
	return NULL;
}

int rp_counters_open(struct rp_counters *c)
{
	struct ctr_priv *p;
	pid_t self = 0;		/* pid 0: the calling thread */
	int i;

	memset(c, 0, sizeof(*c));
	libperf_init(quiet);
	p = rp_xrealloc(NULL, sizeof(*p));
	*p = (struct ctr_priv){ 0 };
	p->self = perf_thread_map__new_array(1, &self);
	p->all_cpus = perf_cpu_map__new_online_cpus();
	c->priv = p;
	if (!p->self) {
		rp_counters_close(c);
		return -ENOMEM;
	}
	for (i = 0; i < RP_CTR_NR; i++) {
		c->why[i] = open_one(p, i);
		c->supported[i] = !c->why[i];
	}
	return 0;
}

/* Counter i now, 0 if not open; a tracepoint's is summed over its CPUs. */
static __u64 read_sum(struct ctr_priv *p, int i)
{
	struct perf_counts_values v = { 0 };
	__u64 sum = 0, val;
	int idx;

	if (p->ev[i])
		return perf_evsel__read(p->ev[i], 0, 0, &v) ? 0 : v.val;
	for (idx = 0; p->tp_fd[i] && idx < perf_cpu_map__nr(p->all_cpus); idx++)
		if (read(p->tp_fd[i][idx], &val, sizeof(val)) == sizeof(val))
			sum += val;
	return sum;
}

/* PERF_EVENT_IOC_ENABLE or _DISABLE, as perf_evsel__enable() does. */
static void set_enabled(struct ctr_priv *p, int i, bool on)
{
	int idx;

	if (p->ev[i])
		(on ? perf_evsel__enable : perf_evsel__disable)(p->ev[i]);
	for (idx = 0; p->tp_fd[i] && idx < perf_cpu_map__nr(p->all_cpus); idx++)
		ioctl(p->tp_fd[i][idx], on ? PERF_EVENT_IOC_ENABLE :
		      PERF_EVENT_IOC_DISABLE, 0);
}

void rp_counters_start(struct rp_counters *c)
{
	struct ctr_priv *p = c->priv;
	int i;

	for (i = 0; p && i < RP_CTR_NR; i++) {
		p->start[i] = read_sum(p, i);
		set_enabled(p, i, true);
	}
}

void rp_counters_stop(struct rp_counters *c)
{
	struct ctr_priv *p = c->priv;
	__u64 now;
	int i;

	/* Disable all first so that they cover the same interval. */
	for (i = 0; p && i < RP_CTR_NR; i++)
		set_enabled(p, i, false);
	for (i = 0; p && i < RP_CTR_NR; i++) {
		now = read_sum(p, i);
		c->delta[i] = now >= p->start[i] ? now - p->start[i] : 0;
	}
}

void rp_counters_add(struct rp_counters *sum, const struct rp_counters *c)
{
	int i;

	for (i = 0; i < RP_CTR_NR; i++) {
		sum->supported[i] = c->supported[i];
		sum->why[i] = c->why[i];
		sum->delta[i] += c->delta[i];
	}
}

void rp_counters_close(struct rp_counters *c)
{
	struct ctr_priv *p = c->priv;
	int i;

	if (!p)
		return;
	for (i = 0; i < RP_CTR_NR; i++) {
		tp_close(p, i);
		if (!p->ev[i])
			continue;
		perf_evsel__close(p->ev[i]);
		perf_evsel__delete(p->ev[i]);
	}
	perf_cpu_map__put(p->all_cpus);
	perf_thread_map__put(p->self);
	free(p);
	c->priv = NULL;
}
