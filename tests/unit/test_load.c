// SPDX-License-Identifier: GPL-2.0
/*
 * The load generator (lib/load.c) on the live machine: its threads run
 * pinned on the requested CPUs, burn CPU time in user space, and are all
 * gone after rp_load_stop(). Asserts on placement and on counts, never on
 * how long anything took.
 */
#include <dirent.h>
#include <math.h>
#include <sched.h>

#include "unit.h"

/* Any CPU count the kernel supports, not just this machine's. */
#define MAX_CPUS	CPU_SETSIZE

struct task {
	int tid;
	int cpu;		/* last CPU it ran on */
	int nr_allowed;		/* CPUs in its affinity mask */
	int allowed;		/* the CPU if nr_allowed == 1 */
	unsigned long long utime, stime;
};

/* The threads of this process other than the main one. */
static int threads(struct task *t, int max)
{
	char path[128], buf[1024], *p;
	struct dirent *d;
	int n = 0, i;
	DIR *dir;

	dir = opendir("/proc/self/task");
	if (!dir)
		return -1;
	while ((d = readdir(dir)) && n < max) {
		int tid = atoi(d->d_name);
		cpu_set_t set;

		if (tid <= 0 || tid == getpid())
			continue;
		memset(&t[n], 0, sizeof(t[n]));
		t[n].tid = tid;
		snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
		if (rp_knob_read(path, buf, sizeof(buf)) <= 0)
			continue;
		p = strrchr(buf, ')');
		/* fields 14, 15 (utime, stime) and 39 (processor) */
		for (i = 2; p && i < 39; i++) {
			p = strchr(p + 1, ' ');
			if (p && i == 13)
				sscanf(p + 1, "%llu %llu", &t[n].utime,
				       &t[n].stime);
		}
		if (p)
			t[n].cpu = atoi(p + 1);
		if (!sched_getaffinity(tid, sizeof(set), &set)) {
			t[n].nr_allowed = CPU_COUNT(&set);
			for (i = 0; i < CPU_SETSIZE; i++)
				if (CPU_ISSET(i, &set))
					t[n].allowed = i;
		}
		n++;
	}
	closedir(dir);
	return n;
}

FIXTURE(load) {
	int cpus[MAX_CPUS];
	int n;
};

FIXTURE_SETUP(load)
{
	self->n = rp_online_cpus(self->cpus, MAX_CPUS);
	ASSERT_LT(0, self->n) TH_LOG("no online CPUs (%d)", self->n);
}

FIXTURE_TEARDOWN(load)
{
	EXPECT_EQ(0, unit_leaks());
}

/* Start the load on every online CPU; its threads in t, nt of them. */
static struct rp_load *start_all(struct __test_metadata *_metadata,
				 const int *cpus, int n, struct task *t,
				 int *nt)
{
	struct rp_load *l = rp_load_start(cpus, n);

	if (!l)
		TH_LOG("rp_load_start on %d CPUs: %s", n, strerror(errno));
	*nt = l ? threads(t, MAX_CPUS) : 0;
	return l;
}

/* Threads pinned on their CPUs. */
TEST_F(load, threads_pinned)
{
	struct rp_load *l;
	struct task t[MAX_CPUS];
	int nt, i, j;

	l = start_all(_metadata, self->cpus, self->n, t, &nt);
	ASSERT_NE(NULL, l);
	TH_LOG("%d threads", nt);
	EXPECT_EQ(self->n, nt);
	for (i = 0; i < self->n; i++) {
		bool found = false;

		for (j = 0; j < nt; j++)
			if (t[j].nr_allowed == 1 &&
			    t[j].allowed == self->cpus[i] &&
			    t[j].cpu == self->cpus[i])
				found = true;
		EXPECT_TRUE(found) TH_LOG("no thread pinned on CPU %d",
					  self->cpus[i]);
	}
	rp_load_stop(l);
}

/*
 * Spinning: each thread gains CPU time, nearly all in user space.
 * Polled (up to 10 s) rather than timed: the box may be busy.
 */
TEST_F(load, threads_spin_in_user_space)
{
	struct task t[MAX_CPUS], t2[MAX_CPUS];
	struct rp_load *l;
	bool busy = true;
	int nt, i, j, k;

	l = start_all(_metadata, self->cpus, self->n, t, &nt);
	ASSERT_NE(NULL, l);
	for (k = 0; k < 100; k++) {
		usleep(100000);
		threads(t2, MAX_CPUS);
		busy = true;
		for (i = 0; i < nt; i++)
			for (j = 0; j < nt; j++)
				if (t2[j].tid == t[i].tid &&
				    t2[j].utime < t[i].utime + 2)
					busy = false;
		if (busy)
			break;
	}
	EXPECT_TRUE(busy);
	for (i = 0; i < nt; i++) {
		for (j = 0; j < nt; j++) {
			if (t2[j].tid != t[i].tid)
				continue;
			TH_LOG("thread %d CPU %d: +%llu user, +%llu system ticks",
			       t[i].tid, t2[j].cpu, t2[j].utime - t[i].utime,
			       t2[j].stime - t[i].stime);
			EXPECT_LE(t2[j].stime - t[i].stime,
				  t2[j].utime - t[i].utime);
		}
	}
	rp_load_stop(l);
}

TEST_F(load, stop_joins_all_threads)
{
	struct rp_load *l;
	struct task t[MAX_CPUS];
	int nt;

	l = start_all(_metadata, self->cpus, self->n, t, &nt);
	ASSERT_NE(NULL, l);
	rp_load_stop(l);
	EXPECT_EQ(0, threads(t, MAX_CPUS));
}

/* A CPU that is not online: NULL, no thread left. */
TEST_F(load, cpu_not_online)
{
	int bad[2] = { 0, CPU_SETSIZE - 1 };
	struct rp_load *l;
	struct task t[8];

	errno = 0;
	l = rp_load_start(bad, 2);
	TH_LOG("%s", strerror(errno));
	EXPECT_EQ(NULL, l);
	EXPECT_NE(0, errno);
	EXPECT_EQ(0, threads(t, 8));
	rp_load_stop(l);
}

TEST_F(load, no_cpus_einval)
{
	int bad[2] = { 0, CPU_SETSIZE - 1 };

	errno = 0;
	EXPECT_EQ(NULL, rp_load_start(bad, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(load, stop_null_is_fine)
{
	rp_load_stop(NULL);
}

/* rp_pin_self(cpu) moves the caller there. */
TEST_F(load, pin_self_moves_the_caller)
{
	int i;

	for (i = 0; i < self->n; i++) {
		EXPECT_EQ(0, rp_pin_self(self->cpus[i]));
		EXPECT_EQ(self->cpus[i], sched_getcpu());
	}
}

/* rp_pin_self(-1): all online CPUs. */
TEST_F(load, pin_self_all_cpus)
{
	cpu_set_t set;

	rp_pin_self(self->cpus[0]);
	ASSERT_EQ(0, rp_pin_self(-1));
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(set), &set));
	EXPECT_EQ(self->n, CPU_COUNT(&set));
}

TEST_F(load, pin_self_too_large_is_an_error)
{
	EXPECT_EQ(-EINVAL, rp_pin_self(CPU_SETSIZE));
}

/*
 * /proc/stat's per-CPU lines add up to its "cpu" line, up to the rounding
 * of each line to ticks.
 */
TEST_F(load, cpu_times_add_up)
{
	struct rp_cpu_time t[MAX_CPUS] = { 0 }, all = { 0 }, sum = { 0 };
	double tick = 1.0 / sysconf(_SC_CLK_TCK);
	int i;

	ASSERT_EQ(0, rp_cpu_times(t, MAX_CPUS, &all));
	for (i = 0; i < MAX_CPUS; i++) {
		sum.busy += t[i].busy;
		sum.idle += t[i].idle;
		sum.steal += t[i].steal;
		sum.iowait += t[i].iowait;
	}
	TH_LOG("busy %.2f/%.2f idle %.2f/%.2f", sum.busy, all.busy, sum.idle,
	       all.idle);
	EXPECT_LT(0, all.busy);
	EXPECT_LT(0, all.idle);
	EXPECT_GE(self->n * 5 * tick, fabs(sum.busy - all.busy));
	EXPECT_GE(self->n * 5 * tick, fabs(sum.idle - all.idle));
	EXPECT_GE(self->n * 5 * tick, fabs(sum.steal - all.steal));
	/* iowait is part of idle, kept on its own too */
	EXPECT_GE(self->n * 5 * tick, fabs(sum.iowait - all.iowait));
	EXPECT_GE(all.idle, all.iowait);
}

/* A CPU id beyond max is left alone. */
TEST_F(load, cpu_times_ids_beyond_max_left_alone)
{
	struct rp_cpu_time t[MAX_CPUS] = { 0 };

	ASSERT_EQ(0, rp_cpu_times(t, 1, NULL));
	EXPECT_LT(0, t[0].busy + t[0].idle);
	EXPECT_EQ(0, t[1].busy);
	EXPECT_EQ(0, t[1].idle);
}

/*
 * rp_cpu_others(): busy time less the work's own, at least 0, at most its
 * run delay when known; stolen time always counts; a share of capacity.
 */
TEST(cpu_others_bounded_by_run_delay_steal_counts)
{
	struct rp_cpu_time t0 = { .busy = 10, .idle = 5, .steal = 1 };
	struct rp_cpu_time t1 = { .busy = 14, .idle = 9, .steal = 1 };

	/* 4 s busy, 1 s own: 3 s of 8 by others */
	EXPECT_EQ(3.0 / 8, rp_cpu_others(&t0, &t1, 1, NAN, 8));
	/* the work waited 0.5 s only: the rest ran while it slept */
	EXPECT_EQ(0.5 / 8, rp_cpu_others(&t0, &t1, 1, 0.5, 8));
	/* the work used more than was busy (tick granularity): 0, not less */
	EXPECT_EQ(0, rp_cpu_others(&t0, &t1, 6, NAN, 8));
	/* the hypervisor's 2 s count even then, and past the run delay */
	t1.steal = 3;
	EXPECT_EQ(2.0 / 8, rp_cpu_others(&t0, &t1, 6, NAN, 8));
	EXPECT_EQ(2.5 / 8, rp_cpu_others(&t0, &t1, 1, 0.5, 8));
	EXPECT_TRUE(isnan(rp_cpu_others(&t0, &t1, NAN, NAN, 8)));
}

TEST_HARNESS_MAIN
