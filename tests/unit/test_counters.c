// SPDX-License-Identifier: GPL-2.0
/*
 * The libperf counters (lib/counters.c) on the live kernel. Each check
 * compares counts with what the test itself caused (sleeps, page faults,
 * migrations, grace periods), never with how long anything took. Counters
 * this machine lacks must be reported unsupported with a reason.
 */
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <linux/membarrier.h>

#include "unit.h"

#define NR_SLEEPS	20
#define NR_PAGES	64
#define NR_GPS		4

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
	int err = rp_counters_open(&self->c);

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
 * Sleeps and grace periods: membarrier(GLOBAL) waits for a grace period
 * (synchronize_rcu()). Twice in clean-clone CI runs the system-wide
 * sched_switch read 0-1 for a while after a heavy test, then counted
 * again: up to three tries, each shown; a summing bug fails all three.
 * Whether the grace periods could be asked for.
 */
static bool grace_periods(struct rp_counters *c)
{
	int i, attempt;
	bool gp = false;

	for (attempt = 1; attempt <= 3; attempt++) {
		rp_counters_start(c);
		sleeps();
		for (i = 0; i < NR_GPS; i++)
			gp = !syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
		rp_counters_stop(c);
		show(c, "sleeps + grace periods");
		if (c->delta[RP_CTR_SCHED_SWITCH] >= c->delta[RP_CTR_CTX_SWITCHES] &&
		    c->delta[RP_CTR_SCHED_SWITCH] >= NR_SLEEPS)
			break;
	}
	return gp;
}

/* sched_switch on all CPUs: at least this thread's. */
TEST_F(counters, sched_switch)
{
	struct rp_counters *c = &self->c;

	if (!c->supported[RP_CTR_SCHED_SWITCH])
		SKIP(return, "tracepoints: %s", c->why[RP_CTR_SCHED_SWITCH]);
	grace_periods(c);
	EXPECT_GE(c->delta[RP_CTR_SCHED_SWITCH], c->delta[RP_CTR_CTX_SWITCHES]);
	EXPECT_LE(NR_SLEEPS, (long long)c->delta[RP_CTR_SCHED_SWITCH]);
}

TEST_F(counters, rcu_softirq)
{
	struct rp_counters *c = &self->c;

	if (!c->supported[RP_CTR_SCHED_SWITCH])
		SKIP(return, "tracepoints: %s", c->why[RP_CTR_SCHED_SWITCH]);
	if (!grace_periods(c))
		SKIP(return, "rcu_softirq: no membarrier(GLOBAL)");
	if (expedited())
		SKIP(return, "rcu_softirq: rcu_expedited=1 (none raised)");
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
	grace_periods(c);
	EXPECT_LT(0, (long long)c->delta[RP_CTR_RCU_UTIL]);
}

/* Not root: still opens, tracepoints unsupported with a reason. */
TEST_F(counters, unprivileged)
{
	struct rp_counters c;
	pid_t pid;
	int st;

	if (geteuid())
		SKIP(return, "unprivileged: already not root");
	fflush(stdout);
	fflush(stderr);
	pid = fork();
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
