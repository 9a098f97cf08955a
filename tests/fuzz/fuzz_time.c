// SPDX-License-Identifier: GPL-2.0
/* GNU time reports (kernbench): rp_time_parse and the formatting after. */
#include "rcu_perf.h"
#include "fuzz.h"

int FUZZ_ONE_INPUT(const unsigned char *data, size_t size)
{
	char *s = fuzz_str(data, size), err[256], buf[256];
	struct rp_time t, avg;

	if (!rp_time_parse(s, &t, err, sizeof(err))) {
		rp_time_average(&t, 1, &avg);
		rp_time_format(buf, sizeof(buf), &avg);
		rp_time_format_run(buf, sizeof(buf), &t);
		rp_time_system_share(&t);
	}
	free(s);
	return 0;
}
