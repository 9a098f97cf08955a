// SPDX-License-Identifier: GPL-2.0
/*
 * The load generator (lib/load.c) on the live machine: its threads run
 * pinned on the requested CPUs, burn CPU time in user space, and are all
 * gone after rp_load_stop(). Asserts on placement and on counts, never on
 * how long anything took.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "rcu_perf.h"

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

static void test_placement(const int *cpus, int n)
{
	struct task t[64], t2[64];
	struct rp_load *l;
	bool pinned = true, busy = true;
	int nt, i, j, k;

	l = rp_load_start(cpus, n);
	if (!l) {
		ksft_test_result_fail("rp_load_start on %d CPUs: %s\n", n,
				      strerror(errno));
		ksft_test_result_skip("busy\n");
		ksft_test_result_skip("stop\n");
		return;
	}
	nt = threads(t, 64);
	for (i = 0; i < n; i++) {
		bool found = false;

		for (j = 0; j < nt; j++)
			if (t[j].nr_allowed == 1 && t[j].allowed == cpus[i] &&
			    t[j].cpu == cpus[i])
				found = true;
		if (!found) {
			ksft_print_msg("no thread pinned on CPU %d\n", cpus[i]);
			pinned = false;
		}
	}
	ksft_test_result(pinned && nt == n,
			 "%d threads pinned on their CPUs\n", nt);

	/*
	 * Spinning: each thread gains CPU time, nearly all in user space.
	 * Polled (up to 10 s) rather than timed: the box may be busy.
	 */
	for (k = 0; k < 100; k++) {
		usleep(100000);
		threads(t2, 64);
		busy = true;
		for (i = 0; i < nt; i++)
			for (j = 0; j < nt; j++)
				if (t2[j].tid == t[i].tid &&
				    t2[j].utime < t[i].utime + 2)
					busy = false;
		if (busy)
			break;
	}
	for (i = 0; i < nt; i++) {
		for (j = 0; j < nt; j++) {
			if (t2[j].tid != t[i].tid)
				continue;
			ksft_print_msg("thread %d CPU %d: +%llu user, +%llu system ticks\n",
				       t[i].tid, t2[j].cpu,
				       t2[j].utime - t[i].utime,
				       t2[j].stime - t[i].stime);
			if (t2[j].stime - t[i].stime >
			    t2[j].utime - t[i].utime)
				busy = false;
		}
	}
	ksft_test_result(busy, "threads spin in user space\n");

	rp_load_stop(l);
	nt = threads(t, 64);
	ksft_test_result(nt == 0, "rp_load_stop joins all threads (%d left)\n",
			 nt);
}

static void test_errors(void)
{
	int bad[2] = { 0, CPU_SETSIZE - 1 };
	struct rp_load *l;
	struct task t[8];

	errno = 0;
	l = rp_load_start(bad, 2);
	ksft_test_result(!l && errno && threads(t, 8) == 0,
			 "a CPU that is not online: NULL (%s), no thread left\n",
			 strerror(errno));
	rp_load_stop(l);
	errno = 0;
	ksft_test_result(!rp_load_start(bad, 0) && errno == EINVAL,
			 "no CPUs: EINVAL\n");
	rp_load_stop(NULL);
	ksft_test_result_pass("rp_load_stop(NULL) is fine\n");
}

static void test_pin_self(const int *cpus, int n)
{
	cpu_set_t set;
	bool ok = true;
	int i;

	for (i = 0; i < n; i++) {
		if (rp_pin_self(cpus[i]) || sched_getcpu() != cpus[i]) {
			ksft_print_msg("pin to CPU %d failed\n", cpus[i]);
			ok = false;
		}
	}
	ksft_test_result(ok, "rp_pin_self(cpu) moves the caller there\n");
	ok = !rp_pin_self(-1) && !sched_getaffinity(0, sizeof(set), &set) &&
	     CPU_COUNT(&set) == n;
	ksft_test_result(ok, "rp_pin_self(-1): all %d online CPUs\n", n);
	ksft_test_result(rp_pin_self(CPU_SETSIZE) == -EINVAL,
			 "rp_pin_self(too large) is an error\n");
}

/*
 * /proc/stat's per-CPU lines add up to its "cpu" line, up to the rounding
 * of each line to ticks; a CPU id beyond max is left alone.
 */
static void test_cpu_times(int n)
{
	struct rp_cpu_time t[64] = { 0 }, all = { 0 }, sum = { 0 };
	double tick = 1.0 / sysconf(_SC_CLK_TCK);
	bool ok;
	int i, err;

	err = rp_cpu_times(t, 64, &all);
	for (i = 0; i < 64; i++) {
		sum.busy += t[i].busy;
		sum.idle += t[i].idle;
		sum.steal += t[i].steal;
	}
	ok = !err && all.busy > 0 && all.idle > 0 &&
	     fabs(sum.busy - all.busy) <= n * 5 * tick &&
	     fabs(sum.idle - all.idle) <= n * 5 * tick &&
	     fabs(sum.steal - all.steal) <= n * 5 * tick;
	if (!ok)
		ksft_print_msg("err %d busy %.2f/%.2f idle %.2f/%.2f\n", err,
			       sum.busy, all.busy, sum.idle, all.idle);
	ksft_test_result(ok, "rp_cpu_times: per-CPU lines add up to the total\n");

	memset(t, 0, sizeof(t));
	err = rp_cpu_times(t, 1, NULL);
	ksft_test_result(!err && t[0].busy + t[0].idle > 0 && t[1].busy == 0 &&
			 t[1].idle == 0,
			 "rp_cpu_times: ids beyond max are left alone\n");
}

int main(void)
{
	int cpus[64], n;

	ksft_print_header();
	ksft_set_plan(11);
	n = rp_online_cpus(cpus, 64);
	if (n <= 0)
		ksft_exit_fail_msg("no online CPUs (%d)\n", n);
	test_placement(cpus, n);
	test_errors();
	test_pin_self(cpus, n);
	test_cpu_times(n);
	ksft_finished();
}
