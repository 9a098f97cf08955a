// SPDX-License-Identifier: GPL-2.0
/* Placeholder: boot_ab is being written. */
#include "../kselftest.h"
#include "rcu_perf.h"

int main(void)
{
	ksft_print_header();
	ksft_exit_skip("not written yet\n");
}
