// SPDX-License-Identifier: GPL-2.0
/*
 * Start-up and exit of every rcu_perf program: nothing is touched before
 * the options and the baseline are read; every way out goes through
 * rp_finish(). Exit 0, 1 or 4: never 2, which kselftest reads as KSFT_XFAIL.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../kselftest.h"
#include "internal.h"

static bool begun, finished;
static bool whole_skip;		/* rp_exit_skip() or rp_fatal() */

void rp_init(const struct rp_test *test, int argc, char **argv)
{
	int r;

	r = rp_parse(test, argc, argv);
	if (rp_opts.help) {
		rp_usage(r ? stderr : stdout);
		exit(r ? KSFT_FAIL : KSFT_PASS);
	}
	if (r)
		exit(KSFT_FAIL);
	if (rp_opts.list) {
		rp_list_params(stdout);
		exit(0);
	}
	if (rp_baseline_load())
		exit(KSFT_FAIL);

	/*
	 * The header first: the guard may print diagnostics (repairs of a
	 * killed run), and kselftest sets stdout's buffering here.
	 */
	ksft_print_header();
	if (test->reads_only && !rp_opts.nr_knobs)
		rp_guard_nowait();
	r = rp_guard_init();
	if (r < 0) {
		/* Another run holds it: nothing can be judged meanwhile. */
		printf("1..0 # SKIP cannot take the rcu_perf lock: %s\n",
		       r == -ETIMEDOUT ? "another run held it (RCU_PERF_LOCK_TIMEOUT)" :
		       strerror(-r));
		exit(KSFT_SKIP);
	}
	if (rp_opts_apply_knobs()) {
		rp_guard_restore();
		exit(KSFT_FAIL);
	}
	rp_system_snapshot();
	rp_report_begin();
	rp_ktap_plan();
	begun = true;
	rp_opts_print();
	if (rp_opts.quick)
		printf("# quick: shorter runs\n");
	rp_baseline_describe();
}

static int exit_code(void)
{
	/* A skip never hides a failure. */
	if (rp_ktap_total(RP_FAIL) || rp_ktap_total(RP_ERROR))
		return KSFT_FAIL;
	if (whole_skip || (rp_ktap_total(RP_SKIP) && !rp_ktap_total(RP_PASS)))
		return KSFT_SKIP;
	return KSFT_PASS;
}

int rp_finish(void)
{
	int code;

	if (finished)
		return exit_code();
	finished = true;
	rp_baseline_report();
	rp_ktap_close();
	code = exit_code();
	if (rp_report_save(code) && code == KSFT_PASS)
		rp_ktap_count_error();
	rp_guard_restore();
	rp_ktap_print_totals();
	fflush(stdout);
	return exit_code();
}

/* rp_exit_skip() and rp_fatal(): the rest skipped with reason @fmt. */
void rp_leave(bool fatal, const char *fmt, ...)
{
	static bool in_fatal;
	va_list ap;
	char *r;

	va_start(ap, fmt);
	r = rp_vformat_line(fmt, ap);
	va_end(ap);
	if (!begun || (fatal && (in_fatal || finished))) {
		/* Before the plan (or recursively): no KTAP to complete. */
		if (fatal) {
			rp_err("%s", r);
		} else {
			/* kselftest's whole-program skip: an empty plan. */
			ksft_print_header();
			printf("1..0 # SKIP %s\n", r);
		}
		free(r);
		rp_guard_restore();
		exit(fatal ? KSFT_FAIL : KSFT_SKIP);
	}
	if (fatal) {
		in_fatal = true;
		printf("# error: %s\n", r);
	}
	if (!rp_ktap_fill(RP_SKIP, r) && !fatal)
		printf("# SKIP %s\n", r);	/* why, with every check reported */
	free(r);
	whole_skip = true;
	exit(rp_finish());
}
