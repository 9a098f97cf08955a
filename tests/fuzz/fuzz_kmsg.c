// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel logs and serial captures (boot_marker): the boot-marker
 * parser, the recorded command line and its RCU parameters.
 */
#include "rcu_perf.h"
#include "fuzz.h"

int FUZZ_ONE_INPUT(const unsigned char *data, size_t size)
{
	char *s = fuzz_str(data, size), err[256], cmd[4096], rcu[4096];
	struct rp_marker m;
	int r;

	r = rp_find_boot_marker(s, &m, err, sizeof(err));
	if (r == 0 && (!m.name || !(m.t >= 0)))
		abort();	/* a found marker has a name and a time */
	if (!rp_log_cmdline(s, cmd, sizeof(cmd)))
		rp_rcu_params(cmd, rcu, sizeof(rcu));
	rp_rcu_params(s, rcu, sizeof(rcu));
	free(s);
	return 0;
}
