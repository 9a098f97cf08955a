// SPDX-License-Identifier: GPL-2.0
/*
 * The libperf counters (lib/counters.c) on the live kernel. Each check
 * compares counts with what the test itself caused (sleeps, page faults,
 * migrations, grace periods), never with how long anything took. Counters
 * this machine lacks must be reported unsupported with a reason.
 */
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/membarrier.h>
#include <linux/perf_event.h>

#include "kselftest.h"
#include "rcu_perf.h"

#define NR_SLEEPS	20
#define NR_PAGES	64
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

static void test_thread_counters(struct rp_counters *c)
{
	unsigned long long busy_clock, sleep_clock, sleep_cs;
	int cpus[2], i;
	char *mem;

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
	sleep_cs = c->delta[RP_CTR_CTX_SWITCHES];

	ksft_test_result(c->supported[RP_CTR_TASK_CLOCK] && busy_clock > 0 &&
			 busy_clock > sleep_clock,
			 "task_clock: busy %llu ns > sleeping %llu ns\n",
			 busy_clock, sleep_clock);
	if (!c->supported[RP_CTR_CTX_SWITCHES])
		ksft_test_result_skip("context_switches: %s\n",
				      c->why[RP_CTR_CTX_SWITCHES]);
	else
		ksft_test_result(sleep_cs >= NR_SLEEPS,
				 "context_switches: %llu >= %d sleeps\n",
				 sleep_cs, NR_SLEEPS);

	rp_counters_start(c);
	mem = mmap(NULL, NR_PAGES * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; mem != MAP_FAILED && i < NR_PAGES; i++)
		mem[i * 4096] = 1;
	rp_counters_stop(c);
	if (mem != MAP_FAILED)
		munmap(mem, NR_PAGES * 4096);
	ksft_test_result(c->supported[RP_CTR_PAGE_FAULTS] &&
			 c->delta[RP_CTR_PAGE_FAULTS] >= NR_PAGES,
			 "page_faults: %llu >= %d pages touched\n",
			 (unsigned long long)c->delta[RP_CTR_PAGE_FAULTS],
			 NR_PAGES);

	if (rp_online_cpus(cpus, 2) < 2) {
		ksft_test_result_skip("cpu_migrations: one CPU\n");
	} else if (!c->supported[RP_CTR_MIGRATIONS]) {
		ksft_test_result_skip("cpu_migrations: %s\n",
				      c->why[RP_CTR_MIGRATIONS]);
	} else {
		rp_pin_self(cpus[0]);
		rp_counters_start(c);
		for (i = 1; i <= 4; i++)
			rp_pin_self(cpus[i % 2]);
		rp_counters_stop(c);
		rp_pin_self(-1);
		ksft_test_result(c->delta[RP_CTR_MIGRATIONS] >= 4,
				 "cpu_migrations: %llu >= 4 forced moves\n",
				 (unsigned long long)c->delta[RP_CTR_MIGRATIONS]);
	}

	/* No PMU in a VM: the hardware counters must say so, not fail. */
	ksft_test_result(consistent(c),
			 "unsupported counters have a reason (cycles: %s)\n",
			 c->supported[RP_CTR_CYCLES] ? "supported" :
			 c->why[RP_CTR_CYCLES]);
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
 * Some machines boot with every grace period expedited: those do not go
 * through RCU_SOFTIRQ, and a unit test does not change the kernel.
 */
static bool expedited(void)
{
	char buf[8] = "";

	return rp_knob_read("/sys/kernel/rcu_expedited", buf, sizeof(buf)) > 0 &&
	       strcmp(buf, "0");
}

static void test_tracepoints(struct rp_counters *c)
{
	const int n = 4;
	int cpus[MAX_CPUS], i, last;
	unsigned long long own = 0;
	struct own_ctr o_sw;
	bool gp, own_ok;

	if (!c->supported[RP_CTR_SCHED_SWITCH]) {
		ksft_test_result_skip("tracepoints: %s\n",
				      c->why[RP_CTR_SCHED_SWITCH]);
		ksft_test_result_skip("rcu_softirq\n");
		ksft_test_result_skip("rcu_utilization\n");
		return;
	}
	/*
	 * membarrier(GLOBAL) waits for a grace period (synchronize_rcu()).
	 * The sleeps run on the last online CPU, and the test's own
	 * sched_switch counter on every CPU counts within the library's
	 * window: the library's sum can be no less. Until the tracepoints
	 * were opened per CPU here, only the first CPU's fd was read
	 * (libperf's evsel has no CPU map without an evlist).
	 */
	last = rp_online_cpus(cpus, MAX_CPUS);
	rp_pin_self(last > 0 ? cpus[last - 1] : -1);
	own_ok = !own_open(&o_sw, "sched/sched_switch", NULL);
	rp_counters_start(c);
	own_enable(&o_sw, true);
	sleeps();
	for (i = 0; i < n; i++)
		gp = !syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
	own_enable(&o_sw, false);
	rp_counters_stop(c);
	rp_pin_self(-1);
	own = own_read(&o_sw);
	own_close(&o_sw);
	show(c, "sleeps + grace periods");
	ksft_test_result(own_ok && c->delta[RP_CTR_SCHED_SWITCH] >= own &&
			 own >= NR_SLEEPS,
			 "sched_switch on all CPUs: %llu >= %llu by the test's per-CPU counter (this thread: %llu)\n",
			 (unsigned long long)c->delta[RP_CTR_SCHED_SWITCH], own,
			 (unsigned long long)c->delta[RP_CTR_CTX_SWITCHES]);
	if (!gp)
		ksft_test_result_skip("rcu_softirq: no membarrier(GLOBAL)\n");
	else if (expedited())
		ksft_test_result_skip("rcu_softirq: rcu_expedited=1 (none raised)\n");
	else if (!c->supported[RP_CTR_SOFTIRQ])
		ksft_test_result_skip("rcu_softirq: %s\n",
				      c->why[RP_CTR_SOFTIRQ]);
	else
		ksft_test_result(c->delta[RP_CTR_SOFTIRQ] > 0,
				 "rcu_softirq: %llu during %d grace periods\n",
				 (unsigned long long)c->delta[RP_CTR_SOFTIRQ],
				 n);
	if (!c->supported[RP_CTR_RCU_UTIL])
		ksft_test_result_skip("rcu_utilization: %s\n",
				      c->why[RP_CTR_RCU_UTIL]);
	else
		ksft_test_result(c->delta[RP_CTR_RCU_UTIL] > 0,
				 "rcu_utilization: %llu events\n",
				 (unsigned long long)c->delta[RP_CTR_RCU_UTIL]);
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
 */
#define FILTER_TEST	"rcu_softirq filtered on every CPU"

static void test_filter_every_cpu(struct rp_counters *c)
{
	unsigned long long all, net_rx, rcu;
	struct own_ctr o_all, o_net;
	int cpus[MAX_CPUS], nr, i;
	bool ok = true, sent = true;
	char why[160] = "";

	if (!c->supported[RP_CTR_SOFTIRQ]) {
		ksft_test_result_skip(FILTER_TEST ": %s\n",
				      c->why[RP_CTR_SOFTIRQ]);
		return;
	}
	if (own_open(&o_all, "irq/softirq_entry", NULL)) {
		ksft_test_result_skip(FILTER_TEST ": cannot count softirq_entry\n");
		return;
	}
	/* NET_RX_SOFTIRQ in enum softirq_vec, as stable as RCU_SOFTIRQ */
	if (own_open(&o_net, "irq/softirq_entry", "vec == 3")) {
		own_close(&o_all);
		ksft_test_result_skip(FILTER_TEST ": cannot count NET_RX\n");
		return;
	}
	nr = rp_online_cpus(cpus, MAX_CPUS);
	for (i = 0; i < nr && ok && sent; i++) {
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
		ksft_print_msg("CPU %d: %d packets: softirqs %llu, NET_RX %llu, rcu_softirq %llu\n",
			       cpus[i], NR_PACKETS, all, net_rx, rcu);
		if (net_rx < NR_PACKETS / 2)
			snprintf(why, sizeof(why),
				 "%llu NET_RX softirqs for %d loopback packets on CPU %d",
				 net_rx, NR_PACKETS, cpus[i]);
		else if (rcu + net_rx > all)
			ok = false;
	}
	rp_pin_self(-1);
	own_close(&o_net);
	own_close(&o_all);
	if (!sent)
		ksft_test_result_skip(FILTER_TEST ": no loopback (lo down?)\n");
	else if (ok && why[0])
		ksft_test_result_skip(FILTER_TEST ": %s\n", why);
	else
		ksft_test_result(ok, FILTER_TEST ": rcu_softirq + NET_RX <= all, %d CPUs\n",
				 nr);
}

/* Not root: still opens, tracepoints unsupported with a reason. */
static void test_unprivileged(void)
{
	struct rp_counters c;
	pid_t pid;
	int st;

	if (geteuid()) {
		ksft_test_result_skip("unprivileged: already not root\n");
		return;
	}
	fflush(stdout);
	pid = fork();
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
	ksft_test_result(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
			 !WEXITSTATUS(st),
			 "not root: task_clock counts, tracepoints unsupported\n");
}

int main(void)
{
	struct rp_counters c;
	int err;

	ksft_print_header();
	ksft_set_plan(11);
	/* rp_tracefs() may mount tracefs: through the guard, undone at exit */
	err = rp_counters_open(&c);
	if (err)
		ksft_exit_fail_msg("rp_counters_open: %s\n", strerror(-err));
	test_thread_counters(&c);
	test_tracepoints(&c);
	test_filter_every_cpu(&c);
	rp_counters_close(&c);
	test_unprivileged();
	ksft_test_result(!strcmp(rp_ctr_name(RP_CTR_TASK_CLOCK), "task_clock") &&
			 !strcmp(rp_ctr_name(RP_CTR_NR), "unknown"),
			 "counter names\n");
	ksft_finished();
}
