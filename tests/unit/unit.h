/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the unit tests share on top of kselftest_harness.h. The harness
 * already runs every TEST() in a child of its own; but a piece of the
 * library that ends the process (rp_init on bad input, rp_finish,
 * rp_fatal, rp_exit_skip) or prints KTAP of its own must run one level
 * further down, in a grandchild whose stdout, stderr and exit status the
 * test then checks: unit_run(). Its KTAP goes to files, never to the
 * harness's stdout, so that tests/run.sh counts only the harness's lines.
 */
#ifndef RP_UNIT_H
#define RP_UNIT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "internal.h"

/*
 * The harness ends every test with _exit(), which LeakSanitizer's check
 * at exit never sees: under ASan each fixture's teardown asks for it
 * (EXPECT_EQ(0, unit_leaks()): a report, and the test fails).
 */
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#define unit_leaks()	__lsan_do_recoverable_leak_check()
#else
#define unit_leaks()	0
#endif

/*
 * The test's temporary directory, and the last unit_run()'s output: in
 * functions, so that a test that uses none of them does not warn.
 */
#define UNIT_DIR_MAX	256
#define UNIT_OUT_MAX	65536

static inline char *unit_dir_buf(void)
{
	static char dir[UNIT_DIR_MAX];

	return dir;
}

static inline char *unit_out_buf(void)
{
	static char out[UNIT_OUT_MAX];

	return out;
}

static inline char *unit_err_buf(void)
{
	static char err[UNIT_OUT_MAX];

	return err;
}

#define unit_dir	(unit_dir_buf())
#define unit_out	(unit_out_buf())
#define unit_err	(unit_err_buf())

/* Write s to path; 0 or -errno. */
static inline int unit_write(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(s, f);
	return fclose(f) ? -errno : 0;
}

/* Read at most len - 1 bytes of path into buf; empty if it is missing. */
static inline void unit_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

/*
 * Show a captured output as diagnostics: every line behind "# | ", so
 * that its own "ok N" lines are never counted as results of the harness.
 */
static inline void unit_show(const char *what, const char *s)
{
	fprintf(stderr, "# %s:\n# | ", what);
	for (; *s; s++) {
		fputc(*s, stderr);
		if (*s == '\n' && s[1])
			fputs("# | ", stderr);
	}
	fputc('\n', stderr);
}

static inline int unit_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/*
 * HAY contains NEEDLE; on failure the harness names the file, the line
 * and the needle, and the whole of HAY is shown.
 */
static inline bool unit_has(const char *hay, const char *needle)
{
	if (strstr(hay, needle))
		return true;
	fprintf(stderr, "# missing '%s'\n", needle);
	unit_show("in", hay);
	return false;
}

static inline bool unit_lacks(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		return true;
	fprintf(stderr, "# unexpected '%s'\n", needle);
	unit_show("in", hay);
	return false;
}

#define EXPECT_HAS(hay, needle)		EXPECT_TRUE(unit_has(hay, needle))
#define EXPECT_LACKS(hay, needle)	EXPECT_TRUE(unit_lacks(hay, needle))

/* argv from prog and a string of space-separated words (no quoting). */
struct unit_args {
	char buf[2048];
	char *argv[64];
	int argc;
};

static inline void unit_split(struct unit_args *a, const char *prog,
			      const char *args)
{
	char *save, *w;

	snprintf(a->buf, sizeof(a->buf), "%s %s", prog, args);
	a->argc = 0;
	for (w = strtok_r(a->buf, " ", &save); w && a->argc < 63;
	     w = strtok_r(NULL, " ", &save))
		a->argv[a->argc++] = w;
	a->argv[a->argc] = NULL;
}

/* fork(), with nothing buffered that the child would print a second time */
static inline pid_t unit_fork(void)
{
	fflush(stdout);
	fflush(stderr);
	return fork();
}

/*
 * Run fn(arg) in a child with stdout and stderr in unit_out and unit_err;
 * returns its exit status (fn's return value, or what the library exited
 * with), or 128 + the signal that ended it, or -1 if it could not run.
 * The child ends with exit(), so the guard's and the sanitizers' exit
 * handlers run as in a real program.
 */
static inline int unit_run(int (*fn)(void *arg), void *arg)
{
	char po[300], pe[300];
	int status;
	pid_t pid;

	snprintf(po, sizeof(po), "%s/stdout", unit_dir);
	snprintf(pe, sizeof(pe), "%s/stderr", unit_dir);
	pid = unit_fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (!freopen(po, "w", stdout) || !freopen(pe, "w", stderr))
			_exit(99);
		exit(fn(arg));
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	unit_read(po, unit_out, UNIT_OUT_MAX);
	unit_read(pe, unit_err, UNIT_OUT_MAX);
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	       128 + WTERMSIG(status);
}

static inline int unit_rm(const char *path, const struct stat *st, int flag,
			  struct FTW *ftw)
{
	return remove(path);
}

/*
 * A fresh temporary directory in unit_dir, which is also the guard's state
 * dir; no config file, no RCU_PERF_* from the caller's environment beyond
 * those the test sets (each test runs in its own process: what it sets
 * ends with it).
 */
static inline int unit_setup(const char *name)
{
	char **e;

	snprintf(unit_dir, UNIT_DIR_MAX, "/tmp/%s.XXXXXX", name);
	if (!mkdtemp(unit_dir))
		return -errno;
again:
	for (e = environ; *e; e++) {
		if (!strncmp(*e, "RCU_PERF_", 9)) {
			char var[128];

			snprintf(var, sizeof(var), "%.*s",
				 (int)strcspn(*e, "="), *e);
			unsetenv(var);
			goto again;	/* environ changed under us */
		}
	}
	unsetenv("KSFT_TAP_LEVEL");
	setenv("RCU_PERF_CONFIG", "", 1);
	setenv("RCU_PERF_STATE_DIR", unit_dir, 1);
	return 0;
}

/* Never into a mount a test left (a tracefs): FTW_MOUNT. */
static inline void unit_teardown(void)
{
	if (unit_dir[0] &&
	    nftw(unit_dir, unit_rm, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT))
		fprintf(stderr, "# could not remove %s\n", unit_dir);
}

#endif /* RP_UNIT_H */
