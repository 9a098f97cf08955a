/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcu_perf: what the library's files tell each other, not the programs.
 *
 * main.c runs a program's start-up and exit and calls into the others;
 * they call back only its way out (rp_fatal(), and rp_xrealloc() which
 * exits on out of memory). kselftest.h's counters are per translation
 * unit: checks.c alone uses them (the KTAP plan, results and totals are
 * printed there), and main.c steers them through the rp_ktap_*() calls.
 */
#ifndef RCU_PERF_INTERNAL_H
#define RCU_PERF_INTERNAL_H

#include "rcu_perf.h"

/* main.c: the way out */

/* realloc()/strdup() that restore the kernel and exit on out of memory */
void *rp_xrealloc(void *p, size_t n);
char *rp_xstrdup(const char *s);	/* NULL is taken as "" */
/* 1 if anything failed or errored, else 4 if all skipped, else 0 */
int rp_exit_code(void);

/* opts.c */

const char *rp_test_name(void);	/* "rcu_perf" before rp_parse() */
/* Write the --knob settings through the guard: 0, or -1 (error printed). */
int rp_opts_apply_knobs(void);
/*
 * "# name = value unit (origin)" of each parameter not at its default,
 * "# knob PATH = VALUE" of each --knob.
 */
void rp_opts_print(void);

/* checks.c: the KTAP stream */

struct rp_check_rec {
	char *name;
	enum rp_verdict verdict;
	double measured, ci_lo, ci_hi, limit;	/* NAN when unknown */
	const char *unit, *op, *param;
	char *reason;
};

/* A KTAP description or directive: one line, malloc'd. */
char *rp_vformat_line(const char *fmt, va_list ap);
void rp_ktap_plan(void);		/* "1..N": the program's checks + baseline's */
int rp_ktap_planned(void);
bool rp_ktap_all_reported(void);
/* Report every planned check not reported yet as @v with @reason. */
void rp_ktap_fill(enum rp_verdict v, const char *reason);
/* At the end: checks never reported are errors, as are extra ones. */
void rp_ktap_close(void);
void rp_ktap_count_error(void);		/* a failure outside any check */
unsigned int rp_ktap_total(enum rp_verdict v);
void rp_ktap_print_totals(void);	/* kselftest's "# Totals:" line */
const struct rp_check_rec *rp_check_records(size_t *n);

/* report.c: the results document */

void rp_report_begin(void);	/* the start of the run: its time stamp */
/* Write it to --json or --outdir: 0, or -1 (error printed). */
int rp_report_save(void);

/* system.c */

/* Freeze the "rcu_sysfs" facts as the run starts (after --knob). */
void rp_system_snapshot(void);
void rp_system_write(struct rp_jw *w);	/* the "system" object */

#endif /* RCU_PERF_INTERNAL_H */
