// SPDX-License-Identifier: GPL-2.0
/* rcu_perf_compare --repeat DIR: rounds of both commands until conclusive */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compare.h"

static const char * const side_name[NR_SIDES] = { "baseline", "candidate" };
static const char * const side_file[NR_SIDES] = { "base", "cand" };

/* Progress of --repeat: on stderr under --ktap, which must start the output. */
static __printf(2, 3) void progress(const struct compare *cmp, const char *fmt, ...)
{
	FILE *f = cmp->o.ktap.value ? stderr : stdout;
	va_list ap;

	fputs("# ", f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fflush(f);
}

/* The command's output goes to a log beside its results file. */
static void run_one(struct compare *cmp, int side, int nn)
{
	const char *dir = cmp->o.repeat.str;
	char json[PATH_MAX], log[PATH_MAX];
	double t0 = rp_now_ms();
	int status, rc;
	pid_t pid;

	snprintf(json, sizeof(json), "%s/%s-%02d.json", dir, side_file[side], nn);
	snprintf(log, sizeof(log), "%s/%s-%02d.log", dir, side_file[side], nn);
	unlink(json);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		setenv("RCU_PERF_JSON", json, 1);
		unsetenv("RCU_PERF_OUTDIR");
		execl("/bin/sh", "sh", "-c", cmp->o.cmd[side].str, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	progress(cmp, "%s run %02d: exit %d, %.1f s, %s\n", side_name[side], nn,
		 rc, (rp_now_ms() - t0) / 1000, log);
	if (rc == EXIT_SKIP) {
		fprintf(stderr, PROG ": %s command skipped (see %s)\n", side_name[side], log);
		exit(EXIT_SKIP);
	}
	/* 0 and 1 (a failed check) are measurements; anything else is not. */
	if (rc > 1 || access(json, R_OK))
		die("%s command failed (exit %d, %s): see %s", side_name[side],
		    rc, access(json, R_OK) ? "no results file" : "error", log);
	load_file(cmp, json, side, false);
}

void repeat_until_conclusive(struct compare *cmp)
{
	double budget = cmp->o.repeat_budget.value * 1000, t0 = rp_now_ms();
	const char *dir = cmp->o.repeat.str;
	int next[NR_SIDES], round, side, k, i, nn;
	double round_ms = 0;
	struct tally t;
	char **files, why[PATH_MAX + 96];

	/* Root writes there and judges by what is there: no one else's. */
	if (rp_check_dir(dir, true, why, sizeof(why)))
		die("--repeat %s: %s", dir, why);
	/* Earlier runs in DIR count: new ones append after the highest NN. */
	for (side = 0; side < NR_SIDES; side++) {
		next[side] = 1;
		k = list_dir(dir, side_file[side], &files);
		for (i = 0; i < k; i++) {
			if (sscanf(strrchr(files[i], '/') + 1 +
				   strlen(side_file[side]), "-%d.json", &nn) == 1 &&
			    nn >= next[side])
				next[side] = nn + 1;
			if (cmp->o.cmd[side].str)
				load_file(cmp, files[i], side, false);
			free(files[i]);
		}
		free(files);
	}
	for (round = 1; round <= cmp->o.repeat_max_rounds.value; round++) {
		double r0 = rp_now_ms();

		if (round > 1 && rp_now_ms() - t0 + round_ms > budget) {
			progress(cmp, "time budget (%g s) spent\n", budget / 1000);
			break;
		}
		/* ABBA order, so that a drift of the machine cancels out. */
		for (k = 0; k < NR_SIDES; k++) {
			side = round % 2 ? k : NR_SIDES - 1 - k;
			if (cmp->o.cmd[side].str)
				run_one(cmp, side, next[side]++);
		}
		round_ms = rp_now_ms() - r0;
		side = cmp->r.nr_files[BASE] ? CAND : BASE;
		if (!cmp->r.nr_files[side])
			die("--repeat: no %s input (give --%s or --%s-cmd)",
			    side_name[side], side_file[side], side_file[side]);
		compare_all(cmp, &t);
		progress(cmp, "round %d: %d regressed, %d improved, %d same, %d inconclusive\n",
			 round, t.n[RP_CMP_REGRESSED], t.n[RP_CMP_IMPROVED],
			 t.n[RP_CMP_SAME], t.n[RP_CMP_INCONCLUSIVE]);
		if (round >= cmp->o.repeat_min_rounds.value &&
		    !t.n[RP_CMP_INCONCLUSIVE] && !t.missing)
			break;
	}
}
