/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcu_perf_compare's shared declarations. The program, one file per job:
 *
 *	rcu_perf_compare.c	main, options, the report of the comparison
 *	compare_input.c		reading the results files, comparing them
 *	compare_kcidb.c		--kcidb: KCIDB v5 test objects
 *	compare_plot.c		--svg: SVG plots
 *	compare_repeat.c	--repeat: run the commands until conclusive
 *
 * Calls go one way, rcu_perf_compare.c -> compare_*.c -> lib: the state
 * (struct compare: the options and what the results files hold) is an
 * argument, never a global.
 */
#ifndef RCU_PERF_COMPARE_H
#define RCU_PERF_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "rcu_perf.h"

#define PROG		"rcu_perf_compare"
#define EXIT_REGRESSED	1
#define EXIT_USAGE	2
#define EXIT_INCONCL	3
#define EXIT_SKIP	4
#define MAX_ARGS	256

enum { BASE, CAND, NR_SIDES };

/* One metric of one test, merged over all the runs of each side. */
struct metric {
	char *key;		/* "<test>.<metric>" */
	char *test;
	char *name;
	char *unit;
	bool higher_is_better;
	struct rp_samples v[NR_SIDES];
	int runs[NR_SIDES];	/* results files that had it */
	size_t *run_n[NR_SIDES];	/* samples of each of those, in order */
	bool report_only;	/* "judged": false in a results file */
	bool has_stat;		/* "stat" in a results file: */
	enum rp_cmp_stat stat;	/* the statistic its runs are compared on */
	double allowed;		/* allowed change, % */
	struct rp_cmp cmp;
	bool compared;
};

/* One KTAP check of one results file, for --kcidb without a baseline. */
struct check {
	char *test;
	char *name;
	char *verdict;		/* "pass", "fail", "skip", "error" */
	char *unit;
	double measured;
	int file;		/* index over all files read */
	char *start_time;	/* the run's "timestamp", or NULL */
	double duration;	/* the run's "duration_s", or NAN */
};

/* --allow GLOB=PCT */
struct allow {
	const char *glob;
	double pct;
};

/* The command line (rcu_perf_compare.c parses it) */
struct compare_opts {
	const char *paths[NR_SIDES][MAX_ARGS];
	int nr_paths[NR_SIDES];
	const char *metric_globs[MAX_ARGS];
	int nr_metric_globs;
	struct allow allows[MAX_ARGS];
	int nr_allows;
	bool ktap;
	bool table;
	const char *labels[NR_SIDES];
	const char *kcidb;
	const char *origin;
	const char *build_id;
	const char *run_id;
	const char *svg_dir;
	const char *repeat_dir;
	const char *cmd[NR_SIDES];
	enum rp_cmp_stat stat;	/* --stat: the statistic compared */
	bool stat_set;		/* --stat given: over each metric's "stat" */
	/* the parameters (--set NAME=VALUE, --list) */
	double allowed_change, alpha, repeat_budget;
	int repeat_min_rounds, repeat_max_rounds;
};

struct compare {
	struct compare_opts o;
	/* what the results files hold, merged per side (compare_input.c) */
	struct metric *metrics;
	size_t nr_metrics, cap_metrics;
	struct check *checks;
	size_t nr_checks, cap_checks;
	int nr_files[NR_SIDES];		/* results files read per side */
	int nr_files_total;		/* both sides: numbers checks[].file */
	char kernel_release[NR_SIDES][128];	/* of a side's first file */
};

struct tally {
	int n[4];		/* by enum rp_cmp_verdict */
	int missing;		/* in the baseline, not in the candidate */
	int reported;		/* report_only: shown, not judged */
};

/* compare_input.c; die() exits EXIT_USAGE */
__printf(1, 2) __noreturn void die(const char *fmt, ...);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
void load_file(struct compare *cmp, const char *path, int side, bool from_dir);
void load_path(struct compare *cmp, const char *path, int side);
int list_dir(const char *dir, const char *prefix, char ***out);
bool selected(const struct compare *cmp, const char *key);
void compare_all(struct compare *cmp, struct tally *t);
void compare_free(struct compare *cmp);

/* compare_kcidb.c, compare_plot.c, compare_repeat.c */
void write_kcidb(const struct compare *cmp, bool compared);
void write_svg(const struct compare *cmp, int sides);
void repeat_until_conclusive(struct compare *cmp);

#endif /* RCU_PERF_COMPARE_H */
