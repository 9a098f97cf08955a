// SPDX-License-Identifier: GPL-2.0
/*
 * The guard (lib/knob.c) on temporary files only: the "knobs" are regular
 * files in a temporary directory, which is also RCU_PERF_STATE_DIR. Every
 * way a guarded program can end is played by a child process (this binary
 * re-executed with "child MODE"), then the parent checks the files.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/magic.h>

#include "kselftest.h"
#include "rcu_perf.h"

#define READY_FD	3

static char dir[256], k1[300], k2[300], k3[300], statedir[300];

static void set_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f)
		ksft_exit_fail_msg("cannot write %s: %s\n", path,
				   strerror(errno));
	fputs(s, f);
	fclose(f);
}

static bool file_is(const char *path, const char *want)
{
	char buf[256];

	if (rp_knob_read(path, buf, sizeof(buf)) < 0)
		return false;
	if (strcmp(buf, want)) {
		ksft_print_msg("%s is '%s', expected '%s'\n", path, buf, want);
		return false;
	}
	return true;
}

static void reset_files(void)
{
	set_file(k1, "orig1\n");
	set_file(k2, "orig2\n");
	set_file(k3, "a [b] c\n");
}

/*
 * k3 reads as a choice list "a [b] c" (like many sysfs files) and is
 * restored by writing the selected word, as a sysfs file expects.
 */
static bool originals(void)
{
	char buf[64];

	if (rp_knob_read(k3, buf, sizeof(buf)) < 0 ||
	    (strcmp(buf, "a [b] c") && strcmp(buf, "b"))) {
		ksft_print_msg("%s is '%s', expected 'b'\n", k3, buf);
		return false;
	}
	return file_is(k1, "orig1") && file_is(k2, "orig2");
}

static int nr_state_files(void)
{
	char cmd[400];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls %s | grep -c '^state\\.'", statedir);
	p = popen(cmd, "r");
	if (p) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* Children                                                            */
/* ------------------------------------------------------------------ */

static void ready(void)
{
	if (write(READY_FD, "r", 1) != 1)
		exit(90);
	close(READY_FD);
}

/* Change all three files; exit code 10+ on a failed expectation. */
static void change_all(void)
{
	if (rp_knob_write(k1, "new1") || rp_knob_write(k2, "new2") ||
	    rp_knob_write(k3, "c"))
		exit(10);
	if (!file_is(k1, "new1") || !file_is(k2, "new2") || !file_is(k3, "c"))
		exit(11);
	if (nr_state_files() != 1)
		exit(12);
}

static char tmp_path[400];

/*
 * A guarded child that forks a grandchild, both asleep; their pids go to
 * <dir>/group.pids.
 */
static void group_children(void)
{
	pid_t child, gc;
	char p[300];
	int pfd[2];
	FILE *f;

	if (pipe(pfd))
		exit(80);
	child = rp_guard_fork();
	if (child < 0)
		exit(81);
	if (!child) {
		gc = fork();
		if (!gc) {
			for (;;)
				pause();
		}
		if (write(pfd[1], &gc, sizeof(gc)) != sizeof(gc))
			_exit(1);
		for (;;)
			pause();
	}
	snprintf(p, sizeof(p), "%s/group.pids", dir);
	f = fopen(p, "w");
	if (!f || read(pfd[0], &gc, sizeof(gc)) != sizeof(gc))
		exit(82);
	fprintf(f, "%d %d\n", (int)child, (int)gc);
	fclose(f);
}

/*
 * A guarded temporary directory with a subtree and a symlink to k3, which
 * must survive its removal; its path goes to <dir>/tmp.path.
 */
static void make_tmp_tree(void)
{
	char p[600];

	if (rp_tmpdir(dir, "tmp", tmp_path, sizeof(tmp_path)))
		exit(60);
	snprintf(p, sizeof(p), "%s/a", tmp_path);
	if (mkdir(p, 0700))
		exit(61);
	snprintf(p, sizeof(p), "%s/a/b", tmp_path);
	if (mkdir(p, 0700))
		exit(62);
	snprintf(p, sizeof(p), "%s/a/b/f", tmp_path);
	set_file(p, "x\n");
	snprintf(p, sizeof(p), "%s/a/k3", tmp_path);
	if (symlink(k3, p))
		exit(63);
	snprintf(p, sizeof(p), "%s/tmp.path", dir);
	set_file(p, tmp_path);
}

static int child(const char *mode)
{
	if (!strcmp(mode, "symlink_state")) {	/* RP_T_ARG: the target */
		char path[400];

		snprintf(path, sizeof(path), "%s/state.%d", statedir,
			 (int)getpid());
		if (rp_guard_init() || symlink(getenv("RP_T_ARG"), path))
			exit(60);
		if (rp_knob_write(k1, "x") >= 0 || !file_is(k1, "orig1"))
			exit(61);
		unlink(path);
		return 0;
	}
	if (!strcmp(mode, "refused")) {	/* the guard refuses every change */
		if (rp_knob_write(k1, "x") >= 0 || !file_is(k1, "orig1"))
			exit(62);
		return 0;
	}
	if (!strcmp(mode, "return")) {
		change_all();
		return 0;
	}
	if (!strcmp(mode, "exit")) {
		change_all();
		exit(7);
	}
	if (!strcmp(mode, "wait")) {	/* killed by the parent */
		change_all();
		ready();
		for (;;)
			pause();
	}
	if (!strcmp(mode, "abort")) {	/* a crashing program */
		change_all();
		abort();
	}
	if (!strcmp(mode, "twice")) {
		/* k2 changed first, then k1 twice: k1's original survives */
		if (rp_knob_write(k2, "x") || rp_knob_write(k1, "y") ||
		    rp_knob_write(k1, "z") || rp_knob_write(k2, "w"))
			exit(10);
		if (!file_is(k1, "z") || !file_is(k2, "w"))
			exit(11);
		return 0;
	}
	if (!strcmp(mode, "idempotent")) {
		change_all();
		rp_guard_restore();
		if (!originals() || nr_state_files() != 0)
			exit(20);
		/* A second restore must not write the originals again. */
		set_file(k1, "other");
		rp_guard_restore();
		rp_guard_restore();
		if (!file_is(k1, "other"))
			exit(21);
		/* Guarding again after a restore works (restored at exit). */
		if (rp_guard_init() || rp_guard_init())
			exit(22);
		if (rp_knob_write(k2, "again") || !file_is(k2, "again"))
			exit(23);
		return 0;
	}
	if (!strcmp(mode, "bad")) {
		char sub[400];

		char link[400];

		/* Not on the list, or not there: refused before any change. */
		if (rp_knob_write("/nonexistent/rcu_perf/knob", "1") != -EPERM ||
		    rp_knob_write("/etc/passwd", "x") != -EPERM)
			exit(30);
		snprintf(sub, sizeof(sub), "%s/absent", dir);
		if (rp_knob_write(sub, "1") != -ENOENT)
			exit(37);
		/* Allowed names reached through a symlink are refused. */
		snprintf(link, sizeof(link), "%s/link", dir);
		if (symlink(k1, link) || rp_knob_write(link, "x") != -ELOOP ||
		    !file_is(k1, "orig1"))
			exit(38);
		snprintf(link, sizeof(link), "%s/dirlink", dir);
		snprintf(sub, sizeof(sub), "%s/dirlink/k1", dir);
		if (symlink(dir, link) || rp_knob_write(sub, "x") != -EPERM)
			exit(39);
		if (rp_knob_write("relative/path", "1") != -EINVAL)
			exit(31);
		if (rp_knob_write(NULL, "1") != -EINVAL ||
		    rp_knob_write(k1, NULL) != -EINVAL)
			exit(32);
		if (rp_knob_write(dir, "1") >= 0)	/* a directory */
			exit(33);
		snprintf(sub, sizeof(sub), "%s/multi", dir);
		set_file(sub, "line1\nline2\n");	/* cannot be restored */
		if (rp_knob_write(sub, "x") != -EINVAL || !file_is(sub, "line1\nline2"))
			exit(34);
		if (rp_knob_read("/nonexistent/rcu_perf", sub, sizeof(sub)) != -ENOENT)
			exit(35);
		/* Nothing was changed, so nothing is recorded. */
		if (nr_state_files() != 0)
			exit(36);
		return 0;
	}
	if (!strcmp(mode, "fork")) {
		pid_t pid;
		int st;

		change_all();
		/* A forked child's exit must not restore its parent's knobs. */
		pid = fork();
		if (!pid)
			exit(0);
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
			exit(40);
		if (!file_is(k1, "new1") || nr_state_files() != 1)
			exit(41);
		/* Nor a child's guarded change the parent's: its own. */
		pid = fork();
		if (!pid) {
			if (rp_knob_write(k1, "grandchild"))
				_exit(1);
			exit(0);	/* restores k1 to "new1" */
		}
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			exit(42);
		if (!file_is(k1, "new1") || nr_state_files() != 1)
			exit(43);
		return 0;
	}
	if (!strcmp(mode, "group")) {	/* children that must die with us */
		group_children();
		ready();
		for (;;)
			pause();
	}
	if (!strcmp(mode, "reaped")) {	/* waited-for children free slots */
		int i, st;

		for (i = 0; i < 300; i++) {
			pid_t pid = rp_guard_fork();

			if (pid < 0)
				exit(70);
			if (!pid)
				_exit(0);
			if (waitpid(pid, &st, 0) != pid)
				exit(71);
			rp_guard_child_done(pid);
		}
		return 0;
	}
	if (!strcmp(mode, "hold")) {	/* hold the lock until killed */
		if (rp_guard_init())
			exit(50);
		ready();
		for (;;)
			pause();
	}
	if (!strcmp(mode, "lock")) {	/* try to get the lock */
		return rp_guard_init() ? 1 : 0;
	}
	if (!strncmp(mode, "tmp", 3)) {	/* a guarded temporary tree */
		make_tmp_tree();
		if (!strcmp(mode, "tmpkeep"))
			rp_tmpdir_keep(tmp_path);
		if (!strcmp(mode, "tmpremove") &&
		    (rp_tmpdir_remove(tmp_path) || !access(tmp_path, F_OK) ||
		     access(k3, F_OK)))
			exit(64);
		if (!strcmp(mode, "tmpwait")) {
			ready();
			for (;;)
				pause();
		}
		return 0;
	}
	return 99;
}

/* ------------------------------------------------------------------ */
/* Parent                                                              */
/* ------------------------------------------------------------------ */

/*
 * Run "this child MODE" with the extra environment assignment env (or
 * NULL) and stdout to out (or inherited). When wait_ready, return once it
 * said ready.
 */
static pid_t spawn(const char *mode, const char *env, const char *out,
		   bool wait_ready)
{
	struct rlimit nocore = { 0, 0 };
	int pfd[2];
	char c;
	pid_t pid;

	if (pipe(pfd))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		close(pfd[0]);
		if (dup2(pfd[1], READY_FD) < 0)
			_exit(91);
		/* SIGQUIT and SIGABRT dump core by default: not here */
		setrlimit(RLIMIT_CORE, &nocore);
		if (env)
			putenv((char *)env);
		if (out) {
			int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
				_exit(92);
		}
		execl("/proc/self/exe", "test_knob", "child", mode, NULL);
		_exit(93);
	}
	close(pfd[1]);
	if (wait_ready && read(pfd[0], &c, 1) != 1)
		ksft_print_msg("child %s did not get ready\n", mode);
	close(pfd[0]);
	return pid;
}

/* Wait for pid; returns its status. */
static int reap(pid_t pid)
{
	int st = -1;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

static bool exited(int st, int code)
{
	if (WIFEXITED(st) && WEXITSTATUS(st) == code)
		return true;
	if (WIFEXITED(st))
		ksft_print_msg("child exit code %d, expected %d\n",
			       WEXITSTATUS(st), code);
	else if (WIFSIGNALED(st))
		ksft_print_msg("child died of signal %d\n", WTERMSIG(st));
	return false;
}

static bool killed_by(int st, int sig)
{
	if (WIFSIGNALED(st) && WTERMSIG(st) == sig)
		return true;
	ksft_print_msg("child status 0x%x, expected death by signal %d\n",
		       st, sig);
	return false;
}

/* Does the last child's temporary directory exist? */
static bool tmp_exists(void)
{
	char p[300], path[400] = "";
	FILE *f;

	snprintf(p, sizeof(p), "%s/tmp.path", dir);
	f = fopen(p, "r");
	if (!f || !fgets(path, sizeof(path), f))
		ksft_print_msg("no %s\n", p);
	if (f)
		fclose(f);
	return path[0] && !access(path, F_OK);
}

static void test_tmpdir(void)
{
	bool ok, left;
	pid_t pid;

	reset_files();
	ok = exited(reap(spawn("tmpdir", NULL, NULL, false)), 0);
	ksft_test_result(ok && !tmp_exists() && file_is(k3, "a [b] c") &&
			 nr_state_files() == 0,
			 "rp_tmpdir: removed with its contents at exit, symlinks not followed\n");
	pid = spawn("tmpwait", NULL, NULL, true);
	kill(pid, SIGKILL);
	ok = killed_by(reap(pid), SIGKILL);
	left = tmp_exists();
	rp_guard_repair();
	ksft_test_result(ok && left && !tmp_exists() && nr_state_files() == 0,
			 "rp_tmpdir: left by SIGKILL, removed by the next run\n");
	ok = exited(reap(spawn("tmpremove", NULL, NULL, false)), 0);
	ksft_test_result(ok && !tmp_exists() && nr_state_files() == 0,
			 "rp_tmpdir_remove: gone at once, nothing left to restore\n");
	ok = exited(reap(spawn("tmpkeep", NULL, NULL, false)), 0);
	ksft_test_result(ok && tmp_exists(), "rp_tmpdir_keep: kept at exit\n");
}

/* Is pid alive (not gone, not a zombie), within a second? */
static bool alive(pid_t pid)
{
	char p[64], buf[256], *c;
	int i;

	for (i = 0; i < 100; i++) {
		snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
		if (rp_knob_read(p, buf, sizeof(buf)) <= 0)
			return false;
		c = strrchr(buf, ')');
		if (c && c[1] == ' ' && c[2] == 'Z')
			return false;
		usleep(10000);
	}
	return true;
}

/* The two pids group_children() wrote, both alive. */
static bool group_alive(pid_t *pids)
{
	char p[300];
	int a = 0, b = 0;
	FILE *f;

	snprintf(p, sizeof(p), "%s/group.pids", dir);
	f = fopen(p, "r");
	if (!f || fscanf(f, "%d %d", &a, &b) != 2)
		a = 0;
	if (f)
		fclose(f);
	pids[0] = a;
	pids[1] = b;
	return a > 1 && b > 1 && alive(a) && alive(b);
}

static void test_group(void)
{
	bool ok, before;
	pid_t pid, pids[2];

	pid = spawn("group", NULL, NULL, true);
	before = group_alive(pids);
	kill(pid, SIGTERM);
	ok = killed_by(reap(pid), SIGTERM);
	ksft_test_result(ok && before && !alive(pids[0]) && !alive(pids[1]) &&
			 nr_state_files() == 0,
			 "rp_guard_fork: child and grandchild killed on SIGTERM\n");
	pid = spawn("group", NULL, NULL, true);
	kill(pid, SIGKILL);
	ok = killed_by(reap(pid), SIGKILL) && group_alive(pids);
	rp_guard_repair();
	ksft_test_result(ok && !alive(pids[0]) && !alive(pids[1]) &&
			 nr_state_files() == 0,
			 "rp_guard_fork: left by SIGKILL, killed by the next run\n");
	ksft_test_result(exited(reap(spawn("reaped", NULL, NULL, false)), 0) &&
			 nr_state_files() == 0,
			 "rp_guard_fork: 300 children waited for, no slot left used\n");
}

static void test_normal_return(void)
{
	reset_files();
	ksft_test_result(exited(reap(spawn("return", NULL, NULL, false)), 0) &&
			 originals() && file_is(k3, "b") &&
			 nr_state_files() == 0,
			 "restore on return from main\n");
}

static void test_exit(void)
{
	reset_files();
	ksft_test_result(exited(reap(spawn("exit", NULL, NULL, false)), 7) &&
			 originals() && nr_state_files() == 0,
			 "restore on exit()\n");
}

static void test_signal(int sig, const char *name)
{
	pid_t pid;
	bool ok;

	reset_files();
	pid = spawn("wait", NULL, NULL, true);
	ok = file_is(k1, "new1");	/* really changed while it ran */
	kill(pid, sig);
	ok = killed_by(reap(pid), sig) && ok;
	ksft_test_result(ok && originals() && nr_state_files() == 0,
			 "restore on %s, then die of it\n", name);
}

static void test_abort(void)
{
	reset_files();
	ksft_test_result(killed_by(reap(spawn("abort", NULL, NULL, false)),
				   SIGABRT) &&
			 originals() && nr_state_files() == 0,
			 "restore on abort(), then die of SIGABRT\n");
}

static void test_sigkill_repair(void)
{
	bool changed, ok;
	pid_t pid;
	int n;

	reset_files();
	pid = spawn("wait", NULL, NULL, true);
	kill(pid, SIGKILL);
	ok = killed_by(reap(pid), SIGKILL);
	changed = file_is(k1, "new1") && file_is(k2, "new2") &&
		  nr_state_files() == 1;
	ksft_test_result(ok && changed, "SIGKILL leaves the changes and the state file\n");
	n = rp_guard_repair();
	ksft_test_result(n == 3 && originals() && nr_state_files() == 0,
			 "rp_guard_repair() restores them (%d) and removes the state file\n",
			 n);
	ksft_test_result(rp_guard_repair() == 0 && originals(),
			 "a second repair finds nothing\n");
}

static void test_twice(void)
{
	reset_files();
	ksft_test_result(exited(reap(spawn("twice", NULL, NULL, false)), 0) &&
			 originals() && nr_state_files() == 0,
			 "same file written twice: its first original restored\n");
}

static void test_idempotent(void)
{
	reset_files();
	ksft_test_result(exited(reap(spawn("idempotent", NULL, NULL, false)), 0) &&
			 file_is(k1, "other") && file_is(k2, "orig2") &&
			 nr_state_files() == 0,
			 "restore is idempotent, init safe to call twice\n");
}

static void test_bad(void)
{
	reset_files();
	ksft_test_result(exited(reap(spawn("bad", NULL, NULL, false)), 0) &&
			 originals(),
			 "bad paths and unguardable files: errors, no change\n");
}

static void test_fork(void)
{
	reset_files();
	ksft_test_result(exited(reap(spawn("fork", NULL, NULL, false)), 0) &&
			 originals() && nr_state_files() == 0,
			 "forked children restore only their own changes\n");
}

static bool file_has(const char *path, const char *needle)
{
	char buf[4096];

	return rp_knob_read(path, buf, sizeof(buf)) >= 0 &&
	       strstr(buf, needle);
}

static void test_lock(void)
{
	char out[300];
	pid_t holder, waiter;
	bool ok;

	snprintf(out, sizeof(out), "%s/lock.out", dir);
	holder = spawn("hold", NULL, NULL, true);
	ok = exited(reap(spawn("lock", "RCU_PERF_LOCK_TIMEOUT=0.3", out,
			       false)), 1);
	ok = ok && file_has(out, "# waiting for ");
	ksft_test_result(ok, "lock held: second program times out\n");

	/* A waiter gets the lock when the holder ends. */
	waiter = spawn("lock", "RCU_PERF_LOCK_TIMEOUT=60", out, false);
	usleep(300000);
	kill(holder, SIGTERM);
	ok = killed_by(reap(holder), SIGTERM);
	ok = exited(reap(waiter), 0) && ok;
	ksft_test_result(ok, "lock: the waiter proceeds once the holder dies\n");

	ok = exited(reap(spawn("lock", "RCU_PERF_LOCK_TIMEOUT=abc", out,
			       false)), 1);
	ksft_test_result(ok, "bad RCU_PERF_LOCK_TIMEOUT is an error\n");
}

/* A dead process's state file: pid of a reaped child. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	reap(pid);
	return pid;
}

static void test_crafted_states(void)
{
	char path[400], line[1400], mnt[300];
	unsigned long long start = 0;
	FILE *f;
	bool mounted;
	int n;

	reset_files();
	/* pid 1 is alive but started at another time: a recycled pid. */
	f = fopen("/proc/1/stat", "r");
	if (f) {
		char buf[1024], *p = NULL;
		int i;

		if (fgets(buf, sizeof(buf), f))
			p = strrchr(buf, ')');
		for (i = 2; p && i < 22; i++)	/* field 22: starttime */
			p = strchr(p + 1, ' ');
		if (p)
			start = strtoull(p + 1, NULL, 10);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/state.1", statedir);
	snprintf(line, sizeof(line), "# rcu_perf guard pid 1 start %llu\n%s\tlive\n",
		 start + 1, k1);
	set_file(path, line);
	n = rp_guard_repair();
	ksft_test_result(n == 1 && file_is(k1, "live") && nr_state_files() == 0,
			 "state file of a recycled pid is repaired\n");

	/* pid 1 with its real start time is a live owner: left alone. */
	snprintf(line, sizeof(line), "# rcu_perf guard pid 1 start %llu\n%s\tnot\n",
		 start, k1);
	set_file(path, line);
	n = rp_guard_repair();
	ksft_test_result(n == 0 && file_is(k1, "live") && nr_state_files() == 1,
			 "state file of a live process is left alone\n");
	unlink(path);

	/* Replay order: reverse; a torn last line is ignored. */
	snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
	mkdir(mnt, 0755);
	mounted = !mount("nodev", mnt, "tracefs", 0, NULL);
	snprintf(path, sizeof(path), "%s/state.%d", statedir, (int)dead_pid());
	snprintf(line, sizeof(line),
		 "# rcu_perf guard pid 0 start 0\n@umount\t%s\n%s\tfirst\n%s\tsecond\n%s\ttorn",
		 mnt, k2, k2, k1);
	set_file(path, line);
	n = rp_guard_repair();
	ksft_test_result(n == 2 && file_is(k2, "first") && file_is(k1, "live") &&
			 nr_state_files() == 0,
			 "replay in reverse order, torn line ignored\n");
	if (!mounted) {
		ksft_test_result_skip("repair unmounts (cannot mount tracefs here)\n");
	} else {
		struct stat a, b;

		/* Unmounted: the directory is on the same device as dir. */
		ksft_test_result(!stat(mnt, &a) && !stat(dir, &b) &&
				 a.st_dev == b.st_dev,
				 "repair unmounts a recorded mount\n");
		umount2(mnt, MNT_DETACH);
	}
	rmdir(mnt);
}

/* The files the suite may change, by their spelling. */
static void test_allowlist(void)
{
	static const char * const yes[] = {
		"/sys/kernel/rcu_expedited",
		"/sys/kernel/rcu_normal",
		"/sys/module/rcutree/parameters/jiffies_till_first_fqs",
		"/sys/module/rcupdate/parameters/rcu_expedited",
		"/sys/kernel/tracing/current_tracer",
		"/sys/kernel/debug/tracing/tracing_on",
		"/sys/devices/system/cpu/cpu0/online",
		"/sys/devices/system/cpu/cpu127/online",
	};
	static const char * const no[] = {
		"", "/", "/etc/passwd", "sys/kernel/rcu_normal",
		"/sys/kernel/rcu_normal/", "/sys/kernel//rcu_normal",
		"/sys/kernel/rcu_expedited2", "/sys/kernel/./rcu_normal",
		"/sys/module/rcutree/parameters/",
		"/sys/module/rcutree/parameters/..",
		"/sys/module/rcutree/parameters/../../../etc/passwd",
		"/sys/module/rcutree/parameters/x/y",
		"/sys/module/rcutorture/parameters/torture_type",
		"/sys/kernel/tracing/trace", "/sys/kernel/tracing/set_event",
		"/sys/kernel/tracing/instances/x/current_tracer",
		"/sys/devices/system/cpu/cpu/online",
		"/sys/devices/system/cpu/cpu01/online",
		"/sys/devices/system/cpu/cpu1/online/x",
		"/sys/devices/system/cpu/cpu1/../cpu2/online",
		"/sys/devices/system/cpu/cpu-1/online",
		"/proc/sys/kernel/core_pattern",
	};
	bool ok = true;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++)
		if (rp_knob_allowed(yes[i])) {
			ksft_print_msg("refused: %s\n", yes[i]);
			ok = false;
		}
	for (i = 0; i < ARRAY_SIZE(no); i++)
		if (rp_knob_allowed(no[i]) != -EPERM) {
			ksft_print_msg("allowed: '%s'\n", no[i]);
			ok = false;
		}
	ksft_test_result(ok && rp_knob_allowed(NULL) == -EPERM,
			 "only the RCU, tracing and hotplug files are allowed\n");
}

/* State files: private, never through a symlink; a shared dir refused. */
static void test_private_state(void)
{
	char path[400], target[400], env[420];
	struct stat st;
	bool ok;
	pid_t pid;

	reset_files();
	pid = spawn("wait", NULL, NULL, true);
	snprintf(path, sizeof(path), "%s/state.%d", statedir, (int)pid);
	ok = !stat(path, &st) && (st.st_mode & 0777) == 0600;
	kill(pid, SIGKILL);
	reap(pid);
	rp_guard_repair();
	ksft_test_result(ok && originals(), "state files are private (0600)\n");

	snprintf(target, sizeof(target), "%s/target", dir);
	set_file(target, "untouched\n");
	snprintf(env, sizeof(env), "RP_T_ARG=%s", target);
	ok = exited(reap(spawn("symlink_state", env, NULL, false)), 0);
	ksft_test_result(ok && file_is(target, "untouched") && originals(),
			 "a symlink at the state file is not followed\n");
	unlink(target);

	if (geteuid()) {
		ksft_test_result_skip("shared state dir refused (not root)\n");
		return;
	}
	chmod(statedir, 0777);
	ok = exited(reap(spawn("refused", NULL, NULL, false)), 0);
	chmod(statedir, 0755);
	ksft_test_result(ok && originals() && nr_state_files() == 0,
			 "as root, a state dir writable by others is refused\n");
}

static void test_cpus(void)
{
	int cpus[1024], one[1], n, i;
	char p[96];
	bool ok;

	n = rp_online_cpus(cpus, 1024);
	ok = n == rp_nr_online_cpus() && n == sysconf(_SC_NPROCESSORS_ONLN);
	for (i = 1; ok && i < n; i++)
		ok = cpus[i] > cpus[i - 1];
	ksft_test_result(ok, "online CPUs: %d\n", n);
	/* Real ids (sysfs has them), and a short array gets the first. */
	for (i = 0; ok && i < n; i++) {
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d", cpus[i]);
		ok = !access(p, F_OK);
	}
	ksft_test_result(ok && n > 0 && rp_online_cpus(one, 1) == 1 &&
			 one[0] == cpus[0],
			 "online CPU ids exist in sysfs, lists truncate\n");
	ksft_test_result(rp_cpu_set_online(-1, true) == -EINVAL &&
			 rp_cpu_set_online(100000, true) == -ENOENT,
			 "rp_cpu_set_online rejects bad CPUs\n");
}

static bool hotpluggable(int cpu)
{
	char p[96];

	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return !access(p, F_OK);
}

/* Is tracefs in /proc/mounts (at /sys/kernel/tracing: *std)? */
static bool tracefs_mounted(bool *std)
{
	char dev[256], dir[512], type[64], line[1024];
	FILE *f = fopen("/proc/mounts", "re");
	bool any = false;

	*std = false;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %511s %63s", dev, dir, type) != 3 ||
		    strcmp(type, "tracefs"))
			continue;
		any = true;
		*std |= !strcmp(dir, "/sys/kernel/tracing");
	}
	if (f)
		fclose(f);
	return any;
}

/*
 * Where tracefs is mounted, rp_tracefs() finds it (the standard place
 * first) and mounts nothing; with none mounted it would mount one at
 * /sys/kernel/tracing through the guard, which t23_tracefs_gone.sh tests
 * live: here the test mounts one of its own in dir instead. Last, as
 * rp_tracefs() keeps its answer.
 */
static void test_tracefs(void)
{
	char mnt[sizeof(dir) + 8];
	bool std, ours = false;
	struct statfs sfs;
	const char *t;

	if (!tracefs_mounted(&std)) {
		snprintf(mnt, sizeof(mnt), "%s/tfs", dir);
		mkdir(mnt, 0755);
		ours = !mount("nodev", mnt, "tracefs", 0, NULL);
	}
	if (!tracefs_mounted(&std)) {
		ksft_test_result_skip("rp_tracefs finds the mounted tracefs: cannot mount one\n");
		return;
	}
	t = rp_tracefs();
	ksft_test_result(t && t == rp_tracefs() && !statfs(t, &sfs) &&
			 sfs.f_type == TRACEFS_MAGIC &&
			 !strcmp(t, std ? "/sys/kernel/tracing" : ours ? mnt : t),
			 "rp_tracefs finds the mounted tracefs: %s\n",
			 t ? t : "(none)");
	if (ours)
		umount2(mnt, MNT_DETACH);
}

/*
 * The CPUs (and bogus ids, which cannot go offline either) that cannot go
 * offline move to the front, in their order; the others keep theirs.
 */
static void test_fixed_first(void)
{
	int cpus[1024], want[1028], got[1028], n, i, k = 0, fixed = 0;
	bool ok;

	n = rp_online_cpus(cpus, 1024);
	got[0] = 100001;
	for (i = n - 1; i >= 0; i--)
		got[n - i] = cpus[i];
	got[n + 1] = 100000;
	for (i = 0; i < n + 2; i++)
		if (got[i] >= 100000 || !hotpluggable(got[i]))
			want[k++] = got[i];
	fixed = k;
	for (i = 0; i < n + 2; i++)
		if (got[i] < 100000 && hotpluggable(got[i]))
			want[k++] = got[i];
	ok = rp_cpus_fixed_first(got, n + 2) == fixed;
	for (i = 0; ok && i < n + 2; i++)
		ok = got[i] == want[i];
	ksft_test_result(ok, "rp_cpus_fixed_first: %d fixed first, stable\n",
			 fixed);
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/rp_test_knob.XXXXXX";
	char cmd[300];

	if (argc == 3 && !strcmp(argv[1], "child")) {
		const char *d = getenv("RP_T_DIR");

		snprintf(dir, sizeof(dir), "%s", d ? d : "/nonexistent");
		snprintf(k1, sizeof(k1), "%s/k1", dir);
		snprintf(k2, sizeof(k2), "%s/k2", dir);
		snprintf(k3, sizeof(k3), "%s/k3", dir);
		snprintf(statedir, sizeof(statedir), "%s/state", dir);
		rp_knob_allow_dir(dir);
		return child(argv[2]);
	}

	ksft_print_header();
	ksft_set_plan(37);
	if (!mkdtemp(tmpl))
		ksft_exit_fail_msg("mkdtemp: %s\n", strerror(errno));
	snprintf(dir, sizeof(dir), "%s", tmpl);
	snprintf(k1, sizeof(k1), "%s/k1", dir);
	snprintf(k2, sizeof(k2), "%s/k2", dir);
	snprintf(k3, sizeof(k3), "%s/k3", dir);
	snprintf(statedir, sizeof(statedir), "%s/state", dir);
	setenv("RP_T_DIR", dir, 1);
	rp_knob_allow_dir(dir);
	setenv("RCU_PERF_STATE_DIR", statedir, 1);
	setenv("RCU_PERF_LOCK_TIMEOUT", "10", 1);
	mkdir(statedir, 0755);

	test_normal_return();
	test_exit();
	test_signal(SIGTERM, "SIGTERM");
	test_signal(SIGINT, "SIGINT");
	test_signal(SIGHUP, "SIGHUP");
	test_signal(SIGQUIT, "SIGQUIT");
	test_abort();
	test_sigkill_repair();
	test_twice();
	test_idempotent();
	test_bad();
	test_fork();
	test_lock();
	test_crafted_states();
	test_cpus();
	test_fixed_first();
	test_tmpdir();
	test_group();
	test_allowlist();
	test_private_state();
	test_tracefs();

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		ksft_print_msg("cannot remove %s\n", dir);
	ksft_finished();
}
