// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_perf_compare's inputs: its command line and the results files it
 * reads, through the program itself (all its files compiled in here,
 * main() renamed and its exit() a return to the harness), so that option
 * handling, results loading, statistics and every report (table, KTAP,
 * KCIDB) run.
 *
 * Input: one argument per line up to a line "%%", then up to four files,
 * each ended by a line "%%"; the arguments @1..@4 name them. Only
 * arguments that neither write nor run anything are tried: the options of
 * safe_opts[] and values without '/' (paths relative to a private empty
 * directory: run it with absolute corpus paths); --kcidb writes to
 * stdout. Anything else: input skipped.
 */
#include <setjmp.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rcu_perf.h"
#include "fuzz.h"

static jmp_buf fuzz_jmp;

/* The program's exit(): back to the harness (code + 1, never 0). */
static __noreturn void fuzz_exit(int code)
{
	longjmp(fuzz_jmp, (code & 0xff) + 1);
}

#define main compare_main
#define exit fuzz_exit
#include "rcu_perf_compare.c"
#include "compare_input.c"
#include "compare_kcidb.c"
#include "compare_repeat.c"
#undef exit
#undef main

#define MAX_FUZZ_ARGS	48
#define MAX_FILES	4

static const char * const safe_opts[] = {
	"--", "-", "-h", "--help", "--list", "--ktap", "--table", "--quick",
	"--base", "--cand", "--metric", "--allow", "--origin", "--build-id",
	"--run-id", "--labels", "--set", "--kcidb",
};

static char dir[64];
static char file_path[MAX_FILES][96];
static struct compare_opts opts_initial;

/* At exit: the private directory goes, so runs leave nothing in /tmp. */
static void remove_dir(void)
{
	int i;

	for (i = 0; i < MAX_FILES; i++)
		unlink(file_path[i]);
	rmdir(dir);
}

int FUZZ_INITIALIZE(int *argc, char ***argv)
{
	int i;

	snprintf(dir, sizeof(dir), "/tmp/rp_fuzz_compare.XXXXXX");
	if (!mkdtemp(dir) || chdir(dir))
		abort();
	atexit(remove_dir);
	for (i = 0; i < MAX_FILES; i++)
		snprintf(file_path[i], sizeof(file_path[i]), "%s/%d.json", dir,
			 i + 1);
	setenv("RCU_PERF_CONFIG", "", 1);
	opts_initial = cmp.o;
	return 0;
}

/* Is a an option the harness may pass ("--opt" or "--opt=VALUE")? */
static bool safe_opt(const char *a)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(safe_opts); i++) {
		n = strlen(safe_opts[i]);
		if (!strncmp(a, safe_opts[i], n) && (!a[n] || a[n] == '='))
			return true;
	}
	return false;
}

/* Everything the program allocated and kept: freed, state as at start. */
static void reset(void)
{
	int i;

	rp_results_free(&cmp.r);
	for (i = 0; i < cmp.o.nr_allows; i++)
		free((char *)cmp.o.allows[i].glob);
	if (cmp.o.labels[BASE] != opts_initial.labels[BASE])
		free((char *)cmp.o.labels[BASE]);	/* one buffer for both */
	/* The options up to the parameters, which rp_parse() sets afresh. */
	memcpy(&cmp.o, &opts_initial, offsetof(struct compare_opts, allowed_change));
}

/* Split off the text up to the next "\n%%\n" line (or the end). */
static char *section(char **rest)
{
	char *s = *rest, *end;

	if (!s)
		return NULL;
	end = strstr(s, "\n%%\n");
	if (end) {
		*end = '\0';
		*rest = end + 4;
	} else {
		*rest = NULL;
	}
	return s;
}

static bool write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return false;
	fputs(text, f);
	return !fclose(f);
}

int FUZZ_ONE_INPUT(const unsigned char *data, size_t size)
{
	char *s = fuzz_str(data, size), *rest = s, *args, *line, *save, *text;
	char *argv[2 * MAX_FUZZ_ARGS + 2];
	int argc = 1, nfiles = 0, nr_labels = 0, i, k;
	bool skip = false, kcidb_value = false;

	args = section(&rest);
	while (nfiles < MAX_FILES && (text = section(&rest)))
		if (!write_file(file_path[nfiles++], text))
			abort();
	argv[0] = "rcu_perf_compare";
	for (line = strtok_r(args, "\n", &save); line && !skip;
	     line = strtok_r(NULL, "\n", &save)) {
		if (argc >= 2 * MAX_FUZZ_ARGS) {
			skip = true;
		} else if (kcidb_value) {	/* the value of --kcidb */
			argv[argc++] = "-";
			kcidb_value = false;
		} else if (line[0] == '@' && line[1] >= '1' &&
			   line[1] < '1' + nfiles && !line[2]) {
			argv[argc++] = file_path[line[1] - '1'];
		} else if (!strncmp(line, "--kcidb", 7)) {
			argv[argc++] = line[7] == '=' ? "--kcidb=-" : "--kcidb";
			kcidb_value = !line[7];
			skip = line[7] && line[7] != '=';
		} else if (!strncmp(line, "--labels", 8) && nr_labels++) {
			/* a second one leaks the first: no matter in a process */
			skip = true;
		} else if (line[0] == '-' ? !safe_opt(line) :
			   strchr(line, '/') || !strcmp(line, ".") ||
			   !strcmp(line, "..")) {
			skip = true;
		} else {
			argv[argc++] = line;
		}
	}
	argv[argc] = NULL;
	if (!skip) {
		k = setjmp(fuzz_jmp);
		if (!k)
			compare_main(argc, argv);
		/* Only usage and input errors may end it early: exit 2. */
		if (k && k - 1 != 0 && k - 1 != EXIT_USAGE)
			abort();
		fflush(stdout);
		reset();
	}
	for (i = 0; i < nfiles; i++)
		unlink(file_path[i]);
	free(s);
	return 0;
}
