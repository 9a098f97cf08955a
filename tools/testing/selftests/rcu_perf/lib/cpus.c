// SPDX-License-Identifier: GPL-2.0
/* CPU hotplug through the guard, and the online CPUs as libperf reads them. */
#include <errno.h>
#include <stdio.h>

#include <perf/cpumap.h>

#include "internal.h"

/* Hot-pluggable: its online file exists (often not for CPU 0). */
static bool can_offline(int cpu, char *path, size_t len)
{
	snprintf(path, len, "/sys/devices/system/cpu/cpu%d/online", cpu);
	return rp_knob_exists(path);
}

int rp_cpu_set_online(int cpu, bool online)
{
	char path[96];

	if (cpu < 0)
		return -EINVAL;
	if (!can_offline(cpu, path, sizeof(path)))
		return -ENOENT;
	return rp_knob_write(path, online ? "1" : "0");
}

int rp_cpus_fixed_first(int *cpus, int nr)
{
	int i, j, fixed = 0, tmp;
	char path[96];

	/* A stable partition: rotate each fixed CPU to the front part. */
	for (i = 0; i < nr; i++) {
		if (can_offline(cpus[i], path, sizeof(path)))
			continue;
		tmp = cpus[i];
		for (j = i; j > fixed; j--)
			cpus[j] = cpus[j - 1];
		cpus[fixed++] = tmp;
	}
	return fixed;
}

int rp_cpus_set_online(const int *cpus, int n, int nr)
{
	int i, err;

	for (i = 0; i < n; i++) {
		err = rp_cpu_set_online(cpus[i], true);
		if (err && err != -ENOENT)
			return err;
	}
	for (i = nr - 1; i >= n; i--) {
		err = rp_cpu_set_online(cpus[i], false);
		if (err)
			return err;
	}
	return 0;
}

/* Read afresh: hotplug sweeps change it (libperf: else 0..N-1 of sysconf()) */
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
