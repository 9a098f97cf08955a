// SPDX-License-Identifier: GPL-2.0
/* The online CPUs as libperf reads them. */
#include <errno.h>

#include <perf/cpumap.h>

#include "internal.h"

/* Read afresh: CPU hotplug changes it (libperf: else 0..N-1 of sysconf()) */
int rp_online_cpus(int *cpus, int max)
{
	struct perf_cpu_map *map = perf_cpu_map__new_online_cpus();
	int n, i;

	if (!map)
		return -ENOMEM;
	n = perf_cpu_map__nr(map);
	for (i = 0; cpus && i < n && i < max; i++)
		cpus[i] = perf_cpu_map__cpu(map, i).cpu;
	perf_cpu_map__put(map);
	return cpus && n > max ? max : n;
}

int rp_nr_online_cpus(void)
{
	return rp_online_cpus(NULL, 0);
}
