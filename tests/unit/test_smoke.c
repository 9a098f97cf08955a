// SPDX-License-Identifier: GPL-2.0
#include "kselftest.h"
#include "rcu_perf.h"

int main(void)
{
	ksft_print_header();
	ksft_set_plan(1);
	ksft_test_result_pass("smoke\n");
	ksft_finished();
}
