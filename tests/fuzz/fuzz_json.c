// SPDX-License-Identifier: GPL-2.0
/* The JSON reader (rcu_perf_compare's and bisect's input): rp_json_parse. */
#include "rcu_perf.h"
#include "fuzz.h"

int FUZZ_ONE_INPUT(const unsigned char *data, size_t size)
{
	char *s = fuzz_str(data, size), err[256];
	struct rp_jval *v = rp_json_parse(s, err, sizeof(err));

	if (v) {
		rp_json_get(v, "schema");
		rp_json_free(v);
	} else if (!memchr(err, '\0', sizeof(err))) {
		abort();	/* the message must be terminated */
	}
	free(s);
	return 0;
}
