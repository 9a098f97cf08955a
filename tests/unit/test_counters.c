// SPDX-License-Identifier: GPL-2.0
/*
 * The libperf counters (lib/counters.c) on the live kernel. Each check
 * compares counts with what the test itself caused (sleeps, page faults,
 * migrations, grace periods), never with how long anything took. Counters
 * this machine lacks must be reported unsupported with a reason.
 */
#include <netinet/in.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <linux/membarrier.h>
#include <linux/perf_event.h>

#include "unit.h"

#define NR_SLEEPS	20
#define NR_PAGES	64
#define NR_GPS		4
#define NR_PACKETS	1000
#define MAX_CPUS	1024

static void show(const struct rp_counters *c, const char *what)
{
	int i;

	for (i = 0; i < RP_CTR_NR; i++) {
		if (c->supported[i])
			ksft_print_msg("%s: %s = %llu\n", what, rp_ctr_name(i),
				       (unsigned long long)c->delta[i]);
		else
			ksft_print_msg("%s: %s unsupported: %s\n", what,
				       rp_ctr_name(i), c->why[i]);
	}
}

static void spin(void)
{
	unsigned long x;

	for (x = 0; x < 50000000UL; x++)
		__asm__ __volatile__("" : "+r" (x));	/* not optimised away */
}

static void sleeps(void)
{
	struct timespec ts = { 0, 1000000 };
	int i;

	for (i = 0; i < NR_SLEEPS; i++)
		nanosleep(&ts, NULL);
}

/* Every counter is either supported or says why not. */
static bool consistent(const struct rp_counters *c)
{
	int i;

	for (i = 0; i < RP_CTR_NR; i++) {
		if (!c->supported[i] && (!c->why[i] || !*c->why[i]))
			return false;
		if (!c->supported[i] && c->delta[i])
			return false;
	}
	return true;
}

FIXTURE(counters) {
	struct rp_counters c;
};

/*
 * rp_tracefs() may mount tracefs through the guard. The harness ends a
 * test with _exit(), which skips the guard's exit handler: restore here.
 */
FIXTURE_SETUP(counters)
{
	int err;

	/*
	 * Mounting tracefs takes the guard's lock, which a suite program
	 * running meanwhile holds: give up on it well within the harness's
	 * 30 s per test. Without tracefs the tracepoint tests SKIP.
	 */
	setenv("RCU_PERF_LOCK_TIMEOUT", "10", 0);
	err = rp_counters_open(&self->c);

	if (err) {
		rp_guard_restore();
		ASSERT_EQ(0, err) TH_LOG("rp_counters_open: %s", strerror(-err));
	}
}

FIXTURE_TEARDOWN(counters)
{
	rp_counters_close(&self->c);
	rp_guard_restore();
	EXPECT_EQ(0, unit_leaks());
}

/* task_clock: busy > sleeping. */
TEST_F(counters, task_clock)
{
	struct rp_counters *c = &self->c;
	unsigned long long busy_clock, sleep_clock;

	rp_counters_start(c);
	spin();
	rp_counters_stop(c);
	show(c, "busy loop");
	busy_clock = c->delta[RP_CTR_TASK_CLOCK];
	rp_counters_start(c);
	sleeps();
	rp_counters_stop(c);
	show(c, "sleeps");
	sleep_clock = c->delta[RP_CTR_TASK_CLOCK];
	TH_LOG("task_clock: busy %llu ns > sleeping %llu ns", busy_clock,
	       sleep_clock);
	ASSERT_TRUE(c->supported[RP_CTR_TASK_CLOCK]);
	EXPECT_LT(0, (long long)busy_clock);
	EXPECT_GT(busy_clock, sleep_clock);
}

/* context_switches: at least one per sleep. */
TEST_F(counters, context_switches)
{
	struct rp_counters *c = &self->c;

	rp_counters_start(c);
	sleeps();
	rp_counters_stop(c);
	show(c, "sleeps");
	if (!c->supported[RP_CTR_CTX_SWITCHES])
		SKIP(return, "context_switches: %s", c->why[RP_CTR_CTX_SWITCHES]);
	EXPECT_LE(NR_SLEEPS, (long long)c->delta[RP_CTR_CTX_SWITCHES]);
}

/* page_faults: at least one per page touched. */
TEST_F(counters, page_faults)
{
	struct rp_counters *c = &self->c;
	char *mem;
	int i;

	rp_counters_start(c);
	mem = mmap(NULL, NR_PAGES * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; mem != MAP_FAILED && i < NR_PAGES; i++)
		mem[i * 4096] = 1;
	rp_counters_stop(c);
	if (mem != MAP_FAILED)
		munmap(mem, NR_PAGES * 4096);
	ASSERT_TRUE(c->supported[RP_CTR_PAGE_FAULTS]);
	EXPECT_LE(NR_PAGES, (long long)c->delta[RP_CTR_PAGE_FAULTS]);
}

/* cpu_migrations: at least the 4 forced moves. */
TEST_F(counters, cpu_migrations)
{
	struct rp_counters *c = &self->c;
	int cpus[2], i;

	if (rp_online_cpus(cpus, 2) < 2)
		SKIP(return, "cpu_migrations: one CPU");
	if (!c->supported[RP_CTR_MIGRATIONS])
		SKIP(return, "cpu_migrations: %s", c->why[RP_CTR_MIGRATIONS]);
	rp_pin_self(cpus[0]);
	rp_counters_start(c);
	for (i = 1; i <= 4; i++)
		rp_pin_self(cpus[i % 2]);
	rp_counters_stop(c);
	rp_pin_self(-1);
	EXPECT_LE(4, (long long)c->delta[RP_CTR_MIGRATIONS]);
}

/* No PMU in a VM: the hardware counters must say so, not fail. */
TEST_F(counters, unsupported_counters_have_a_reason)
{
	struct rp_counters *c = &self->c;

	rp_counters_start(c);
	sleeps();
	rp_counters_stop(c);
	TH_LOG("cycles: %s", c->supported[RP_CTR_CYCLES] ? "supported" :
	       c->why[RP_CTR_CYCLES]);
	EXPECT_TRUE(consistent(c));
}

/*
 * Some machines boot with every grace period expedited: those do not go
 * through RCU_SOFTIRQ, and a unit test does not change the kernel.
 */
static bool expedited(void)
{
	char buf[8] = "";

	return rp_knob_read("/sys/kernel/rcu_expedited", buf, sizeof(buf)) > 0 &&
	       strcmp(buf, "0");
}

/*
 * RCU's core work runs in the RCU softirq unless rcutree.use_softirq=0
 * moved it to the rcuc kthreads (the PREEMPT_RT default): then none is
 * raised, however many grace periods pass.
 */
static bool rcu_in_softirq(void)
{
	char buf[8] = "";

	if (rp_knob_read("/sys/module/rcutree/parameters/use_softirq", buf,
			 sizeof(buf)) <= 0)
		return true;
	return strcmp(buf, "N") && strcmp(buf, "0");
}

/* The test's own counter of a tracepoint on every online CPU. */
struct own_ctr {
	int fd[MAX_CPUS];
	int n;
};

static void own_close(struct own_ctr *o)
{
	while (o->n > 0)
		close(o->fd[--o->n]);
}

/* tp: "sys/event"; filter: NULL for every event. 0 or -errno */
static int own_open(struct own_ctr *o, const char *tp, const char *filter)
{
	struct perf_event_attr attr;
	int cpus[MAX_CPUS], nr, i, fd, err;
	char path[600], buf[32];

	o->n = 0;
	if (!rp_tracefs())
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s/id", rp_tracefs(), tp);
	if (rp_knob_read(path, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = strtoull(buf, NULL, 10);
	attr.sample_period = 1;
	attr.disabled = 1;
	nr = rp_online_cpus(cpus, MAX_CPUS);
	for (i = 0; i < nr; i++) {
		fd = syscall(__NR_perf_event_open, &attr, -1, cpus[i], -1, 0);
		if (fd < 0) {
			err = -errno;
			own_close(o);
			return err;
		}
		o->fd[o->n++] = fd;
		if (filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter)) {
			own_close(o);
			return -EINVAL;
		}
	}
	return nr > 0 ? 0 : -ENOENT;
}

static void own_enable(struct own_ctr *o, bool on)
{
	int i;

	for (i = 0; i < o->n; i++)
		ioctl(o->fd[i], on ? PERF_EVENT_IOC_ENABLE :
		      PERF_EVENT_IOC_DISABLE, 0);
}

static unsigned long long own_read(struct own_ctr *o)
{
	unsigned long long sum = 0;
	__u64 v;
	int i;

	for (i = 0; i < o->n; i++)
		if (read(o->fd[i], &v, sizeof(v)) == sizeof(v))
			sum += v;
	return sum;
}

/*
 * Sleeps and grace periods, on the last online CPU: membarrier(GLOBAL)
 * waits for a grace period (synchronize_rcu()). The test's own counter o
 * (or NULL), opened by the caller, counts within the library's window.
 * Whether the grace periods could be asked for.
 */
static bool grace_periods(struct rp_counters *c, struct own_ctr *o)
{
	int cpus[MAX_CPUS], i, last;
	bool gp = false;

	last = rp_online_cpus(cpus, MAX_CPUS);
	rp_pin_self(last > 0 ? cpus[last - 1] : -1);
	rp_counters_start(c);
	if (o)
		own_enable(o, true);
	sleeps();
	for (i = 0; i < NR_GPS; i++)
		gp = !syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
	if (o)
		own_enable(o, false);
	rp_counters_stop(c);
	rp_pin_self(-1);
	show(c, "sleeps + grace periods");
	return gp;
}

/*
 * sched_switch on all CPUs: the sleeps run on the last online CPU, and
 * the test's own sched_switch counter on every CPU counts within the
 * library's window: the library's sum can be no less. Until the
 * tracepoints were opened per CPU, only the first CPU's fd was read
 * (libperf's evsel has no CPU map without an evlist). This thread's own
 * context switches are only shown: they are not what is summed.
 */
TEST_F(counters, sched_switch)
{
	struct rp_counters *c = &self->c;
	unsigned long long own;
	struct own_ctr o;
	int err;

	if (!c->supported[RP_CTR_SCHED_SWITCH])
		SKIP(return, "tracepoints: %s", c->why[RP_CTR_SCHED_SWITCH]);
	err = own_open(&o, "sched/sched_switch", NULL);
	ASSERT_EQ(0, err) TH_LOG("own sched_switch counter: %s",
				 strerror(-err));
	grace_periods(c, &o);
	own = own_read(&o);
	own_close(&o);
	TH_LOG("sched_switch on all CPUs: %llu >= %llu by own per-CPU counter (thread: %llu)",
	       (unsigned long long)c->delta[RP_CTR_SCHED_SWITCH], own,
	       (unsigned long long)c->delta[RP_CTR_CTX_SWITCHES]);
	EXPECT_GE(c->delta[RP_CTR_SCHED_SWITCH], own);
	EXPECT_LE(NR_SLEEPS, (long long)own);
}

TEST_F(counters, rcu_softirq)
{
	struct rp_counters *c = &self->c;

	if (!c->supported[RP_CTR_SCHED_SWITCH])
		SKIP(return, "tracepoints: %s", c->why[RP_CTR_SCHED_SWITCH]);
	if (!grace_periods(c, NULL))
		SKIP(return, "rcu_softirq: no membarrier(GLOBAL)");
	if (expedited())
		SKIP(return, "rcu_softirq: rcu_expedited=1 (none raised)");
	if (!rcu_in_softirq())
		SKIP(return, "rcu_softirq: rcutree.use_softirq=0 (rcuc kthreads)");
	if (!c->supported[RP_CTR_SOFTIRQ])
		SKIP(return, "rcu_softirq: %s", c->why[RP_CTR_SOFTIRQ]);
	TH_LOG("rcu_softirq: %llu during %d grace periods",
	       (unsigned long long)c->delta[RP_CTR_SOFTIRQ], NR_GPS);
	EXPECT_LT(0, (long long)c->delta[RP_CTR_SOFTIRQ]);
}

TEST_F(counters, rcu_utilization)
{
	struct rp_counters *c = &self->c;

	if (!c->supported[RP_CTR_SCHED_SWITCH])
		SKIP(return, "tracepoints: %s", c->why[RP_CTR_SCHED_SWITCH]);
	if (!c->supported[RP_CTR_RCU_UTIL])
		SKIP(return, "rcu_utilization: %s", c->why[RP_CTR_RCU_UTIL]);
	grace_periods(c, NULL);
	EXPECT_LT(0, (long long)c->delta[RP_CTR_RCU_UTIL]);
}

/* NR_PACKETS UDP datagrams to ourselves on loopback; false if none went. */
static bool loopback_packets(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int rx, tx, i, sent = 0;
	char b = 0;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (rx >= 0 && tx >= 0 && !bind(rx, (struct sockaddr *)&a, len) &&
	    !getsockname(rx, (struct sockaddr *)&a, &len))
		for (i = 0; i < NR_PACKETS; i++)
			sent += sendto(tx, &b, 1, 0, (struct sockaddr *)&a,
				       len) == 1;
	if (rx >= 0)
		close(rx);
	if (tx >= 0)
		close(tx);
	return sent > 0;
}

/*
 * rcu_softirq's filter (vec == RCU_SOFTIRQ) holds on every CPU: with
 * loopback packets sent from each CPU in turn, which raise NET_RX_SOFTIRQ
 * (vec 3) on that CPU, the library's count and the test's own NET_RX
 * count are disjoint parts of all softirq entries, counted over a window
 * that covers both. A CPU without the filter would count its NET_RX
 * entries twice. If the packets raised no NET_RX here, nothing to judge.
 * Failures are tallied, not EXPECTed, as a SKIP after them would hide
 * them.
 */
TEST_F(counters, rcu_softirq_filtered_on_every_cpu)
{
	struct rp_counters *c = &self->c;
	unsigned long long all, net_rx, rcu;
	struct own_ctr o_all, o_net;
	int cpus[MAX_CPUS], nr, i;
	bool ok = true, sent = true;
	char why[160] = "";

	if (!c->supported[RP_CTR_SOFTIRQ])
		SKIP(return, "rcu_softirq: %s", c->why[RP_CTR_SOFTIRQ]);
	if (own_open(&o_all, "irq/softirq_entry", NULL))
		SKIP(return, "cannot count softirq_entry");
	/* NET_RX_SOFTIRQ in enum softirq_vec, as stable as RCU_SOFTIRQ */
	if (own_open(&o_net, "irq/softirq_entry", "vec == 3")) {
		own_close(&o_all);
		SKIP(return, "cannot count NET_RX");
	}
	nr = rp_online_cpus(cpus, MAX_CPUS);
	for (i = 0; i < nr && sent; i++) {
		rp_pin_self(cpus[i]);
		all = own_read(&o_all);
		net_rx = own_read(&o_net);
		own_enable(&o_all, true);
		own_enable(&o_net, true);
		rp_counters_start(c);
		sent = loopback_packets();
		rp_counters_stop(c);
		own_enable(&o_net, false);
		own_enable(&o_all, false);
		all = own_read(&o_all) - all;
		net_rx = own_read(&o_net) - net_rx;
		rcu = c->delta[RP_CTR_SOFTIRQ];
		TH_LOG("CPU %d: %d packets: softirqs %llu, NET_RX %llu, rcu_softirq %llu",
		       cpus[i], NR_PACKETS, all, net_rx, rcu);
		if (net_rx < NR_PACKETS / 2) {
			snprintf(why, sizeof(why),
				 "%llu NET_RX softirqs for %d loopback packets on CPU %d",
				 net_rx, NR_PACKETS, cpus[i]);
		} else if (rcu + net_rx > all) {
			TH_LOG("CPU %d: rcu_softirq + NET_RX > all softirqs",
			       cpus[i]);
			ok = false;
		}
	}
	rp_pin_self(-1);
	own_close(&o_net);
	own_close(&o_all);
	if (ok && !sent)
		SKIP(return, "no loopback (lo down?)");
	if (ok && why[0])
		SKIP(return, "%s", why);
	TH_LOG("rcu_softirq + NET_RX <= all, %d CPUs", nr);
	EXPECT_TRUE(ok);
	EXPECT_LT(0, nr);
}

/* Not root: still opens, tracepoints unsupported with a reason. */
TEST_F(counters, unprivileged)
{
	struct rp_counters c;
	pid_t pid;
	int st;

	if (geteuid())
		SKIP(return, "unprivileged: already not root");
	pid = unit_fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (setgid(65534) || setuid(65534))
			_exit(3);
		if (rp_counters_open(&c))
			_exit(1);
		rp_counters_start(&c);
		spin();
		rp_counters_stop(&c);
		show(&c, "not root");
		/* task_clock works at any perf_event_paranoid level */
		_exit(consistent(&c) && !c.supported[RP_CTR_SCHED_SWITCH] &&
		      c.supported[RP_CTR_TASK_CLOCK] &&
		      c.delta[RP_CTR_TASK_CLOCK] > 0 ? 0 : 2);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
}

TEST_F(counters, names)
{
	EXPECT_STREQ("task_clock", rp_ctr_name(RP_CTR_TASK_CLOCK));
	EXPECT_STREQ("unknown", rp_ctr_name(RP_CTR_NR));
}

TEST_HARNESS_MAIN
