/* SPDX-License-Identifier: GPL-2.0 */
/* What the library's files tell each other; checks.c alone prints KTAP. */
#ifndef RCU_PERF_INTERNAL_H
#define RCU_PERF_INTERNAL_H

#include <signal.h>
#include <sys/types.h>

#include "rcu_perf.h"

/* util.c: a leaf; load.c */

/* No symlink followed; signal-safe: 0, 1 if it did not exist, -errno */
int rp_rm_tree(const char *path);
unsigned long long rp_proc_start(pid_t pid);	/* in ticks since boot; 0: gone */
bool rp_one_line(const char *s);	/* no control characters */
bool rp_has_prefix(const char *s, const char * const *pfx, size_t n);
/* All of f, NULs as blanks: malloc'd, or NULL (ENOMEM, EFBIG past max, EIO) */
char *rp_read_stream(FILE *f, size_t max);
int rp_pin_cpus(const int *cpus, int n);	/* the caller: 0 or -errno */

/* stats.c */

double rp_percentile(const double *v, size_t n, double p);	/* 0..100 */
/* How far (%) one more run's median may stray: a (1 - @alpha) bound */
double rp_run_spread_pct(const double *run_medians, size_t r, double alpha);

/* allow.c, proc.c */

#define RP_PATH_LEN		512
#define RP_VAL_LEN		1024

/* 0 if path may be changed now (allowed, no symlink, right fs), -errno */
int rp_knob_check(const char *path);
const char *rp_tracer_file(const char *path);	/* a tracer file: its name */
bool rp_knob_mount_allowed(const char *path);	/* "@umount PATH" replayed? */
/* 0 if the suite may change path (by its spelling), else -EPERM */
int rp_knob_allowed(const char *path);
const char *rp_knob_refusal(int err);	/* an error of the guard in words */
void rp_knob_allow_dir(const char *dir);	/* unit tests: files in dir too */
/* "echo VALUE > PATH", no symlink followed; signal-safe: 0 or -errno */
int rp_write_value(const char *path, const char *val, size_t len);
int rp_tmpdir_remove(const char *path);		/* now: 0 or -errno */

/* guard.c */

/* Take the lock, repair what killed runs left: < 0 if no lock */
int rp_guard_init(void);
void rp_guard_nowait(void);
int rp_guard_repair(void);	/* now: how many knobs were restored */
enum rp_entry_kind { RP_ENT_KNOB, RP_ENT_MOUNT, RP_ENT_TMPDIR, RP_ENT_PGRP };
int rp_guard_get(void);		/* the guard usable here: 0 or -errno */
/* Before a change: a tree, a mount, "pgrp start". */
int rp_guard_record(int kind, const char *path);
/* Nothing left to undo of path (or, path NULL, of group pgrp). */
void rp_guard_forget(int kind, const char *path, pid_t pgrp);
void rp_guard_disown(void);	/* a forked child: nothing is its own */
void rp_guard_block_signals(sigset_t *old);	/* the guard's signals */

/* opts.c */

extern const struct rp_test *rp_current_test;
__printf(1, 2) int rp_err(const char *fmt, ...);	/* to stderr: -1 */
const char *rp_test_name(void);	/* "rcu_perf" before rp_parse() */
int rp_opts_apply_knobs(void);	/* 0, or -1 (error printed) */
void rp_opts_print(void);	/* parameters not at their default, knobs */
const char *rp_kind_name(enum rp_param_kind k);	/* "max", "min", ... */

/* checks.c */

char *rp_vformat_line(const char *fmt, va_list ap);	/* one line */
void rp_ktap_plan_check(const char *name);	/* a baseline check */
void rp_ktap_plan(void);
bool rp_ktap_fill(enum rp_verdict v, const char *reason);	/* any filled? */
void rp_ktap_close(void);	/* unreported and extra checks: errors */
void rp_ktap_count_error(void);		/* a failure outside any check */
unsigned int rp_ktap_total(enum rp_verdict v);
void rp_ktap_print_totals(void);	/* kselftest's "# Totals:" line */
void rp_ktap_write(struct rp_jw *w);	/* "checks" and "totals" */
bool rp_check_reported(const char *check);
bool rp_bound_settled(const struct rp_bound *b); /* wholly on one side */
/* rp_compare_runs()'s verdict on @m as a check against @limit (>= @p's value) */
enum rp_verdict rp_check_cmp(const char *check, const struct rp_cmp *c,
			     const struct rp_metric *m, const struct rp_param *p,
			     double limit, const char *widened, const char *vs);

/* report.c, system.c, kmsg.c, results.c, scaling.c */

void rp_report_begin(void);	/* the run's start, before any results are written */
int rp_report_save(int code);	/* to --json or --outdir: 0, or -1 */
const struct rp_metric *rp_metric_find(const char *name);	/* or NULL */
void rp_system_snapshot(void);	/* "rcu_sysfs" as the run starts */
void rp_system_write(struct rp_jw *w);	/* the "system" object */
int rp_kernel_config(const char *sym, char *buf, size_t len); /* 0 or -1 */
struct rp_jval *rp_system_facts(void);	/* "system", "suite_version" */
const struct rp_rmetric *rp_results_find(const struct rp_results *r,
					 const char *test, const char *name);
/* CPU counts 1, 2, 4, ... below max, then max itself; returns how many. */
int rp_sweep_points(int max, int *pts, int cap);

/* baseline.c: earlier results of the same machine (--baseline DIR) */

int rp_baseline_load(void);	/* rp_init(): 0, or -1 on bad input */
void rp_baseline_describe(void);	/* "# baseline: ..." */
void rp_baseline_report(void);	/* rp_finish(): every check reported */
/* NULL if @base_doc can be a baseline where @cur are the facts, else why */
const char *rp_baseline_mismatch(const struct rp_jval *base_doc,
				 const struct rp_jval *cur, char *why, size_t len);

#endif /* RCU_PERF_INTERNAL_H */
