// SPDX-License-Identifier: GPL-2.0
/*
 * Busy threads pinned to chosen CPUs: a user-space loop without system
 * calls never passes a quiescent state by itself, so RCU must force one,
 * the path that regressed.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct rp_load_thread {
	struct rp_load *load;
	pthread_t tid;
	int cpu;
	int err;		/* pinning failed: -errno */
};

struct rp_load {
	int n;			/* threads started */
	int stop;		/* __atomic: set once to end the spinning */
	int ready;		/* __atomic: threads pinned (or failed) */
	struct rp_load_thread t[];
};

int rp_pin_cpus(const int *cpus, int n)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < n; i++)
		CPU_SET(cpus[i], &set);
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *spin(void *arg)
{
	struct rp_load_thread *t = arg;
	struct rp_load *l = t->load;
	unsigned long x = (unsigned long)t->cpu + 1;

	t->err = rp_pin_cpus(&t->cpu, 1);
	/* The affinity takes effect at once, but check where we run. */
	if (!t->err && sched_getcpu() != t->cpu)
		t->err = -EAGAIN;
	/*
	 * SCHED_IDLE: the CPU is never idle, yet a woken measuring thread
	 * does not wait out a spinner's time slice.
	 */
	if (!t->err)
		t->err = -pthread_setschedparam(pthread_self(), SCHED_IDLE,
						&(struct sched_param){ 0 });
	__atomic_add_fetch(&l->ready, 1, __ATOMIC_RELEASE);
	if (t->err)
		return NULL;
	while (!__atomic_load_n(&l->stop, __ATOMIC_RELAXED)) {
		/* Cheap work that the compiler cannot drop. */
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ __volatile__("" : "+r" (x));
	}
	return NULL;
}

void rp_load_stop(struct rp_load *l)
{
	int i;

	if (!l)
		return;
	__atomic_store_n(&l->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < l->n; i++)
		pthread_join(l->t[i].tid, NULL);
	free(l);
}

struct rp_load *rp_load_start(const int *cpus, int n)
{
	struct rp_load *l;
	int i, err = 0;

	if (n <= 0 || !cpus) {
		errno = EINVAL;
		return NULL;
	}
	l = calloc(1, sizeof(*l) + n * sizeof(*l->t));
	if (!l)
		return NULL;
	for (i = 0; i < n && !err; i++) {
		l->t[i].load = l;
		l->t[i].cpu = cpus[i];
		err = pthread_create(&l->t[i].tid, NULL, spin, &l->t[i]);
		l->n += !err;
	}
	/*
	 * Return only once every thread runs on its CPU. Sleep rather than
	 * spin: we may share a CPU with one of them.
	 */
	while (!err && __atomic_load_n(&l->ready, __ATOMIC_ACQUIRE) < n)
		usleep(1000);
	for (i = 0; i < n && !err; i++)
		err = -l->t[i].err;
	if (err) {
		rp_load_stop(l);
		errno = err;
		return NULL;
	}
	return l;
}

/* CPU_SET() ignores a CPU from CPU_SETSIZE on: the empty set is -EINVAL. */
int rp_pin_self(int cpu)
{
	cpu_set_t all;

	if (cpu >= 0)
		return rp_pin_cpus(&cpu, 1);
	/* The kernel keeps the CPUs of it that are online and allowed. */
	memset(&all, 0xff, sizeof(all));
	return -pthread_setaffinity_np(pthread_self(), sizeof(all), &all);
}
