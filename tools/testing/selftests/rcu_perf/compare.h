/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcu_perf_compare's shared declarations. The program, one file per job:
 *
 *	rcu_perf_compare.c	main, options, the comparison and its report
 *	compare_input.c		reading the results files (metrics, checks)
 *	compare_kcidb.c		--kcidb: KCIDB v4 test objects
 *	compare_plot.c		--svg: SVG plots
 *	compare_repeat.c	--repeat: run the commands until conclusive
 *
 * They share the parsed command line (opts) and what was read from the
 * results files (metrics[], checks[]); all else stays in its file.
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
	bool after_dashdash;
	const char *metric_globs[MAX_ARGS];
	int nr_metric_globs;
	struct allow allows[MAX_ARGS];
	int nr_allows;
	bool ktap;
	bool table;
	const char *labels[NR_SIDES];
	bool help, list, machine_key;
	const char *kcidb;
	const char *origin;
	const char *build_id;
	const char *run_id;
	const char *svg_dir;
	const char *repeat_dir;
	const char *cmd[NR_SIDES];
	enum rp_cmp_stat stat;	/* --stat: the statistic compared */
	bool stat_set;		/* --stat given: over each metric's "stat" */
};

extern struct compare_opts opts;
/* The parameters (rcu_perf_compare.c): --set NAME=VALUE, --list */
extern struct rp_param p_allowed_change, p_alpha, p_repeat_budget;
extern struct rp_param p_repeat_min_rounds, p_repeat_max_rounds;

/* compare_input.c: what the results files hold, merged per side */
extern struct metric *metrics;
extern size_t nr_metrics;
extern struct check *checks;
extern size_t nr_checks;
extern int nr_files[NR_SIDES];		/* results files read per side */
extern char kernel_release[NR_SIDES][128];	/* of a side's first file */

void load_file(const char *path, int side, bool from_dir);
void load_path(const char *path, int side);
int list_dir(const char *dir, const char *prefix, char ***out);

/* rcu_perf_compare.c */
__printf(1, 2) __noreturn void die(const char *fmt, ...);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
bool selected(const char *key);
const char *pfx(void);

struct tally {
	int n[4];		/* by enum rp_cmp_verdict */
	int missing;		/* in the baseline, not in the candidate */
	int reported;		/* report_only: shown, not judged */
};

void compare_all(struct tally *t);
int report_compare(void);

/* compare_kcidb.c, compare_plot.c, compare_repeat.c */
void write_kcidb(bool compare);
void write_svg(int sides);
int repeat_until_conclusive(void);

#endif /* RCU_PERF_COMPARE_H */
