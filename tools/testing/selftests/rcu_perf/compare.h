/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcu_perf_compare: rcu_perf_compare.c (main, options, report) calls
 * compare_input.c (results files), compare_kcidb.c and compare_repeat.c,
 * never back; the state is an argument, not a global.
 */
#ifndef RCU_PERF_COMPARE_H
#define RCU_PERF_COMPARE_H

#include "rcu_perf.h"

#define PROG		"rcu_perf_compare"
#define EXIT_REGRESSED	1
#define EXIT_USAGE	2
#define EXIT_INCONCL	3
#define EXIT_SKIP	4
#define MAX_ARGS	256

enum { BASE, CAND, NR_SIDES = RP_SIDES };

struct allow {	/* --allow GLOB=PCT */
	const char *glob;
	double pct;
};

struct compare_opts {
	const char *paths[NR_SIDES][MAX_ARGS];
	int nr_paths[NR_SIDES];
	const char *metric_globs[MAX_ARGS];
	int nr_metric_globs;
	struct allow allows[MAX_ARGS];
	int nr_allows;
	const char *labels[NR_SIDES];
	enum rp_cmp_stat stat;	/* --stat: the statistic compared */
	bool stat_set;		/* --stat given: over each metric's "stat" */
	/* what rp_parse() found: .value of a number or flag, .str of a string */
	struct rp_param allowed_change, alpha, repeat_budget;
	struct rp_param repeat_min_rounds, repeat_max_rounds;
	struct rp_param ktap, table, kcidb, origin, build_id, run_id, repeat;
	struct rp_param cmd[NR_SIDES];	/* --base-cmd, --cand-cmd */
};

struct compare {
	struct compare_opts o;
	struct rp_results r;	/* what the results files hold, per side */
};

struct tally {
	int n[4];		/* by enum rp_cmp_verdict */
	int missing;		/* in the baseline, not in the candidate */
	int reported;		/* report_only: shown, not judged */
};

/* compare_input.c; die() exits EXIT_USAGE */
__printf(1, 2) __noreturn void die(const char *fmt, ...);
void load_file(struct compare *cmp, const char *path, int side, bool from_dir);
void load_path(struct compare *cmp, const char *path, int side);
int list_dir(const char *dir, const char *prefix, char ***out);
bool selected(const struct compare *cmp, const char *key);
void compare_all(struct compare *cmp, struct tally *t);

/* compare_kcidb.c, compare_repeat.c */
void write_kcidb(const struct compare *cmp, bool compared);
void repeat_until_conclusive(struct compare *cmp);

#endif /* RCU_PERF_COMPARE_H */
